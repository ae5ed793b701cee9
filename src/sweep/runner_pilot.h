/* runner_pilot: a dry run's pilot: a few measured runs of every active subject at the sweep's
 * smallest and largest points, for plan_print's estimate. */
#ifndef RARPERF_RUNNER_PILOT_H
#define RARPERF_RUNNER_PILOT_H

#include "errbuf.h"
#include "plan_print.h"
#include "runner_guard.h"
#include "runner_subjects.h"
#include "runstate.h"

/*
 * At plan_pilot_points' two points of sj->plan: the policies written, the
 * grants checked (rs: the step's state, runner_point_check_grants) and each
 * active subject measured PLAN_PILOT_RUNS runs (after PLAN_PILOT_WARMUP),
 * then every policy written deny-all (guard); fills pilot[0..2). Needs a
 * full setup (lock, subjects prepared). 0 or -1.
 */
int runner_pilot_measure(const struct runner_subjects *sj, struct runstate *rs,
			 struct runner_guard *guard, struct plan_pilot pilot[2], struct errbuf *eb);

#endif
