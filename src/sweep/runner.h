/* runner: one run of an experiment manifest (`rarbench --manifest`): every point written,
 * checked and measured against a provisioned prefix. */
/*
 * Design. A run is one opaque struct runner and four calls, in this order:
 *
 *   runner_open   setup: the manifest, the prefix's facts and the bench user
 *                 loaded and checked, the subjects resolved, the prefix's lock
 *                 taken (what a dead run left undone), every policy written
 *                 deny-all under a record of what to undo, the journal opened
 *                 (or resumed).
 *   runner_plan   --dry-run: the plan (and with a pilot a few measured runs).
 *   runner_run    per point, in a shuffled order per round:
 *                   write   the subjects' policies for the point (confgen);
 *                   check   each grants the command (one run, its stderr kept);
 *                   measure every subject as the bench user, the host's
 *                           counters read around it;
 *                   re-measure a step with too many contended runs (at the
 *                           end of the pass, a bounded number of times);
 *                   accumulate the step into the journal (precision mode: the
 *                           estimate that decides extra rounds);
 *                 the policies deny again after every step. Then the profile
 *                 pass and the finish: results.json and results.tsv rebuilt
 *                 from the journal.
 *   runner_close  on every path: policies deny-all, orphans killed, mount
 *                 namespaces removed, record cleared, lock released; freed.
 *
 * The runner owns everything it opens; the strings of its config are
 * borrowed and must outlive it. Its messages (one line each) go to cfg->err,
 * the progress events to stderr (bar) or stdout (jsonl). Its whole struct is
 * runner_setup.h's, seen by runner.c and runner_profile.c only; each phase
 * owns its part behind its own header (sweep.h lists them). A step is passed
 * what it reads (runner_subjects.h, the plan's manifest within) and what it
 * changes (runstate.h, the journal), nothing more.
 */
#ifndef RARPERF_RUNNER_H
#define RARPERF_RUNNER_H

#include <stdio.h>

#include "runner_config.h"

/*
 * How a run (or its setup, or its plan) ended: what runner_open, runner_plan
 * and runner_run return, once its messages are written to cfg->err. Not an
 * exit status: rarbench's --manifest mode maps each to one (its man page).
 */
enum runner_outcome {
	RUNNER_DONE,         /* everything asked was done: the setup, the plan, every point */
	RUNNER_BAD_INPUT,    /* the manifest, the command line, a subject, a refused resume */
	RUNNER_BUSY,         /* the prefix is locked by another sweep (and wait was not set) */
	RUNNER_HOST_FAILED,  /* this host could not: the prefix, root, a write, out of memory */
	RUNNER_POINT_FAILED, /* a point failed (denied, not spawned): the run stopped */
	RUNNER_INTERRUPTED,  /* stopped by cfg->stop: --resume continues */
	RUNNER_POINTS_UNMEASURED,  /* a run passed run_timeout_s: its points left, --resume */
	RUNNER_SUBJECTS_TIMED_OUT, /* subjects left out of a point (run_timeout_s), rest written */
	RUNNER_PROFILE_FAILED      /* the profile pass failed after the timed steps */
};

struct runner;

/*
 * The setup (above) of a run of cfg (copied; its strings borrowed). *rp is
 * the runner, also when the setup failed (runner_close undoes what it took),
 * NULL only when out of memory. Returns RUNNER_DONE, or RUNNER_BAD_INPUT
 * (the manifest or the command line), RUNNER_BUSY (the prefix is locked) or
 * RUNNER_HOST_FAILED (this host) once the problems were written to cfg->err.
 */
enum runner_outcome runner_open(const struct runner_config *cfg, struct runner **rp);

/*
 * --dry-run: with cfg->pilot the pilot's measured runs, then the plan of
 * the run printed to out (subjects, points, runs, policy bytes, disk, time).
 * Returns RUNNER_DONE, or RUNNER_HOST_FAILED once said why.
 */
enum runner_outcome runner_plan(struct runner *r, FILE *out);

/*
 * Every point measured (above), the profile pass, the results written; a
 * summary line to cfg->err unless the progress is jsonl. Returns RUNNER_DONE
 * or the first thing that went wrong (a point left unmeasured too: --resume
 * measures it).
 */
enum runner_outcome runner_run(struct runner *r);

/* Undoes what the run took, on every path (above), writes what it undid to cfg->err and frees
 * r. NULL-safe. */
void runner_close(struct runner *r);

#endif
