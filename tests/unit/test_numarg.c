/* Tests for numarg: the command lines' number parsers, their bounds and their three wordings. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "harness.h"
#include "numarg.h"

static void test_u64_accepts_digits_within_bounds(void)
{
	uint64_t v = 7;

	CHECK_INT_EQ(numarg_u64("0", 0, 10, &v), NUMARG_OK);
	CHECK_INT_EQ(v, 0);
	CHECK_INT_EQ(numarg_u64("10", 0, 10, &v), NUMARG_OK);
	CHECK_INT_EQ(v, 10);
	CHECK_INT_EQ(numarg_u64("18446744073709551615", 0, UINT64_MAX, &v), NUMARG_OK);
	CHECK(v == UINT64_MAX);
	CHECK_INT_EQ(numarg_u64("007", 0, 10, &v), NUMARG_OK);
	CHECK_INT_EQ(v, 7);
}

static void test_u64_refuses_signs_blanks_and_junk(void)
{
	const char *bad[] = {"", "-1", "+1", " 1", "1 ", "1x", "x", "0x10", "1.0", " -5"};
	uint64_t v = 42;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_INT_EQ(numarg_u64(bad[i], 0, UINT64_MAX, &v), NUMARG_NOT_NUMBER);
	CHECK_INT_EQ(v, 42); /* untouched on failure */
}

static void test_u64_range(void)
{
	uint64_t v = 42;

	CHECK_INT_EQ(numarg_u64("0", 1, 5, &v), NUMARG_OUT_OF_RANGE);
	CHECK_INT_EQ(numarg_u64("6", 1, 5, &v), NUMARG_OUT_OF_RANGE);
	CHECK_INT_EQ(numarg_u64("18446744073709551616", 0, UINT64_MAX, &v), NUMARG_OUT_OF_RANGE);
	CHECK_INT_EQ(numarg_u64("4294967296", 0, UINT32_MAX, &v), NUMARG_OUT_OF_RANGE);
	CHECK_INT_EQ(v, 42);
}

static void test_double_bounds_open_and_closed(void)
{
	const struct numarg_bounds open = {0, 100, NUMARG_OPEN_LO | NUMARG_OPEN_HI};
	const struct numarg_bounds closed = {0, 100, 0};
	double v = -1;

	CHECK_INT_EQ(numarg_double("0", &open, &v), NUMARG_OUT_OF_RANGE);
	CHECK_INT_EQ(numarg_double("100", &open, &v), NUMARG_OUT_OF_RANGE);
	CHECK_INT_EQ(numarg_double("99.5", &open, &v), NUMARG_OK);
	CHECK(v == 99.5);
	CHECK_INT_EQ(numarg_double("0", &closed, &v), NUMARG_OK);
	CHECK(v == 0);
	CHECK_INT_EQ(numarg_double("100", &closed, &v), NUMARG_OK);
	CHECK(v == 100);
	CHECK_INT_EQ(numarg_double("1e-3", NULL, &v), NUMARG_OK);
	CHECK(v == 1e-3);
}

static void test_double_refuses_junk_nan_inf(void)
{
	const char *bad[] = {"", "x", "1x", "nan", "inf", "-inf", "1,", "2%"};
	double v = 3;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_INT_EQ(numarg_double(bad[i], NULL, &v), NUMARG_NOT_NUMBER);
	CHECK_INT_EQ(numarg_double("1e999", NULL, &v), NUMARG_OUT_OF_RANGE);
	CHECK(v == 3);
}

static void test_double_percent_sign(void)
{
	const struct numarg_bounds pct = {0, 100, NUMARG_OPEN_HI | NUMARG_PERCENT_SIGN};
	double v = -1;

	CHECK_INT_EQ(numarg_double("2%", &pct, &v), NUMARG_OK);
	CHECK(v == 2);
	CHECK_INT_EQ(numarg_double("2.5", &pct, &v), NUMARG_OK);
	CHECK(v == 2.5);
	CHECK_INT_EQ(numarg_double("%", &pct, &v), NUMARG_NOT_NUMBER);
	CHECK_INT_EQ(numarg_double("2%%", &pct, &v), NUMARG_NOT_NUMBER);
	CHECK_INT_EQ(numarg_double("100%", &pct, &v), NUMARG_OUT_OF_RANGE);
}

static void test_double_prefix_walks_a_list(void)
{
	const struct numarg_bounds nonneg = {0, INFINITY, 0};
	const char *p = "100, 1e4,x";
	const char *end = NULL;
	double v = 0;

	CHECK_INT_EQ(numarg_double_prefix(p, &nonneg, &v, &end), NUMARG_OK);
	CHECK(v == 100);
	CHECK_INT_EQ(*end, ',');
	/* A blank after the comma is skipped, as strtod does. */
	CHECK_INT_EQ(numarg_double_prefix(end + 1, &nonneg, &v, &end), NUMARG_OK);
	CHECK(v == 1e4);
	CHECK_INT_EQ(numarg_double_prefix(end + 1, &nonneg, &v, &end), NUMARG_NOT_NUMBER);
	CHECK_STR_EQ(end, "x");
	CHECK_INT_EQ(numarg_double_prefix("-1", &nonneg, &v, &end), NUMARG_OUT_OF_RANGE);
}

static void test_seconds_round_up_to_ms(void)
{
	long ms = 0;

	CHECK_INT_EQ(numarg_seconds_ms("2.5", 60, &ms), NUMARG_OK);
	CHECK_INT_EQ(ms, 2500);
	CHECK_INT_EQ(numarg_seconds_ms("0.0001", 60, &ms), NUMARG_OK);
	CHECK_INT_EQ(ms, 1);
	CHECK_INT_EQ(numarg_seconds_ms("60", 60, &ms), NUMARG_OK);
	CHECK_INT_EQ(ms, 60000);
	ms = 9;
	CHECK_INT_EQ(numarg_seconds_ms("0", 60, &ms), NUMARG_OUT_OF_RANGE);
	CHECK_INT_EQ(numarg_seconds_ms("60.001", 60, &ms), NUMARG_OUT_OF_RANGE);
	CHECK_INT_EQ(numarg_seconds_ms("-1", 60, &ms), NUMARG_OUT_OF_RANGE);
	CHECK_INT_EQ(numarg_seconds_ms("10s", 60, &ms), NUMARG_NOT_NUMBER);
	CHECK_INT_EQ(ms, 9);
}

static void test_wordings(void)
{
	const struct numarg_words is_not = {"--runs", "a non-negative integer",
					    NUMARG_WORDING_IS_NOT};
	const struct numarg_words quoted = {"--uid", "a number", NUMARG_WORDING_QUOTED};
	const struct numarg_words use = {"--noise", "use a percentage such as 2%",
					 NUMARG_WORDING_USE};
	struct errbuf eb = {{0}};

	CHECK_INT_EQ(numarg_error(&eb, &is_not, "x", NUMARG_NOT_NUMBER), -1);
	CHECK_STR_EQ(eb.msg, "--runs: 'x' is not a non-negative integer");
	numarg_error(&eb, &is_not, "99999999999999999999", NUMARG_OUT_OF_RANGE);
	CHECK_STR_EQ(eb.msg, "--runs: '99999999999999999999' is not a non-negative integer");
	numarg_error(&eb, &quoted, "-1", NUMARG_NOT_NUMBER);
	CHECK_STR_EQ(eb.msg, "--uid: \"-1\" is not a number");
	numarg_error(&eb, &quoted, "99999999999", NUMARG_OUT_OF_RANGE);
	CHECK_STR_EQ(eb.msg, "--uid: 99999999999 is out of range");
	numarg_error(&eb, &use, "x", NUMARG_NOT_NUMBER);
	CHECK_STR_EQ(eb.msg, "--noise x: use a percentage such as 2%");
}

static void test_get_helpers(void)
{
	const struct numarg_words w = {"--forks", "1-1024", NUMARG_WORDING_IS_NOT};
	const struct numarg_bounds b = {0, 100, NUMARG_OPEN_LO | NUMARG_OPEN_HI};
	struct errbuf eb = {{0}};
	uint64_t n = 0;
	double d = 0;

	CHECK_INT_EQ(numarg_get_u64(&w, "16", 1, 1024, &n, &eb), 0);
	CHECK_INT_EQ(n, 16);
	CHECK_INT_EQ(numarg_get_u64(&w, "0", 1, 1024, &n, &eb), -1);
	CHECK_STR_EQ(eb.msg, "--forks: '0' is not 1-1024");
	CHECK_INT_EQ(numarg_get_double(&w, "5", &b, &d, &eb), 0);
	CHECK(d == 5);
	CHECK_INT_EQ(numarg_get_double(&w, "200", &b, &d, &eb), -1);
	CHECK_STR_EQ(eb.msg, "--forks: '200' is not 1-1024");
}

/* The file readers keep the C library's syntax: blanks, a sign, a base; the rest is the caller's.
 */
static void test_integer_prefixes_keep_strtoll_syntax(void)
{
	const char *end = NULL;
	int64_t v = 1;
	uint64_t u = 1;

	CHECK_INT_EQ(numarg_i64_prefix(" -42 rest", 10, &v, &end), NUMARG_OK);
	CHECK(v == -42);
	CHECK_STR_EQ(end, " rest");
	CHECK_INT_EQ(numarg_i64_prefix("0x1f", 0, &v, &end), NUMARG_OK);
	CHECK(v == 31);
	CHECK_INT_EQ(numarg_i64_prefix("017", 0, &v, &end), NUMARG_OK);
	CHECK(v == 15);
	CHECK_INT_EQ(numarg_i64_prefix("x", 10, &v, &end), NUMARG_NOT_NUMBER);
	CHECK(v == 0);
	CHECK_STR_EQ(end, "x");
	CHECK_INT_EQ(numarg_i64_prefix("", 10, &v, &end), NUMARG_NOT_NUMBER);
	CHECK_INT_EQ(numarg_i64_prefix("9223372036854775808", 10, &v, &end), NUMARG_OUT_OF_RANGE);
	CHECK(v == INT64_MAX); /* clamped, as strtoll clamps */
	CHECK_STR_EQ(end, "");
	CHECK_INT_EQ(numarg_i64_prefix("-9223372036854775809", 10, &v, &end), NUMARG_OUT_OF_RANGE);
	CHECK(v == INT64_MIN);
	/* The unsigned reader: a umask's octal, a round number before the rest of an id. */
	CHECK_INT_EQ(numarg_u64_prefix("0755", 8, &u, &end), NUMARG_OK);
	CHECK(u == 0755);
	CHECK_INT_EQ(numarg_u64_prefix("89", 8, &u, &end), NUMARG_NOT_NUMBER);
	CHECK_INT_EQ(numarg_u64_prefix("12;round", 10, &u, &end), NUMARG_OK);
	CHECK(u == 12 && strcmp(end, ";round") == 0);
	CHECK_INT_EQ(numarg_u64_prefix("18446744073709551616", 10, &u, &end), NUMARG_OUT_OF_RANGE);
	CHECK(u == UINT64_MAX);
}

static void test_any_double_prefix_takes_nan_inf_and_says_range(void)
{
	const char *end = NULL;
	double v = 1;

	CHECK_INT_EQ(numarg_any_double_prefix("2.5e3\tx", &v, &end), NUMARG_OK);
	CHECK(v == 2500.0);
	CHECK_STR_EQ(end, "\tx");
	CHECK_INT_EQ(numarg_any_double_prefix("nan", &v, &end), NUMARG_OK);
	CHECK(isnan(v));
	CHECK_INT_EQ(numarg_any_double_prefix("-inf", &v, &end), NUMARG_OK);
	CHECK(isinf(v) && v < 0);
	CHECK_INT_EQ(numarg_any_double_prefix("1e999", &v, &end), NUMARG_OUT_OF_RANGE);
	CHECK(isinf(v));
	CHECK_INT_EQ(numarg_any_double_prefix("1e-400", &v, &end), NUMARG_OUT_OF_RANGE);
	CHECK_INT_EQ(numarg_any_double_prefix("abc", &v, &end), NUMARG_NOT_NUMBER);
	CHECK(v == 0);
	CHECK_STR_EQ(end, "abc");
}

/* A reader between readdir calls must not disturb errno, which readdir's end is told by. */
static void test_prefix_readers_leave_errno(void)
{
	const char *end = NULL;
	int64_t i = 0;
	double d = 0;

	errno = EINTR;
	CHECK_INT_EQ(numarg_i64_prefix("99999999999999999999", 10, &i, &end), NUMARG_OUT_OF_RANGE);
	CHECK_INT_EQ(errno, EINTR);
	errno = 0;
	CHECK_INT_EQ(numarg_any_double_prefix("1e999", &d, &end), NUMARG_OUT_OF_RANGE);
	CHECK_INT_EQ(errno, 0);
}

static void test_leading_readers(void)
{
	CHECK(numarg_leading_double("12.5 ms") == 12.5);
	CHECK(numarg_leading_double("-") == 0);
	CHECK(isnan(numarg_leading_double("nan")));
	CHECK(numarg_leading_u64("42\t7") == 42);
	CHECK(numarg_leading_u64("") == 0);
	CHECK(numarg_leading_u64("4x") == 4);
}

int main(void)
{
	RUN(test_u64_accepts_digits_within_bounds);
	RUN(test_u64_refuses_signs_blanks_and_junk);
	RUN(test_u64_range);
	RUN(test_double_bounds_open_and_closed);
	RUN(test_double_refuses_junk_nan_inf);
	RUN(test_double_percent_sign);
	RUN(test_double_prefix_walks_a_list);
	RUN(test_seconds_round_up_to_ms);
	RUN(test_wordings);
	RUN(test_get_helpers);
	RUN(test_integer_prefixes_keep_strtoll_syntax);
	RUN(test_any_double_prefix_takes_nan_inf_and_says_range);
	RUN(test_prefix_readers_leave_errno);
	RUN(test_leading_readers);
	return HARNESS_EXIT();
}
