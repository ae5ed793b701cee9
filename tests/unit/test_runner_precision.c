/* Unit tests for runner_precision: the verdict on each attempt of a step (kept, measured again)
 * and on each point (another round or not), fed only a step's results. */
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"
#include "runner_reference.h"
#include "runner_precision.h"

#define WALL_NS 1000000ULL

/* n runs of wall_ns[i % 2] each, all on CPU; stall_ns each (0: none, wall: waited throughout). */
static void fill(struct measure_result *r, size_t n, const uint64_t wall_ns[2], int64_t stall_ns)
{
	r->n = n;
	r->wall_ns = calloc(n, sizeof(*r->wall_ns));
	r->user_ns = calloc(n, sizeof(*r->user_ns));
	r->system_ns = calloc(n, sizeof(*r->system_ns));
	r->exit_codes = calloc(n, sizeof(*r->exit_codes));
	r->stall_ns = calloc(n, sizeof(*r->stall_ns));
	for (size_t i = 0; i < n; i++) {
		r->wall_ns[i] = wall_ns[i % 2];
		r->user_ns[i] = wall_ns[i % 2] / 2;
		r->system_ns[i] = wall_ns[i % 2] / 2;
		r->stall_ns[i] = stall_ns;
	}
	r->all_succeeded = r->complete = true;
}

/* One step of the subjects "a" and "b" (then the reference when with_ref), n runs each. */
static void step(struct journal_subject *js, size_t n, const uint64_t wall_ns[2], int64_t stall_ns,
		 bool with_ref)
{
	static char *names[] = {"a", "b", RUNNER_REFERENCE_ID};

	for (size_t k = 0; k < 2u + with_ref; k++) {
		js[k] = (struct journal_subject){.subject = names[k]};
		fill(&js[k].result, n, wall_ns, stall_ns);
	}
}

static void step_clear(struct journal_subject *js, size_t n)
{
	for (size_t k = 0; k < n; k++)
		measure_result_clear(&js[k].result);
}

static const char *const ids[] = {"a", "b"};
static const uint64_t steady[2] = {WALL_NS, WALL_NS};

/* A judge of contention alone (no precision mode) over npoints points of "a" and "b". */
static struct runner_precision *judge(struct manifest *m, uint32_t remeasure, size_t npoints)
{
	*m = (struct manifest){
	    .remeasure = remeasure, .contention_limit = 0.2, .rounds = 1, .min_runs = 5};
	return runner_precision_new(m, npoints, ids, 2);
}

static void test_contended_step_measured_again_then_kept(void)
{
	struct manifest m;
	struct runner_precision *p = judge(&m, 1, 3);
	struct journal_subject js[2];
	struct errbuf eb = {{0}};
	uint64_t discarded = 0;

	CHECK(p != NULL);
	step(js, 5, steady, (int64_t)WALL_NS, false);
	/* Every run waited for a CPU: thrown away once, its runs counted... */
	CHECK_INT_EQ(runner_precision_offer(p, 1, js, 2, 2, 0, &discarded, &eb),
		     RUNNER_PRECISION_REMEASURE);
	CHECK_INT_EQ(discarded, 10);
	/* ...and kept as it is once the manifest's remeasure count is spent. */
	CHECK_INT_EQ(runner_precision_offer(p, 1, js, 2, 2, 1, &discarded, &eb),
		     RUNNER_PRECISION_KEPT);
	CHECK_INT_EQ(discarded, 10);
	step_clear(js, 2);
	/* A step no run of which waited is kept at once. */
	step(js, 5, steady, 0, false);
	discarded = 0;
	CHECK_INT_EQ(runner_precision_offer(p, 2, js, 2, 2, 0, &discarded, &eb),
		     RUNNER_PRECISION_KEPT);
	CHECK_INT_EQ(discarded, 0);
	step_clear(js, 2);
	runner_precision_free(p);
}

static void test_busy_host_keeps_steps(void)
{
	uint64_t discarded = 0;
	struct manifest m;
	struct runner_precision *p = judge(&m, 100, 1);
	struct errbuf eb = {{0}};
	struct journal_subject js[2];

	step(js, 5, steady, (int64_t)WALL_NS, false);
	/* Measuring again pays against a burst, not a host busy all along: from the 8th
	 * attempt, with more than a quarter of them flagged, steps are kept. */
	for (uint32_t a = 0; a < 7; a++)
		CHECK_INT_EQ(runner_precision_offer(p, 0, js, 2, 2, a, &discarded, &eb),
			     RUNNER_PRECISION_REMEASURE);
	CHECK_INT_EQ(runner_precision_offer(p, 0, js, 2, 2, 7, &discarded, &eb),
		     RUNNER_PRECISION_KEPT);
	CHECK_INT_EQ(discarded, 7 * 10);
	step_clear(js, 2);
	runner_precision_free(p);
}

static void test_rounds_until_max_runs(void)
{
	/* Precision mode: 4 runs a round over 2 rounds, at most 8 runs a point. */
	struct manifest m = {.precision = 0.01,
			     .min_runs = 4,
			     .max_runs = 8,
			     .rounds = 2,
			     .max_rounds = 4,
			     .contention_limit = 1,
			     .estimator = ESTIMATE_MEAN};
	const uint64_t noisy[2] = {WALL_NS, 9 * WALL_NS};
	struct runner_precision *p = runner_precision_new(&m, 2, ids, 2);
	struct journal_subject js[3];
	struct errbuf eb = {{0}};
	uint64_t discarded = 0;

	CHECK(runner_precision_needs_more(p, 0)); /* nothing measured yet */
	step(js, 2, noisy, 0, true);
	/* The reference (last) is measured beside the subjects and ignored by the precision. */
	CHECK_INT_EQ(runner_precision_offer(p, 0, js, 3, 2, 0, &discarded, &eb),
		     RUNNER_PRECISION_KEPT);
	runner_precision_refresh(p);
	CHECK(runner_precision_needs_more(p, 0)); /* 2 runs of 1 and 9 ms: far from 1 % */
	CHECK(runner_precision_needs_more(p, 1)); /* the other point is untouched */
	for (int k = 0; k < 2; k++)
		CHECK_INT_EQ(runner_precision_offer(p, 0, js, 3, 2, 0, &discarded, &eb),
			     RUNNER_PRECISION_KEPT);
	CHECK(runner_precision_needs_more(p, 0)); /* 6 runs: one more round fits in 8 */
	CHECK_INT_EQ(runner_precision_offer(p, 0, js, 3, 2, 0, &discarded, &eb),
		     RUNNER_PRECISION_KEPT);
	/* 8 runs kept: another round of 2 would pass max_runs, so the point is done. */
	CHECK(!runner_precision_needs_more(p, 0));
	step_clear(js, 3);
	runner_precision_free(p);
}

static void test_foreign_step_refused(void)
{
	struct manifest m = {.precision = 0.01, .min_runs = 2, .max_runs = 8, .rounds = 1};
	const char *const other[] = {"a", "c"};
	struct runner_precision *p = runner_precision_new(&m, 1, other, 2);
	struct journal_subject js[2];
	struct errbuf eb = {{0}};
	uint64_t discarded = 0;

	step(js, 2, steady, 0, false);
	CHECK_INT_EQ(runner_precision_offer(p, 0, js, 2, 2, 0, &discarded, &eb),
		     RUNNER_PRECISION_FAILED);
	CHECK_STR_EQ(eb.msg, "point 1: a step measured b where this run has c");
	step_clear(js, 2);
	runner_precision_free(p);
	runner_precision_free(NULL);
}

int main(void)
{
	RUN(test_contended_step_measured_again_then_kept);
	RUN(test_busy_host_keeps_steps);
	RUN(test_rounds_until_max_runs);
	RUN(test_foreign_step_refused);
	return HARNESS_EXIT();
}
