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
#include "prefixlock.h"
#include "progress.h"
#include "runner.h"
#include "runner_output.h"
#include "runner_profile.h"
#include "sweep.h"
#include "sweepcg.h"

/* One subject, resolved against the prefix. */
struct runner_subject {
	const struct manifest_subject *ms;
	char *program;
	char **argv; /* NULL-terminated, argv[0] = program */
	size_t argc;
	char *policy;
	char *policy_data;
	char *command_line;     /* "command" in the results */
	char *skip_reason;      /* non-NULL: missing on this host */
	struct proc_cmd *cmd;   /* measured: output to /dev/null */
	struct proc_cmd *check; /* the grant check: output kept to quote it */
	struct mntns *mntns;    /* policy_mount_at, pam_dir: what its runs see in /etc */
	char *mntns_dir;        /* its layers' directory, recorded before it is made */
	char *pam_dir;          /* the PAM service files shown at /etc/pam.d; NULL: the host's */
	char *pam_service;      /* facts.json's pam_service of its tool; NULL: none known */
	bool hung;              /* this step: a run passed run_timeout_s; left out of the step */
	char *unsafe;           /* runner_trust.c: "UNSAFE: ..." lines the manifest asked for */
};

/*
 * Precision mode: what one point has measured so far, per active subject
 * (the runs of its journalled steps, concatenated), so that the runner can
 * tell which points need another round. Rebuilt from the journal on --resume.
 */
struct runner_acc {
	struct measure_result *res; /* nactive entries; NULL until the point's first step */
	uint32_t steps;
	uint64_t discarded; /* runs of attempts measured again, per subject: they count
			       towards max_runs, which bounds what a point costs */
};

/* Everything one run owns; freed by runner_clear. */
struct runner {
	struct runner_config cfg;
	struct manifest *m;
	struct sweep *sweep;
	struct runner_subject *subjects;
	size_t nsubjects, nactive;
	cJSON *facts;
	cJSON *versions;
	struct proc_user user;
	char **envp;
	struct journal *journal;
	struct journal_contents done;
	uint64_t timed_ns; /* the wall times of the runs journalled by this invocation, summed */
	bool *point_done;  /* sweep_count x m->max_rounds: step (point, round) journalled */
	struct runner_acc *acc; /* sweep_count entries in precision mode, else NULL */
	int64_t *reference_ns;  /* per active subject: contention_reference_ns over r->acc */
	/* Attempts measured by this invocation, and how many had too many contended runs:
	 * re-measuring pays only against bursts (runner_point_measure). */
	size_t attempts, flagged;
	char manifest_sha[DIGEST_SHA256_HEX_LEN + 1];
	char out_abs[PATH_MAX];
	char started[32];
	char out_default[256];
	struct progress progress;
	int stderr_fd;  /* where the grant check's stderr goes */
	bool bad_input; /* runner_setup failed on the user's input */
	bool busy;      /* runner_setup found the prefix locked */
	/* runner_guard.c: the prefix's lock, the record of what this run must undo, and the
	 * environment string that marks its measured processes. */
	struct prefixlock *lock;
	cJSON *record;
	struct sweepcg *cgroup; /* holds rarbench and all it starts; NULL: no cgroup2 */
	char marker[PATH_MAX + 32];
	char prefix_real[PATH_MAX]; /* the prefix resolved */
	char etc_real[PATH_MAX];    /* PREFIX/etc resolved: where policies may be written */
	size_t failed_points;       /* points left unmeasured (a run timed out) */
	size_t hung_runs;           /* subjects left out of a point they hung at, others kept */
	/* runner_subjects.c: every problem found with the subjects, one line each, for main. */
	char **problems;
	size_t nproblems, cap_problems;
	/* runner_guard.c: what it undid or could not undo, for main to print (one line each). */
	char **notices;
	size_t nnotices, cap_notices;
	/* runner_plan.c: the pilot's two points (smallest, largest), what each step and each
	 * active subject's run cost there. */
	struct runner_pilot {
		size_t point;
		double write_s;
		double run_s[MANIFEST_SUBJECTS_MAX];
	} pilot[2];
	bool has_pilot;
	/* runner_env.c: what every measured child is pinned to, and its record (results' meta,
	 * the journal's versions). */
	struct proc_pin pin;
	cpu_set_t pin_cpus;
	cJSON *environment;
	/* runner_reference.c: the calibration workload (manifest "reference"); ref_cmd NULL: none.
	 */
	struct proc_cmd *ref_cmd;
	char *ref_argv[3];
	char ref_units[16];
	char ref_program[PATH_MAX];
	char ref_command[PATH_MAX + 32];
};

/*
 * runner_reference.c. With the manifest's "reference": finds rarref beside
 * this executable (else -1, eb naming the path) and prepares it as a
 * measured command with opts (the subjects' measured options, no mount
 * namespace). A no-op without the key. 0 or -1.
 */
int runner_reference_setup(struct runner *r, const struct proc_opts *opts, struct errbuf *eb);

/* Runs the reference once (beside the grant checks): it must exit 0 as the bench user. */
int runner_reference_check(struct runner *r, struct errbuf *eb);

/* Frees the reference's command (NULL-safe). */
void runner_reference_clear(struct runner *r);

/*
 * runner_env.c. Builds r->pin from the manifest's limits, umask, cwd and
 * cpus, each checked against this host: a limit above its hard limit or a
 * CPU this process may not run on is a problem (r->problems, exit 2).
 * Touches nothing. 0, or -1 with r->bad_input set or eb filled.
 */
int runner_env_check(struct runner *r, struct errbuf *eb);

/*
 * After the bench user is looked up: builds r->envp (the bench user's HOME,
 * USER, LOGNAME, SHELL; the manifest's env or PATH and LANG=C; the run's
 * marker; nothing inherited) and the record r->environment (every limit as
 * the children get it, pinned or not, the env, umask, cwd, CPUs and ASLR),
 * added to r->versions. 0 or -1.
 */
int runner_env_setup(struct runner *r, struct errbuf *eb);

/*
 * results.json's meta.environment: r->environment and "contention_source", what judged the runs
 * contended: "schedstat" (their CPU stall) or "off-cpu" (the host gave no stall; contention.h), null
 * in a dry run. Asked of rarlaunch at the end, so it starts where the runs did (inside any
 * cgroup the sweep moved into). NULL when out of memory.
 */
cJSON *runner_env_record(const struct runner *r);

/* Gives every subject's grant check and measured command the swept limit's value at pt (a no-op
 * without a swept limit). 0, or -1 when a command has no pin for it (cannot happen). */
int runner_env_apply_point(struct runner *r, const struct sweep_point *pt);

/*
 * runner_plan.c. The pilot: at the sweep's smallest and largest point, the
 * policies written, the grants checked and each subject measured a few
 * runs, then every policy written deny-all; fills r->pilot. Needs a full
 * setup (lock, subjects prepared). 0 or -1.
 */
int runner_plan_pilot(struct runner *r, struct errbuf *eb);

/*
 * Refuses (-1, r->bad_input, eb naming the point, the bytes and the free
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
 * runner_estimate.c. Prints the sweep's wall time estimated from the
 * procedure, as a range with where each subject's cost per run came from
 * (facts.json, the last sweep's results.json in cfg.out, built-in per-tool
 * costs: runcost.h); labelled as the estimate, or after_pilot as the one
 * besides the pilot's. 0 or -1 (a policy that cannot be sized).
 */
int runner_estimate_print(struct runner *r, FILE *out, bool after_pilot, struct errbuf *eb);

/* A point's size: the policy's entries, R x T x C + R x U (runcost_entries). */
double runner_point_entries(const struct sweep_point *pt);

/* Runs per round of one subject whose runs take t_s: hyperfine's rule, per round. */
double runner_runs_per_round(const struct manifest *m, double t_s);

/* At most this many problem lines are kept (the first ones). */
#define RUNNER_PROBLEMS_MAX 64

/*
 * runner_subjects.c. Resolves every subject of r->m against the prefix
 * (r->cfg.prefix, r->etc_real) and checks it against r->facts: its program
 * exists (else a problem, unless facts.json records the tool as absent or
 * the subject is optional: then it is skipped with the reason), its
 * rar_version is one the prefix has, its format and files are the ones its
 * tool was built to read, its policies lie in PREFIX/etc. Every problem
 * becomes one line in r->problems ("FILE: $.subjects[i].key: what").
 * Returns 0, or -1 with r->bad_input set when there are problems (eb: how
 * many) or with eb filled when out of memory.
 */
int runner_resolve_subjects(struct runner *r, struct errbuf *eb);

/*
 * runner_trust.c. Subject i's program (never a set-ID one outside the prefix),
 * PAM directory and files, policy directory and policy_mount_at's directory
 * must be root's along their whole path (trustpath.h); the manifest's
 * unsafe_program / unsafe_pam turn those two refusals into "UNSAFE: ..."
 * lines in s->unsafe. Problems go to r->problems. 0, or -1 out of memory.
 */
int runner_trust_subject(struct runner *r, size_t i, struct errbuf *eb);

/* Frees r->problems. */
void runner_problems_clear(struct runner *r);

/* runner_pam.c. Subject i's PAM files (manifest "pam", facts.json's tool, which may be NULL):
 * sets pam_dir and pam_service; problems go to r->problems. 0, or -1 (out of memory). */
int runner_pam_resolve(struct runner *r, size_t i, const cJSON *tool, struct errbuf *eb);
/* The subject's namespace: its policy at policy_mount_at (policy_abs, or NULL for none) and
 * every file of pam_dir at /etc/pam.d/<name>, its layers in dir (mntns_reserve_dir, recorded
 * first). NULL with eb on failure. */
struct mntns *runner_pam_mntns(const struct runner_subject *s, const char *policy_abs,
			       const char *dir, struct errbuf *eb);
/* After a failed grant check: "; PAM service S (DIR): module M is in none of ..." for the first
 * missing module of the subject's stack, or "" when none is missing. */
void runner_pam_explain(const struct runner_subject *s, char *buf, size_t len);
/* meta.pam: per measured subject, its PAM service and the files shown at /etc/pam.d. */
cJSON *runner_pam_meta(const struct runner *r);

/*
 * Appends one problem line "MANIFEST: PATH: what" (printf-style what) to
 * r->problems, the first RUNNER_PROBLEMS_MAX kept. 0, or -1 out of memory.
 */
int runner_problem(struct runner *r, struct errbuf *eb, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/*
 * 0 when r->problems is empty; else -1 with r->bad_input set and eb the
 * one problem (the list emptied), or "MANIFEST: N problems<about> (above)".
 */
int runner_problems_verdict(struct runner *r, const char *about, struct errbuf *eb);

/* One policy file set to write (a subject's, or a dead run's from its record). */
struct runner_target {
	const char *id; /* names it in messages */
	enum policy_format format;
	const char *policy, *policy_data, *rar_version;
	enum sudoers_layout layout;
};

/*
 * runner_guard.c. Resolves the prefix and PREFIX/etc (r->prefix_real,
 * r->etc_real) and the marker of this run's processes; touches nothing.
 * 0 or -1 (a missing prefix).
 */
int runner_guard_locate(struct runner *r, struct errbuf *eb);

/*
 * Takes the prefix's lock (r->cfg.wait: waiting for it),
 * undoes what a run that died holding it left (its record: deny-all
 * policies, mount namespace directories, measured processes still alive),
 * (runner_guard_locate first). 0, or -1 with eb filled and
 * r->busy set when another live run holds the lock.
 */
int runner_guard_begin(struct runner *r, struct errbuf *eb);

/*
 * Saves the record of the active subjects' policy files and mount
 * namespace directories, then writes every policy deny-all. Called once the
 * subjects are prepared, before the first grant. 0 or -1.
 */
int runner_guard_arm(struct runner *r, struct errbuf *eb);

/*
 * Whether path (a policy or policy_data, expanded) lies in PREFIX/etc once
 * its directory is resolved. 0, or -1 with eb saying where it points.
 */
int runner_guard_confine(const struct runner *r, const char *path, struct errbuf *eb);

/*
 * The policy files a record (PREFIX/run/state.json, a JSON object) lists,
 * into t (MANIFEST_SUBJECTS_MAX entries; strings borrowed from record),
 * *n of them; each must lie in r->etc_real. 0, or -1 with eb saying what is
 * wrong with it.
 */
int runner_guard_record_targets(const struct runner *r, const cJSON *record,
				struct runner_target *t, size_t *n, struct errbuf *eb);

/*
 * The end of every run, whatever the path: deny-all policies, orphaned
 * measured processes killed, mount namespaces removed, then the record
 * cleared and the lock released. What cannot be undone stays in the record
 * for the next run; a message goes to stderr.
 */
void runner_guard_end(struct runner *r);

/*
 * At the end of each step (the policies deny-all again): kills everything
 * the run's cgroup holds beside rarbench — what a grant started and left
 * running — and reaps it. Returns how many it killed.
 */
size_t runner_guard_point_end(struct runner *r);

/*
 * runner_fault.c. Keeps, for runner_fault_deny, every active subject's
 * policy files as they are now (deny-all, just written) with a descriptor of
 * their directory. Called by runner_guard_arm; what cannot be kept is left
 * to the next run's recovery. NULL: forgets them (runner_guard_end: the
 * prefix may be another run's from then on).
 */
void runner_fault_prepare(struct runner *r);

/* Appends one notice line (printf-style) to r->notices; out of memory drops it. */
void runner_notice(struct runner *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* runner_point.c. Writes shape once per target (one transaction). 0 or -1. */
int runner_write_targets(const struct policy_shape *shape, const struct runner_target *t, size_t n,
			 struct errbuf *eb);

/* Writes every active subject's policy deny-all (policy.h: deny_all), each on its own: one
 * that cannot be written leaves the others written. 0, or -1 with the first error. */
int runner_point_write_denial(struct runner *r, struct errbuf *eb);

/*
 * runner_setup.c. Everything before the first point: loads and checks the
 * manifest, the prefix's facts and the bench user, resolves the subjects,
 * creates the output directory and opens (or resumes) the journal, and
 * initialises r->progress. Returns 0, or -1 with eb holding the whole line
 * to print and r->bad_input telling a usage or input error (exit 2) from a
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
 * added to r->acc: RUNNER_STEP_OK. A subject whose run passes run_timeout_s
 * is marked hung and the step measured again without it, as in the check. RUNNER_STEP_TIMEDOUT when
 * a run passed run_timeout_s, RUNNER_STEP_FAILED otherwise (eb "interrupted" when *r->cfg.stop was
 * set).
 */
enum runner_step runner_point_measure(struct runner *r, const struct sweep_point *pt,
				      uint32_t round, uint32_t attempt, uint64_t *discarded,
				      struct errbuf *eb);

/*
 * runner_env.c. Empties the tools' own state in the prefix (RootAsRole's and
 * sudo's timestamp files), so that what a run costs does not depend on the
 * sweeps run before it. 0 or -1.
 */
int runner_reset_tool_state(const struct runner *r, struct errbuf *eb);

/*
 * runner_profile.c. With the manifest's "profile": refuses (-1,
 * r->bad_input, eb naming the Debian package and the playbook's role) a
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

/* runner_precision.c. Builds r->acc from the steps r->done holds (precision mode only). */
int runner_acc_init(struct runner *r, struct errbuf *eb);

/*
 * Appends one journalled step of point idx (subjects in active order) to
 * r->acc, with the runs its thrown-away attempts cost (summed over subjects).
 * 0 or -1.
 */
int runner_acc_add(struct runner *r, size_t idx, const struct journal_subject *js, size_t n,
		   uint64_t discarded, struct errbuf *eb);

/*
 * The runs point idx has cost each subject so far (kept and thrown away);
 * 0 without r->acc.
 */
uint64_t runner_acc_spent(const struct runner *r, size_t idx);

/*
 * Whether point idx needs another round: some subject's estimate (the
 * manifest's estimator, contended runs left out when it says so) misses the
 * precision, and another round keeps the point within max_runs
 * (runner_acc_spent). Needs r->acc.
 */
bool runner_acc_needs_more(const struct runner *r, size_t idx);

/*
 * The baseline off-CPU time subject k's runs at point idx are judged
 * against: the smaller of the point's own so far and the subject's
 * reference across the sweep (INT64_MAX: neither is known yet).
 */
int64_t runner_acc_baseline(const struct runner *r, size_t idx, size_t k);

/* Recomputes r->reference_ns from r->acc (once per pass: it sorts every point's baseline). */
void runner_acc_refresh(struct runner *r);

/* Frees r->acc. */
void runner_acc_clear(struct runner *r);

#endif
