/* Tests for manifest_mode (src/rarbench): every runner outcome's exit status, as rarbench(1)
 * documents it, and the whole --manifest entry on what fails before any root work. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "exitcode.h"
#include "harness.h"
#include "manifest_mode.h"
#include "runner.h"

static char dir[] = "/tmp/rarperf-test-manifest-mode-XXXXXX";

/* The shared numbers are the man pages' (rarbench.1, rarlab.1, rarplot.1, confgen.1). */
static void test_exit_numbers_are_the_documented_ones(void)
{
	CHECK_INT_EQ(EXITCODE_OK, 0);
	CHECK_INT_EQ(EXITCODE_FAILED, 1);
	CHECK_INT_EQ(EXITCODE_REGRESSED, 1);
	CHECK_INT_EQ(EXITCODE_BAD_INPUT, 2);
	CHECK_INT_EQ(EXITCODE_BUSY, 3);
	CHECK_INT_EQ(EXITCODE_INCONCLUSIVE, 3);
	CHECK_INT_EQ(EXITCODE_CANNOT_RUN, 127);
	CHECK_INT_EQ(EXITCODE_SIGNAL_BASE, 128);
}

static void test_done_exits_0(void)
{
	CHECK_INT_EQ(manifest_mode_exit_status(RUNNER_DONE), 0);
}

static void test_bad_input_exits_2(void)
{
	CHECK_INT_EQ(manifest_mode_exit_status(RUNNER_BAD_INPUT), 2);
}

static void test_busy_prefix_exits_3(void)
{
	CHECK_INT_EQ(manifest_mode_exit_status(RUNNER_BUSY), 3);
}

/* This host: the prefix missing, not root, a write, out of memory. */
static void test_host_failure_exits_1(void)
{
	CHECK_INT_EQ(manifest_mode_exit_status(RUNNER_HOST_FAILED), 1);
}

/* A point that failed, points left unmeasured, subjects left out of a point: 1, --resume. */
static void test_point_failures_exit_1(void)
{
	CHECK_INT_EQ(manifest_mode_exit_status(RUNNER_POINT_FAILED), 1);
	CHECK_INT_EQ(manifest_mode_exit_status(RUNNER_POINTS_UNMEASURED), 1);
	CHECK_INT_EQ(manifest_mode_exit_status(RUNNER_SUBJECTS_TIMED_OUT), 1);
}

/* An interrupted manifest run exits 1 (not 128 + signal, as the plain mode does). */
static void test_interrupted_run_exits_1(void)
{
	CHECK_INT_EQ(manifest_mode_exit_status(RUNNER_INTERRUPTED), 1);
}

static void test_profile_failure_exits_1(void)
{
	CHECK_INT_EQ(manifest_mode_exit_status(RUNNER_PROFILE_FAILED), 1);
}

/* Only done is 0: every outcome but RUNNER_DONE is a non-zero status. */
static void test_only_done_is_success(void)
{
	for (int o = RUNNER_DONE; o <= RUNNER_PROFILE_FAILED; o++)
		CHECK((manifest_mode_exit_status((enum runner_outcome)o) == 0) ==
		      (o == RUNNER_DONE));
}

/* The whole entry: a bad option and a manifest that is not there are the user's input. */
static void test_main_exits_2_on_bad_input(void)
{
	char path[PATH_MAX];
	char *bad_option[] = {"rarbench", "--manifest", "m.json", "--bogus", NULL};
	char *no_manifest[] = {"rarbench",  "--manifest", path,   "--prefix", dir,
			       "--dry-run", "--progress", "none", NULL};
	char *not_this_host[] = {"rarbench", "--manifest", "m.json", "--not-this-host", NULL};

	snprintf(path, sizeof(path), "%s/none.json", dir);
	/* the parses that run to their end first: getopt keeps its place after an error */
	CHECK_INT_EQ(manifest_mode_main(8, no_manifest), 2);
	CHECK_INT_EQ(manifest_mode_main(4, not_this_host), 2);
	CHECK_INT_EQ(manifest_mode_main(4, bad_option), 2);
}

int main(void)
{
	if (mkdtemp(dir) == NULL)
		return 1;
	RUN(test_exit_numbers_are_the_documented_ones);
	RUN(test_done_exits_0);
	RUN(test_bad_input_exits_2);
	RUN(test_busy_prefix_exits_3);
	RUN(test_host_failure_exits_1);
	RUN(test_point_failures_exit_1);
	RUN(test_interrupted_run_exits_1);
	RUN(test_profile_failure_exits_1);
	RUN(test_only_done_is_success);
	RUN(test_main_exits_2_on_bad_input);
	if (harness_remove_tree(dir) != 0)
		return 1;
	return HARNESS_EXIT();
}
