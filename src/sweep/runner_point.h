/* runner_point: one step of a manifest run (a point in a round): its policies written, the
 * grants checked, every active subject measured, the policies denying again. */
/*
 * Each call is passed what it reads and writes, and nothing else: sj, what a step measures
 * (the plan's subjects as the run holds them, the calibration workloads, the caller's stop
 * flag; read only, the plan's manifest as sj->plan->m); rs, what changes during the run
 * (runstate.h: the step's hung subjects, the run's tallies, each point's runs so far);
 * journal, the record each measured step is appended to; guard, which makes the policies
 * deny again after the step.
 */
#ifndef RARPERF_RUNNER_POINT_H
#define RARPERF_RUNNER_POINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"
#include "journal.h"
#include "runner_guard.h"
#include "runner_subjects.h"
#include "runner_target.h"
#include "runstate.h"
#include "points.h"

/* The active subjects' policies as write targets, into t (sj->nactive entries). */
void runner_targets(const struct runner_subjects *sj, struct runner_target *t);

/*
 * Writes every active subject's policy for pt (confgen, atomic), then starts the daemons a
 * subject's runs ask (pkexec's bus and polkitd, runner_polkit.h), which the caller stops with
 * runner_point_stop_daemons before the step's deny-all, on every path. 0 or -1.
 */
int runner_point_write_policies(const struct runner_subjects *sj, const struct sweep_point *pt,
				struct errbuf *eb);

/* Stops the step's daemons: none, and no authorization one holds, outlives its step. */
void runner_point_stop_daemons(const struct runner_subjects *sj);

/* What a step leaves for its caller to report, beside its outcome. */
struct runner_step_end {
	struct errbuf eb;    /* why it failed or timed out */
	struct errbuf first; /* with superseded: the failure a failed denial replaced */
	bool superseded;
	bool denied; /* the policies deny again (false: the denial failed, eb says why) */
};

/*
 * run_step: one step, a point in one round (attempt counts the times it was
 * measured again for contention, *discarded their runs): the policies
 * written, the swept limit applied, the grants checked, every active subject
 * measured (runner_point_measure); then, whatever the outcome, the policies
 * deny again and what the grant started is killed (runner_guard). Reports
 * nothing: the outcome and *end are the caller's to say.
 */
enum runner_step runner_run_step(const struct runner_subjects *sj, struct runstate *rs,
				 struct journal *journal, struct runner_guard *guard,
				 const struct sweep_point *pt, uint32_t round, uint32_t attempt,
				 uint64_t *discarded, struct runner_step_end *end);

/*
 * Starts a step at pt (runstate_step_begin; runstate_step_skip leaves out the
 * subjects that refused a smaller point): runs each subject of the step once
 * as the bench user. A non-zero exit whose first stderr line (refusal_line)
 * says the tool cannot hold the policy (refusal_classify: a limit, a parse
 * error, a crash) is a refusal: recorded (runstate_refuse), the subject left
 * out of the step, the others checked; any other non-zero exit (the policy
 * denied the command) fails with that line. A subject whose check passes
 * run_timeout_s is left out of the step (not a refusal: its larger sizes are
 * still measured) when runstate_leave_out says so, else the point times out.
 * RUNNER_STEP_OK (possibly with no subject left: runstate_step_subjects),
 * _TIMEDOUT (every subject hung, or no partial steps) or _FAILED.
 */
enum runner_step runner_point_check_grants(const struct runner_subjects *sj, struct runstate *rs,
					   const struct sweep_point *pt, struct errbuf *eb);

/*
 * Measures all active subjects at pt in round (1-based) with 1/rounds of
 * the manifest's warmup, runs and time (precision mode: the round's runs,
 * no time rule), reading the host's counters around it. When a subject has
 * more contended runs than the manifest's contention_limit and attempt (0
 * first) is below its remeasure count, the step is thrown away: *discarded
 * grows by its runs and RUNNER_STEP_REMEASURE is returned. Otherwise the
 * step is journalled (with attempt and *discarded) and, in precision mode,
 * kept by rs->precision (one runner_precision_offer decides both):
 * RUNNER_STEP_OK. A subject whose run passes run_timeout_s is left out of the
 * step and the step measured again without it when runstate_leave_out says so.
 * RUNNER_STEP_TIMEDOUT when a run passed run_timeout_s, RUNNER_STEP_FAILED otherwise (eb
 * "interrupted" when *sj->stop was set).
 */
enum runner_step runner_point_measure(const struct runner_subjects *sj, struct runstate *rs,
				      struct journal *journal, const struct sweep_point *pt,
				      uint32_t round, uint32_t attempt, uint64_t *discarded,
				      struct errbuf *eb);

#endif
