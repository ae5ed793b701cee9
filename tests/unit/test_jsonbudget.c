/* Tests for jsonbudget: a cJSON tree's cost counted from the text, the results array's elements. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "jsonbudget.h"

static void test_counts(void)
{
	static const char doc[] =
	    "{\"results\": [ {\"a\": [1, 2]}, 3 , \"x]\" ], \"meta\": {\"k\": null}}";
	struct jsonbudget b;
	size_t open = strchr(doc, '[') - doc;

	CHECK_INT_EQ(jsonbudget_scan(doc, strlen(doc), &b), 0);
	/* 14 items: the object, "results", the array, {, "a", [, 1, 2, 3, "x]", "meta", {, "k",
	 * null */
	CHECK_INT_EQ(b.values, 14);
	CHECK(b.has_results);
	CHECK_INT_EQ(b.results_open, open);
	CHECK_INT_EQ(b.results_close, strstr(doc, " ], ") - doc + 1);
	CHECK_INT_EQ(b.nresults, 3);
	/* the dearest element: {"a": [1, 2]}, 5 items, one string of 3 bytes */
	CHECK_INT_EQ(b.results_max_cost, 5 * JSONBUDGET_ITEM_BYTES + JSONBUDGET_STRING_BYTES + 3);
	CHECK(b.cost > b.results_cost && b.results_cost > b.results_max_cost);
	/* value ends: an object, a number, a string holding a bracket */
	CHECK_INT_EQ(jsonbudget_value_end(doc, strlen(doc), open + 2),
		     strstr(doc, "}, 3") - doc + 1);
	CHECK_INT_EQ(jsonbudget_value_end(doc, strlen(doc), strstr(doc, "3 ,") - doc),
		     strstr(doc, "3 ,") - doc + 1);
	CHECK_INT_EQ(jsonbudget_value_end(doc, strlen(doc), strstr(doc, "\"x]\"") - doc),
		     strstr(doc, "\"x]\"") - doc + 4);
}

static void test_not_results(void)
{
	struct jsonbudget b;

	/* a top-level array, results nested, results not an array, unbalanced, too deep */
	CHECK_INT_EQ(jsonbudget_scan("[{\"results\": [1]}]", 18, &b), 0);
	CHECK(!b.has_results);
	CHECK_INT_EQ(jsonbudget_scan("{\"x\": {\"results\": [1]}}", 23, &b), 0);
	CHECK(!b.has_results);
	CHECK_INT_EQ(jsonbudget_scan("{\"results\": {}}", 15, &b), 0);
	CHECK(!b.has_results);
	CHECK_INT_EQ(jsonbudget_scan("{\"results\": [0, 0", 17, &b), -1);
	CHECK_INT_EQ(b.values, 5);
	CHECK_INT_EQ(jsonbudget_scan("\"open", 5, &b), -1);
	{
		char deep[JSONBUDGET_DEPTH_MAX + 2];

		memset(deep, '[', sizeof(deep));
		CHECK_INT_EQ(jsonbudget_scan(deep, sizeof(deep), &b), -1);
	}
}

static void test_check(void)
{
	size_t n = 4u * 1024 * 1024;
	char *zeros = malloc(n + 2);
	struct errbuf eb = {{0}};

	CHECK(zeros != NULL);
	if (zeros == NULL)
		return;
	zeros[0] = '[';
	for (size_t i = 1; i < n; i += 2)
		memcpy(zeros + i, "0,", 2);
	zeros[n - 1] = '0';
	zeros[n] = ']';
	/* 2 Mi zeros: 160 MiB as a tree, over 4 x 4 MiB + 32 MiB */
	CHECK_INT_EQ(jsonbudget_check(zeros, n + 1, "z.json", &eb), -1);
	CHECK(strncmp(eb.msg, "z.json: refused: reading it would take about 16", 47) == 0);
	/* 64 KiB of them fits the floor */
	zeros[65535] = ']';
	CHECK_INT_EQ(jsonbudget_check(zeros, 65536, "small.json", &eb), 0);
	free(zeros);
}

int main(void)
{
	RUN(test_counts);
	RUN(test_not_results);
	RUN(test_check);
	return HARNESS_EXIT();
}
