/* Tests for merge and hostresults: hostile results files, the streamed merge, a safe summary. */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cJSON.h>

#include "digest.h"
#include "fileio.h"
#include "harness.h"
#include "hostresults.h"
#include "merge.h"

static char tmp[64];

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");

	CHECK(f != NULL);
	if (f == NULL)
		return;
	fputs(text, f);
	fclose(f);
}

/* DIR/<host>/results.json with text, and a done.json listing it with its SHA-256. */
static void make_host(const char *host, const char *results)
{
	char path[512], hex[DIGEST_SHA256_HEX_LEN + 1], done[256];

	snprintf(path, sizeof(path), "%s/%s", tmp, host);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%s/results.json", tmp, host);
	write_file(path, results);
	digest_sha256_hex(results, strlen(results), hex);
	snprintf(done, sizeof(done),
		 "{\"event\":\"done\",\"t\":1,\"status\":0,\"done\":1,\"total\":1,"
		 "\"files\":{\"results.json\":\"%s\"}}\n",
		 hex);
	snprintf(path, sizeof(path), "%s/%s/done.json", tmp, host);
	write_file(path, done);
}

static const char good[] =
    "{\"results\": [{\"command\": \"sudo\", \"mean\": 0.001, \"times\": [0.001, 0.002],\n"
    "  \"parameters\": {\"nb_tasks\": \"1\", \"subject\": \"sudo\"}},\n"
    " {\"command\": \"doas\", \"mean\": 0.002, \"parameters\": {\"nb_tasks\": \"1\"}}],\n"
    " \"meta\": {\"rarbench\": {\"version\": \"0.1.0\"}}}\n";
/* duplicated host keys, one of them escaped, and a result without parameters */
static const char spoof[] = "{\"results\": [{\"command\": \"x\", \"parameters\": "
			    "{\"host\": \"good\", \"nb_tasks\": \"2\", \"ho\\u0073t\": \"x\", "
			    "\"host\": \"y\"}}, {\"command\": \"np\"}]}";
static const char nonobj[] = "{\"results\": [42, null, {\"command\": \"ok\"}, \"s\", []]}";
static const char twoparams[] =
    "{\"results\": [{\"parameters\": {\"a\": \"1\"}, \"parameters\": {\"host\": \"x\"}}]}";

static int check_text(const char *text, struct hostresults_counts *c, struct errbuf *eb)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/check.json", tmp);
	write_file(path, text);
	return hostresults_check(path, c, eb);
}

static void test_check_refuses_hostile_files(void)
{
	struct hostresults_counts c;
	struct errbuf eb = {{0}};
	char path[512];

	CHECK_INT_EQ(check_text(good, &c, &eb), 0);
	CHECK_INT_EQ(c.results, 2);
	CHECK_INT_EQ(check_text(spoof, &c, &eb), 0);
	CHECK_INT_EQ(c.results, 2);
	CHECK_INT_EQ(check_text("{\"results\": []}", &c, &eb), 0);
	CHECK_INT_EQ(c.results, 0);

	CHECK_INT_EQ(check_text("this is not JSON", &c, &eb), -1);
	CHECK_STR_EQ(eb.msg, "not a JSON object");
	CHECK_INT_EQ(check_text("{\"results\": [", &c, &eb), -1);
	CHECK_INT_EQ(check_text("", &c, &eb), -1);
	CHECK_INT_EQ(check_text("{\"rezults\": []}", &c, &eb), -1);
	CHECK_STR_EQ(eb.msg, "no \"results\" array");
	CHECK_INT_EQ(check_text("{\"results\": {}}", &c, &eb), -1);
	CHECK_INT_EQ(check_text("{\"results\": [], \"results\": [{}]}", &c, &eb), -1);
	CHECK_STR_EQ(eb.msg, "more than one \"results\"");
	CHECK_INT_EQ(check_text(nonobj, &c, &eb), -1);
	CHECK_STR_EQ(eb.msg, "result 0 is not an object (and 3 more rejected)");
	CHECK_INT_EQ(c.rejected, 4);
	CHECK_INT_EQ(c.results, 1);
	CHECK_INT_EQ(check_text(twoparams, &c, &eb), -1);
	CHECK_STR_EQ(eb.msg, "result 0 has more than one \"parameters\"");
	CHECK_INT_EQ(check_text("{\"results\": [{\"parameters\": 5}]}", &c, &eb), -1);
	/* A subject whose name walks out of a directory (issue 45 finding 6): never merged. */
	CHECK_INT_EQ(check_text("{\"results\": [{\"parameters\": {\"subject\": "
				"\"../../../../var/tmp/x/pwn-1.0.0\"}}]}",
				&c, &eb),
		     -1);
	CHECK_STR_EQ(eb.msg, "result 0: parameters.subject: holds '/', '..' or a control byte");
	/* a FIFO (or anything else) in the file's place: refused at once, never read */
	snprintf(path, sizeof(path), "%s/fifo.json", tmp);
	CHECK_INT_EQ(mkfifo(path, 0644), 0);
	CHECK_INT_EQ(hostresults_check(path, &c, &eb), -1);
	CHECK_STR_EQ(eb.msg, "not a regular file");
	unlink(path);
}

/* The number of members named key in object o (cJSON keeps duplicates). */
static int count_keys(const cJSON *o, const char *key)
{
	const cJSON *it;
	int n = 0;

	cJSON_ArrayForEach(it, o)
	{
		if (it->string != NULL && strcmp(it->string, key) == 0)
			n++;
	}
	return n;
}

static void test_merge_streams_good_hosts_and_flags_bad_ones(void)
{
	struct merge_host hosts[6] = {
	    {.name = "good"},   {.name = "spoof"},   {.name = "nonobj"},
	    {.name = "nojson"}, {.name = "missing"}, {.name = "liar"},
	};
	struct errbuf eb = {{0}};
	char path[512], *text = NULL;
	cJSON *root, *results, *r;
	size_t len = 0;
	long n;

	make_host("good", good);
	make_host("spoof", spoof);
	make_host("nonobj", nonobj);
	make_host("nojson", "{\"results\": [1, 2");
	for (size_t i = 0; i < 6; i++) {
		hosts[i].status.state = HOSTPOOL_FINISHED;
		hosts[i].status.outcome = HOST_EXEC;
	}
	/* a host the pool calls ok without a complete record is not ok in the end */
	hosts[5].status.outcome = HOST_OK;
	hosts[0].status.outcome = HOST_OK;
	hosts[1].status.outcome = HOST_OK;
	n = merge_results(tmp, "run-1", NULL, hosts, 6, &eb);
	CHECK_INT_EQ(n, 4);
	CHECK_INT_EQ(hosts[0].results, 2);
	CHECK_INT_EQ(hosts[1].results, 2);
	CHECK_INT_EQ(hosts[2].results, 0);
	CHECK(!hosts[0].failed && !hosts[1].failed);
	CHECK_INT_EQ(hosts[0].status.outcome, HOST_OK);
	CHECK(hosts[5].failed);
	CHECK_INT_EQ(hosts[5].status.outcome, HOST_RESULTS);

	snprintf(path, sizeof(path), "%s/merged.json", tmp);
	CHECK_INT_EQ(fileio_read(path, 1 << 20, NULL, &text, &len, &eb), 0);
	root = cJSON_Parse(text);
	CHECK(root != NULL);
	results = cJSON_GetObjectItemCaseSensitive(root, "results");
	CHECK_INT_EQ(cJSON_GetArraySize(results), 4);
	cJSON_ArrayForEach(r, results)
	{
		const cJSON *p = cJSON_GetObjectItemCaseSensitive(r, "parameters");
		CHECK(cJSON_IsObject(r));
		/* exactly one host key, the inventory name */
		CHECK_INT_EQ(count_keys(p, "host"), 1);
		CHECK_INT_EQ(count_keys(r, "parameters"), 1);
	}
	r = cJSON_GetArrayItem(results, 2);
	CHECK_STR_EQ(cJSON_GetObjectItemCaseSensitive(
			 cJSON_GetObjectItemCaseSensitive(r, "parameters"), "host")
			 ->valuestring,
		     "spoof");
	CHECK_STR_EQ(
	    cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(results, 2), "parameters"),
		"nb_tasks")
		->valuestring,
	    "2");
	/* the meta of each merged host, under its name */
	CHECK(cJSON_GetObjectItemCaseSensitive(
		  cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "meta"),
						   "hosts"),
		  "good") != NULL);
	CHECK_STR_EQ(cJSON_GetObjectItemCaseSensitive(
			 cJSON_GetObjectItemCaseSensitive(
			     cJSON_GetObjectItemCaseSensitive(root, "meta"), "rarlab"),
			 "run_id")
			 ->valuestring,
		     "run-1");
	cJSON_Delete(root);
	free(text);
}

/* The hosts' calibration workloads: a top-level "reference" with each one's host, only when some
 * host has one. */
static void test_merge_reference(void)
{
	static const char withref[] =
	    "{\"results\": [{\"command\": \"sudo\", \"mean\": 0.001,"
	    " \"parameters\": {\"nb_tasks\": \"1\", \"subject\": \"sudo\"}}],"
	    " \"reference\": {\"command\": \"rarref 10\", \"units\": 10, \"results\":"
	    " [{\"command\": \"rarref 10\", \"mean\": 0.002, \"parameters\": {\"nb_tasks\": \"1\","
	    " \"host\": \"x\"}}]}}\n";
	struct merge_host hosts[2] = {{.name = "r1"}, {.name = "plain"}};
	struct errbuf eb = {{0}};
	char path[512], *text = NULL;
	const cJSON *ref, *p;
	cJSON *root;
	size_t len = 0;

	make_host("r1", withref);
	make_host("plain", good);
	CHECK_INT_EQ(merge_results(tmp, "run-r", NULL, hosts, 2, &eb), 3);
	snprintf(path, sizeof(path), "%s/merged.json", tmp);
	CHECK_INT_EQ(fileio_read(path, 1 << 20, NULL, &text, &len, &eb), 0);
	root = cJSON_Parse(text);
	CHECK(root != NULL);
	ref = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "reference"),
					       "results");
	CHECK_INT_EQ(cJSON_GetArraySize(ref), 1);
	p = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(ref, 0), "parameters");
	CHECK_INT_EQ(count_keys(p, "host"), 1);
	CHECK_STR_EQ(cJSON_GetObjectItemCaseSensitive(p, "host")->valuestring, "r1");
	CHECK_INT_EQ(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "results")), 3);
	CHECK(cJSON_GetObjectItemCaseSensitive(root, "meta") != NULL);
	cJSON_Delete(root);
	free(text);
	/* no host with a reference: no key */
	CHECK_INT_EQ(merge_results(tmp, "run-r", NULL, hosts + 1, 1, &eb), 2);
	text = NULL;
	CHECK_INT_EQ(fileio_read(path, 1 << 20, NULL, &text, &len, &eb), 0);
	CHECK(strstr(text, "\"reference\"") == NULL);
	root = cJSON_Parse(text);
	CHECK(root != NULL);
	cJSON_Delete(root);
	free(text);
}

static void test_summary_is_safe(void)
{
	struct merge_host hosts[1] = {{.name = "evil"}};
	struct errbuf eb = {{0}};
	char path[512], *text = NULL;
	size_t len = 0, tabs = 0, lines = 0;

	hosts[0].status.state = HOSTPOOL_FINISHED;
	hosts[0].status.outcome = HOST_EXIT;
	hosts[0].status.exit_code = 3;
	/* what a caller might hand over unsanitised: an OSC 52, a tab, a newline */
	snprintf(hosts[0].status.message, sizeof(hosts[0].status.message),
		 "\x1b]52;c;AAAA\x07\tx\ny\xc2\x9b");
	CHECK_INT_EQ(merge_summary(tmp, hosts, 1, NULL, &eb), 0);
	snprintf(path, sizeof(path), "%s/summary.tsv", tmp);
	CHECK_INT_EQ(fileio_read(path, 1 << 20, NULL, &text, &len, &eb), 0);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];
		CHECK(c >= 0x20 || c == '\t' || c == '\n');
		CHECK(c != 0x7f && !(c == 0xc2 && i + 1 < len && text[i + 1] == (char)0x9b));
		tabs += c == '\t';
		lines += c == '\n';
	}
	CHECK_INT_EQ(lines, 2);
	CHECK_INT_EQ(tabs, 16); /* 9 columns */
	CHECK(strstr(text, "\\x1b]52;c;AAAA\\x07\\tx\\ny\\xc2\\x9b") != NULL);
	free(text);
}

int main(void)
{
	snprintf(tmp, sizeof(tmp), "/tmp/rp-test-merge.XXXXXX");
	if (mkdtemp(tmp) == NULL)
		return 1;
	RUN(test_check_refuses_hostile_files);
	RUN(test_merge_streams_good_hosts_and_flags_bad_ones);
	RUN(test_merge_reference);
	RUN(test_summary_is_safe);
	if (harness_remove_tree(tmp) != 0)
		return 1;
	return HARNESS_EXIT();
}
