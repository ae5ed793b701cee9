/* runner_impl: private to src/sweep/runner_*.c: the state of one manifest run (runner.h) and
 * the functions its phases share. */
#ifndef RARPERF_RUNNER_IMPL_H
#define RARPERF_RUNNER_IMPL_H

#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "digest.h"
#include "errbuf.h"
#include "hostfacts.h"
#include "journal.h"
#include "manifest.h"
#include "proc.h"
#include "policy.h"
#include "progress.h"
#include "runner.h"
#include "runner_env.h"
#include "runner_estimate.h"
#include "runner_guard.h"
#include "runner_output.h"
#include "runner_precision.h"
#include "runner_reference.h"
#include "runner_subjects.h"
#include "runner_profile.h"
#include "sweep.h"

/* Everything one run owns; freed by runner_clear. */
struct runner {
	struct runner_config cfg;
	struct manifest *m;
	struct sweep *sweep;
	/* runner_subjects.c: the subjects resolved, the problems found (sj.bad_input). */
	struct runner_subjects sj;
	cJSON *facts;
	cJSON *versions;
	struct proc_user user;
	struct journal *journal;
	struct journal_contents done;
	uint64_t timed_ns; /* the wall times of the runs journalled by this invocation, summed */
	bool *point_done;  /* sweep_count x m->max_rounds: step (point, round) journalled */
	/* runner_precision.c: each point's runs so far and the verdict on each attempt. */
	struct runner_precision *precision;
	char manifest_sha[DIGEST_SHA256_HEX_LEN + 1];
	char out_abs[PATH_MAX];
	char started[32];
	char out_default[256];
	struct progress progress;
	int stderr_fd; /* where the grant check's stderr goes */
	bool busy;     /* runner_setup found the prefix locked */
	/* runner_guard.c: the prefix's lock, the record of what this run must undo, the marker
	 * of its measured processes, the prefix's resolved paths. */
	struct runner_guard *guard;
	size_t failed_points; /* points left unmeasured (a run timed out) */
	size_t hung_runs;     /* subjects left out of a point they hung at, others kept */
	/* What the guard (and setup) undid or could not undo, for main to print. */
	struct runner_notes notes;
	/* runner_plan.c: the pilot's two points (smallest, largest), what each step and each
	 * active subject's run cost there. */
	struct runner_pilot {
		size_t point;
		double write_s;
		double run_s[MANIFEST_SUBJECTS_MAX];
	} pilot[2];
	bool has_pilot;
	/* runner_env.c: what every measured child is pinned to, its environment and their record
	 * (results' meta, the journal's versions). */
	struct runner_env env;
	/* runner_reference.c: the calibration workload (manifest "reference"); ref.cmd NULL: none.
	 */
	struct runner_reference ref;
};

/*
 * runner_plan.c. The pilot: at the sweep's smallest and largest point, the
 * policies written, the grants checked and each subject measured a few
 * runs, then every policy written deny-all; fills r->pilot. Needs a full
 * setup (lock, subjects prepared). 0 or -1.
 */
int runner_plan_pilot(struct runner *r, struct errbuf *eb);

/*
 * Refuses (-1, r->sj.bad_input, eb naming the point, the bytes and the free
 * space) a sweep whose largest point's policies, written beside the
 * previous point's, would not fit in PREFIX/etc's file system. 0 otherwise.
 */
int runner_plan_check_disk(struct runner *r, struct errbuf *eb);

/*
 * Prints the plan of r to out: subjects with their resolved paths, points,
 * runs, policy bytes per point and subject (computed, not written), the
 * disk the largest point needs and the free space, and with a pilot the
 * estimated wall time. 0 or -1 (a policy that cannot be sized).
 */
int runner_plan_print(struct runner *r, FILE *out, struct errbuf *eb);

/*
 * runner_setup.c. What the guard records and writes deny-all: every active
 * subject's policy files and namespace (runner_targets), the manifest's bench
 * user and command.
 */
void runner_armed_policies(const struct runner *r, struct runner_guard_policies *p);

/* Ends the guard (runner_guard_end: what it says goes to r->notes); a no-op once ended. */
void runner_end_guard(struct runner *r);

/* runner_point.c. The active subjects' policies as write targets, into t (r->sj.nactive
 * entries). */
void runner_targets(const struct runner *r, struct runner_target *t);

/*
 * runner_setup.c. Everything before the first point: loads and checks the
 * manifest, the prefix's facts and the bench user, resolves the subjects,
 * creates the output directory and opens (or resumes) the journal, and
 * initialises r->progress. Returns 0, or -1 with eb holding the whole line
 * to print and r->sj.bad_input telling a usage or input error (exit 2) from a
 * failure of this host (exit 1).
 */
int runner_setup(struct runner *r, struct errbuf *eb);

/*
 * Rebuilds results.json and results.tsv from the journal on disk and emits
 * the "done" event with the files' SHA-256. Returns 0, or -1 with eb filled.
 */
int runner_finish(struct runner *r, struct errbuf *eb);

/* Frees everything r owns. */
void runner_clear(struct runner *r);

/* runner_point.c. Writes every active subject's policy for pt (confgen, atomic). 0 or -1. */
int runner_point_write_policies(struct runner *r, const struct sweep_point *pt, struct errbuf *eb);

/*
 * What one step (a point in a round, or a profiled point) came to, for every
 * caller alike: each value has one meaning, and none is an exit status.
 */
enum runner_step {
	RUNNER_STEP_OK,        /* done (measured and journalled, or checked) */
	RUNNER_STEP_REMEASURE, /* too many contended runs: thrown away, measured again later */
	RUNNER_STEP_TIMEDOUT,  /* a run passed run_timeout_s and was killed (eb says which): the
				  point is left unmeasured, the sweep goes on */
	RUNNER_STEP_FAILED     /* the sweep stops (eb says why; "interrupted" after a stop);
				  never measured again */
};

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
enum runner_step runner_run_step(struct runner *r, const struct sweep_point *pt, uint32_t round,
				 uint32_t attempt, uint64_t *discarded,
				 struct runner_step_end *end);

/*
 * Starts a step: runs each active subject once as the bench user; a non-zero
 * exit (the policy denied the command) fails with the tool's first stderr
 * line. A subject whose check passes run_timeout_s is marked hung and left
 * out of the step when every point has one step (one round, no precision
 * mode), else the point times out. index names the point in messages.
 * RUNNER_STEP_OK, _TIMEDOUT (every subject hung, or no partial steps) or
 * _FAILED.
 */
enum runner_step runner_point_check_grants(struct runner *r, size_t index, struct errbuf *eb);

/*
 * Measures all active subjects at pt in round (1-based) with 1/rounds of
 * the manifest's warmup, runs and time (precision mode: the round's runs,
 * no time rule), reading the host's counters around it. When a subject has
 * more contended runs than the manifest's contention_limit and attempt (0
 * first) is below its remeasure count, the step is thrown away: *discarded
 * grows by its runs and RUNNER_STEP_REMEASURE is returned. Otherwise the
 * step is journalled (with attempt and *discarded) and, in precision mode,
 * kept by r->precision (one runner_precision_offer decides both): RUNNER_STEP_OK. A subject whose
 * run passes run_timeout_s is marked hung and the step measured again without it, as in the check.
 * RUNNER_STEP_TIMEDOUT when a run passed run_timeout_s, RUNNER_STEP_FAILED otherwise (eb
 * "interrupted" when *r->cfg.stop was set).
 */
enum runner_step runner_point_measure(struct runner *r, const struct sweep_point *pt,
				      uint32_t round, uint32_t attempt, uint64_t *discarded,
				      struct errbuf *eb);

/*
 * runner_profile.c. With the manifest's "profile": refuses (-1,
 * r->sj.bad_input, eb naming the Debian package and the playbook's role) a
 * host without the tracer. Touches nothing. 0 or -1.
 */
int runner_profile_check(struct runner *r, struct errbuf *eb);

/*
 * With the manifest's "profile", after the timed steps: every point not yet
 * profiled (OUT/profile/point-N.json missing) gets its policies, the grant
 * check, one run of each active subject under strace and one untraced run
 * for its rusage, then deny-all policies and point-N.json. A subject that
 * cannot be traced is recorded as such. A run past run_timeout_s costs the
 * point (r->failed_points). 0, or -1 (eb; "interrupted").
 */
int runner_profile_pass(struct runner *r, struct errbuf *eb);

#endif
