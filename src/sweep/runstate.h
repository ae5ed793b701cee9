/* runstate: what changes during a manifest run, in one place, and the step's decisions over it. */
/*
 * Design. The resolved subjects, the manifest and the sweep are read-only once the setup is
 * done; everything a run changes while it measures is here:
 *
 *   the step under way   which subjects hung (a run passed run_timeout_s) and are left out of it,
 *                        and which refused its policy or are skipped for a refusal at a smaller
 *                        size (below)
 *   the run so far       the steps an earlier invocation journalled (--resume), the extra
 *                        rounds' steps planned, the points left unmeasured, the subjects left
 *                        out of a point, the timed runs' wall time, each point's runs so far
 *                        and the verdicts on them (runner_precision.h), the profile pass's
 *                        budget
 *   one resource         the file the grant checks' stderr goes to (one descriptor, closed by
 *                        runstate_clear)
 *
 * Life cycle: runstate_init (empty) when the run is made, runstate_setup once the subjects are
 * resolved, runstate_open_stderr before the commands are made, runstate_resume with the journal
 * an earlier invocation left and runstate_adopt_precision after it (not in a dry run);
 * runstate_pass_steps before each pass; then, per step,
 * runstate_step_begin, runstate_leave_out at each timed-out run, runstate_step_end with the
 * step's outcome; the profile pass between runstate_profile_begin and runstate_profile_finish
 * (runstate_profile_end per point); runstate_verdict at the end; runstate_clear on every path.
 *
 * Refusals. A subject whose grant check fails in a way that says the policy is too much for the
 * tool (refusal.h: a limit, a parse error, a crash) has refused the point: runstate_refuse
 * records the tool's own error line and the smallest point it refused, and leaves it out of
 * the step, the others measured; the journal keeps it for --resume (runstate_resume_refusal;
 * a hung check is no refusal: runstate_leave_out). From then on,
 * unless the manifest says "after_refusal": "try_larger", runstate_step_skip leaves it out of
 * every point at least as large in every axis without running it: a limit does not go away at
 * a larger size, and a point's rounds keep the same subjects. A refusal never fails the sweep:
 * it is a result (results.json's meta.skipped_subjects, with "refusal").
 *
 * The decisions (runstate_leave_out, runstate_check_end, runstate_step_end,
 * runstate_profile_end, runstate_pass_steps, runstate_verdict, runstate_refuse,
 * runstate_step_skip) are pure functions of this state
 * and a step's outcome: they run nothing, print nothing and read no file, so
 * tests/unit/test_runstate.c drives them without a prefix. The runner says what they decided
 * (runner.c, runner_point.c, runner_profile.c).
 */
#ifndef RARPERF_RUNSTATE_H
#define RARPERF_RUNSTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"
#include "journal.h"
#include "manifest.h"
#include "profilebudget.h"
#include "refusal.h"
#include "sweep.h"

struct runner_precision;

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

/* A subject's refusal of its policy (runstate_refuse): the smallest point it refused. */
struct runstate_refusal {
	bool refused;
	enum refusal_class cls;
	/* that point's policy axes and files (sweep_point.value) */
	uint32_t at[MANIFEST_POINT_VALUES];
	size_t point;                /* its sweep index, 0-based */
	char line[REFUSAL_LINE_MAX]; /* the tool's own error line there, sanitised */
	size_t refused_steps;        /* the steps it refused (each round, the profile pass) */
	size_t skipped_steps;        /* the steps it was skipped at for that (skip_larger) */
};

/* Everything a run changes while it measures (above). Read its fields; change them only
 * through the functions below. */
struct runstate {
	/* The run's shape, set by runstate_setup. */
	size_t nsubjects;                   /* the resolved subjects, in their order */
	bool active[MANIFEST_SUBJECTS_MAX]; /* measured on this host (not skipped) */
	size_t npoints;                     /* the sweep's points */
	uint32_t rounds, max_rounds;        /* the manifest's rounds per point, planned and most */
	/* A subject that hangs may be left out of a step, its others kept: only when every point
	 * has one step (one round, no precision mode), so that no point's rounds differ in their
	 * subjects. */
	bool partial_steps;
	/* The step under way: a run of the subject passed run_timeout_s; left out of the step. */
	bool hung[MANIFEST_SUBJECTS_MAX];
	/* The step under way: the subject refused it (runstate_refuse), or is skipped for a
	 * refusal at a point no larger (runstate_step_skip); left out of the step. */
	bool refused_now[MANIFEST_SUBJECTS_MAX];
	bool skipped_now[MANIFEST_SUBJECTS_MAX];
	/* Each subject's refusal so far, and the manifest's "after_refusal": try_larger. */
	struct runstate_refusal refusal[MANIFEST_SUBJECTS_MAX];
	bool try_larger;
	/* The run so far. */
	bool *journalled;     /* npoints x max_rounds: step (point, round) in the resumed journal */
	size_t extra_steps;   /* precision mode: the extra rounds' steps planned so far */
	size_t failed_points; /* points left unmeasured (a run timed out), profile pass's too */
	size_t hung_runs;     /* subjects left out of a point they hung at, others kept */
	uint64_t timed_ns;    /* the wall times of the runs journalled by this invocation, summed */
	/* Each point's runs so far and the verdict on each attempt (runner_precision.h; the
	 * steps change it through runner_precision_offer). NULL: none (a dry run). */
	struct runner_precision *precision;
	/* The profile pass's budget (runstate_profile_begin); zeroed outside the pass. */
	struct profilebudget profile;
	int stderr_fd; /* the grant checks' stderr (runstate_open_stderr); -1: none */
};

/* An empty state: nothing open, no subject; runstate_clear is a no-op on it. */
void runstate_init(struct runstate *rs);

/*
 * The shape of a run of m over npoints points and nsubjects resolved
 * subjects (active[i]: subject i is measured on this host), nothing
 * journalled, nothing failed. 0, or -1 with eb (more than
 * MANIFEST_SUBJECTS_MAX subjects, out of memory).
 */
int runstate_setup(struct runstate *rs, const struct manifest *m, size_t npoints,
		   const bool *active, size_t nsubjects, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * The grant checks' stderr file: close-on-exec and unlinked at once, so that only a check's
 * stderr (dup2'd) reaches it. 0, or -1 with eb.
 */
int runstate_open_stderr(struct runstate *rs, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * Marks the steps a resumed journal holds (done; its ids parsed against sw, as
 * sweep_step_id made them). 0, or -1 with eb "point ID is not in this sweep".
 */
int runstate_resume(struct runstate *rs, const struct sweep *sw,
		    const struct journal_contents *done, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * rs adopts p, the run's accumulator of each point's runs (runner_precision_new, fed the
 * resumed journal), and frees it in runstate_clear.
 */
void runstate_adopt_precision(struct runstate *rs, struct runner_precision *p);

/* Whether step (point, round) (round 1-based) is in the resumed journal. */
bool runstate_journalled(const struct runstate *rs, size_t point, uint32_t round);

/*
 * The progress bar's counts at the start: *total the planned steps and the extra rounds'
 * steps already journalled, *done every journalled step.
 */
void runstate_progress_counts(const struct runstate *rs, size_t *total, size_t *done);

/*
 * The steps of round's pass (1-based): order[0..npoints) the round's order
 * (sweep_round_order), more[p] whether point p needs another round (read in
 * the extra rounds only, round > rounds: runner_precision_needs_more).
 * Fills todo[0..k) with the points to measure (journalled steps skipped)
 * and number[0..k) with their step numbers in the progress events (a
 * planned step by its place in its round, an extra one after every planned
 * step, in the order they were planned, counted in rs->extra_steps) and
 * returns k. *last: no pass now nor after (round past max_rounds, or an extra
 * round no point needs).
 */
size_t runstate_pass_steps(struct runstate *rs, uint32_t round, const size_t *order,
			   const bool *more, size_t *todo, size_t *number, bool *last);

/* A new step: every active subject is in it until it hangs or refuses. */
void runstate_step_begin(struct runstate *rs);

/*
 * After runstate_step_begin, for the step at the point whose policy axes are value
 * (sweep_point.value): leaves out of it each subject that refused a point no larger in any
 * axis (unless try_larger), counting it in its refusal's skipped_steps. Returns how many were
 * left out.
 */
size_t runstate_step_skip(struct runstate *rs, const uint32_t *value);

/* Whether subject i's refusal so far skips the point at value (runstate_step_skip's rule). */
bool runstate_refusal_skips(const struct runstate *rs, size_t i, const uint32_t *value);

/*
 * Subject i's grant check at sweep point `point` (0-based; policy axes value) failed with
 * class cls (refusal.h; not REFUSAL_NONE) and the tool's error line (sanitised, refusal_line;
 * NULL: none): the subject is left out of the step and the refusal recorded. The recorded point
 * is the first refused, replaced by a later one no larger in every axis (the smallest known).
 * false, recording nothing, when i is not in the step or cls is REFUSAL_NONE.
 */
bool runstate_refuse(struct runstate *rs, size_t i, size_t point, const uint32_t *value,
		     enum refusal_class cls, const char *line);

/*
 * A refusal a resumed journal holds (a step's "refused", journal.h) recorded as runstate_refuse
 * records it, outside any step: subject i refused sweep point `point` (policy axes value). false
 * when i is out of range or inactive, or cls is REFUSAL_NONE.
 */
bool runstate_resume_refusal(struct runstate *rs, size_t i, size_t point, const uint32_t *value,
			     enum refusal_class cls, const char *line);

/* How many subjects refused some point so far. */
size_t runstate_refusals(const struct runstate *rs);

/* Whether subject i is in the step under way (active, not hung, not refused). */
bool runstate_in_step(const struct runstate *rs, size_t i);

/* How many subjects the step under way measures. */
size_t runstate_step_subjects(const struct runstate *rs);

/* Where in a step a run timed out. */
enum runstate_phase {
	RUNSTATE_CHECK,  /* the grant checks, one subject after another */
	RUNSTATE_MEASURE /* the measured runs, every subject interleaved */
};

/*
 * A run of subject i (i >= nsubjects: no subject, the calibration workload)
 * passed run_timeout_s in phase: whether the subject is left out of the step
 * (marked hung; the step goes on without it) rather than the point timing
 * out. Left out only with partial steps, a subject, and while measuring
 * another subject remains (in the checks runstate_check_end judges the
 * rest).
 */
bool runstate_leave_out(struct runstate *rs, enum runstate_phase phase, size_t i);

/* After the grant checks: RUNNER_STEP_TIMEDOUT when every subject hung, else RUNNER_STEP_OK
 * (with no subject left in the step when the others refused: nothing to measure). */
enum runner_step runstate_check_end(const struct runstate *rs);

/* What the pass does after a timed step. */
enum runstate_next {
	RUNSTATE_GO_ON,       /* the next step */
	RUNSTATE_AGAIN_LATER, /* this step again, at the end of the pass */
	RUNSTATE_STOP         /* the sweep stops */
};

/*
 * A timed step's outcome recorded: OK counts the subjects left out of it in
 * hung_runs, TIMEDOUT costs its point (failed_points, once), REMEASURE is
 * measured again later in the pass, FAILED stops the sweep.
 */
enum runstate_next runstate_step_end(struct runstate *rs, enum runner_step outcome);

/* Adds a journalled step's runs' wall time (ns, summed) to rs->timed_ns. */
void runstate_add_timed(struct runstate *rs, uint64_t ns);

/*
 * The profile pass's budget: pct percent of timed_ns (profilebudget.h), nothing spent.
 * 0, or -1 out of memory.
 */
int runstate_profile_begin(struct runstate *rs, uint32_t pct, uint64_t timed_ns, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * Whether the budget affords the next profiled point: some active subject has not been traced
 * once yet, or the last point's overhead still fits (profilebudget_point_allowed).
 */
bool runstate_profile_affords_point(const struct runstate *rs);

/*
 * A profiled point's outcome recorded (a subject that hung in its grant check is left out of
 * its profile, counted nowhere): TIMEDOUT costs the point (failed_points); false when the pass
 * stops (FAILED).
 */
bool runstate_profile_end(struct runstate *rs, enum runner_step outcome);

/* The pass's end: its budget freed (zeroed). */
void runstate_profile_finish(struct runstate *rs);

/* How a run ended, for its last line and its status. */
enum runstate_verdict {
	RUNSTATE_COMPLETE,          /* every point measured, every subject at each */
	RUNSTATE_SUBJECTS_LEFT_OUT, /* every point measured, some subject left out of one */
	RUNSTATE_POINTS_UNMEASURED  /* some point left unmeasured: --resume measures it */
};

/* The verdict on the run so far (above). */
enum runstate_verdict runstate_verdict(const struct runstate *rs);

/* Frees what rs holds (precision too), closes its descriptor, and leaves it empty
 * (runstate_init). */
void runstate_clear(struct runstate *rs);

#endif
