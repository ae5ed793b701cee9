/* Tests for runstate (src/sweep/runstate.h): the step's decisions (a subject hung and left out,
 * the point timed out, measured again, the sweep stopped), the passes' steps on a resumed
 * journal, the profile pass's tallies and the run's verdict, fed only outcomes: nothing runs. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "manifest.h"
#include "plan_testutil.h"
#include "runstate.h"
#include "sweep.h"

/* A manifest of rounds planned, max_rounds at most and precision (0: none): all runstate reads. */
static struct manifest shape(uint32_t rounds, uint32_t max_rounds, double precision)
{
	return (struct manifest){
	    .rounds = rounds, .max_rounds = max_rounds, .precision = precision};
}

/* rs set up over npoints points and nsub subjects, active[i] from the string ("10": the second
 * skipped). 0 or -1. */
static int state(struct runstate *rs, const struct manifest *m, size_t npoints, const char *active)
{
	bool a[MANIFEST_SUBJECTS_MAX];
	size_t n = strlen(active);
	struct errbuf eb = {{0}};

	for (size_t i = 0; i < n; i++)
		a[i] = active[i] == '1';
	runstate_init(rs);
	return runstate_setup(rs, m, npoints, a, n, &eb);
}

/* One round, no precision mode: a hung subject may be left out (partial steps). */
static int one_round(struct runstate *rs, const char *active)
{
	struct manifest m = shape(1, 1, 0);

	return state(rs, &m, 3, active);
}

/* --- life cycle ---------------------------------------------------------------------------- */

/* An empty state holds nothing, and clearing it (twice) closes no descriptor. */
static void test_empty_state(void)
{
	struct runstate rs;

	runstate_init(&rs);
	CHECK_INT_EQ(rs.stderr_fd, -1);
	CHECK_INT_EQ(rs.nsubjects, 0);
	CHECK_INT_EQ(rs.failed_points, 0);
	CHECK(rs.journalled == NULL);
	CHECK_INT_EQ(runstate_verdict(&rs), RUNSTATE_COMPLETE);
	runstate_clear(&rs);
	runstate_clear(&rs);
	CHECK_INT_EQ(rs.stderr_fd, -1);
}

/* The set-up state: the active subjects as resolved, nothing journalled, nothing failed. */
static void test_setup_shape(void)
{
	struct runstate rs;

	CHECK_INT_EQ(one_round(&rs, "101"), 0);
	CHECK_INT_EQ(rs.nsubjects, 3);
	CHECK(rs.active[0] && !rs.active[1] && rs.active[2]);
	CHECK_INT_EQ(rs.npoints, 3);
	CHECK(rs.partial_steps);
	for (size_t p = 0; p < 3; p++)
		CHECK(!runstate_journalled(&rs, p, 1));
	CHECK(!runstate_journalled(&rs, 3, 1)); /* no such point */
	CHECK(!runstate_journalled(&rs, 0, 2)); /* no such round */
	runstate_clear(&rs);
}

/* More subjects than a manifest may hold is refused, not overrun. */
static void test_setup_refuses_too_many_subjects(void)
{
	bool a[MANIFEST_SUBJECTS_MAX + 1] = {0};
	struct manifest m = shape(1, 1, 0);
	struct errbuf eb = {{0}};
	struct runstate rs;

	runstate_init(&rs);
	CHECK_INT_EQ(runstate_setup(&rs, &m, 2, a, MANIFEST_SUBJECTS_MAX + 1, &eb), -1);
	CHECK(strstr(eb.msg, "subjects") != NULL);
	runstate_clear(&rs);
}

/* The grant checks' stderr file: one close-on-exec descriptor, opened once, closed by clear. */
static void test_stderr_file_once(void)
{
	struct errbuf eb = {{0}};
	struct runstate rs;
	int fd;

	CHECK_INT_EQ(one_round(&rs, "1"), 0);
	CHECK_INT_EQ(runstate_open_stderr(&rs, &eb), 0);
	fd = rs.stderr_fd;
	CHECK(fd >= 0);
	CHECK((fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0);
	CHECK_INT_EQ(runstate_open_stderr(&rs, &eb), 0);
	CHECK_INT_EQ(rs.stderr_fd, fd);
	runstate_clear(&rs);
	CHECK_INT_EQ(rs.stderr_fd, -1);
	CHECK(fcntl(fd, F_GETFD) == -1 && errno == EBADF);
}

/* --- a run timed out ----------------------------------------------------------------------- */

/* With one step per point, a subject whose grant check hangs is left out, the others kept. */
static void test_check_hang_left_out(void)
{
	struct runstate rs;

	CHECK_INT_EQ(one_round(&rs, "111"), 0);
	runstate_step_begin(&rs);
	CHECK_INT_EQ(runstate_step_subjects(&rs), 3);
	CHECK(runstate_leave_out(&rs, RUNSTATE_CHECK, 1));
	CHECK(rs.hung[1]);
	CHECK(!runstate_in_step(&rs, 1));
	CHECK(runstate_in_step(&rs, 0) && runstate_in_step(&rs, 2));
	CHECK_INT_EQ(runstate_step_subjects(&rs), 2);
	CHECK_INT_EQ(runstate_check_end(&rs), RUNNER_STEP_OK);
	runstate_clear(&rs);
}

/* With several rounds a point's rounds must measure the same subjects: a hang costs the point. */
static void test_hang_costs_point_with_rounds(void)
{
	struct manifest m = shape(3, 3, 0);
	struct runstate rs;

	CHECK_INT_EQ(state(&rs, &m, 2, "11"), 0);
	CHECK(!rs.partial_steps);
	runstate_step_begin(&rs);
	CHECK(!runstate_leave_out(&rs, RUNSTATE_CHECK, 0));
	CHECK(!runstate_leave_out(&rs, RUNSTATE_MEASURE, 0));
	CHECK(!rs.hung[0]);
	CHECK_INT_EQ(runstate_step_subjects(&rs), 2);
	runstate_clear(&rs);
}

/* Precision mode takes extra rounds per point: the same, even with one round planned. */
static void test_hang_costs_point_in_precision_mode(void)
{
	struct manifest m = shape(1, 1, 0.02);
	struct runstate rs;

	CHECK_INT_EQ(state(&rs, &m, 2, "11"), 0);
	CHECK(!rs.partial_steps);
	runstate_step_begin(&rs);
	CHECK(!runstate_leave_out(&rs, RUNSTATE_MEASURE, 1));
	runstate_clear(&rs);
}

/* Every subject hung in its grant check: the point times out, counted once, no subject counted
 * as left out of it. */
static void test_every_subject_hung(void)
{
	struct runstate rs;

	CHECK_INT_EQ(one_round(&rs, "111"), 0);
	runstate_step_begin(&rs);
	for (size_t i = 0; i < 3; i++)
		CHECK(runstate_leave_out(&rs, RUNSTATE_CHECK, i));
	CHECK_INT_EQ(runstate_step_subjects(&rs), 0);
	CHECK_INT_EQ(runstate_check_end(&rs), RUNNER_STEP_TIMEDOUT);
	CHECK_INT_EQ(runstate_step_end(&rs, RUNNER_STEP_TIMEDOUT), RUNSTATE_GO_ON);
	CHECK_INT_EQ(rs.failed_points, 1);
	CHECK_INT_EQ(rs.hung_runs, 0);
	CHECK_INT_EQ(runstate_verdict(&rs), RUNSTATE_POINTS_UNMEASURED);
	runstate_clear(&rs);
}

/* Measuring, a hung subject is left out and the step measured again, while another remains. */
static void test_measure_hang_needs_another_subject(void)
{
	struct runstate rs;

	CHECK_INT_EQ(one_round(&rs, "11"), 0);
	runstate_step_begin(&rs);
	CHECK(runstate_leave_out(&rs, RUNSTATE_MEASURE, 0));
	/* The last one left: measured again without it would measure nothing. */
	CHECK(!runstate_leave_out(&rs, RUNSTATE_MEASURE, 1));
	CHECK(runstate_in_step(&rs, 1));
	CHECK_INT_EQ(runstate_step_subjects(&rs), 1);
	runstate_clear(&rs);
}

/* A single subject that hangs while measured costs the point at once. */
static void test_measure_hang_of_only_subject(void)
{
	struct runstate rs;

	CHECK_INT_EQ(one_round(&rs, "01"), 0);
	runstate_step_begin(&rs);
	CHECK(!runstate_leave_out(&rs, RUNSTATE_MEASURE, 1));
	CHECK_INT_EQ(runstate_step_end(&rs, RUNNER_STEP_TIMEDOUT), RUNSTATE_GO_ON);
	CHECK_INT_EQ(rs.failed_points, 1);
	runstate_clear(&rs);
}

/* The calibration workload (no subject) timing out is the point's, whatever the phase. */
static void test_reference_timeout_costs_point(void)
{
	struct runstate rs;

	CHECK_INT_EQ(one_round(&rs, "111"), 0);
	runstate_step_begin(&rs);
	CHECK(!runstate_leave_out(&rs, RUNSTATE_MEASURE, SIZE_MAX));
	CHECK(!runstate_leave_out(&rs, RUNSTATE_CHECK, SIZE_MAX));
	CHECK(!runstate_leave_out(&rs, RUNSTATE_MEASURE, 3)); /* one past the subjects */
	CHECK_INT_EQ(runstate_step_subjects(&rs), 3);
	CHECK_INT_EQ(runstate_step_end(&rs, RUNNER_STEP_TIMEDOUT), RUNSTATE_GO_ON);
	CHECK_INT_EQ(rs.failed_points, 1);
	CHECK_INT_EQ(rs.hung_runs, 0);
	runstate_clear(&rs);
}

/* A subject skipped on this host is in no step, and never left out of one. */
static void test_skipped_subject_never_in_step(void)
{
	struct runstate rs;

	CHECK_INT_EQ(one_round(&rs, "101"), 0);
	runstate_step_begin(&rs);
	CHECK(!runstate_in_step(&rs, 1));
	CHECK(!runstate_leave_out(&rs, RUNSTATE_CHECK, 1));
	CHECK(!rs.hung[1]);
	CHECK_INT_EQ(runstate_step_subjects(&rs), 2);
	CHECK_INT_EQ(runstate_step_end(&rs, RUNNER_STEP_OK), RUNSTATE_GO_ON);
	CHECK_INT_EQ(rs.hung_runs, 0);
	runstate_clear(&rs);
}

/* A subject left out of one step is counted once, and is back in the next step. */
static void test_hung_then_recovered(void)
{
	struct runstate rs;

	CHECK_INT_EQ(one_round(&rs, "111"), 0);
	runstate_step_begin(&rs);
	CHECK(runstate_leave_out(&rs, RUNSTATE_MEASURE, 2));
	CHECK_INT_EQ(runstate_step_end(&rs, RUNNER_STEP_OK), RUNSTATE_GO_ON);
	CHECK_INT_EQ(rs.hung_runs, 1);
	runstate_step_begin(&rs);
	CHECK(runstate_in_step(&rs, 2));
	CHECK(!rs.hung[2]);
	CHECK_INT_EQ(runstate_step_subjects(&rs), 3);
	CHECK_INT_EQ(runstate_step_end(&rs, RUNNER_STEP_OK), RUNSTATE_GO_ON);
	CHECK_INT_EQ(rs.hung_runs, 1);
	CHECK_INT_EQ(rs.failed_points, 0);
	CHECK_INT_EQ(runstate_verdict(&rs), RUNSTATE_SUBJECTS_LEFT_OUT);
	runstate_clear(&rs);
}

/* Two subjects left out of one measured step: two left out, the point measured. */
static void test_two_hung_in_one_step(void)
{
	struct runstate rs;

	CHECK_INT_EQ(one_round(&rs, "111"), 0);
	runstate_step_begin(&rs);
	CHECK(runstate_leave_out(&rs, RUNSTATE_CHECK, 0));
	CHECK(runstate_leave_out(&rs, RUNSTATE_MEASURE, 1));
	CHECK_INT_EQ(runstate_step_end(&rs, RUNNER_STEP_OK), RUNSTATE_GO_ON);
	CHECK_INT_EQ(rs.hung_runs, 2);
	runstate_clear(&rs);
}

/* A point that times out after some subjects hung costs the point once; the hung ones are not
 * counted as left out of a measured point. */
static void test_failed_point_counted_once(void)
{
	struct runstate rs;

	CHECK_INT_EQ(one_round(&rs, "111"), 0);
	runstate_step_begin(&rs);
	CHECK(runstate_leave_out(&rs, RUNSTATE_CHECK, 0));
	CHECK(runstate_leave_out(&rs, RUNSTATE_MEASURE, 1));
	CHECK(!runstate_leave_out(&rs, RUNSTATE_MEASURE, 2));
	CHECK_INT_EQ(runstate_step_end(&rs, RUNNER_STEP_TIMEDOUT), RUNSTATE_GO_ON);
	CHECK_INT_EQ(rs.failed_points, 1);
	CHECK_INT_EQ(rs.hung_runs, 0);
	/* The next point measured whole: still one point unmeasured. */
	runstate_step_begin(&rs);
	CHECK_INT_EQ(runstate_step_end(&rs, RUNNER_STEP_OK), RUNSTATE_GO_ON);
	CHECK_INT_EQ(rs.failed_points, 1);
	runstate_clear(&rs);
}

/* A step with too many contended runs is measured again later in the pass, counted nowhere. */
static void test_remeasure_again_later(void)
{
	struct runstate rs;

	CHECK_INT_EQ(one_round(&rs, "11"), 0);
	runstate_step_begin(&rs);
	CHECK_INT_EQ(runstate_step_end(&rs, RUNNER_STEP_REMEASURE), RUNSTATE_AGAIN_LATER);
	CHECK_INT_EQ(rs.failed_points, 0);
	CHECK_INT_EQ(rs.hung_runs, 0);
	CHECK_INT_EQ(runstate_verdict(&rs), RUNSTATE_COMPLETE);
	runstate_clear(&rs);
}

/* A failed step (a denial, a write, a stop) ends the sweep and is never measured again. */
static void test_failed_step_stops(void)
{
	struct runstate rs;

	CHECK_INT_EQ(one_round(&rs, "11"), 0);
	runstate_step_begin(&rs);
	CHECK(runstate_leave_out(&rs, RUNSTATE_CHECK, 0));
	CHECK_INT_EQ(runstate_step_end(&rs, RUNNER_STEP_FAILED), RUNSTATE_STOP);
	CHECK_INT_EQ(rs.failed_points, 0);
	CHECK_INT_EQ(rs.hung_runs, 0);
	runstate_clear(&rs);
}

/* The verdict: unmeasured points say more than subjects left out (--resume measures them). */
static void test_verdict_unmeasured_first(void)
{
	struct runstate rs;

	CHECK_INT_EQ(one_round(&rs, "11"), 0);
	runstate_step_begin(&rs);
	CHECK(runstate_leave_out(&rs, RUNSTATE_CHECK, 0));
	runstate_step_end(&rs, RUNNER_STEP_OK);
	CHECK_INT_EQ(runstate_verdict(&rs), RUNSTATE_SUBJECTS_LEFT_OUT);
	runstate_step_begin(&rs);
	runstate_step_end(&rs, RUNNER_STEP_TIMEDOUT);
	CHECK_INT_EQ(runstate_verdict(&rs), RUNSTATE_POINTS_UNMEASURED);
	runstate_clear(&rs);
}

/* The timed runs' wall time adds up (the profile budget's base). */
static void test_timed_ns_summed(void)
{
	struct runstate rs;

	CHECK_INT_EQ(one_round(&rs, "1"), 0);
	runstate_add_timed(&rs, 1500);
	runstate_add_timed(&rs, 2500);
	CHECK_INT_EQ(rs.timed_ns, 4000);
	runstate_clear(&rs);
}

/* --- passes and resume ------------------------------------------------------------------- */

static const size_t identity[4] = {0, 1, 2, 3};
static const size_t shuffled[4] = {2, 0, 3, 1};
static const bool none_more[4] = {false, false, false, false};
static const bool all_more[4] = {true, true, true, true};

/* The planned rounds: every point, numbered by its place in its round. */
static void test_planned_rounds_numbered(void)
{
	struct manifest m = shape(2, 2, 0);
	size_t todo[4], number[4];
	struct runstate rs;
	bool last = true;

	CHECK_INT_EQ(state(&rs, &m, 4, "1"), 0);
	CHECK_INT_EQ(runstate_pass_steps(&rs, 1, identity, none_more, todo, number, &last), 4);
	CHECK(!last);
	CHECK_INT_EQ(todo[0], 0);
	CHECK_INT_EQ(number[0], 1);
	CHECK_INT_EQ(number[3], 4);
	CHECK_INT_EQ(runstate_pass_steps(&rs, 2, shuffled, none_more, todo, number, &last), 4);
	CHECK_INT_EQ(todo[0], 2);
	CHECK_INT_EQ(todo[3], 1);
	CHECK_INT_EQ(number[0], 5);
	CHECK_INT_EQ(number[3], 8);
	/* No round past max_rounds. */
	CHECK_INT_EQ(runstate_pass_steps(&rs, 3, identity, all_more, todo, number, &last), 0);
	CHECK(last);
	CHECK_INT_EQ(rs.extra_steps, 0);
	runstate_clear(&rs);
}

/* A journal point per (id, round), as sweep_step_id names it. */
static void journal_of(struct journal_contents *c, const struct sweep *sw, const size_t *points,
		       const uint32_t *rounds, size_t n, uint32_t max_rounds)
{
	memset(c, 0, sizeof(*c));
	c->points = calloc(n, sizeof(*c->points));
	if (c->points == NULL)
		return;
	for (size_t i = 0; i < n; i++) {
		char id[SWEEP_ID_MAX];

		sweep_step_id(sweep_at(sw, points[i]), rounds[i], max_rounds, id, sizeof(id));
		c->points[i].id = strdup(id);
		c->points[i].index = points[i];
	}
	c->npoints = n;
}

/* A sweep of 4 points (nb_tasks 1, 2, 3, 4) and its manifest. */
static struct sweep *four_points(struct manifest **mp)
{
	struct errbuf eb = {{0}};

	return testutil_sweep_of("{\"name\":\"r\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":"
				 "\"a\",\"format\":\"doas\"}],\"axes\":{\"nb_tasks\":[1,2,3,4]}}",
				 "r.json", mp, &eb);
}

/* After a crash, a journal holding some steps: those are skipped, the others keep their
 * numbers, and the progress starts from them. */
static void test_resume_skips_journalled_steps(void)
{
	static const size_t pts[3] = {1, 3, 0};
	static const uint32_t rnd[3] = {1, 1, 2};
	struct manifest *pm = NULL, m = shape(2, 2, 0);
	struct sweep *sw = four_points(&pm);
	struct journal_contents c;
	struct errbuf eb = {{0}};
	size_t todo[4], number[4], total, done;
	struct runstate rs;
	bool last;

	CHECK(sw != NULL);
	if (sw == NULL)
		goto out;
	CHECK_INT_EQ(state(&rs, &m, 4, "1"), 0);
	journal_of(&c, sw, pts, rnd, 3, 2);
	CHECK_INT_EQ(runstate_resume(&rs, sw, &c, &eb), 0);
	CHECK(runstate_journalled(&rs, 1, 1) && runstate_journalled(&rs, 3, 1));
	CHECK(runstate_journalled(&rs, 0, 2) && !runstate_journalled(&rs, 0, 1));
	runstate_progress_counts(&rs, &total, &done);
	CHECK_INT_EQ(total, 8);
	CHECK_INT_EQ(done, 3);
	CHECK_INT_EQ(runstate_pass_steps(&rs, 1, identity, none_more, todo, number, &last), 2);
	CHECK_INT_EQ(todo[0], 0);
	CHECK_INT_EQ(number[0], 1);
	CHECK_INT_EQ(todo[1], 2);
	CHECK_INT_EQ(number[1], 3);
	CHECK_INT_EQ(runstate_pass_steps(&rs, 2, shuffled, none_more, todo, number, &last), 3);
	CHECK_INT_EQ(todo[0], 2); /* point 0 (shuffled second) is journalled in round 2 */
	CHECK_INT_EQ(todo[1], 3);
	CHECK_INT_EQ(number[1], 7);
	CHECK_INT_EQ(todo[2], 1);
	journal_contents_clear(&c);
	runstate_clear(&rs);
out:
	sweep_free(sw);
	manifest_free(pm);
}

/* A journal step this sweep has not got (another manifest's point, a round past max_rounds)
 * is refused by name. */
static void test_resume_refuses_foreign_step(void)
{
	struct manifest *pm = NULL, m = shape(2, 2, 0);
	struct sweep *sw = four_points(&pm);
	struct journal_contents c = {0};
	struct journal_point p[1] = {{0}};
	struct errbuf eb = {{0}};
	struct runstate rs;
	char id[] = "nb_roles=1,nb_users=1,nb_tasks=9,nb_commands=1;round=1";
	char late[] = "nb_roles=1,nb_users=1,nb_tasks=1,nb_commands=1;round=3";

	CHECK(sw != NULL);
	if (sw == NULL)
		goto out;
	CHECK_INT_EQ(state(&rs, &m, 4, "1"), 0);
	c.points = p;
	c.npoints = 1;
	p[0].id = id;
	CHECK_INT_EQ(runstate_resume(&rs, sw, &c, &eb), -1);
	CHECK(strstr(eb.msg, "nb_tasks=9") != NULL && strstr(eb.msg, "not in this sweep") != NULL);
	p[0].id = late;
	eb.msg[0] = '\0';
	CHECK_INT_EQ(runstate_resume(&rs, sw, &c, &eb), -1);
	CHECK(strstr(eb.msg, "round=3") != NULL);
	runstate_clear(&rs);
out:
	sweep_free(sw);
	manifest_free(pm);
}

/* Precision mode's extra rounds measure only the points short of the precision, numbered after
 * every planned step, in the order they were planned. */
static void test_extra_rounds_only_points_needing(void)
{
	static const bool more2[4] = {false, true, false, true};
	static const bool more3[4] = {false, false, false, true};
	struct manifest m = shape(1, 4, 0.02);
	size_t todo[4], number[4];
	struct runstate rs;
	bool last;

	CHECK_INT_EQ(state(&rs, &m, 4, "11"), 0);
	CHECK_INT_EQ(runstate_pass_steps(&rs, 1, identity, all_more, todo, number, &last), 4);
	CHECK_INT_EQ(runstate_pass_steps(&rs, 2, shuffled, more2, todo, number, &last), 2);
	CHECK(!last);
	CHECK_INT_EQ(todo[0], 3);
	CHECK_INT_EQ(number[0], 5);
	CHECK_INT_EQ(todo[1], 1);
	CHECK_INT_EQ(number[1], 6);
	CHECK_INT_EQ(runstate_pass_steps(&rs, 3, identity, more3, todo, number, &last), 1);
	CHECK_INT_EQ(todo[0], 3);
	CHECK_INT_EQ(number[0], 7);
	CHECK_INT_EQ(rs.extra_steps, 3);
	runstate_clear(&rs);
}

/* An extra round no point needs ends the measuring: no pass, none after. */
static void test_no_point_needing_is_last(void)
{
	struct manifest m = shape(1, 5, 0.02);
	size_t todo[4], number[4];
	struct runstate rs;
	bool last;

	CHECK_INT_EQ(state(&rs, &m, 4, "1"), 0);
	CHECK_INT_EQ(runstate_pass_steps(&rs, 2, identity, none_more, todo, number, &last), 0);
	CHECK(last);
	CHECK_INT_EQ(rs.extra_steps, 0);
	runstate_clear(&rs);
}

/* Measured again while short of the precision, but never past max_rounds: a point that never
 * gets there takes max_rounds steps, no more. */
static void test_measured_again_bounded_by_max_rounds(void)
{
	struct manifest m = shape(2, 5, 0.001);
	size_t todo[4], number[4], steps = 0, k;
	struct runstate rs;
	uint32_t round;
	bool last = false;

	CHECK_INT_EQ(state(&rs, &m, 4, "1"), 0);
	for (round = 1; round <= 10 && !last; round++) {
		k = runstate_pass_steps(&rs, round, identity, all_more, todo, number, &last);
		steps += k;
		CHECK(k == 0 || number[k - 1] == steps);
	}
	CHECK(last);
	CHECK_INT_EQ(round, 7); /* rounds 1..5 measured, 6 refused */
	CHECK_INT_EQ(steps, 4 * 5);
	CHECK_INT_EQ(rs.extra_steps, 4 * 3);
	runstate_clear(&rs);
}

/* An extra round journalled before a crash joins the progress's total, and is skipped. */
static void test_resume_counts_extra_rounds(void)
{
	static const size_t pts[3] = {0, 2, 2};
	static const uint32_t rnd[3] = {1, 1, 2};
	struct manifest *pm = NULL, m = shape(1, 3, 0.02);
	struct sweep *sw = four_points(&pm);
	static const bool more[4] = {false, false, true, false};
	struct journal_contents c;
	struct errbuf eb = {{0}};
	size_t todo[4], number[4], total, done;
	struct runstate rs;
	bool last;

	CHECK(sw != NULL);
	if (sw == NULL)
		goto out;
	CHECK_INT_EQ(state(&rs, &m, 4, "1"), 0);
	journal_of(&c, sw, pts, rnd, 3, 3);
	CHECK_INT_EQ(runstate_resume(&rs, sw, &c, &eb), 0);
	runstate_progress_counts(&rs, &total, &done);
	CHECK_INT_EQ(total, 5);
	CHECK_INT_EQ(done, 3);
	CHECK_INT_EQ(runstate_pass_steps(&rs, 1, identity, more, todo, number, &last), 2);
	/* Point 2 needs a round 2, journalled: nothing to measure, yet the measuring goes on. */
	CHECK_INT_EQ(runstate_pass_steps(&rs, 2, identity, more, todo, number, &last), 0);
	CHECK(!last);
	CHECK_INT_EQ(runstate_pass_steps(&rs, 3, identity, more, todo, number, &last), 1);
	CHECK_INT_EQ(todo[0], 2);
	CHECK_INT_EQ(number[0], 5);
	journal_contents_clear(&c);
	runstate_clear(&rs);
out:
	sweep_free(sw);
	manifest_free(pm);
}

/* --- the profile pass ---------------------------------------------------------------------- */

/* A profiled point that times out costs it as a timed one does; a failure stops the pass. */
static void test_profile_failures_counted(void)
{
	struct errbuf eb = {{0}};
	struct runstate rs;

	CHECK_INT_EQ(one_round(&rs, "11"), 0);
	CHECK_INT_EQ(runstate_profile_begin(&rs, 10, 1000000000, &eb), 0);
	CHECK(runstate_profile_end(&rs, RUNNER_STEP_OK));
	CHECK(runstate_profile_end(&rs, RUNNER_STEP_TIMEDOUT));
	CHECK(runstate_profile_end(&rs, RUNNER_STEP_TIMEDOUT));
	CHECK_INT_EQ(rs.failed_points, 2);
	CHECK_INT_EQ(runstate_verdict(&rs), RUNSTATE_POINTS_UNMEASURED);
	CHECK(!runstate_profile_end(&rs, RUNNER_STEP_FAILED));
	CHECK_INT_EQ(rs.failed_points, 2);
	runstate_profile_finish(&rs);
	CHECK(rs.profile.subjects == NULL);
	runstate_clear(&rs);
}

/* A subject that hung in a profiled point's grant check is left out of its profile, counted
 * nowhere: the timed steps said all there is about it. */
static void test_profile_hang_not_counted(void)
{
	struct errbuf eb = {{0}};
	struct runstate rs;

	CHECK_INT_EQ(one_round(&rs, "11"), 0);
	CHECK_INT_EQ(runstate_profile_begin(&rs, 0, 0, &eb), 0);
	runstate_step_begin(&rs);
	CHECK(runstate_leave_out(&rs, RUNSTATE_CHECK, 1));
	CHECK(runstate_profile_end(&rs, RUNNER_STEP_OK));
	CHECK_INT_EQ(rs.hung_runs, 0);
	CHECK_INT_EQ(runstate_verdict(&rs), RUNSTATE_COMPLETE);
	runstate_clear(&rs);
}

/* The budget affords every point while an active subject was never traced, then only points
 * whose overhead still fits; a skipped subject is never waited for. */
static void test_profile_budget_affords_points(void)
{
	struct errbuf eb = {{0}};
	struct runstate rs;

	CHECK_INT_EQ(one_round(&rs, "101"), 0);
	/* 10 % of 1 s: 100 ms. */
	CHECK_INT_EQ(runstate_profile_begin(&rs, 10, 1000000000ull, &eb), 0);
	CHECK(runstate_profile_affords_point(&rs));
	profilebudget_record(&rs.profile, 0, 100, 1000, 80000000ull);
	profilebudget_point_done(&rs.profile, 110000000ull, 80000000ull);
	/* 110 ms spent of 100 ms, but subject 2 was never traced: the point is made. */
	CHECK(runstate_profile_affords_point(&rs));
	profilebudget_record(&rs.profile, 2, 100, 1000, 1000000ull);
	/* Both traced (subject 1 is skipped here, never traced), the budget spent. */
	CHECK(!runstate_profile_affords_point(&rs));
	runstate_clear(&rs);
}

/* No budget (profile_budget 0): every point is afforded. */
static void test_profile_without_budget(void)
{
	struct errbuf eb = {{0}};
	struct runstate rs;

	CHECK_INT_EQ(one_round(&rs, "1"), 0);
	CHECK_INT_EQ(runstate_profile_begin(&rs, 0, 1000000000ull, &eb), 0);
	profilebudget_record(&rs.profile, 0, 100, 1000, 5000000000ull);
	profilebudget_point_done(&rs.profile, 6000000000ull, 5000000000ull);
	CHECK(runstate_profile_affords_point(&rs));
	runstate_clear(&rs);
}

/* --- a subject refused its policy (runstate.h, "Refusals") --------------------------------- */

/* A tasks-only point: {roles, users, tasks, commands}. */
#define AT_TASKS(n)                                                                                \
	(const uint32_t[MANIFEST_POINT_VALUES])                                                    \
	{                                                                                          \
		1, 1, (n), 1, 0                                                                    \
	}

/* A refusal leaves the subject out of its step, the others measured; the sweep goes on (the
 * step is OK, the verdict complete), and the tool's line and size are kept. */
static void test_refusal_left_out_sweep_goes_on(void)
{
	struct runstate rs;

	CHECK_INT_EQ(one_round(&rs, "11"), 0);
	runstate_step_begin(&rs);
	CHECK_INT_EQ(runstate_step_skip(&rs, AT_TASKS(166)), 0);
	CHECK(runstate_refuse(&rs, 1, 4, AT_TASKS(166), REFUSAL_LIMIT,
			      "sudo-rs: /etc/sudoers-rs:2:4001: too many items in list"));
	CHECK(!runstate_in_step(&rs, 1));
	CHECK(runstate_in_step(&rs, 0));
	CHECK_INT_EQ(runstate_step_subjects(&rs), 1);
	CHECK_INT_EQ(runstate_check_end(&rs), RUNNER_STEP_OK);
	CHECK_INT_EQ(runstate_step_end(&rs, RUNNER_STEP_OK), RUNSTATE_GO_ON);
	CHECK_INT_EQ(runstate_verdict(&rs), RUNSTATE_COMPLETE);
	CHECK_INT_EQ(rs.hung_runs, 0);
	CHECK_INT_EQ(runstate_refusals(&rs), 1);
	CHECK(rs.refusal[1].refused && rs.refusal[1].cls == REFUSAL_LIMIT);
	CHECK_INT_EQ(rs.refusal[1].point, 4);
	CHECK_INT_EQ(rs.refusal[1].at[MANIFEST_AXIS_TASKS], 166);
	CHECK(strstr(rs.refusal[1].line, "too many items in list") != NULL);
	CHECK_INT_EQ(rs.refusal[1].refused_steps, 1);
	runstate_clear(&rs);
}

/* Larger sizes are skipped without running the subject; smaller ones are not; a point larger
 * in one axis but smaller in another is not "at least as large". */
static void test_refusal_skips_larger_sizes(void)
{
	const uint32_t other[MANIFEST_AXIS_COUNT] = {10, 1, 100, 1};
	struct runstate rs;

	CHECK_INT_EQ(one_round(&rs, "11"), 0);
	runstate_step_begin(&rs);
	CHECK(runstate_refuse(&rs, 1, 4, AT_TASKS(166), REFUSAL_LIMIT, "too many items in list"));
	runstate_step_end(&rs, RUNNER_STEP_OK);

	runstate_step_begin(&rs); /* 1000 tasks: skipped */
	CHECK(rs.refused_now[1] == false);
	CHECK_INT_EQ(runstate_step_skip(&rs, AT_TASKS(1000)), 1);
	CHECK(!runstate_in_step(&rs, 1) && runstate_in_step(&rs, 0));
	CHECK_INT_EQ(rs.refusal[1].skipped_steps, 1);
	/* Skipped is not refused again: no second refusal at the same step. */
	CHECK(!runstate_refuse(&rs, 1, 6, AT_TASKS(1000), REFUSAL_LIMIT, "x"));
	CHECK_INT_EQ(rs.refusal[1].refused_steps, 1);

	runstate_step_begin(&rs); /* the same size again (another round): skipped */
	CHECK_INT_EQ(runstate_step_skip(&rs, AT_TASKS(166)), 1);

	runstate_step_begin(&rs); /* 100 tasks: measured */
	CHECK_INT_EQ(runstate_step_skip(&rs, AT_TASKS(100)), 0);
	CHECK(runstate_in_step(&rs, 1));

	runstate_step_begin(&rs); /* more roles, fewer tasks: not dominated */
	CHECK(!runstate_refusal_skips(&rs, 1, other));
	CHECK_INT_EQ(runstate_step_skip(&rs, other), 0);
	CHECK(
	    !runstate_refusal_skips(&rs, 0, AT_TASKS(1000))); /* the other subject never refused */
	CHECK_INT_EQ(runstate_verdict(&rs), RUNSTATE_COMPLETE);
	runstate_clear(&rs);
}

/* "after_refusal": "try_larger": nothing is skipped; each larger size is tried and refused in
 * turn, the smallest refused kept. */
static void test_refusal_try_larger(void)
{
	struct manifest m = shape(1, 1, 0);
	struct runstate rs;

	m.after_refusal = MANIFEST_AFTER_REFUSAL_TRY_LARGER;
	CHECK_INT_EQ(state(&rs, &m, 7, "1"), 0);
	CHECK(rs.try_larger);
	runstate_step_begin(&rs);
	CHECK(runstate_refuse(&rs, 0, 6, AT_TASKS(1000), REFUSAL_LIMIT, "at 1000"));
	/* Every subject refused: nothing to measure, but the point is not timed out. */
	CHECK_INT_EQ(runstate_step_subjects(&rs), 0);
	CHECK_INT_EQ(runstate_check_end(&rs), RUNNER_STEP_OK);
	runstate_step_begin(&rs);
	CHECK_INT_EQ(runstate_step_skip(&rs, AT_TASKS(1000)), 0);
	CHECK(runstate_in_step(&rs, 0));
	CHECK(runstate_refuse(&rs, 0, 4, AT_TASKS(166), REFUSAL_LIMIT, "at 166"));
	runstate_step_begin(&rs);
	CHECK(runstate_refuse(&rs, 0, 5, AT_TASKS(316), REFUSAL_LIMIT, "at 316"));
	/* The smallest refused point is the one said: 166, its own line. */
	CHECK_INT_EQ(rs.refusal[0].at[MANIFEST_AXIS_TASKS], 166);
	CHECK_INT_EQ(rs.refusal[0].point, 4);
	CHECK_STR_EQ(rs.refusal[0].line, "at 166");
	CHECK_INT_EQ(rs.refusal[0].refused_steps, 3);
	CHECK_INT_EQ(rs.refusal[0].skipped_steps, 0);
	runstate_clear(&rs);
}

/* With rounds (no partial steps), a refusal still leaves the subject out: it is the same at
 * every round of its point, so the point's rounds keep the same subjects. A plain denial
 * (REFUSAL_NONE) is no refusal. */
static void test_refusal_with_rounds_and_denial(void)
{
	struct manifest m = shape(3, 3, 0);
	struct runstate rs;

	CHECK_INT_EQ(state(&rs, &m, 2, "11"), 0);
	CHECK(!rs.partial_steps);
	runstate_step_begin(&rs);
	CHECK(!runstate_refuse(&rs, 0, 1, AT_TASKS(10), REFUSAL_NONE, "Sorry, not allowed"));
	CHECK(runstate_in_step(&rs, 0));
	CHECK(runstate_refuse(&rs, 0, 1, AT_TASKS(10), REFUSAL_PARSE, "syntax error"));
	CHECK(!runstate_in_step(&rs, 0));
	CHECK_INT_EQ(runstate_check_end(&rs), RUNNER_STEP_OK);
	CHECK(!runstate_refuse(&rs, 5, 1, AT_TASKS(10), REFUSAL_LIMIT, "no such subject"));
	runstate_clear(&rs);
}

/* runstate's rule for a time-out refusal (the runner records none today: a hung grant check is
 * left out of its point only): larger sizes skipped, still counted as left out (hung_runs). */
static void test_refusal_timeout_after_hang(void)
{
	struct runstate rs;

	CHECK_INT_EQ(one_round(&rs, "11"), 0);
	runstate_step_begin(&rs);
	CHECK(runstate_leave_out(&rs, RUNSTATE_CHECK, 0));
	CHECK(runstate_refuse(&rs, 0, 2, AT_TASKS(300), REFUSAL_TIMEOUT, NULL));
	CHECK_STR_EQ(rs.refusal[0].line, "");
	CHECK_INT_EQ(runstate_check_end(&rs), RUNNER_STEP_OK);
	runstate_step_end(&rs, RUNNER_STEP_OK);
	CHECK_INT_EQ(rs.hung_runs, 1);
	runstate_step_begin(&rs);
	CHECK_INT_EQ(runstate_step_skip(&rs, AT_TASKS(1000)), 1);
	/* Every subject hung: the point still times out, refusal or not. */
	runstate_step_begin(&rs);
	CHECK(runstate_leave_out(&rs, RUNSTATE_CHECK, 1));
	CHECK(runstate_refuse(&rs, 1, 0, AT_TASKS(1), REFUSAL_TIMEOUT, NULL));
	CHECK_INT_EQ(runstate_check_end(&rs), RUNNER_STEP_OK); /* subject 0 is still in */
	runstate_clear(&rs);
}

/* A new setup forgets the refusals of a run before. */
static void test_refusal_cleared_by_setup(void)
{
	struct runstate rs;

	CHECK_INT_EQ(one_round(&rs, "1"), 0);
	runstate_step_begin(&rs);
	CHECK(runstate_refuse(&rs, 0, 0, AT_TASKS(1), REFUSAL_CRASH, "panicked"));
	runstate_clear(&rs);
	CHECK_INT_EQ(one_round(&rs, "1"), 0);
	CHECK_INT_EQ(runstate_refusals(&rs), 0);
	runstate_step_begin(&rs);
	CHECK_INT_EQ(runstate_step_skip(&rs, AT_TASKS(1)), 0);
	runstate_clear(&rs);
}

/* A resumed journal's refusal is known again outside any step: the larger sizes stay skipped,
 * the smallest refused is the one said; an unknown class or subject is ignored. */
static void test_refusal_resumed(void)
{
	struct runstate rs;

	CHECK_INT_EQ(one_round(&rs, "11"), 0);
	CHECK(runstate_resume_refusal(&rs, 1, 4, AT_TASKS(128), refusal_class_parse("limit"),
				      "too many items in list"));
	CHECK(!runstate_resume_refusal(&rs, 1, 4, AT_TASKS(128), refusal_class_parse("nonsense"),
				       "x"));
	CHECK(!runstate_resume_refusal(&rs, 7, 4, AT_TASKS(128), REFUSAL_LIMIT, "x"));
	CHECK(!rs.refused_now[1]);
	runstate_step_begin(&rs);
	CHECK_INT_EQ(runstate_step_skip(&rs, AT_TASKS(300)), 1);
	CHECK_INT_EQ(rs.refusal[1].at[MANIFEST_AXIS_TASKS], 128);
	CHECK_INT_EQ(rs.refusal[1].point, 4);
	CHECK_INT_EQ(refusal_class_parse("timeout"), REFUSAL_TIMEOUT);
	CHECK_INT_EQ(refusal_class_parse("none"), REFUSAL_NONE);
	CHECK_INT_EQ(refusal_class_parse(NULL), REFUSAL_NONE);
	runstate_clear(&rs);
}

int main(void)
{
	RUN(test_empty_state);
	RUN(test_setup_shape);
	RUN(test_setup_refuses_too_many_subjects);
	RUN(test_stderr_file_once);
	RUN(test_check_hang_left_out);
	RUN(test_hang_costs_point_with_rounds);
	RUN(test_hang_costs_point_in_precision_mode);
	RUN(test_every_subject_hung);
	RUN(test_measure_hang_needs_another_subject);
	RUN(test_measure_hang_of_only_subject);
	RUN(test_reference_timeout_costs_point);
	RUN(test_skipped_subject_never_in_step);
	RUN(test_hung_then_recovered);
	RUN(test_two_hung_in_one_step);
	RUN(test_failed_point_counted_once);
	RUN(test_remeasure_again_later);
	RUN(test_failed_step_stops);
	RUN(test_verdict_unmeasured_first);
	RUN(test_timed_ns_summed);
	RUN(test_planned_rounds_numbered);
	RUN(test_resume_skips_journalled_steps);
	RUN(test_resume_refuses_foreign_step);
	RUN(test_extra_rounds_only_points_needing);
	RUN(test_no_point_needing_is_last);
	RUN(test_measured_again_bounded_by_max_rounds);
	RUN(test_resume_counts_extra_rounds);
	RUN(test_profile_failures_counted);
	RUN(test_profile_hang_not_counted);
	RUN(test_profile_budget_affords_points);
	RUN(test_profile_without_budget);
	RUN(test_refusal_left_out_sweep_goes_on);
	RUN(test_refusal_skips_larger_sizes);
	RUN(test_refusal_try_larger);
	RUN(test_refusal_with_rounds_and_denial);
	RUN(test_refusal_timeout_after_hang);
	RUN(test_refusal_cleared_by_setup);
	RUN(test_refusal_resumed);
	return HARNESS_EXIT();
}
