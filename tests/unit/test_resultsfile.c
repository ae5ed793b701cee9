/* test_resultsfile: the results file's one owner: written, read back, streamed again; its keys,
 * the keys it does not know, and the one-line messages that name the file and the key. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "harness.h"
#include "resultsfile.h"

static char dir[] = "/tmp/test_resultsfile.XXXXXX";

/* A document as rarbench writes one: two results, a reference, a meta, and a key nobody reads. */
static cJSON *sample_doc(void)
{
	cJSON *doc = resultsfile_new(), *ref, *r;

	if (doc == NULL)
		return NULL;
	r = cJSON_Parse("[{\"command\":\"rarref 10\",\"median\":0.0021,\"parameters\":{}}]");
	cJSON_AddItemToArray(
	    resultsfile_results(doc),
	    cJSON_Parse("{\"command\":\"sudo true\",\"mean\":0.5,\"times\":[0.4,0.6],"
			"\"parameters\":{\"subject\":\"sudo\",\"nb_tasks\":\"1\"}}"));
	cJSON_AddItemToArray(
	    resultsfile_results(doc),
	    cJSON_Parse("{\"command\":\"doas true\",\"mean\":0.25,\"stddev\":null,"
			"\"parameters\":{\"subject\":\"doas\",\"nb_tasks\":\"1\"}}"));
	ref = resultsfile_reference_new("rarref 10", 10, r);
	cJSON_AddItemToObject(doc, RESULTSFILE_REFERENCE, ref);
	cJSON_AddItemToObject(doc, RESULTSFILE_META,
			      cJSON_Parse("{\"manifest\":{\"name\":\"t\"}}"));
	cJSON_AddItemToObject(doc, "later_key", cJSON_Parse("{\"from\":\"a later rarbench\"}"));
	return doc;
}

static void path_of(char *buf, size_t cap, const char *name)
{
	CHECK_INT_EQ(fileio_fmt(buf, cap, "%s/%s", dir, name), 0);
}

static void test_new_document_has_an_empty_results_array(void)
{
	cJSON *doc = resultsfile_new(), *arr;

	CHECK(doc != NULL);
	CHECK(cJSON_IsArray(resultsfile_results(doc)));
	CHECK_INT_EQ(cJSON_GetArraySize(resultsfile_results(doc)), 0);
	CHECK_STR_EQ(doc->child->string, RESULTSFILE_RESULTS);
	arr = resultsfile_detach_results(doc);
	CHECK(cJSON_IsArray(arr));
	CHECK(resultsfile_results(doc) == NULL);
	CHECK(resultsfile_detach_results(doc) == NULL);
	cJSON_Delete(arr);
	cJSON_Delete(doc);
}

/* write -> read: the same document, every key in its order. */
static void test_write_then_read_gives_the_same_document(void)
{
	struct errbuf eb = {{0}};
	cJSON *doc = sample_doc(), *back;
	char path[256];

	path_of(path, sizeof(path), "round.json");
	CHECK_INT_EQ(resultsfile_write(path, doc, &eb), 0);
	back = resultsfile_load(path, RESULTSFILE_MAX_BYTES, &eb);
	CHECK(back != NULL);
	if (back == NULL) {
		cJSON_Delete(doc);
		return;
	}
	CHECK(cJSON_Compare(doc, back, 1));
	CHECK(resultsfile_require_results(back, path, &eb) != NULL);
	CHECK_INT_EQ(cJSON_GetArraySize(resultsfile_results(back)), 2);
	CHECK_STR_EQ(back->child->string, RESULTSFILE_RESULTS);
	CHECK_STR_EQ(back->child->next->string, RESULTSFILE_REFERENCE);
	CHECK_STR_EQ(back->child->next->next->string, RESULTSFILE_META);
	cJSON_Delete(back);
	cJSON_Delete(doc);
}

/* hyperfine's layout (serde_json's pretty printer) and a final newline. */
static void test_write_lays_out_like_hyperfine(void)
{
	struct errbuf eb = {{0}};
	cJSON *doc = resultsfile_new();
	char path[256], *text = NULL;
	size_t len = 0;

	path_of(path, sizeof(path), "empty.json");
	CHECK_INT_EQ(resultsfile_write(path, doc, &eb), 0);
	CHECK_INT_EQ(fileio_read(path, 4096, NULL, &text, &len, &eb), 0);
	CHECK_STR_EQ(text, "{\n  \"results\": []\n}\n");
	free(text);
	cJSON_Delete(doc);
}

static void test_write_into_a_missing_directory_names_the_file(void)
{
	struct errbuf eb = {{0}};
	cJSON *doc = resultsfile_new();
	char path[256];

	path_of(path, sizeof(path), "no/such/dir/results.json");
	CHECK_INT_EQ(resultsfile_write(path, doc, &eb), -1);
	CHECK(strstr(eb.msg, "no/such/dir") != NULL);
	cJSON_Delete(doc);
}

static void test_bad_json_names_the_file_and_the_byte(void)
{
	struct errbuf eb = {{0}};
	const char *cut = "{\"results\": [", *trail = "{\"results\": []}  x";

	CHECK(resultsfile_parse(cut, strlen(cut), "r.json", &eb) == NULL);
	CHECK(strncmp(eb.msg, "r.json: not valid JSON (near byte ", 34) == 0);
	CHECK(resultsfile_parse(trail, strlen(trail), "r.json", &eb) == NULL);
	CHECK_STR_EQ(eb.msg, "r.json: not valid JSON (trailing data at byte 17)");
}

/* A file without the key: one line naming the file and the key. */
static void test_missing_results_names_the_file_and_the_key(void)
{
	struct errbuf eb = {{0}};
	const char *text = "{\"meta\": {}, \"user\": 1}";
	cJSON *doc = resultsfile_parse(text, strlen(text), "host1/results.json", &eb);

	CHECK(doc != NULL);
	CHECK(resultsfile_require_results(doc, "host1/results.json", &eb) == NULL);
	CHECK_STR_EQ(eb.msg, "host1/results.json: results: missing (not a hyperfine export)");
	CHECK(strchr(eb.msg, '\n') == NULL);
	CHECK(resultsfile_results(doc) == NULL);
	cJSON_Delete(doc);
	/* not an object at all: missing too */
	doc = cJSON_Parse("[1, 2]");
	CHECK(resultsfile_require_results(doc, "a.json", &eb) == NULL);
	CHECK_STR_EQ(eb.msg, "a.json: results: missing (not a hyperfine export)");
	cJSON_Delete(doc);
}

static void test_results_not_an_array_names_the_file_and_the_key(void)
{
	struct errbuf eb = {{0}};
	cJSON *doc = cJSON_Parse("{\"results\": {\"mean\": 1}}");

	CHECK(resultsfile_require_results(doc, "x.json", &eb) == NULL);
	CHECK_STR_EQ(eb.msg, "x.json: results: not an array");
	CHECK(resultsfile_results(doc) == NULL);
	cJSON_Delete(doc);
}

/* Keys it does not know are neither required nor lost: a reader ignores them, a write keeps them.
 */
static void test_unknown_keys_are_ignored_and_kept(void)
{
	struct errbuf eb = {{0}};
	const char *text =
	    "{\"user\": \"x\", \"results\": [{\"command\": \"c\", \"exit_codes\": [0]}],"
	    " \"future\": {\"a\": [1, 2]}}";
	cJSON *doc = resultsfile_parse(text, strlen(text), "u.json", &eb), *back;
	char path[256];

	CHECK(doc != NULL);
	CHECK(resultsfile_require_results(doc, "u.json", &eb) != NULL);
	CHECK(resultsfile_meta(doc) == NULL);
	CHECK(resultsfile_reference(doc) == NULL);
	path_of(path, sizeof(path), "unknown.json");
	CHECK_INT_EQ(resultsfile_write(path, doc, &eb), 0);
	back = resultsfile_load(path, RESULTSFILE_MAX_BYTES, &eb);
	CHECK(back != NULL && cJSON_Compare(doc, back, 1));
	CHECK(back != NULL && strcmp(back->child->string, "user") == 0);
	cJSON_Delete(back);
	cJSON_Delete(doc);
}

static void test_reference_broken_or_absent(void)
{
	static const struct {
		const char *text;
		int rc;
		const char *msg;
	} cases[] = {
	    {"{\"results\": []}", 0, ""},
	    {"{\"results\": [], \"reference\": 3}", -1, "reference: not an object"},
	    {"{\"results\": [], \"reference\": {}}", -1, "reference.results: missing"},
	    {"{\"results\": [], \"reference\": {\"results\": {}}}", -1,
	     "reference.results: not an array"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct errbuf eb = {{0}};
		cJSON *doc = cJSON_Parse(cases[i].text), sentinel, *arr = &sentinel;

		CHECK_INT_EQ(resultsfile_require_reference_results(doc, &arr, &eb), cases[i].rc);
		CHECK(arr == NULL);
		CHECK_STR_EQ(eb.msg, cases[i].msg);
		CHECK(resultsfile_reference_results(doc) == NULL);
		cJSON_Delete(doc);
	}
}

static void test_reference_object_in_its_order(void)
{
	struct errbuf eb = {{0}};
	cJSON *doc = sample_doc(), *ref = resultsfile_reference(doc), *arr = NULL;

	CHECK(ref != NULL);
	if (ref == NULL)
		return;
	CHECK_STR_EQ(ref->child->string, RESULTSFILE_REFERENCE_COMMAND);
	CHECK_STR_EQ(ref->child->next->string, RESULTSFILE_REFERENCE_UNITS);
	CHECK_STR_EQ(ref->child->next->next->string, RESULTSFILE_RESULTS);
	CHECK_INT_EQ(resultsfile_require_reference_results(doc, &arr, &eb), 0);
	CHECK(arr != NULL && arr == resultsfile_reference_results(doc));
	CHECK_INT_EQ(cJSON_GetArraySize(arr), 1);
	/* no results to adopt: no object, nothing leaked */
	CHECK(resultsfile_reference_new("rarref", 1, NULL) == NULL);
	cJSON_Delete(doc);
}

/* Prints the elements of arr, ",\n" between two, as a streamed rewrite does. */
static void stream_items(FILE *f, const cJSON *arr)
{
	const cJSON *e;
	bool first = true;

	cJSON_ArrayForEach(e, arr)
	{
		char *t = cJSON_PrintUnformatted(e);

		fprintf(f, "%s%s", first ? "" : ",\n", t ? t : "null");
		first = false;
		cJSON_free(t);
	}
}

/* write -> read -> rewrite (streamed, as rarlab's merge does): the same results, reference and
 * meta. */
static void test_streamed_rewrite_reads_back_the_same(void)
{
	struct errbuf eb = {{0}};
	cJSON *doc = sample_doc(), *back, *again;
	char path[256], *text = NULL, *meta;
	size_t len = 0;
	FILE *f;

	path_of(path, sizeof(path), "stream.json");
	CHECK_INT_EQ(resultsfile_write(path, doc, &eb), 0);
	back = resultsfile_load(path, RESULTSFILE_MAX_BYTES, &eb);
	CHECK(back != NULL);
	f = open_memstream(&text, &len);
	CHECK(f != NULL);
	if (back == NULL || f == NULL) {
		cJSON_Delete(doc);
		return;
	}
	fputs(RESULTSFILE_STREAM_BEGIN, f);
	stream_items(f, resultsfile_results(back));
	fputs(RESULTSFILE_STREAM_END_RESULTS, f);
	fputs(RESULTSFILE_STREAM_REFERENCE_OPEN, f);
	stream_items(f, resultsfile_reference_results(back));
	fputs(RESULTSFILE_STREAM_REFERENCE_END, f);
	fputs(RESULTSFILE_STREAM_META_OPEN, f);
	meta = cJSON_PrintUnformatted(resultsfile_meta(back));
	fputs(meta, f);
	cJSON_free(meta);
	fputs(RESULTSFILE_STREAM_END, f);
	fclose(f);
	again = resultsfile_parse(text, len, "merged.json", &eb);
	CHECK(again != NULL);
	CHECK(resultsfile_require_results(again, "merged.json", &eb) != NULL);
	CHECK(cJSON_Compare(resultsfile_results(again), resultsfile_results(doc), 1));
	CHECK(cJSON_Compare(resultsfile_reference_results(again),
			    resultsfile_reference_results(doc), 1));
	CHECK(cJSON_Compare(resultsfile_meta(again), resultsfile_meta(doc), 1));
	CHECK(len > 0 && text[len - 1] == '\n');
	free(text);
	cJSON_Delete(again);
	cJSON_Delete(back);
	cJSON_Delete(doc);
}

static void test_load_of_a_missing_file_names_it(void)
{
	struct errbuf eb = {{0}};
	char path[256];

	path_of(path, sizeof(path), "absent.json");
	CHECK(resultsfile_load(path, RESULTSFILE_MAX_BYTES, &eb) == NULL);
	CHECK(strncmp(eb.msg, path, strlen(path)) == 0);
}

static void test_load_refuses_a_file_over_the_cap(void)
{
	struct errbuf eb = {{0}};
	cJSON *doc = sample_doc();
	char path[256];

	path_of(path, sizeof(path), "big.json");
	CHECK_INT_EQ(resultsfile_write(path, doc, &eb), 0);
	CHECK(resultsfile_load(path, 16, &eb) == NULL);
	CHECK(strstr(eb.msg, "larger than 16 bytes") != NULL);
	cJSON_Delete(doc);
}

int main(void)
{
	int rc;

	if (mkdtemp(dir) == NULL)
		return 2;
	RUN(test_new_document_has_an_empty_results_array);
	RUN(test_write_then_read_gives_the_same_document);
	RUN(test_write_lays_out_like_hyperfine);
	RUN(test_write_into_a_missing_directory_names_the_file);
	RUN(test_bad_json_names_the_file_and_the_byte);
	RUN(test_missing_results_names_the_file_and_the_key);
	RUN(test_results_not_an_array_names_the_file_and_the_key);
	RUN(test_unknown_keys_are_ignored_and_kept);
	RUN(test_reference_broken_or_absent);
	RUN(test_reference_object_in_its_order);
	RUN(test_streamed_rewrite_reads_back_the_same);
	RUN(test_load_of_a_missing_file_names_it);
	RUN(test_load_refuses_a_file_over_the_cap);
	rc = HARNESS_EXIT();
	harness_remove_tree(dir);
	return rc;
}
