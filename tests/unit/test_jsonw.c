/* Tests for jsonw: layout, separators, escaping through cJSON, sticky errors, the buffer sink
 * and its cap, and cJSON trees. */
#include <cjson/cJSON.h>
#include <stdlib.h>

#include "harness.h"
#include "jsonw.h"

/* Runs fn on a writer over a memory stream; returns the text (caller frees) and *rc. */
static char *render(void (*fn)(struct jsonw *), int *rc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	struct jsonw w;

	if (out == NULL)
		return NULL;
	jsonw_init(&w, out);
	fn(&w);
	*rc = jsonw_finish(&w);
	fclose(out);
	return text;
}

static void doc_layout(struct jsonw *w)
{
	jsonw_object_begin(w);
	jsonw_key(w, "a");
	jsonw_uint(w, 18446744073709551615ull);
	jsonw_key(w, "empty");
	jsonw_array_begin(w);
	jsonw_array_end(w);
	jsonw_key(w, "list");
	jsonw_array_begin(w);
	jsonw_bool(w, true);
	jsonw_object_begin(w);
	jsonw_object_end(w);
	jsonw_array_end(w);
	jsonw_object_end(w);
}

static void test_layout_like_serde_pretty(void)
{
	int rc = -1;
	char *text = render(doc_layout, &rc);

	CHECK_INT_EQ(rc, 0);
	CHECK_STR_EQ(text, "{\n  \"a\": 18446744073709551615,\n  \"empty\": [],\n  \"list\": [\n"
			   "    true,\n    {}\n  ]\n}");
	free(text);
}

static const char tricky[] = "q\"b\\s/t\tn\nc\x01 \xc3\xa9";

static void doc_escape(struct jsonw *w)
{
	jsonw_array_begin(w);
	jsonw_string(w, tricky);
	jsonw_string_len(w, "abc", 2);
	jsonw_array_end(w);
}

static void test_escaping_round_trips(void)
{
	int rc = -1;
	char *text = render(doc_escape, &rc);
	cJSON *doc = text != NULL ? cJSON_Parse(text) : NULL;

	CHECK_INT_EQ(rc, 0);
	CHECK(doc != NULL);
	CHECK_STR_EQ(cJSON_GetStringValue(cJSON_GetArrayItem(doc, 0)), tricky);
	CHECK_STR_EQ(cJSON_GetStringValue(cJSON_GetArrayItem(doc, 1)), "ab");
	cJSON_Delete(doc);
	free(text);
}

/* jsonw_quoted_len is what jsonw_string_len writes, for every byte but NUL and for "". */
static void test_quoted_len_matches_writer(void)
{
	char s[4] = "a?b";

	for (int ch = 0; ch < 256; ch++) {
		char *text = NULL;
		size_t len = 0, n = ch == 0 ? 0 : 3;
		FILE *out = open_memstream(&text, &len);
		struct jsonw w;

		CHECK(out != NULL);
		if (out == NULL)
			return;
		s[1] = (char)ch;
		jsonw_init(&w, out);
		jsonw_string_len(&w, ch == 0 ? "" : s, n);
		CHECK_INT_EQ(jsonw_finish(&w), 0);
		fclose(out);
		if (len != jsonw_quoted_len(ch == 0 ? "" : s, n)) {
			fprintf(stderr, "  byte 0x%02x: wrote %zu, computed %zu\n", ch, len,
				jsonw_quoted_len(s, n));
			harness_failed_checks++;
		}
		free(text);
	}
	CHECK_INT_EQ(jsonw_quoted_len(tricky, strlen(tricky)),
		     26); /* four 2-byte escapes, one 6-byte */
}

static void doc_unbalanced(struct jsonw *w)
{
	jsonw_object_begin(w);
	jsonw_key(w, "x");
	jsonw_array_begin(w);
}

static void doc_too_deep(struct jsonw *w)
{
	for (int i = 0; i <= JSONW_DEPTH_MAX; i++)
		jsonw_array_begin(w);
	for (int i = 0; i <= JSONW_DEPTH_MAX; i++)
		jsonw_array_end(w);
}

static void doc_extra_close(struct jsonw *w)
{
	jsonw_array_end(w);
}

static void test_errors_are_sticky(void)
{
	int rc = 0;
	char *text;

	text = render(doc_unbalanced, &rc);
	CHECK_INT_EQ(rc, -1);
	free(text);
	rc = 0;
	text = render(doc_too_deep, &rc);
	CHECK_INT_EQ(rc, -1);
	free(text);
	rc = 0;
	text = render(doc_extra_close, &rc);
	CHECK_INT_EQ(rc, -1);
	free(text);
}

/* The same document written to a buffer is the stream's text. */
static void test_buffer_sink_matches_stream(void)
{
	struct growbuf b;
	struct jsonw w;
	int rc = 0;
	char *text = render(doc_layout, &rc);

	growbuf_init(&b, 1024);
	jsonw_init_buf(&w, &b);
	doc_layout(&w);
	CHECK_INT_EQ(jsonw_finish(&w), 0);
	CHECK_STR_EQ(jsonw_error(&w), "");
	CHECK_STR_EQ(b.data, text);
	growbuf_free(&b);
	free(text);
}

/* The buffer's cap is an error that says why, never a longer text. */
static void test_buffer_cap_fails(void)
{
	struct growbuf b;
	struct jsonw w;

	growbuf_init(&b, 10);
	jsonw_init_buf(&w, &b);
	doc_layout(&w);
	CHECK_INT_EQ(jsonw_finish(&w), -1);
	CHECK_STR_EQ(jsonw_error(&w), "larger than 10 bytes");
	CHECK(b.len <= 10);
	growbuf_free(&b);
}

/* A cJSON tree printed in the writer's layout: keys in order, leaves as cJSON prints them. */
static void test_cjson_tree(void)
{
	static const char in[] = "{\"a\":[1,-2.5,true,null,{},[]],\"b\\n\":{\"c\":\"\\u00e9\\\"\"},"
				 "\"d\":[[{\"e\":0}]]}";
	cJSON *doc = cJSON_Parse(in);
	struct growbuf b;
	struct jsonw w;

	CHECK(doc != NULL);
	growbuf_init(&b, 4096);
	jsonw_init_buf(&w, &b);
	jsonw_cjson(&w, doc);
	CHECK_INT_EQ(jsonw_finish(&w), 0);
	CHECK_STR_EQ(b.data, "{\n"
			     "  \"a\": [\n"
			     "    1,\n"
			     "    -2.5,\n"
			     "    true,\n"
			     "    null,\n"
			     "    {},\n"
			     "    []\n"
			     "  ],\n"
			     "  \"b\\n\": {\n"
			     "    \"c\": \"\xc3\xa9\\\"\"\n"
			     "  },\n"
			     "  \"d\": [\n"
			     "    [\n"
			     "      {\n"
			     "        \"e\": 0\n"
			     "      }\n"
			     "    ]\n"
			     "  ]\n"
			     "}");
	growbuf_free(&b);
	cJSON_Delete(doc);
}

/* A tree nested deeper than the writer follows fails instead of recursing on. */
static void test_cjson_too_deep(void)
{
	cJSON *doc = cJSON_CreateArray(), *at = doc;
	struct growbuf b;
	struct jsonw w;

	for (int i = 0; i < JSONW_DEPTH_MAX + 1 && at != NULL; i++) {
		cJSON *inner = cJSON_CreateArray();

		cJSON_AddItemToArray(at, inner); /* at adopts inner */
		at = inner;
	}
	growbuf_init(&b, 1 << 20);
	jsonw_init_buf(&w, &b);
	jsonw_cjson(&w, doc);
	CHECK_INT_EQ(jsonw_finish(&w), -1);
	CHECK_STR_EQ(jsonw_error(&w), "nested too deep");
	growbuf_free(&b);
	cJSON_Delete(doc);
}

int main(void)
{
	RUN(test_buffer_sink_matches_stream);
	RUN(test_buffer_cap_fails);
	RUN(test_cjson_tree);
	RUN(test_cjson_too_deep);
	RUN(test_layout_like_serde_pretty);
	RUN(test_escaping_round_trips);
	RUN(test_errors_are_sticky);
	RUN(test_quoted_len_matches_writer);
	return HARNESS_EXIT();
}
