/* runner_estimate: a manifest run's wall time estimated from its procedure, before any run. */
#ifndef RARPERF_RUNNER_ESTIMATE_H
#define RARPERF_RUNNER_ESTIMATE_H

#include <stdbool.h>
#include <stdio.h>

#include "errbuf.h"
#include "manifest.h"
#include "runner_subjects.h"
#include "sweep.h"

/*
 * Prints the wall time of sweep sw over the subjects sj, estimated from the
 * procedure, as a range with where each subject's cost per run came from
 * (sj's facts.json, the last sweep's results.json in out_dir (NULL: none),
 * built-in per-tool costs: runcost.h); labelled as the estimate, or
 * after_pilot as the one besides the pilot's. 0 or -1 (a policy that cannot
 * be sized).
 */
int runner_estimate_print(const struct runner_subjects *sj, const struct sweep *sw,
			  const char *out_dir, FILE *out, bool after_pilot, struct errbuf *eb);

/* A point's size: the policy's entries, R x T x C + R x U (runcost_entries). */
double runner_point_entries(const struct sweep_point *pt);

/* Runs per round of one subject whose runs take t_s: hyperfine's rule, per round. */
double runner_runs_per_round(const struct manifest *m, double t_s);

#endif
