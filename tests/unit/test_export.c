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
	struct export_entry e[] = {{"a | b", &r3, params, 2, NULL}, {"sleep 1.5", &r1, NULL, 0, NULL}};
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
	struct export_entry e[] = {{"x", &r1, NULL, 0, NULL}};
	struct errbuf eb = {{0}};

	CHECK_INT_EQ(export_json("/nonexistent-dir/x.json", e, 1, NULL, &eb), -1);
	CHECK(strstr(eb.msg, "/nonexistent-dir") != NULL);
}

static void test_csv(void)
{
	struct export_entry e[] = {{"a,\"b\"", &r3, params, 2, NULL}};
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
	struct export_entry e[] = {{"fast|x", &r3, NULL, 0, NULL}, {"slow", &r1, NULL, 0, NULL}};
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

int main(void)
{
	if (mkdtemp(dir) == NULL)
		return 1;
	RUN(test_json_schema);
	RUN(test_json_empty_and_no_leftovers);
	RUN(test_json_unwritable);
	RUN(test_csv);
	RUN(test_markdown);
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
