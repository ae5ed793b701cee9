/* runner_setup: the whole state of one manifest run (struct runner, opaque in runner.h), made
 * by runner_setup and freed by runner_clear; seen only by the life cycle (runner.c) and the
 * profile pass (runner_profile.c). Each phase's own part is behind its own header. */
#ifndef RARPERF_RUNNER_SETUP_H
#define RARPERF_RUNNER_SETUP_H

#include <limits.h>
#include <stdbool.h>

#include <cjson/cJSON.h>

#include "contention.h"
#include "errbuf.h"
#include "journal.h"
#include "pagecache.h"
#include "plan.h"
#include "plan_print.h"
#include "proc.h"
#include "progress.h"
#include "runner_config.h"
#include "runner_env.h"
#include "runner_guard.h"
#include "runner_subjects.h"
#include "runstate.h"

/* Everything one run owns; freed by runner_clear. */
struct runner {
	struct runner_config cfg;
	/* The plan (src/plan), built by the setup and read only from then on; m and sweep are
	 * its manifest and points. */
	struct plan *plan;
	const struct manifest *m;
	const struct sweep *sweep;
	/* runner_subjects.h: what every step measures: the plan's subjects with their commands
	 * and namespaces, and the calibration workloads. */
	struct runner_subjects sj;
	cJSON *versions;
	struct proc_user user;
	struct journal *journal;
	struct journal_contents done;
	/* runstate.c: what changes while it measures (the hung subjects, the points left
	 * unmeasured, the steps journalled, each point's runs so far, the profile's budget, the
	 * grant checks' stderr). */
	struct runstate rs;
	char out_abs[PATH_MAX];
	char started[32];
	/* The host's load and steal when this process opened the sweep (meta.machine.load). */
	struct contention_host load_before;
	bool has_load_before;
	struct progress progress;
	bool busy; /* runner_setup found the prefix locked */
	/* The command line's fault, not the plan's (not root, --out, --resume): exit 2 too. */
	bool bad_args;
	/* runner_guard.c: the prefix's lock, the record of what this run must undo, the marker
	 * of its measured processes, the prefix's resolved paths. */
	struct runner_guard *guard;
	/* What the guard (and setup) undid or could not undo, for main to print. */
	struct runner_notes notes;
	/* runner_pilot.c: the dry run's pilot, when asked for (--pilot). */
	struct plan_pilot pilot[2];
	/* runner_env.c: what every measured child is pinned to, its environment and their record
	 * (results' meta, the journal's versions). */
	struct runner_env env;
	/* runner.c: the measured programs taken out of the page cache before the sweep. */
	struct pagecache_count evicted; /* by the last eviction */
	size_t evictions;               /* how many (page_cache "evict_each_round": one a round) */
};

/*
 * Everything before the first point: loads and checks the manifest, the
 * prefix's facts and the bench user, resolves the subjects, creates the
 * output directory and opens (or resumes) the journal, and initialises
 * r->progress. Returns 0, or -1 with eb holding the whole line to print and
 * r->plan->bad_input or r->bad_args telling a usage or input error (exit 2)
 * from a failure of this host (exit 1).
 */
int runner_setup(struct runner *r, struct errbuf *eb);

/* Ends the guard (runner_guard_end: what it says goes to r->notes); a no-op once ended. */
void runner_end_guard(struct runner *r);

/* Frees everything r owns. */
void runner_clear(struct runner *r);

#endif
