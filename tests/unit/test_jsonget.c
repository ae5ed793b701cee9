/* Tests for jsonget: each getter's bounds, required and optional keys, paths, and the one wording.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "jsonget.h"

static cJSON *doc;

static void test_uint_bounds_and_wording(void)
{
	struct errbuf eb = {{0}};
	uint64_t v = 42;

	CHECK_INT_EQ(jsonget_uint(doc, "$", "runs", JSONGET_REQUIRED, 1, 10, &v, &eb), 0);
	CHECK_INT_EQ((long long)v, 5);
	CHECK_INT_EQ(jsonget_uint(doc, "$", "runs", JSONGET_REQUIRED, 6, 10, &v, &eb), -1);
	CHECK_STR_EQ(eb.msg, "$.runs: 5 is out of range (6 to 10)");
	CHECK_INT_EQ(jsonget_uint(doc, "$", "half", JSONGET_REQUIRED, 0, 10, &v, &eb), -1);
	CHECK_STR_EQ(eb.msg, "$.half: expected an integer, got 1.5");
	CHECK_INT_EQ(jsonget_uint(doc, "$", "name", JSONGET_REQUIRED, 0, 10, &v, &eb), -1);
	CHECK_STR_EQ(eb.msg, "$.name: expected an integer, got a string");
	CHECK_INT_EQ(jsonget_uint(doc, "$", "big", JSONGET_REQUIRED, 0, 68719476736.0, &v, &eb),
		     -1);
	CHECK_STR_EQ(eb.msg, "$.big: 68719476737 is out of range (0 to 68719476736)");
}

static void test_absent_keys(void)
{
	struct errbuf eb = {{0}};
	uint64_t v = 7;
	uint32_t u = 9;
	double d = 0.25;
	const char *s = "default";

	CHECK_INT_EQ(jsonget_uint(doc, "$", "nope", JSONGET_OPTIONAL, 0, 10, &v, &eb), 0);
	CHECK_INT_EQ((long long)v, 7); /* the default stays */
	CHECK_INT_EQ(jsonget_double(doc, "$", "nope", JSONGET_OPTIONAL, 0, 1, &d, &eb), 0);
	CHECK(d == 0.25);
	CHECK_INT_EQ(jsonget_string(doc, "$", "nope", JSONGET_OPTIONAL, 10, &s, &eb), 0);
	CHECK_STR_EQ(s, "default");
	CHECK_INT_EQ(jsonget_uint(doc, "$", "nope", JSONGET_REQUIRED, 0, 10, &v, &eb), -1);
	CHECK_STR_EQ(eb.msg, "$.nope: missing (an integer is required)");
	CHECK_INT_EQ(jsonget_double(doc, "", "nope", JSONGET_REQUIRED, 0, 1, &d, &eb), -1);
	CHECK_STR_EQ(eb.msg, "nope: missing (a number is required)");
	CHECK_INT_EQ(jsonget_string(doc, "$", "nope", JSONGET_REQUIRED, 10, &s, &eb), -1);
	CHECK_STR_EQ(eb.msg, "$.nope: missing (a string is required)");
	CHECK_INT_EQ(jsonget_u32(doc, "", "nope", JSONGET_REQUIRED, &u, &eb), -1);
	CHECK_INT_EQ(u, 9);
}

static void test_u32_range(void)
{
	struct errbuf eb = {{0}};
	uint32_t u = 0;

	CHECK_INT_EQ(jsonget_u32(doc, "", "max32", JSONGET_REQUIRED, &u, &eb), 0);
	CHECK_INT_EQ(u, 4294967295u);
	CHECK_INT_EQ(jsonget_u32(doc, "", "neg", JSONGET_REQUIRED, &u, &eb), -1);
	CHECK_STR_EQ(eb.msg, "neg: -1 is out of range (0 to 4294967295)");
	CHECK_INT_EQ(jsonget_u32(doc, "", "big", JSONGET_REQUIRED, &u, &eb), -1);
	CHECK_INT_EQ(u, 4294967295u); /* unchanged on error */
}

static void test_double(void)
{
	struct errbuf eb = {{0}};
	double d = 0;

	CHECK_INT_EQ(jsonget_double(doc, "$", "half", JSONGET_REQUIRED, 0, 2, &d, &eb), 0);
	CHECK(d == 1.5);
	CHECK_INT_EQ(jsonget_double(doc, "$", "half", JSONGET_REQUIRED, 0, 1, &d, &eb), -1);
	CHECK_STR_EQ(eb.msg, "$.half: 1.5 is out of range (0 to 1)");
	CHECK_INT_EQ(jsonget_double(doc, "$", "list", JSONGET_REQUIRED, 0, 1, &d, &eb), -1);
	CHECK_STR_EQ(eb.msg, "$.list: expected a number, got an array");
	/* cJSON reads 1e999 as inf: never a value, whatever the bound */
	CHECK_INT_EQ(jsonget_double(doc, "", "huge", JSONGET_REQUIRED, 0, HUGE_VAL, &d, &eb), -1);
	CHECK_STR_EQ(eb.msg, "huge: inf is out of range (0 to inf)");
}

static void test_string(void)
{
	struct errbuf eb = {{0}};
	const char *s = NULL;

	CHECK_INT_EQ(jsonget_string(doc, "$", "name", JSONGET_REQUIRED, 3, &s, &eb), 0);
	CHECK_STR_EQ(s, "abc");
	CHECK_INT_EQ(jsonget_string(doc, "$", "name", JSONGET_REQUIRED, 2, &s, &eb), -1);
	CHECK_STR_EQ(eb.msg, "$.name: longer than 2 bytes");
	CHECK_INT_EQ(jsonget_string(doc, "$", "empty", JSONGET_REQUIRED, 2, &s, &eb), -1);
	CHECK_STR_EQ(eb.msg, "$.empty: must not be empty");
	CHECK_INT_EQ(jsonget_string(doc, "$", "obj", JSONGET_OPTIONAL, 2, &s, &eb), -1);
	CHECK_STR_EQ(eb.msg, "$.obj: expected a string, got an object");
}

/* Paths: nested objects and array elements, and a path too long cut rather than overflowing. */
static void test_paths(void)
{
	char p[JSONGET_PATH_MAX_CHARS], q[JSONGET_PATH_MAX_CHARS], key[300];
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(doc, "list");
	struct errbuf eb = {{0}};
	uint64_t v = 0;

	jsonget_child(p, "$", "list");
	jsonget_index(q, p, 1);
	CHECK_STR_EQ(q, "$.list[1]");
	CHECK_INT_EQ(jsonget_as_uint(cJSON_GetArrayItem(list, 1), q, 0, 1, &v, &eb), -1);
	CHECK_STR_EQ(eb.msg, "$.list[1]: expected an integer, got null");
	jsonget_child(p, "", "top");
	CHECK_STR_EQ(p, "top");
	memset(key, 'k', sizeof(key) - 1);
	key[sizeof(key) - 1] = '\0';
	jsonget_child(p, "$", key);
	CHECK_INT_EQ(strlen(p), JSONGET_PATH_MAX_CHARS - 1);
	CHECK_STR_EQ(jsonget_type_name(cJSON_GetObjectItemCaseSensitive(doc, "flag")), "a boolean");
	CHECK_STR_EQ(jsonget_type_name(NULL), "invalid");
}

/* The one key look-up: exact case, NULL for no object or no key, the first of duplicates. */
static void test_member(void)
{
	cJSON *dup = cJSON_Parse("{\"k\":1,\"k\":2}");

	CHECK(jsonget_member(doc, "runs") == cJSON_GetObjectItemCaseSensitive(doc, "runs"));
	CHECK(jsonget_member(doc, "Runs") == NULL);
	CHECK(jsonget_member(doc, "absent") == NULL);
	CHECK(jsonget_member(NULL, "runs") == NULL);
	CHECK(jsonget_member(jsonget_member(doc, "obj"), "runs") == NULL);
	CHECK(dup != NULL && cJSON_GetNumberValue(jsonget_member(dup, "k")) == 1);
	cJSON_Delete(dup);
}

int main(void)
{
	doc = cJSON_Parse(
	    "{\"runs\":5,\"half\":1.5,\"name\":\"abc\",\"empty\":\"\",\"big\":68719476737,"
	    "\"max32\":4294967295,\"neg\":-1,\"huge\":1e999,\"list\":[1,null],"
	    "\"obj\":{},\"flag\":true}");
	if (doc == NULL)
		return 1;
	RUN(test_uint_bounds_and_wording);
	RUN(test_absent_keys);
	RUN(test_u32_range);
	RUN(test_double);
	RUN(test_string);
	RUN(test_paths);
	RUN(test_member);
	cJSON_Delete(doc);
	return HARNESS_EXIT();
}
