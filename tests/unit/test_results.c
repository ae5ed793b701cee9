/* test_results: the hyperfine-format reader on a real hyperfine export, rarbench's and rarlab's
 * files. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "results.h"

#define FIXTURES "tests/fixtures/rarplot/"

static int close_to(double got, double want)
{
	return fabs(got - want) <= 1e-12 * fabs(want) + 1e-15;
}

static struct results *load(const char *path, struct errbuf *eb)
{
	struct results *res = results_new();

	if (res == NULL || results_load_file(res, path, eb) != 0) {
		fprintf(stderr, "  %s\n", eb->msg);
		results_free(res);
		return NULL;
	}
	return res;
}

/* Made with: hyperfine -N --runs 5 --warmup 1 -L nb_tasks 1,2,4 '/usr/bin/seq {nb_tasks}'
 * '/usr/bin/printf %s\n {nb_tasks}' */
static void test_plain_hyperfine(void)
{
	struct errbuf eb = {{0}};
	struct results *res = load(FIXTURES "hyperfine-plain.json", &eb);
	size_t i, seq = 0, printf_n = 0;

	CHECK(res != NULL);
	if (res == NULL)
		return;
	CHECK_INT_EQ(res->n_points, 6);
	CHECK_INT_EQ(res->n_sources, 1);
	for (i = 0; i < res->n_points; i++) {
		const struct results_point *p = &res->points[i];

		seq += strcmp(p->subject, "seq") == 0;
		printf_n += strcmp(p->subject, "printf") == 0;
		CHECK_STR_EQ(p->format, "-");
		CHECK_STR_EQ(p->host, "-");
		CHECK(results_point_param(p, "nb_tasks") != NULL);
		CHECK(results_point_param(p, "subject") == NULL);
		CHECK_INT_EQ(p->n_runs, 5);
		CHECK(p->min_s <= p->q1_s && p->q1_s <= p->median_s);
		CHECK(p->median_s <= p->q3_s && p->q3_s <= p->max_s);
		CHECK(!isnan(p->stddev_s));
	}
	CHECK_INT_EQ(seq, 3);
	CHECK_INT_EQ(printf_n, 3);
	CHECK_STR_EQ(res->points[0].command, "/usr/bin/seq 1");
	CHECK_STR_EQ(results_point_param(&res->points[4], "nb_tasks"), "4");
	results_free(res);
}

static void test_rarbench(void)
{
	struct errbuf eb = {{0}};
	struct results *res = load(FIXTURES "rarbench-results.json", &eb);
	const struct results_point *p;

	CHECK(res != NULL);
	if (res == NULL)
		return;
	CHECK_INT_EQ(res->n_points, 3);
	p = &res->points[0];
	CHECK_STR_EQ(p->subject, "sudo");
	CHECK_STR_EQ(p->format, "sudoers");
	CHECK_STR_EQ(p->host, "-");
	CHECK(close_to(p->mean_s, 0.0032));
	CHECK(close_to(p->median_s, 0.00318));
	CHECK(close_to(p->q1_s, 0.0031));
	CHECK(close_to(p->q3_s, 0.0033));
	p = &res->points[1];
	CHECK_STR_EQ(p->subject, "doas");
	CHECK(isnan(p->stddev_s));
	CHECK_STR_EQ(results_point_param(p, "repetition"), "2");
	CHECK_INT_EQ(p->n_runs, 1);
	p = &res->points[2];
	/* parameters.subject wins over the command's program name */
	CHECK_STR_EQ(p->subject, "sr-cbor");
	CHECK_STR_EQ(p->format, "rar-cbor");
	CHECK(isnan(p->q1_s));
	CHECK_STR_EQ(results_point_param(p, "nb_roles"), "2");
	CHECK_INT_EQ(p->index, 2);
	results_free(res);
}

static void test_rarlab_merged_and_two_files(void)
{
	struct errbuf eb = {{0}};
	struct results *res = load(FIXTURES "rarlab-merged.json", &eb);

	CHECK(res != NULL);
	if (res == NULL)
		return;
	CHECK_INT_EQ(res->n_points, 2);
	CHECK_STR_EQ(res->points[0].host, "lab1");
	CHECK_STR_EQ(res->points[1].host, "lab2");
	CHECK_INT_EQ(results_load_file(res, FIXTURES "rarbench-results.json", &eb), 0);
	CHECK_INT_EQ(res->n_points, 5);
	CHECK_INT_EQ(res->n_sources, 2);
	CHECK_INT_EQ(res->points[4].source, 1);
	CHECK_STR_EQ(res->sources[1], FIXTURES "rarbench-results.json");
	results_free(res);
}

static void expect_error(const char *json, const char *needle)
{
	struct errbuf eb = {{0}};
	struct results *res = results_new();

	CHECK_INT_EQ(results_parse(res, json, strlen(json), "in.json", &eb), -1);
	CHECK_INT_EQ(res->n_points, 0);
	if (strstr(eb.msg, needle) == NULL || strncmp(eb.msg, "in.json: ", 9) != 0)
		fprintf(stderr, "  message \"%s\" lacks \"%s\"\n", eb.msg, needle);
	CHECK(strstr(eb.msg, needle) != NULL);
	CHECK(strncmp(eb.msg, "in.json: ", 9) == 0);
	CHECK(strchr(eb.msg, '\n') == NULL);
	results_free(res);
}

#define ENTRY_OK "\"command\":\"a b\",\"mean\":1,\"stddev\":0,\"median\":1,\"min\":1,\"max\":1"

static void test_errors(void)
{
	expect_error("{\"results\": [", "not valid JSON");
	expect_error("[]", "not a JSON object");
	expect_error("{\"meta\":{}}", "results: missing");
	expect_error("{\"results\":{}}", "results: not an array");
	expect_error("{\"results\":[]}", "results: empty");
	expect_error("{\"results\":[{" ENTRY_OK "}, 3]}", "results[1]: not an object");
	expect_error("{\"results\":[{\"command\":\"x\",\"mean\":\"1\"}]}",
		     "results[0]: mean: expected a number, got a string");
	expect_error("{\"results\":[{\"command\":\"x\",\"mean\":1,\"median\":1,\"min\":1}]}",
		     "results[0]: max: missing");
	expect_error("{\"results\":[{" ENTRY_OK ",\"parameters\":{\"nb_tasks\":3}}]}",
		     "parameters.nb_tasks: not a string");
	expect_error("{\"results\":[{" ENTRY_OK ",\"times\":[1,\"x\"]}]}", "times[1]");
	expect_error("{\"results\":[{\"command\":\"x\",\"mean\":-1}]}",
		     "mean: -1 is out of range (0 to inf)");
	expect_error("{\"results\":[{\"command\":\"   \",\"mean\":1,\"stddev\":0,\"median\":1,"
		     "\"min\":1,\"max\":1}]}",
		     "command");
	expect_error("{\"results\":[{" ENTRY_OK "}]}  trailing", "not valid JSON");
	expect_error("{\"results\":[{" ENTRY_OK ",\"parameters\":{\"subject\":\"a\\nb\"}}]}",
		     "control character");
	expect_error("{\"results\":[{" ENTRY_OK ",\"parameters\":{\"nb\\tx\":\"1\"}}]}",
		     "control character");
	/* what the sanitiser would escape is refused too: C1 (the 8-bit CSI, as UTF-8 and as a
	 * raw byte), a bidi override, invalid UTF-8 */
	expect_error("{\"results\":[{" ENTRY_OK ",\"parameters\":{\"host\":\"a\\u009b31m\"}}]}",
		     "parameters.<key>: control character or invalid UTF-8 at byte 1");
	expect_error("{\"results\":[{" ENTRY_OK ",\"parameters\":{\"host\":\"a\x9b\"}}]}",
		     "control character or invalid UTF-8 at byte 1");
	expect_error("{\"results\":[{" ENTRY_OK ",\"parameters\":{\"subject\":\"ab\\u202ec\"}}]}",
		     "at byte 2");
	expect_error("{\"results\":[{\"command\":\"x\xe2\x80\xae y\",\"mean\":1,\"median\":1,"
		     "\"min\":1,\"max\":1}]}",
		     "command: control character or invalid UTF-8");
	/* Issue 45 finding 6: a subject names rarplot's files, so it cannot walk out of -o. */
	expect_error("{\"results\":[{" ENTRY_OK ",\"parameters\":{\"subject\":"
		     "\"../../../../var/tmp/x/pwn-1.0.0\"}}]}",
		     "results[0]: parameters.subject: holds '/', '..' or a control byte");
	expect_error("{\"results\":[{" ENTRY_OK ",\"parameters\":{\"subject\":\"a/b\"}}]}",
		     "parameters.subject: holds '/'");
	expect_error("{\"results\":[{" ENTRY_OK ",\"parameters\":{\"subject\":\"..\"}}]}",
		     "parameters.subject: holds '/'");
	expect_error("{\"results\":[{\"command\":\"/bin/.. y\",\"mean\":1,\"median\":1,"
		     "\"min\":1,\"max\":1}]}",
		     "command: holds '/', '..'");
}

/* head, then "0," repeated to about size bytes, then "0" and tail, in a new heap string. */
static char *zeros(const char *head, size_t size, const char *tail)
{
	size_t h = strlen(head), t = strlen(tail), n = size / 2, k;
	char *s = malloc(h + 2 * n + 1 + t + 1);

	if (s == NULL)
		return NULL;
	memcpy(s, head, h);
	for (k = 0; k < n; k++)
		memcpy(s + h + 2 * k, "0,", 2);
	s[h + 2 * n] = '0';
	memcpy(s + h + 2 * n + 1, tail, t + 1);
	return s;
}

/*
 * A file whose tree would pass 4 times its size and 32 MiB is refused before cJSON builds it,
 * with one line naming the file (issue 52, finding 7: a 32 MiB {"results":[0,0,...]} took
 * rarplot to 1.35 GB, 40 times its size): 1 MiB of zeros (40 MiB as a tree) as the results,
 * as one result's times, in meta, and unbalanced; a real file's shape passes.
 */
static void test_memory_bound(void)
{
	static const char *const hostile[][2] = {
	    {"{\"results\":[", "]}"},
	    {"{\"results\":[{" ENTRY_OK ",\"times\":[", "]}]}"},
	    {"{\"meta\":[", "],\"results\":[{" ENTRY_OK "}]}"},
	    {"{\"results\":[", ""},
	};
	const size_t mib = 1024 * 1024;

	for (size_t i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		char *doc = zeros(hostile[i][0], mib, hostile[i][1]);
		struct results *res = results_new();
		struct errbuf eb = {{0}};

		CHECK(doc != NULL && res != NULL);
		if (doc != NULL && res != NULL) {
			CHECK_INT_EQ(results_parse(res, doc, strlen(doc), "big.json", &eb), -1);
			if (strncmp(eb.msg, "big.json: refused: reading it would take about ",
				    47) != 0 ||
			    strstr(eb.msg, "more than 4 times its 1.0 MiB and 32 MiB") == NULL) {
				fprintf(stderr, "  case %zu: %s\n", i, eb.msg);
				CHECK(0);
			}
			CHECK_INT_EQ(res->n_points, 0);
		}
		results_free(res);
		free(doc);
	}
	/* The same size as many results of 1000 times each, as rarbench writes them: read. */
	{
		size_t n = 0, cap = 2 * mib;
		char *doc = malloc(cap);
		struct results *res = results_new();
		struct errbuf eb = {{0}};

		CHECK(doc != NULL && res != NULL);
		if (doc != NULL && res != NULL) {
			n += (size_t)snprintf(doc + n, cap - n, "{\"results\":[");
			for (size_t r = 0; r < 100; r++) {
				n += (size_t)snprintf(doc + n, cap - n,
						      "%s{" ENTRY_OK ",\"times\":[", r ? "," : "");
				for (size_t k = 0; k < 1000; k++)
					n += (size_t)snprintf(doc + n, cap - n, "%s0.00%03zu",
							      k ? "," : "", k);
				n += (size_t)snprintf(doc + n, cap - n, "]}");
			}
			n += (size_t)snprintf(doc + n, cap - n, "]}");
			CHECK(n < cap);
			CHECK_INT_EQ(results_parse(res, doc, n, "real.json", &eb), 0);
			CHECK_STR_EQ(eb.msg, "");
			CHECK_INT_EQ(res->n_points, 100);
		}
		results_free(res);
		free(doc);
	}
}

/* The 95 % intervals: the median's from the times, the mean's from stddev, rarbench's own. */
static void test_intervals(void)
{
	static const char doc[] =
	    "{\"results\":[{\"command\":\"a\",\"mean\":5.5,\"stddev\":3.0276503540974917,"
	    "\"median\":5.5,\"min\":1,\"max\":10,\"times\":[10,9,8,7,6,5,4,3,2,1],"
	    "\"nivcsw\":[0,0,0,0,0,0,0,0,0,1],\"rarbench\":{\"estimator\":\"median\","
	    "\"estimate\":5,\"ci95\":[4,6],\"runs_used\":9}},"
	    "{\"command\":\"b\",\"mean\":1,\"stddev\":null,\"median\":1,\"min\":1,\"max\":1,"
	    "\"times\":[1],\"rarbench\":{\"estimator\":\"min\",\"estimate\":1,\"ci95\":[null,null]}"
	    "},"
	    "{\"command\":\"c\",\"mean\":1,\"stddev\":0,\"median\":1,\"min\":1,\"max\":1}]}";
	struct errbuf eb = {{0}};
	struct results *res = results_new();
	const struct results_point *p;

	CHECK_INT_EQ(results_parse(res, doc, strlen(doc), "in.json", &eb), 0);
	CHECK_INT_EQ(res->n_points, 3);
	if (res->n_points == 3) {
		p = &res->points[0];
		/* n = 10: order statistics 2 and 9; t(9) = 2.2622 */
		CHECK(p->median_lo_s == 2 && p->median_hi_s == 9);
		CHECK(close_to(p->mean_hi_s - 5.5, 2.2622 * 3.0276503540974917 / sqrt(10.0)));
		CHECK(p->estimate_s == 5 && p->estimate_lo_s == 4 && p->estimate_hi_s == 6);
		CHECK_STR_EQ(p->estimator, "median");
		p = &res->points[1];
		CHECK(isnan(p->median_lo_s) && isnan(p->mean_lo_s) && isnan(p->estimate_lo_s));
		CHECK(p->estimate_s == 1);
		CHECK_STR_EQ(p->estimator, "min");
		/* hyperfine's own result: no estimate */
		p = &res->points[2];
		CHECK(isnan(p->estimate_s) && p->estimator[0] == '\0');
	}
	results_free(res);
	expect_error("{\"results\":[{" ENTRY_OK ",\"rarbench\":[]}]}", "rarbench: not an object");
	expect_error("{\"results\":[{" ENTRY_OK ",\"rarbench\":{\"estimator\":\"median\","
		     "\"estimate\":1,\"ci95\":[2,1]}}]}",
		     "rarbench.ci95: not an interval");
	expect_error("{\"results\":[{" ENTRY_OK
		     ",\"rarbench\":{\"estimator\":\"a\\tb\",\"estimate\":1,"
		     "\"ci95\":[1,1]}}]}",
		     "rarbench.estimator");
	expect_error("{\"results\":[{" ENTRY_OK ",\"rarbench\":{\"estimate\":-1}}]}",
		     "rarbench.estimate: -1 is out of range (0 to inf)");
}

static void test_unreadable_file(void)
{
	struct errbuf eb = {{0}};
	struct results *res = results_new();

	CHECK_INT_EQ(results_load_file(res, FIXTURES "no-such-file.json", &eb), -1);
	CHECK(strstr(eb.msg, "no-such-file.json") != NULL);
	CHECK(strstr(eb.msg, "No such file") != NULL);
	results_free(res);
}

static void test_subject_from_command(void)
{
	const char *json = "{\"results\":[{\"command\":\"bin/sudo /usr/bin/true\",\"mean\":1,"
			   "\"stddev\":null,\"median\":1,\"min\":1,\"max\":1},"
			   "{\"command\":\"sr\",\"mean\":1,\"median\":1,\"min\":1,\"max\":1}]}";
	struct errbuf eb = {{0}};
	struct results *res = results_new();

	CHECK_INT_EQ(results_parse(res, json, strlen(json), "x", &eb), 0);
	CHECK_INT_EQ(res->n_points, 2);
	if (res->n_points == 2) {
		CHECK_STR_EQ(res->points[0].subject, "sudo");
		CHECK_STR_EQ(res->points[1].subject, "sr");
		CHECK(isnan(res->points[1].stddev_s));
	}
	results_free(res);
}

/* rarbench.daemon (pkexec's polkitd): read per point; absent elsewhere; a name that is not a
 * short name, or a missing number, refused with the key named. */
static void test_daemon(void)
{
#define DAEMON_DOC(d)                                                                              \
	"{\"results\":[{\"command\":\"pkexec\",\"mean\":0.008,\"median\":0.008,\"min\":0.007,"     \
	"\"max\":0.009,\"rarbench\":{\"estimate\":0.008,\"ci95\":[null,null],"                     \
	"\"estimator\":\"median\"" d "}},{\"command\":\"sudo\",\"mean\":1,\"median\":1,"           \
	"\"min\":1,\"max\":1}]}"
	const char *good =
	    DAEMON_DOC(",\"daemon\":{\"name\":\"polkitd\",\"cpu_ns\":12000000,"
		       "\"runs\":12,\"cpu_ns_per_run\":1000000,\"maxrss_kib\":8648}");
	const char *bad_name = DAEMON_DOC(",\"daemon\":{\"name\":\"a b\",\"cpu_ns_per_run\":1,"
					  "\"maxrss_kib\":1}");
	const char *no_cpu = DAEMON_DOC(",\"daemon\":{\"name\":\"polkitd\",\"maxrss_kib\":1}");
	struct errbuf eb = {{0}};
	struct results *res = results_new();

	CHECK_INT_EQ(results_parse(res, good, strlen(good), "d.json", &eb), 0);
	CHECK_INT_EQ(res->n_points, 2);
	if (res->n_points == 2) {
		CHECK_STR_EQ(res->points[0].daemon_name, "polkitd");
		CHECK(fabs(res->points[0].daemon_cpu_s - 0.001) < 1e-12);
		CHECK(fabs(res->points[0].daemon_maxrss_kib - 8648) < 1e-9);
		CHECK_STR_EQ(res->points[1].daemon_name, "");
		CHECK(isnan(res->points[1].daemon_cpu_s));
	}
	results_free(res);
	res = results_new();
	CHECK_INT_EQ(results_parse(res, bad_name, strlen(bad_name), "d.json", &eb), -1);
	CHECK(strstr(eb.msg, "rarbench.daemon.name") != NULL);
	results_free(res);
	res = results_new();
	CHECK_INT_EQ(results_parse(res, no_cpu, strlen(no_cpu), "d.json", &eb), -1);
	CHECK(strstr(eb.msg, "cpu_ns_per_run") != NULL);
	results_free(res);
#undef DAEMON_DOC
}

static struct results *parse_doc(const char *json)
{
	struct errbuf eb = {{0}};
	struct results *res = results_new();

	if (res != NULL && results_parse(res, json, strlen(json), "m.json", &eb) != 0) {
		fprintf(stderr, "  %s\n", eb.msg);
		results_free(res);
		return NULL;
	}
	return res;
}

#define POINT(subject, est)                                                                        \
	"{\"command\":\"c\",\"mean\":1,\"median\":1,\"min\":1,\"max\":1,\"parameters\":{"          \
	"\"subject\":\"" subject "\"}" est "}"
#define EST(name) ",\"rarbench\":{\"estimator\":\"" name "\",\"estimate\":1,\"ci95\":[1,1]}"

/* The estimator and the contended runs' treatment: from the meta, else the results, else unknown.
 */
static void test_method(void)
{
	struct results *res;
	struct errbuf eb = {{0}};
	static const char current[] = "{\"results\":[" POINT(
	    "sudo", EST("median")) "],\"meta\":{\"measure\":{"
				   "\"estimator\":\"median\",\"contended\":\"correct\"}}}";
	static const char older[] =
	    "{\"results\":[" POINT("sudo", EST("median")) "],\"meta\":{\"measure\":{\"estimator\":"
							  "\"median\",\"drop_contended\":true}}}";

	res = parse_doc(current);
	CHECK(res != NULL);
	if (res != NULL) {
		CHECK_STR_EQ(res->estimator, "median");
		CHECK_STR_EQ(res->contended, "correct");
		/* a second file that agrees changes nothing; one that differs makes it mixed */
		CHECK_INT_EQ(results_parse(res, current, strlen(current), "b.json", &eb), 0);
		CHECK_STR_EQ(res->contended, "correct");
		CHECK_INT_EQ(results_parse(res, older, strlen(older), "c.json", &eb), 0);
		CHECK_STR_EQ(res->estimator, "median");
		CHECK_STR_EQ(res->contended, RESULTS_MIXED);
	}
	results_free(res);
	/* What judged the runs contended: the file's own judge; before the key, the off-CPU one;
	 * two files that differ, mixed; hyperfine's own (no meta), nothing. */
	res =
	    parse_doc("{\"results\":[" POINT("sudo", "") "],\"meta\":{\"environment\":{"
							 "\"contention_source\":\"schedstat\"}}}");
	CHECK(res != NULL);
	if (res != NULL) {
		CHECK_STR_EQ(res->contention_source, "schedstat");
		CHECK_INT_EQ(results_parse(res, current, strlen(current), "b.json", &eb), 0);
		CHECK_STR_EQ(res->contention_source, RESULTS_MIXED);
	}
	results_free(res);
	res = parse_doc(current);
	CHECK(res != NULL && strcmp(res->contention_source, "off-cpu") == 0);
	results_free(res);
	res = parse_doc("{\"results\":[" POINT("sudo", "") "]}");
	CHECK(res != NULL && res->contention_source[0] == '\0');
	results_free(res);
	/* rarbench before "contended": drop_contended */
	res = parse_doc(older);
	CHECK(res != NULL && strcmp(res->contended, "drop") == 0);
	results_free(res);
	/* no meta: the estimator the results carry, the contended runs unknown */
	res = parse_doc(
	    "{\"results\":[" POINT("sudo", EST("trimmed")) "," POINT("doas", EST("trimmed")) "]}");
	CHECK(res != NULL);
	if (res != NULL) {
		CHECK_STR_EQ(res->estimator, "trimmed");
		CHECK_STR_EQ(res->contended, RESULTS_UNKNOWN);
	}
	results_free(res);
	/* hyperfine's own: nothing known; a meta saying something odd: unknown, not echoed */
	res = parse_doc(
	    "{\"results\":[" POINT("sudo", "") "],\"meta\":{\"measure\":{"
					       "\"estimator\":\"<b>x</b>\",\"contended\":7}}}");
	CHECK(res != NULL);
	if (res != NULL) {
		CHECK_STR_EQ(res->estimator, RESULTS_UNKNOWN);
		CHECK_STR_EQ(res->contended, RESULTS_UNKNOWN);
	}
	results_free(res);
	/* a rarlab merged.json: each host's meta */
	res = parse_doc("{\"results\":[" POINT(
	    "sudo", "") "],\"meta\":{\"hosts\":{"
			"\"a\":{\"measure\":{\"estimator\":\"mean\",\"contended\":\"keep\"}},"
			"\"b\":{\"measure\":{\"estimator\":\"min\",\"contended\":\"keep\"}}}}}");
	CHECK(res != NULL);
	if (res != NULL) {
		CHECK_STR_EQ(res->estimator, RESULTS_MIXED);
		CHECK_STR_EQ(res->contended, "keep");
	}
	results_free(res);
}

static void test_subjects(void)
{
	struct results *res = parse_doc("{\"results\":[" POINT("sudo", "") "," POINT(
	    "doas", "") "," POINT("sudo", "") "," POINT("sr-cbor", "") "]}");
	char buf[64];

	CHECK(res != NULL);
	if (res == NULL)
		return;
	CHECK(results_has_subject(res, "doas"));
	CHECK(!results_has_subject(res, "sud"));
	results_subjects(res, buf, sizeof(buf));
	CHECK_STR_EQ(buf, "sudo, doas, sr-cbor");
	/* a list that does not fit ends with ", ..." */
	results_subjects(res, buf, 17);
	CHECK_STR_EQ(buf, "sudo, doas, ...");
	results_subjects(res, buf, 6);
	CHECK_STR_EQ(buf, "...");
	results_free(res);
}

/* A swept limit's points form one series per value; the tool, with its PAM, from the meta. */
static void test_limit_series_and_pam(void)
{
	struct results *res = parse_doc(
	    "{\"meta\":{\"manifest\":{\"subjects\":[{\"id\":\"sudo-pam\",\"format\":\"sudoers\","
	    "\"program\":\"{prefix}/bin/sudo-pam\"},{\"id\":\"doas\",\"format\":\"doas\"},"
	    "{\"id\":\"sr4\",\"format\":\"rar-cbor\",\"rar_version\":\"4.0.3\"}]},"
	    "\"prefix_facts\":{\"tools\":{\"sudo-pam\":{\"version\":\"1.9.13p3\",\"pam\":true},"
	    "\"dosr-cbor\":{\"version\":\"3.3.4\",\"pam\":false},"
	    "\"dosr-4.0.3-cbor\":{\"version\":\"4.0.3\",\"pam\":true},"
	    "\"doas\":{\"version\":\"6.8.2\",\"pam\":false}}}},\"results\":["
	    "{\"command\":\"c\",\"mean\":1,\"median\":1,\"min\":1,\"max\":1,\"parameters\":{"
	    "\"subject\":\"sudo-pam\",\"limit.nofile\":\"65536\"}},"
	    "{\"command\":\"c\",\"mean\":1,\"median\":1,\"min\":1,\"max\":1,\"parameters\":{"
	    "\"subject\":\"doas\"}}]}");

	CHECK(res != NULL);
	if (res == NULL)
		return;
	CHECK_STR_EQ(res->points[0].subject, "sudo-pam (nofile 65536)");
	CHECK_STR_EQ(res->points[1].subject, "doas");
	CHECK_STR_EQ(results_tool(res, "sudo-pam (nofile 65536)"), "sudo 1.9.13p3, PAM");
	CHECK_STR_EQ(results_tool(res, "sudo-pam"), "sudo 1.9.13p3, PAM");
	CHECK_STR_EQ(results_tool(res, "doas"), "OpenDoas 6.8.2, no PAM");
	CHECK(results_tool(res, "sudo") == NULL);
	/* A subject given by its RootAsRole version alone: that version's build. */
	CHECK_STR_EQ(results_tool(res, "sr4"), "RootAsRole 4.0.3, PAM");
	CHECK(results_has_subject(res, "sudo-pam"));
	CHECK(!results_has_subject(res, "sudo"));
	results_free(res);
}

/* Which subjects are one tool (issue 55: "sudo-rs +56 % (regressed)" against sudo): a tool's PAM
 * build, its dev build and its other versions are; sudo-rs and sudo are not; unknown: neither. */
static void test_different_tools(void)
{
	struct results *res = parse_doc(
	    "{\"meta\":{\"manifest\":{\"subjects\":["
	    "{\"id\":\"sudo\",\"format\":\"sudoers\"},"
	    "{\"id\":\"sudo-pam\",\"format\":\"sudoers\",\"program\":\"{prefix}/bin/sudo-pam\"},"
	    "{\"id\":\"sudo-dev\",\"format\":\"sudoers\",\"program\":\"{prefix}/bin/sudo-dev-x\"},"
	    "{\"id\":\"sudo-rs\",\"format\":\"sudoers\",\"program\":\"{prefix}/bin/sudo-rs\"},"
	    "{\"id\":\"doas\",\"format\":\"doas\"},"
	    "{\"id\":\"doas-dev\",\"format\":\"doas\",\"program\":\"{prefix}/bin/doas-dev-x\"},"
	    "{\"id\":\"sr-cbor\",\"format\":\"rar-cbor\"},"
	    "{\"id\":\"sr4\",\"format\":\"rar-cbor\",\"rar_version\":\"4.0.3\"},"
	    "{\"id\":\"sr-dev\",\"format\":\"rar-cbor\",\"program\":\"{prefix}/bin/dosr-dev\"},"
	    "{\"id\":\"mystery\",\"format\":\"sudoers\",\"program\":\"{prefix}/bin/mystery\"}]},"
	    "\"prefix_facts\":{\"tools\":{\"sudo\":{\"version\":\"1.9.13p3\"},"
	    "\"sudo-pam\":{\"version\":\"1.9.13p3\",\"pam\":true},"
	    "\"sudo-dev-x\":{\"version\":\"1.9.17\"},\"sudo-rs\":{\"version\":\"0.2.8\"},"
	    "\"doas\":{\"version\":\"6.8.2\"},\"doas-dev-x\":{\"version\":\"6.8.3\"},"
	    "\"dosr-cbor\":{\"version\":\"3.3.4\"},\"dosr-4.0.3-cbor\":{\"version\":\"4.0.3\"},"
	    "\"dosr-dev\":{\"version\":\"3.3.4-dev\"}}}},\"results\":["
	    "{\"command\":\"c\",\"mean\":1,\"median\":1,\"min\":1,\"max\":1,\"parameters\":{"
	    "\"subject\":\"sudo\"}}]}");

	CHECK(res != NULL);
	if (res == NULL)
		return;
	CHECK(results_different_tools(res, "sudo-rs", "sudo"));
	CHECK(results_different_tools(res, "doas", "sudo"));
	CHECK(results_different_tools(res, "sr-cbor", "sudo-pam"));
	CHECK(!results_different_tools(res, "sudo-pam", "sudo"));
	CHECK(!results_different_tools(res, "sudo-dev", "sudo"));
	CHECK(!results_different_tools(res, "doas-dev", "doas"));
	CHECK_STR_EQ(results_tool(res, "doas-dev"), "OpenDoas 6.8.3");
	CHECK(!results_different_tools(res, "sr4", "sr-cbor"));
	CHECK(!results_different_tools(res, "sr-dev", "sr-cbor"));
	CHECK(!results_different_tools(res, "sr-cbor (nofile 65536)", "sr4"));
	/* No facts of mystery's program: nothing says it differs. */
	CHECK(!results_different_tools(res, "mystery", "sudo"));
	CHECK(!results_different_tools(res, "sudo", "absent"));
	results_free(res);
}

/* Hosts whose facts say TCG are listed as emulated, by host name in a merged file. */
static void test_emulated(void)
{
	struct results *res;
	struct errbuf eb = {{0}};
	static const char merged[] = "{\"results\":[" POINT(
	    "sudo", EST("median")) "],\"meta\":{\"hosts\":{"
				   "\"vm1\":{\"prefix_facts\":{\"virtualisation\":\"tcg\"}},"
				   "\"vm2\":{\"prefix_facts\":{\"virtualisation\":\"kvm\"}},"
				   "\"vm3\":{\"prefix_facts\":{\"virtualisation\":\"tcg\"}}}}}";
	static const char one[] = "{\"results\":[" POINT(
	    "sudo", EST("median")) "],\"meta\":{\"prefix_facts\":{\"virtualisation\":\"tcg\"}}}";
	static const char native[] = "{\"results\":[" POINT(
	    "sudo", EST("median")) "],\"meta\":{\"prefix_facts\":{\"virtualisation\":\"none\"}}}";

	res = parse_doc(native);
	CHECK(res != NULL && res->n_emulated == 0 && res->emulated[0] == '\0');
	results_free(res);
	res = parse_doc(merged);
	CHECK(res != NULL);
	if (res != NULL) {
		CHECK_STR_EQ(res->emulated, "vm1, vm3");
		CHECK_INT_EQ((int)res->n_emulated, 2);
		CHECK_INT_EQ(results_parse(res, one, strlen(one), "b.json", &eb), 0);
		CHECK_STR_EQ(res->emulated, "vm1, vm3, b.json");
	}
	results_free(res);
}

/* A results file of one subject at 3 sizes, with meta's members extra (",\"machine\":{...}" or
 * "") and the manifest's axes. */
static char *doc_with_meta(const char *subject, const char *extra, const char *axes)
{
	static char buf[2048];

	snprintf(
	    buf, sizeof(buf),
	    "{\"results\":["
	    "{\"command\":\"x\",\"mean\":1,\"stddev\":null,\"median\":1,\"user\":0,\"system\":0,"
	    "\"min\":1,\"max\":1,\"parameters\":{\"subject\":\"%s\",\"nb_tasks\":\"1\"}},"
	    "{\"command\":\"x\",\"mean\":1,\"stddev\":null,\"median\":1,\"user\":0,\"system\":0,"
	    "\"min\":1,\"max\":1,\"parameters\":{\"subject\":\"sudo\",\"nb_tasks\":\"1\"}}],"
	    "\"meta\":{\"manifest\":{\"name\":\"m\",\"axes\":%s}%s}}",
	    subject, axes, extra);
	return buf;
}

/* doc_with_meta with meta.machine (machine id mid, boot id boot; NULL for a file without the
 * key). */
static char *machine_doc(const char *subject, const char *mid, const char *boot, const char *axes)
{
	char machine[256] = "";

	if (mid != NULL)
		snprintf(machine, sizeof(machine),
			 ",\"machine\":{\"machine_id_sha256\":\"%s\",\"boot_id_sha256\":\"%s\"}",
			 mid, boot);
	return doc_with_meta(subject, machine, axes);
}

/* machine_doc with meta.machine.cpu of family fam (model 1, stepping 1). */
static char *machine_doc_cpu(const char *subject, const char *mid, const char *boot,
			     const char *fam, const char *axes)
{
	char machine[512];

	snprintf(machine, sizeof(machine),
		 ",\"machine\":{\"machine_id_sha256\":\"%s\",\"boot_id_sha256\":\"%s\","
		 "\"cpu\":{\"model_name\":\"AMD EPYC\",\"family\":\"%s\",\"model\":\"1\","
		 "\"stepping\":\"1\",\"microcode\":\"0x1\"}}",
		 mid, boot, fam);
	return doc_with_meta(subject, machine, axes);
}

/* Loads (name, doc) pairs into a new set. */
static struct results *machine_set(const char *const *names, char **docs, size_t n)
{
	struct results *res = results_new();
	struct errbuf eb;

	for (size_t i = 0; i < n; i++) {
		CHECK_INT_EQ(results_parse(res, docs[i], strlen(docs[i]), names[i], &eb), 0);
		free(docs[i]);
	}
	return res;
}

/* Files of one machine are repetitions (host "-"), of two machines two hosts named by the part
 * of their path that differs; without an identity, overlapping files need a mode. */
static void test_machines(void)
{
	static const char *const names[] = {"r/2026-a/seed/results.json",
					    "r/2026-b/seed/results.json"};
	const char *axes = "{\"nb_tasks\":[1,10]}";
	struct results *res;
	char *docs[2];
	struct errbuf eb;

	/* One machine id and one boot: repetitions. */
	docs[0] = strdup(machine_doc("doas", "m1", "b1", axes));
	docs[1] = strdup(machine_doc("doas", "m1", "b1", axes));
	res = machine_set(names, docs, 2);
	CHECK_INT_EQ(results_machines_assign(res, RESULTS_MACHINES_AUTO, "sudo", &eb), 0);
	CHECK_STR_EQ(res->points[0].host, "-");
	CHECK_STR_EQ(res->points[3].host, "-");
	results_free(res);

	/* One machine id across boots, the same CPU and kernel: a reboot or a clone, asked;
	 * distinct makes two hosts, same one. */
	for (int mode = 0; mode < 3; mode++) {
		docs[0] = strdup(machine_doc("doas", "m1", "b1", axes));
		docs[1] = strdup(machine_doc("doas", "m1", "b2", axes));
		res = machine_set(names, docs, 2);
		CHECK_INT_EQ(
		    results_machines_assign(res, (enum results_machines_mode)mode, "sudo", &eb),
		    mode == RESULTS_MACHINES_AUTO ? -1 : 0);
		if (mode == RESULTS_MACHINES_AUTO)
			CHECK(
			    strstr(eb.msg, "one machine id, two boots, the same CPU and kernel") !=
				NULL &&
			    strstr(eb.msg, "pass --machines distinct") != NULL);
		else
			CHECK_STR_EQ(res->points[3].host,
				     mode == RESULTS_MACHINES_SAME ? "-" : "2026-b");
		results_free(res);
	}

	/* One machine id, another CPU: clones of one VM image on two machines, two hosts unasked
	 * (the published v1045 and v1147 runs). */
	docs[0] = strdup(machine_doc_cpu("doas", "m1", "b1", "26", axes));
	docs[1] = strdup(machine_doc_cpu("doas", "m1", "b2", "23", axes));
	res = machine_set(names, docs, 2);
	CHECK_INT_EQ(results_machines_assign(res, RESULTS_MACHINES_AUTO, "sudo", &eb), 0);
	CHECK_STR_EQ(res->points[0].host, "2026-a");
	CHECK_STR_EQ(res->points[3].host, "2026-b");
	results_free(res);

	docs[0] = strdup(machine_doc("doas", "m1", "b1", axes));
	docs[1] = strdup(machine_doc("doas", "m2", "b2", axes));
	res = machine_set(names, docs, 2);
	CHECK_INT_EQ(results_machines_assign(res, RESULTS_MACHINES_AUTO, "sudo", &eb), 0);
	CHECK_STR_EQ(res->points[0].host, "2026-a");
	CHECK_STR_EQ(res->points[3].host, "2026-b");
	CHECK(results_machine_of(res, "2026-b") != NULL &&
	      strcmp(results_machine_of(res, "2026-b")->boot, "b2") == 0);
	results_free(res);

	/* Another design, several machines: refused, naming both files and what differs. */
	docs[0] = strdup(machine_doc("doas", "m1", "b1", axes));
	docs[1] = strdup(machine_doc("doas", "m2", "b2", "{\"nb_tasks\":[1,100]}"));
	res = machine_set(names, docs, 2);
	CHECK_INT_EQ(results_machines_assign(res, RESULTS_MACHINES_AUTO, "sudo", &eb), -1);
	CHECK(strstr(eb.msg, "2026-a/seed/results.json and r/2026-b/seed/results.json: different "
			     "manifests (their axes differs)") != NULL);
	results_free(res);

	/* No identity: overlapping files need --machines; distinct makes two hosts, same one. */
	for (int mode = 0; mode < 3; mode++) {
		docs[0] = strdup(machine_doc("doas", NULL, NULL, axes));
		docs[1] = strdup(machine_doc("doas", NULL, NULL, axes));
		res = machine_set(names, docs, 2);
		CHECK_INT_EQ(
		    results_machines_assign(res, (enum results_machines_mode)mode, "sudo", &eb),
		    mode == RESULTS_MACHINES_AUTO ? -1 : 0);
		if (mode == RESULTS_MACHINES_AUTO)
			CHECK(strstr(eb.msg, "pass --machines distinct") != NULL);
		else
			CHECK_STR_EQ(res->points[3].host,
				     mode == RESULTS_MACHINES_SAME ? "-" : "2026-b");
		results_free(res);
	}
	/* No identity, other candidates but both with the baseline: they overlap, still asked. */
	docs[0] = strdup(machine_doc("doas", NULL, NULL, axes));
	docs[1] = strdup(machine_doc("sr-cbor", NULL, NULL, axes));
	res = machine_set(names, docs, 2);
	CHECK_INT_EQ(results_machines_assign(res, RESULTS_MACHINES_AUTO, "sudo", &eb), -1);
	results_free(res);
}

int main(void)
{
	RUN(test_plain_hyperfine);
	RUN(test_rarbench);
	RUN(test_rarlab_merged_and_two_files);
	RUN(test_errors);
	RUN(test_memory_bound);
	RUN(test_intervals);
	RUN(test_unreadable_file);
	RUN(test_subject_from_command);
	RUN(test_daemon);
	RUN(test_method);
	RUN(test_subjects);
	RUN(test_limit_series_and_pam);
	RUN(test_different_tools);
	RUN(test_emulated);
	RUN(test_machines);
	return HARNESS_EXIT();
}
