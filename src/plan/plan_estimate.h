/* plan_estimate: a manifest run's wall time estimated from its procedure, before any run. */
#ifndef RARPERF_PLAN_ESTIMATE_H
#define RARPERF_PLAN_ESTIMATE_H

#include <stdbool.h>
#include <stdio.h>

#include "errbuf.h"
#include "manifest.h"
#include "plan.h"
#include "points.h"

/*
 * Prints the wall time of plan p's sweep over its subjects, estimated from
 * the procedure, as a range with where each subject's cost per run came
 * from (p's facts.json, the last sweep's results.json in p->out, built-in
 * per-tool costs: runcost.h); labelled as the estimate, or after_pilot as
 * the one besides the pilot's. 0 or -1 (a policy that cannot be sized).
 */
int plan_estimate_print(const struct plan *p, FILE *out, bool after_pilot, struct errbuf *eb);

/* A point's size: the policy's entries, R x T x C + R x U (runcost_entries). */
double plan_point_entries(const struct sweep_point *pt);

/* Runs per round of one subject whose runs take t_s: hyperfine's rule, per round. */
double plan_runs_per_round(const struct manifest *m, double t_s);

#endif
