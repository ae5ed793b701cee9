/* plan_print: a plan printed (--dry-run), with a pilot's measured costs when there are some. */
#ifndef RARPERF_PLAN_PRINT_H
#define RARPERF_PLAN_PRINT_H

#include <stddef.h>
#include <stdio.h>

#include "errbuf.h"
#include "plan.h"

/* The pilot's runs per subject at each of its two points (after PLAN_PILOT_WARMUP warmup runs). */
#define PLAN_PILOT_RUNS 5
#define PLAN_PILOT_WARMUP 3

/* What one end of the sweep cost in a pilot (measured by the run layer: runner_pilot.c): its
 * point, the step's own cost, and each active subject's median run. */
struct plan_pilot {
	size_t point;
	double write_s;
	double run_s[MANIFEST_SUBJECTS_MAX];
};

/* The points a pilot measures: the sweep's smallest and largest by their entries
 * (plan_point_entries), into *lo and *hi. */
void plan_pilot_points(const struct plan *p, size_t *lo, size_t *hi);

/*
 * Prints plan p to out: subjects with their resolved paths, points, runs,
 * policy bytes per point and subject (computed, not written), the disk the
 * largest point needs and the free space, then with pilot (its two ends, or
 * NULL) the wall time it estimates, and the estimate from the procedure
 * (plan_estimate.h). Every string of the manifest or facts.json reaches out
 * escaped. 0 or -1 (a policy that cannot be sized).
 */
int plan_print(const struct plan *p, const struct plan_pilot *pilot, FILE *out, struct errbuf *eb);

#endif
