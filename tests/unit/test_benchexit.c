/* Tests for benchexit (src/rarlab): what rarlab makes of the exit status of a local rarbench. */
#include "benchexit.h"
#include "harness.h"

static void test_ok(void)
{
	CHECK_INT_EQ(benchexit_of(0), BENCHEXIT_OK);
}

/* 2 is the manifest's fault, 3 another run's lock: rarlab stops before any host (rarbench said
 * why). */
static void test_bad_input_and_busy(void)
{
	CHECK_INT_EQ(benchexit_of(2), BENCHEXIT_BAD_INPUT);
	CHECK_INT_EQ(benchexit_of(3), BENCHEXIT_BUSY);
}

/* 1 and any status rarbench(1) does not name are a failure. */
static void test_failures(void)
{
	CHECK_INT_EQ(benchexit_of(1), BENCHEXIT_FAILED);
	CHECK_INT_EQ(benchexit_of(4), BENCHEXIT_FAILED);
	CHECK_INT_EQ(benchexit_of(130), BENCHEXIT_FAILED);
	CHECK_INT_EQ(benchexit_of(255), BENCHEXIT_FAILED);
}

/* 127: the child's exec failed; -1: it did not exit (killed), nothing is known. */
static void test_not_run(void)
{
	CHECK_INT_EQ(benchexit_of(127), BENCHEXIT_CANNOT_RUN);
	CHECK_INT_EQ(benchexit_of(-1), BENCHEXIT_UNKNOWN);
}

int main(void)
{
	RUN(test_ok);
	RUN(test_bad_input_and_busy);
	RUN(test_failures);
	RUN(test_not_run);
	return HARNESS_EXIT();
}
