/* Tests for fileio's path formatting: a path that does not fit is an error, never a cut path. */
#include <string.h>

#include "fileio.h"
#include "harness.h"

static void test_fmt_fits_or_fails(void)
{
	char buf[8];

	CHECK_INT_EQ(fileio_fmt(buf, sizeof(buf), "%s/%d", "ab", 12), 0);
	CHECK_STR_EQ(buf, "ab/12");
	CHECK_INT_EQ(fileio_fmt(buf, sizeof(buf), "%s", "1234567"), 0); /* 7 + NUL: fits */
	CHECK_INT_EQ(fileio_fmt(buf, sizeof(buf), "%s", "12345678"), -1);
}

static void test_join(void)
{
	struct errbuf eb = {{0}};
	char buf[16];

	CHECK_INT_EQ(fileio_join(buf, sizeof(buf), "out", "fits.tsv", &eb), 0);
	CHECK_STR_EQ(buf, "out/fits.tsv");
	CHECK_INT_EQ(fileio_join(buf, sizeof(buf), "rarplot-out", "report.md", &eb), -1);
	CHECK_STR_EQ(eb.msg, "rarplot-out: path too long");
}

int main(void)
{
	RUN(test_fmt_fits_or_fails);
	RUN(test_join);
	return HARNESS_EXIT();
}
