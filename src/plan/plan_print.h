/* runner_plan: a manifest run's dry run: the plan printed, with a pilot's few measured runs. */
#ifndef RARPERF_RUNNER_PLAN_H
#define RARPERF_RUNNER_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "errbuf.h"
#include "manifest.h"
#include "runner_point.h"
#include "runner_subjects.h"
#include "sweep.h"

/* What one end of the sweep cost in the pilot: its step and each active subject's run. */
struct runner_pilot {
	size_t point;
	double write_s;
	double run_s[MANIFEST_SUBJECTS_MAX];
};

/* The plan of a run: what it reads (borrowed from the run, set before the first call) and the
 * pilot's two points (smallest, largest). */
struct runner_planner {
	struct runner_subjects *sj; /* the manifest, its path, the prefix and its guard too */
	const struct sweep *sweep;
	struct runner_steps *steps; /* the pilot's steps */
	const char *out;            /* the output directory (the last sweep's results); NULL */
	struct runner_pilot pilot[2];
	bool has_pilot;
};

/*
 * The pilot: at the sweep's smallest and largest point, the
 * policies written, the grants checked and each subject measured a few
 * runs, then every policy written deny-all; fills p->pilot. Needs a full
 * setup (lock, subjects prepared). 0 or -1.
 */
int runner_plan_pilot(struct runner_planner *p, struct errbuf *eb);

/*
 * Refuses (-1, sj->bad_input, eb naming the point, the bytes and the free
 * space) a sweep whose largest point's policies, written beside the
 * previous point's, would not fit in PREFIX/etc's file system. 0 otherwise.
 */
int runner_plan_check_disk(struct runner_subjects *sj, struct errbuf *eb);

/*
 * Prints the plan of p to out: subjects with their resolved paths, points,
 * runs, policy bytes per point and subject (computed, not written), the
 * disk the largest point needs and the free space, and with a pilot the
 * estimated wall time. 0 or -1 (a policy that cannot be sized).
 */
int runner_plan_print(struct runner_planner *p, FILE *out, struct errbuf *eb);

#endif
