/* Tests for export: hyperfine's JSON schema, CSV and Markdown, written atomically. */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "export.h"
#include "harness.h"

static char dir[] = "/tmp/rarperf-test-export-XXXXXX";

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	long len;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)len + 1);
	if (buf != NULL && fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static uint64_t wall3[] = {1000000, 3000000, 2000000}, user3[] = {500000, 500000, 500000},
		sys3[] = {0, 0, 0};
static int codes3[] = {0, 3, 137};
static uint64_t wall1[] = {1500000000}, user1[] = {0}, sys1[] = {1000};
static int codes1[] = {0};

static struct measure_result r3 = {.n = 3,
				   .wall_ns = wall3,
				   .user_ns = user3,
				   .system_ns = sys3,
				   .exit_codes = codes3,
				   .complete = true};
static struct measure_result r1 = {.n = 1,
				   .wall_ns = wall1,
				   .user_ns = user1,
				   .system_ns = sys1,
				   .exit_codes = codes1,
				   .all_succeeded = true,
				   .complete = true};
static const struct export_param params[] = {{"y", "b"}, {"x", "1"}};

static void test_json_schema(void)
{
	struct export_entry e[] = {{"a | b", &r3, params, 2, NULL, NULL},
				   {"sleep 1.5", &r1, NULL, 0, NULL, NULL}};
	struct errbuf eb = {{0}};
	cJSON *extra = cJSON_CreateObject(), *doc = NULL, *res, *item;
	char path[128], *text;
	static const char *keys[] = {"command", "mean",       "stddev",    "median",
				     "user",    "system",     "min",       "max",
				     "times",   "exit_codes", "parameters"};
	size_t k = 0;

	cJSON_AddStringToObject(cJSON_AddObjectToObject(extra, "meta"), "subject", "sudo");
	snprintf(path, sizeof(path), "%s/out.json", dir);
	CHECK_INT_EQ(export_json(path, e, 2, extra, &eb), 0);
	text = slurp(path);
	CHECK(text != NULL);
	if (text != NULL)
		doc = cJSON_Parse(text);
	CHECK(doc != NULL);
	if (doc == NULL)
		goto out;
	/* Top-level keys in order: results, then the caller's extras. */
	CHECK_STR_EQ(doc->child->string, "results");
	CHECK_STR_EQ(doc->child->next->string, "meta");
	res = cJSON_GetObjectItem(doc, "results");
	CHECK_INT_EQ(cJSON_GetArraySize(res), 2);
	item = cJSON_GetArrayItem(res, 0);
	cJSON_ArrayForEach(item, cJSON_GetArrayItem(res, 0))
	{
		CHECK(k < 11);
		if (k < 11)
			CHECK_STR_EQ(item->string, keys[k]);
		k++;
	}
	CHECK_INT_EQ(k, 11);
	item = cJSON_GetArrayItem(res, 0);
	CHECK_STR_EQ(cJSON_GetObjectItem(item, "command")->valuestring, "a | b");
	CHECK(fabs(cJSON_GetObjectItem(item, "mean")->valuedouble - 0.002) < 1e-12);
	CHECK(fabs(cJSON_GetObjectItem(item, "median")->valuedouble - 0.002) < 1e-12);
	CHECK(fabs(cJSON_GetObjectItem(item, "stddev")->valuedouble - 0.001) < 1e-12);
	CHECK(fabs(cJSON_GetObjectItem(item, "user")->valuedouble - 0.0005) < 1e-12);
	CHECK(fabs(cJSON_GetObjectItem(item, "min")->valuedouble - 0.001) < 1e-12);
	CHECK(fabs(cJSON_GetObjectItem(item, "max")->valuedouble - 0.003) < 1e-12);
	CHECK_INT_EQ(cJSON_GetArrayItem(cJSON_GetObjectItem(item, "exit_codes"), 2)->valueint, 137);
	CHECK_INT_EQ(cJSON_GetArraySize(cJSON_GetObjectItem(item, "times")), 3);
	/* Parameters sorted by name, as strings. */
	CHECK_STR_EQ(cJSON_GetObjectItem(item, "parameters")->child->string, "x");
	CHECK_STR_EQ(cJSON_GetObjectItem(item, "parameters")->child->valuestring, "1");
	item = cJSON_GetArrayItem(res, 1);
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(item, "stddev")));
	CHECK(cJSON_GetObjectItem(item, "parameters") == NULL);
	/* serde writes floats with a point: 0.0, 1.5 — never a bare integer. */
	CHECK(strstr(text, "      \"system\": 0.0,\n") != NULL);
	CHECK(strstr(text, "      \"mean\": 1.5,\n") != NULL);
	CHECK_STR_EQ(cJSON_GetObjectItem(doc, "meta")->child->valuestring, "sudo");
out:
	cJSON_Delete(doc);
	cJSON_Delete(extra);
	free(text);
}

static void test_json_empty_and_no_leftovers(void)
{
	struct errbuf eb = {{0}};
	char path[128], *text;
	DIR *d;
	struct dirent *de;
	int hidden = 0;

	snprintf(path, sizeof(path), "%s/empty.json", dir);
	CHECK_INT_EQ(export_json(path, NULL, 0, NULL, &eb), 0);
	text = slurp(path);
	CHECK_STR_EQ(text, "{\n  \"results\": []\n}\n");
	free(text);
	d = opendir(dir);
	CHECK(d != NULL);
	while (d != NULL && (de = readdir(d)) != NULL)
		if (de->d_name[0] == '.' && strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			hidden++;
	if (d != NULL)
		closedir(d);
	CHECK_INT_EQ(hidden, 0); /* no temporary file left behind */
}

static void test_json_unwritable(void)
{
	struct export_entry e[] = {{"x", &r1, NULL, 0, NULL, NULL}};
	struct errbuf eb = {{0}};

	CHECK_INT_EQ(export_json("/nonexistent-dir/x.json", e, 1, NULL, &eb), -1);
	CHECK(strstr(eb.msg, "/nonexistent-dir") != NULL);
}

static void test_csv(void)
{
	struct export_entry e[] = {{"a,\"b\"", &r3, params, 2, NULL, NULL}};
	struct errbuf eb = {{0}};
	char path[128], *text;

	snprintf(path, sizeof(path), "%s/out.csv", dir);
	CHECK_INT_EQ(export_csv(path, e, 1, &eb), 0);
	text = slurp(path);
	CHECK_STR_EQ(text,
		     "command,mean,stddev,median,user,system,min,max,parameter_x,parameter_y\n"
		     "\"a,\"\"b\"\"\",0.002,0.001,0.002,0.0005,0,0.001,0.003,1,b\n");
	free(text);
}

static void test_markdown(void)
{
	struct export_entry e[] = {{"fast|x", &r3, NULL, 0, NULL, NULL},
				   {"slow", &r1, NULL, 0, NULL, NULL}};
	struct errbuf eb = {{0}};
	char path[128], *text;

	snprintf(path, sizeof(path), "%s/out.md", dir);
	CHECK_INT_EQ(export_markdown(path, e, 2, NULL, &eb), 0);
	text = slurp(path);
	CHECK_STR_EQ(text, "| Command | Mean [ms] | Min [ms] | Max [ms] | Relative |\n"
			   "|:---|---:|---:|---:|---:|\n"
			   "| `fast\\|x` | 2.0 ± 1.0 | 1.0 | 3.0 | 1.00 |\n"
			   "| `slow` | 1500.0 | 1500.0 | 1500.0 | 750.00 |\n");
	free(text);
}

/* A number item of a built document: export writes them raw (serde's formatting). */
static double num(const cJSON *item)
{
	return cJSON_IsRaw(item) ? strtod(item->valuestring, NULL) : item->valuedouble;
}

/* rarbench's additions: "nivcsw" and "rarbench" after hyperfine's keys, with the estimate. */
static void test_json_extras(void)
{
	/* 8 runs of 1 ms (off-CPU 100 us) and one that waited 5 ms for a CPU */
	static uint64_t w[9], u[9], sy[9];
	static uint32_t csw[9];
	static int codes[9];
	struct measure_result r = {.n = 9,
				   .wall_ns = w,
				   .user_ns = u,
				   .system_ns = sy,
				   .exit_codes = codes,
				   .nivcsw = csw,
				   .complete = true};
	struct export_extras x = {.estimator = ESTIMATE_MEDIAN,
				  .contended = ESTIMATE_CONTENDED_DROP,
				  .precision = 0.5,
				  .contention_limit = 0.5,
				  .has_point = true,
				  .rounds = 3,
				  .remeasured = 1,
				  .discarded_runs = 10,
				  .steal = 0.01,
				  .load1 = 2.5};
	struct export_entry e = {"c", &r, NULL, 0, &x, NULL};
	static const char *keys[] = {"command", "mean",       "stddev", "median",
				     "user",    "system",     "min",    "max",
				     "times",   "exit_codes", "nivcsw", "rarbench"};
	static const char *rb_keys[] = {"estimator",
					"estimate",
					"ci95",
					"runs_used",
					"contended_runs",
					"contended_share",
					"contended_treatment",
					"preempted_runs",
					"precision",
					"precision_reached",
					"precision_met",
					"contended",
					"rounds",
					"remeasured",
					"discarded_runs",
					"steal",
					"load1"};
	struct errbuf eb = {{0}};
	cJSON *doc, *res, *item, *rb;
	size_t k = 0;

	for (int i = 0; i < 9; i++) {
		w[i] = 1000000 + 1000 * (uint64_t)i;
		u[i] = 900000 + 1000 * (uint64_t)i;
		sy[i] = 0;
		csw[i] = i % 3 == 0;
	}
	w[4] = 6000000;
	doc = export_json_build(&e, 1, NULL, &eb);
	CHECK(doc != NULL);
	if (doc == NULL)
		return;
	res = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "results"), 0);
	cJSON_ArrayForEach(item, res)
	{
		if (k < 12)
			CHECK_STR_EQ(item->string, keys[k]);
		k++;
	}
	CHECK_INT_EQ(k, 12);
	CHECK_INT_EQ(cJSON_GetArraySize(cJSON_GetObjectItem(res, "nivcsw")), 9);
	rb = cJSON_GetObjectItem(res, "rarbench");
	k = 0;
	cJSON_ArrayForEach(item, rb)
	{
		if (k < 17)
			CHECK_STR_EQ(item->string, rb_keys[k]);
		k++;
	}
	CHECK_INT_EQ(k, 17);
	/* the waiting run is left out: the median of the other 8, 1.004 ms */
	CHECK_STR_EQ(cJSON_GetObjectItem(rb, "estimator")->valuestring, "median");
	CHECK(fabs(num(cJSON_GetObjectItem(rb, "estimate")) - 0.001004) < 1e-12);
	CHECK_INT_EQ(cJSON_GetObjectItem(rb, "runs_used")->valueint, 8);
	CHECK_INT_EQ(cJSON_GetObjectItem(rb, "contended_runs")->valueint, 1);
	CHECK(fabs(num(cJSON_GetObjectItem(rb, "contended_share")) - 1.0 / 9) < 1e-12);
	/* runs 0, 3, 6 were switched out but lost no measurable time; the slow run 4 was not
	 * switched out: none preempted (contention_preempted) */
	CHECK_INT_EQ(cJSON_GetObjectItem(rb, "preempted_runs")->valueint, 0);
	/* n = 8: ranks 1 and 8 (coverage 99.2 %): the 1.000 and 1.008 ms runs */
	CHECK(fabs(num(cJSON_GetArrayItem(cJSON_GetObjectItem(rb, "ci95"), 0)) - 0.001) < 1e-12);
	CHECK(fabs(num(cJSON_GetArrayItem(cJSON_GetObjectItem(rb, "ci95"), 1)) - 0.001008) < 1e-12);
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(rb, "precision_met")));
	CHECK(cJSON_IsFalse(cJSON_GetObjectItem(rb, "contended")));
	CHECK_INT_EQ(cJSON_GetObjectItem(rb, "remeasured")->valueint, 1);
	CHECK_INT_EQ(cJSON_GetObjectItem(rb, "discarded_runs")->valueint, 10);
	cJSON_Delete(doc);

	/* fixed count, no context switches known, too few runs for an interval */
	x.precision = 0;
	x.has_point = false;
	r.nivcsw = NULL;
	r.n = 3;
	doc = export_json_build(&e, 1, NULL, &eb);
	CHECK(doc != NULL);
	if (doc == NULL)
		return;
	res = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "results"), 0);
	CHECK(cJSON_GetObjectItem(res, "nivcsw") == NULL);
	rb = cJSON_GetObjectItem(res, "rarbench");
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(rb, "precision")));
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(rb, "precision_met")));
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(rb, "precision_reached")));
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(rb, "preempted_runs")));
	CHECK(cJSON_IsNull(cJSON_GetArrayItem(cJSON_GetObjectItem(rb, "ci95"), 0)));
	CHECK(cJSON_GetObjectItem(rb, "rounds") == NULL);
	CHECK(cJSON_GetObjectItem(res, "cpu_stall_ns") == NULL);
	cJSON_Delete(doc);
}

/* Each run's CPU stall (schedwait.h) as "cpu_stall_ns", null where unknown; the stall judges: the
 * run that was slow off-CPU but never waited for a CPU is not contended, the one that waited is. */
static void test_json_stall(void)
{
	static uint64_t w[8], u[8], sy[8];
	static int64_t stall[8];
	static int codes[8];
	struct measure_result r = {.n = 8,
				   .wall_ns = w,
				   .user_ns = u,
				   .system_ns = sy,
				   .exit_codes = codes,
				   .stall_ns = stall,
				   .complete = true};
	struct export_extras x = {.estimator = ESTIMATE_MEDIAN,
				  .contended = ESTIMATE_CONTENDED_KEEP};
	struct export_entry e = {.command = "sudo true", .result = &r, .extras = &x};
	struct errbuf eb = {{0}};
	cJSON *doc, *res, *a, *rb;

	for (int i = 0; i < 8; i++) {
		w[i] = 1000000;
		u[i] = 600000;
		sy[i] = 300000;
	}
	w[2] = 6000000; /* 5 ms waiting for a child: no stall */
	w[5] = 3000000; /* 2 ms waiting for a CPU */
	stall[5] = 2000000;
	stall[6] = 60000; /* 60 us: lost, below the limit */
	stall[7] = -1;    /* unknown: the off-CPU rule, within its slack */
	doc = export_json_build(&e, 1, NULL, &eb);
	CHECK(doc != NULL);
	if (doc == NULL)
		return;
	res = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "results"), 0);
	a = cJSON_GetObjectItem(res, "cpu_stall_ns");
	CHECK_INT_EQ(cJSON_GetArraySize(a), 8);
	CHECK(num(cJSON_GetArrayItem(a, 5)) == 2000000.0);
	CHECK(num(cJSON_GetArrayItem(a, 0)) == 0.0);
	CHECK(cJSON_IsNull(cJSON_GetArrayItem(a, 7)));
	rb = cJSON_GetObjectItem(res, "rarbench");
	CHECK_INT_EQ(cJSON_GetObjectItem(rb, "contended_runs")->valueint, 1);
	CHECK_INT_EQ(cJSON_GetObjectItem(rb, "preempted_runs")->valueint, 2);
	cJSON_Delete(doc);
}

/* Manifest mode: each run's round, and each round's own estimate (the pairs of --compare). */
static void test_json_rounds(void)
{
	static uint64_t w[12], u[12], sy[12];
	static int codes[12];
	static const uint32_t rounds[12] = {1, 1, 1, 1, 1, 1, 3, 3, 3, 3, 3, 3};
	struct measure_result r = {.n = 12,
				   .wall_ns = w,
				   .user_ns = u,
				   .system_ns = sy,
				   .exit_codes = codes,
				   .complete = true};
	struct export_extras x = {.estimator = ESTIMATE_MEDIAN,
				  .contended = ESTIMATE_CONTENDED_KEEP,
				  .has_point = true,
				  .rounds = 2};
	struct export_entry e = {"c", &r, NULL, 0, &x, rounds};
	struct errbuf eb = {{0}};
	cJSON *doc, *res, *re, *runs;

	for (int i = 0; i < 12; i++) {
		/* round 1 runs at 1.000..1.005 ms, round 3 at 2.000..2.005 ms */
		w[i] = (i < 6 ? 1000000 : 2000000) + 1000 * (uint64_t)(i % 6);
		u[i] = w[i] / 2;
		sy[i] = 0;
	}
	doc = export_json_build(&e, 1, NULL, &eb);
	CHECK(doc != NULL);
	if (doc == NULL)
		return;
	res = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "results"), 0);
	runs = cJSON_GetObjectItem(res, "run_rounds");
	CHECK_INT_EQ(cJSON_GetArraySize(runs), 12);
	CHECK_INT_EQ(cJSON_GetArrayItem(runs, 11)->valueint, 3);
	re = cJSON_GetObjectItem(cJSON_GetObjectItem(res, "rarbench"), "round_estimates");
	CHECK_INT_EQ(cJSON_GetArraySize(re), 2);
	CHECK_INT_EQ(cJSON_GetObjectItem(cJSON_GetArrayItem(re, 0), "round")->valueint, 1);
	CHECK_INT_EQ(cJSON_GetObjectItem(cJSON_GetArrayItem(re, 1), "round")->valueint, 3);
	CHECK_INT_EQ(cJSON_GetObjectItem(cJSON_GetArrayItem(re, 1), "runs")->valueint, 6);
	/* the median of 6: between the 3rd and 4th run */
	CHECK(fabs(num(cJSON_GetObjectItem(cJSON_GetArrayItem(re, 0), "estimate")) - 0.0010025) <
	      1e-12);
	CHECK(fabs(num(cJSON_GetObjectItem(cJSON_GetArrayItem(re, 1), "estimate")) - 0.0020025) <
	      1e-12);
	cJSON_Delete(doc);
}

int main(void)
{
	if (mkdtemp(dir) == NULL)
		return 1;
	RUN(test_json_schema);
	RUN(test_json_empty_and_no_leftovers);
	RUN(test_json_unwritable);
	RUN(test_csv);
	RUN(test_markdown);
	RUN(test_json_extras);
	RUN(test_json_stall);
	RUN(test_json_rounds);
	{
		static const char *files[] = {"out.json", "empty.json", "out.csv", "out.md"};
		char path[128];

		for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
			unlink(path);
		}
		rmdir(dir);
	}
	return HARNESS_EXIT();
}
