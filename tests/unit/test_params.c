/* Tests for params: -L lists, -P scans, hyperfine's product order and {name} substitution. */
#include <stdlib.h>

#include "harness.h"
#include "params.h"

static void test_list_escapes(void)
{
	struct params p = {0};
	struct errbuf eb = {{0}};

	CHECK_INT_EQ(params_add_list(&p, "x", "a\\,b,c\\\\d,,e\\x", &eb), 0);
	CHECK_INT_EQ(p.dims[0].n_values, 4);
	CHECK_STR_EQ(p.dims[0].values[0], "a,b");
	CHECK_STR_EQ(p.dims[0].values[1], "c\\d");
	CHECK_STR_EQ(p.dims[0].values[2], "");
	CHECK_STR_EQ(p.dims[0].values[3], "e\\x");
	params_clear(&p);
}

static void test_product_order(void)
{
	/* hyperfine: the first -L varies fastest. */
	struct params p = {0};
	struct errbuf eb = {{0}};
	const char *want[][2] = {{"1", "a"}, {"2", "a"}, {"1", "b"}, {"2", "b"}};

	CHECK_INT_EQ(params_add_list(&p, "x", "1,2", &eb), 0);
	CHECK_INT_EQ(params_add_list(&p, "y", "a,b", &eb), 0);
	CHECK_INT_EQ(params_combinations(&p), 4);
	for (size_t c = 0; c < 4; c++) {
		CHECK_STR_EQ(params_value(&p, c, 0), want[c][0]);
		CHECK_STR_EQ(params_value(&p, c, 1), want[c][1]);
	}
	params_clear(&p);
	CHECK_INT_EQ(params_combinations(&p), 1);
}

static void test_duplicate(void)
{
	struct params p = {0};
	struct errbuf eb = {{0}};

	CHECK_INT_EQ(params_add_list(&p, "x", "1", &eb), 0);
	CHECK_INT_EQ(params_add_list(&p, "x", "2", &eb), -1);
	CHECK(strstr(eb.msg, "Duplicate parameter names: x") != NULL);
	params_clear(&p);
}

static void test_substitute_nonoverlapping(void)
{
	/* hyperfine's test_get_command_line_nonoverlapping */
	struct params p = {0};
	struct errbuf eb = {{0}};
	char *s;

	CHECK_INT_EQ(params_add_list(&p, "foo", "{bar} baz", &eb), 0);
	CHECK_INT_EQ(params_add_list(&p, "bar", "quux", &eb), 0);
	s = params_substitute(&p, 0, "echo {foo} {bar} {baz} {", &eb);
	CHECK_STR_EQ(s, "echo {bar} baz quux {baz} {");
	free(s);
	params_clear(&p);
}

static void test_scan_int(void)
{
	struct params p = {0};
	struct errbuf eb = {{0}};

	CHECK_INT_EQ(params_add_scan(&p, "n", "1", "10", "3", &eb), 0);
	CHECK_INT_EQ(p.dims[0].n_values, 4);
	CHECK_STR_EQ(p.dims[0].values[0], "1");
	CHECK_STR_EQ(p.dims[0].values[3], "10");
	params_clear(&p);
	CHECK_INT_EQ(params_add_scan(&p, "n", "-2", "0", NULL, &eb), 0);
	CHECK_INT_EQ(p.dims[0].n_values, 3);
	CHECK_STR_EQ(p.dims[0].values[0], "-2");
	params_clear(&p);
}

static void test_scan_decimal(void)
{
	struct params p = {0};
	struct errbuf eb = {{0}};

	CHECK_INT_EQ(params_add_scan(&p, "t", "0", "1", "0.25", &eb), 0);
	CHECK_INT_EQ(p.dims[0].n_values, 5);
	CHECK_STR_EQ(p.dims[0].values[0], "0");
	CHECK_STR_EQ(p.dims[0].values[1], "0.25");
	CHECK_STR_EQ(p.dims[0].values[4], "1.00");
	params_clear(&p);
	CHECK_INT_EQ(params_add_scan(&p, "t", "0.5", "1", NULL, &eb), -1);
	CHECK(strstr(eb.msg, "step size") != NULL);
	CHECK_INT_EQ(params_add_scan(&p, "t", "3", "1", NULL, &eb), -1);
	CHECK(strstr(eb.msg, "empty range") != NULL);
	CHECK_INT_EQ(params_add_scan(&p, "t", "1", "3", "0", &eb), -1);
	CHECK_INT_EQ(params_add_scan(&p, "t", "0", "1000000", NULL, &eb), -1);
	params_clear(&p);
}

int main(void)
{
	RUN(test_list_escapes);
	RUN(test_product_order);
	RUN(test_duplicate);
	RUN(test_substitute_nonoverlapping);
	RUN(test_scan_int);
	RUN(test_scan_decimal);
	return HARNESS_EXIT();
}
