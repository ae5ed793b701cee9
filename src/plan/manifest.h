/* manifest: parse and validate an experiment manifest (the JSON file behind `rarbench --manifest`).
 */
#ifndef RARPERF_MANIFEST_H
#define RARPERF_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "errbuf.h"
#include "estimate.h"
#include "measure.h"
#include "policy.h"
#include "policy_size.h"

#define MANIFEST_FILE_MAX_BYTES (1024 * 1024)
#define MANIFEST_SUBJECTS_MAX 48
#define MANIFEST_AXIS_VALUES_MAX 1024
#define MANIFEST_AXIS_VALUE_MAX 1000000u
#define MANIFEST_POINTS_MAX 100000u
#define MANIFEST_STRING_MAX 4096
/* A manifest's problems listed at most (manifest_load_all). */
#define MANIFEST_PROBLEMS_MAX 64
/*
 * max_policy_bytes: what one subject's policy files (rar-cbor: settings and
 * data together) may weigh at one point, checked for every point when the
 * manifest loads; the default, and the range the key accepts.
 */
#define MANIFEST_POLICY_BYTES_DEFAULT (256ull << 20)
#define MANIFEST_POLICY_BYTES_MIN (1ull << 10)
#define MANIFEST_POLICY_BYTES_MAX (64ull << 30)
/*
 * min_time_s above this needs max_runs: hyperfine's rule runs a fast command
 * for as long as min_time_s asks, and every run's sample is kept.
 */
#define MANIFEST_MIN_TIME_UNBOUNDED_MAX_S 60

/*
 * Precision mode ("precision": true or a percentage): the target and the
 * defaults of the keys a manifest leaves out, chosen by the study in
 * doc/precision.md (the seed's sudo sweep in less wall time than its fixed
 * procedure, slope CV under 1 % on a shared 2-CPU host).
 */
#define MANIFEST_PRECISION_DEFAULT_PCT 1.0
#define MANIFEST_PRECISION_WARMUP 0
#define MANIFEST_PRECISION_MIN_RUNS 60
#define MANIFEST_PRECISION_MAX_RUNS 180
#define MANIFEST_PRECISION_ROUNDS 4
#define MANIFEST_PRECISION_REMEASURE 1
/* A step with more contended runs than this fraction is flagged (and measured again). */
#define MANIFEST_DEFAULT_CONTENTION_LIMIT 0.9
/* A measured run (and a grant check) still going after run_timeout_s is killed with its group. */
/* What counts the counted pass's instructions (manifest "counts"). */
enum manifest_instrument {
	MANIFEST_INSTRUMENT_CALLGRIND, /* valgrind's callgrind: exact, in a VM without a PMU */
	MANIFEST_INSTRUMENT_PERF,      /* perf_event's hardware counter (not implemented yet) */
	MANIFEST_INSTRUMENT_AUTO,      /* perf where the host has a PMU, else callgrind */
	MANIFEST_INSTRUMENT_COUNT
};

/* "callgrind", "perf", "auto"; NULL past the end. */
const char *manifest_instrument_name(enum manifest_instrument i);

/* The profile pass's share of the timed runs' time, by default (issue 18: at most 15 %). */
#define MANIFEST_PROFILE_BUDGET_DEFAULT_PCT 15
#define MANIFEST_RUN_TIMEOUT_DEFAULT_S 60u
#define MANIFEST_RUN_TIMEOUT_MAX_S 3600u
/* Precision mode walks at most this many rounds (planned and extra): a bound on the journal. */
#define MANIFEST_ROUNDS_MAX 1000u

/* The four axes, in the order of doc/interfaces.md §4 (and of the sweep's nesting). */
enum manifest_axis_id {
	MANIFEST_AXIS_ROLES,
	MANIFEST_AXIS_USERS,
	MANIFEST_AXIS_TASKS,
	MANIFEST_AXIS_COMMANDS,
	MANIFEST_AXIS_COUNT
};

/* The pinned environment (manifest_env.c): defaults and bounds. */
#define MANIFEST_NOFILE_DEFAULT 1024u
#define MANIFEST_UMASK_DEFAULT 022u
#define MANIFEST_ENV_MAX 64
#define MANIFEST_CPUS_MAX 256
#define MANIFEST_LIMITS_MAX 16
/* Values of the one limit a manifest may sweep ("limits": {"nofile": [1024, 65536]}). */
#define MANIFEST_LIMIT_VALUES_MAX 16

/* One resource limit set on every measured child (soft and hard both). */
struct manifest_limit {
	int resource;     /* RLIMIT_* */
	const char *name; /* "nofile": static */
	bool unlimited;
	uint64_t value;
};

/*
 * What every measured child (grant check included) runs in, set between
 * fork and exec and recorded in the results: the limits given (default
 * nofile 1024; the others as rarbench found them, recorded), the
 * environment (has_env: exactly env, else PATH and LANG=C; HOME, USER,
 * LOGNAME and SHELL from the bench user's passwd entry either way; nothing
 * inherited), the umask, the working directory and, when ncpus > 0, the
 * CPUs it may run on.
 */
struct manifest_env {
	struct manifest_limit limits[MANIFEST_LIMITS_MAX];
	size_t nlimits;
	/*
	 * A limit given as an array is an axis of the sweep: every point is measured at each
	 * value (sweep.c), limits[limit_axis] holding the first. nlimit_values 0: no such axis.
	 */
	size_t limit_axis;
	uint64_t limit_values[MANIFEST_LIMIT_VALUES_MAX];
	size_t nlimit_values;
	bool has_env;
	char **env; /* "NAME=value", NULL-terminated */
	size_t nenv;
	unsigned umask;
	char *cwd;
	uint32_t cpus[MANIFEST_CPUS_MAX];
	size_t ncpus;
	/*
	 * "page_cache": "evict" (the default): every measured program is taken out of the page
	 * cache before the sweep and read back from disk by its first run (pagecache.h);
	 * "as_found": as rarperf 0.6 and earlier measured, each program however it came into the
	 * cache; "evict_each_round": evicted again before every round, so that each round reads
	 * the programs into new pages and the rounds average over where they land (a sweep's one
	 * placement moved an A/A's start-up by up to 2 %, doc/guide-ci.md).
	 */
	bool page_cache_as_found;
	bool page_cache_each_round;
};

/*
 * Whether a manifest's env may set the variable of kv ("NAME=value" or a bare NAME): only
 * PATH, HOME, LANG, the LC_ categories (LC_ALL, LC_CTYPE, ...), TZ, TERM, USER, LOGNAME and
 * SHELL. An allow-list, not a deny-list: names that steer the dynamic loader, libc or an
 * interpreter (LD_PRELOAD, GCONV_PATH, MALLOC_*, GLIBC_TUNABLES, PYTHONPATH, ...) would reach a
 * set-user-ID tool's loader and, before issue 45, root's strace.
 */
bool manifest_env_name_allowed(const char *kv);

/* The names manifest_env_name_allowed accepts, for messages ("PATH, HOME, ... and SHELL"). */
#define MANIFEST_ENV_ALLOWED_TEXT "PATH, HOME, LANG, LC_*, TZ, TERM, USER, LOGNAME and SHELL"

/* The limits manifests name: i-th name and its RLIMIT_* (NULL past the last). */
size_t manifest_limit_count(void);
const char *manifest_limit_name(size_t i, int *resource);

enum manifest_pam { MANIFEST_PAM_AUTO, MANIFEST_PAM_OFF, MANIFEST_PAM_ON };

/* Where the playbook stores Debian's PAM service files of the PAM subjects. */
#define MANIFEST_PAM_DIR_DEFAULT "{prefix}/share/rarperf/pam.d"

/* One tool measured at every point. Strings may hold {prefix} and {command}. */
struct manifest_subject {
	char *id;
	enum policy_format format;
	char *program;
	char **args;
	size_t nargs;
	char *policy;      /* the policy file (rar-cbor: the settings file) */
	char *policy_data; /* rar-cbor only: the CBOR data file; NULL for the others */
	char *rar_version; /* rar-* only: the RootAsRole version its files are for; NULL: 3.3.4 */
	/* A build from a source tree ("dev" or "dev-NAME", make provision-dev): the default
	 * program and files are that build's; NULL: the release's. */
	char *build;
	/*
	 * For a tool whose policy path is fixed in its source (sudo-rs reads
	 * /etc/sudoers-rs): the absolute path where it must see `policy`. The
	 * runner shows it there in a private mount namespace that only this
	 * subject's runs join; NULL: the tool reads `policy` where it is.
	 */
	char *policy_mount_at;
	/* sudoers only: this subject's layout when it differs from the manifest's (sudo-rs
	 * allows at most 127 items in a list, so per-task beyond 127 tasks per role). */
	bool has_sudoers_layout;
	enum sudoers_layout sudoers_layout;
	/* A program missing from the prefix skips the subject (with a warning) instead of
	 * failing the run; absent from facts.json skips it anyway. */
	bool optional; /*
			* "pam": which PAM service files its runs see at /etc/pam.d
			* (experiments/README.md). AUTO (key absent): the prefix's
			* ({prefix}/share/rarperf/pam.d) when facts.json says the tool opens PAM and
			* records its stack, else the host's; OFF (false): the host's; ON (true or a
			* directory): pam_dir's, shown in the subject's private mount namespace.
			*/
	enum manifest_pam pam;
	char *pam_dir; /* ON: the directory (may hold {prefix}); else NULL */
	/*
	 * The runner refuses a program, and a PAM directory, that a user other than
	 * root could have written (trustpath.h: root's along its whole path), unless
	 * the subject says so with these keys (doc/security.md). A set-user-ID or
	 * set-group-ID program outside the prefix is refused whatever they say.
	 */
	bool unsafe_program;
	bool unsafe_pam;
};

struct manifest_axis {
	uint32_t *values; /* sorted as written (logspace/range: ascending), >= 1 */
	size_t n;
};

/* The ids the calibration workloads are measured and exported under, beside the subjects':
 * rarref's, and rarkref's per kind of price. */
#define MANIFEST_REFERENCE_ID "@reference"
#define MANIFEST_KERNEL_PREFIX "@kernel."
#define MANIFEST_KERNEL_KINDS 9

/* rarref's work for "reference": true (chosen by measurement: doc/precision.md). */
#define MANIFEST_REFERENCE_UNITS_DEFAULT 10u
#define MANIFEST_REFERENCE_UNITS_MAX 100000u

/* "after_refusal": once a subject refused a policy (runstate.h, "Refusals"), are the points
 * at least as large in every axis skipped for it (the default), or tried anyway? */
enum manifest_after_refusal {
	MANIFEST_AFTER_REFUSAL_SKIP_LARGER,
	MANIFEST_AFTER_REFUSAL_TRY_LARGER,
	MANIFEST_AFTER_REFUSAL_COUNT
};

/* "skip_larger", "try_larger"; NULL out of range. */
const char *manifest_after_refusal_name(int i);

struct manifest {
	char *name;
	char *description;
	struct manifest_subject *subjects;
	size_t nsubjects;
	struct manifest_axis axes[MANIFEST_AXIS_COUNT];
	/*
	 * "nb_files" (manifest_axis.c): the files each sudoers subject's policy is split over
	 * (policy_split.h), swept beside the four axes, fastest. n 0: not given (one file, and
	 * the points' ids and results carry no nb_files).
	 */
	struct manifest_axis files;
	enum policy_match match;
	enum sudoers_layout sudoers_layout;
	bool seed_compat;
	/* What a subject's refusal of a policy (a limit, a parse error, a crash, a time-out)
	 * does to the larger sizes of that subject (runstate.h): skipped, or tried anyway. */
	enum manifest_after_refusal after_refusal;
	/*
	 * The command every policy grants the bench user as root, with any
	 * arguments, while a point is measured. Unless unsafe_command, only
	 * one that can neither run another program nor read or write a file
	 * (manifest_command_is_safe).
	 */
	char *command;
	bool unsafe_command;
	uint32_t run_timeout_ms; /* per measured run and grant check (run_timeout_s) */
	struct manifest_env env; /* keys limits, env, umask, cwd, cpus */
	char *bench_user;
	uid_t bench_uid;
	gid_t bench_gid;
	uint32_t warmup;
	uint32_t min_runs;
	uint32_t max_runs; /* 0: no limit */
	uint64_t min_time_ns;
	uint64_t max_policy_bytes; /* per subject and point; checked at load */
	enum measure_order order;
	uint64_t seed;
	uint32_t repetitions;
	/*
	 * Passes over the sweep: each pass rewrites every point's policies and
	 * takes 1/rounds of its warmup, runs and time, points shuffled, so a
	 * slow drift of the host spreads over all points instead of bending
	 * the slope. 1: each point measured once, in sweep order.
	 */
	uint32_t rounds;
	/*
	 * Precision mode when > 0: the target half-width of the 95 % interval of
	 * each subject's estimate at each point, relative to it (0.01 = 1 %).
	 * Every point gets its rounds, then more rounds of the same size (in
	 * further shuffled passes over the points still short of it) until every
	 * subject meets it or has max_runs runs. 0: the fixed procedure.
	 */
	double precision;
	/*
	 * Precision mode aimed at a comparison: a subject id. A point then needs
	 * more rounds until, for every other subject, the 95 % interval of its
	 * ratio to this subject at the point (from the rounds' paired estimates)
	 * is within precision; NULL: each subject's own estimate (above).
	 */
	char *precision_baseline;
	enum estimate_kind estimator;      /* the per-point statistic reported (and aimed at) */
	enum estimate_contended contended; /* what the estimate does with contended runs */
	double contention_limit;           /* fraction of contended runs that flags a step */
	uint32_t remeasure;                /* times a flagged step may be measured again */
	/*
	 * The rounds a point may take: rounds, or in precision mode as many
	 * more as max_runs allows. Journal step ids carry ";round=N" when > 1.
	 */
	uint32_t max_rounds;
	/*
	 * The profile pass (runner_profile.c): after the timed runs, each subject
	 * run once more at every point under strace. Absent: false, so a
	 * manifest written before the key measures as it did; the shipped
	 * experiments set it.
	 */
	bool profile;
	/*
	 * What the profile pass may cost, in percent of the time the timed runs
	 * took (their wall times summed): a subject whose traced run at a point is
	 * predicted to overrun what is left is not traced there, and its result
	 * says so. 0: no budget, every point traced whatever it costs.
	 */
	uint32_t profile_budget_pct;
	/*
	 * The counted pass (runner_counts.c): after the profile pass, each subject
	 * run once more at every point under an instruction counter, as the bench
	 * user's set-ID exec would run it. Absent: false.
	 */
	bool counts;
	enum manifest_instrument counts_instrument;
	/*
	 * Calibration (doc/precision.md): a reference workload, rarref with
	 * reference_units units of work, measured in every step beside the
	 * subjects and exported as results.json's "reference". Absent or false:
	 * none, so a manifest written before the key measures as it did; true:
	 * MANIFEST_REFERENCE_UNITS_DEFAULT units; a number: that many.
	 */
	bool reference;
	uint32_t reference_units;
	/*
	 * The kernel-side calibration (runner_kernel.h): rarkref's bare run, its
	 * page faults and its system calls, measured in every step beside the
	 * subjects and exported as results.json's "reference"."kernel". Absent or
	 * false: none.
	 */
	bool kernel_reference;
	char *text; /* the file verbatim (NUL-terminated copy) */
	size_t text_len;
};

/*
 * Whether command may be granted without "unsafe_command": /usr/bin/X or
 * /bin/X with X one of true, false, id, whoami, echo, printf, sleep:
 * programs that, whatever their arguments, run nothing else and open no
 * file. A shell, an interpreter, env, find, an editor, a pager, cat (reads
 * /etc/shadow), tee or cp (write anywhere) would turn the grant into root
 * for whoever can act as the bench user, as long as a point is measured.
 */
bool manifest_command_is_safe(const char *command);

/*
 * Each axis's largest value: a point of the sweep (a product of the axes),
 * and the one whose policies are largest (sizes never shrink as a count grows).
 */
void manifest_largest_values(const struct manifest *m, uint32_t value[MANIFEST_AXIS_COUNT]);

/*
 * manifest_parse_all's flag: check everything but the bench user, which is
 * looked up on the hosts that will run it (rarlab's coordinator need not
 * have that user); bench_uid and bench_gid stay 0 then.
 */
#define MANIFEST_REMOTE 1u

/*
 * Every problem a manifest has, one line each ("SOURCE: $.path: what"), in
 * the order found: keys are read independently (every unknown key, every
 * subject), then what depends on several keys once they are sound. At most
 * MANIFEST_PROBLEMS_MAX. Free with manifest_problems_clear.
 */
struct manifest_problems {
	char **line;
	size_t n;
};
void manifest_problems_clear(struct manifest_problems *pr);

/*
 * Parses len bytes of JSON text into a new manifest. source names the input
 * in error messages ("experiments/x.json"). Every error is one line of the
 * form "SOURCE: $.json.path: what is wrong". Unknown keys, wrong types,
 * empty axes, unknown formats and a bench user missing from the passwd
 * database (or root; unless flags has MANIFEST_REMOTE) are errors, and so is
 * a point where some subject's policy files would exceed max_policy_bytes
 * (manifest_policy_bytes with no prefix; the message names the point, the
 * subject, the size and the cap). Returns the manifest (the caller frees it
 * with manifest_free), or NULL with eb holding the first problem; then, when
 * problems is not NULL, *problems holds them all (also for a manifest that
 * loads: then none).
 */
struct manifest *manifest_parse_all(const char *text, size_t len, const char *source,
				    unsigned flags, struct manifest_problems *problems,
				    struct errbuf *eb);

/* Reads path (at most MANIFEST_FILE_MAX_BYTES) and parses it as manifest_parse_all. */
struct manifest *manifest_load_all(const char *path, unsigned flags,
				   struct manifest_problems *problems, struct errbuf *eb);

/* Frees m and everything it owns. NULL is a no-op. */
void manifest_free(struct manifest *m);

/*
 * Expands "{prefix}" and "{command}" in tmpl into a new string (caller
 * frees). Any other "{...}" is an error. Returns NULL and fills eb on error.
 */
char *manifest_expand(const char *tmpl, const char *prefix, const char *command, struct errbuf *eb);

/*
 * Fills *out with the sizes of the policy files that subject (an index into
 * m->subjects) gets at the point whose axis values are value (indexed by
 * enum manifest_axis_id): the shape the runner writes there (bench uid,
 * command, match, seed_compat, the subject's layout and RootAsRole version),
 * sized by policy_size without writing anything.
 *
 * A RootAsRole file names a path (rar-json: itself; rar-cbor: its data
 * file), so its size depends on the prefix. With prefix, the path is the
 * subject's expanded and made absolute against the working directory, its
 * directory resolved (realpath) when it exists, as the writer resolves it:
 * then the sizes are exact. With prefix NULL (what the manifest alone says,
 * as at load) "{prefix}" expands to "" and nothing is resolved: a RootAsRole
 * file then comes out short by the bytes the prefix adds to its path.
 *
 * Nothing is kept between calls; each builds the point's policy (a few
 * small allocations). The disk a point needs while it is written is the
 * previous point's files plus these (the runner renames after writing).
 * Returns 0, or -1 with eb filled (a subject out of range, a shape or path
 * confgen would refuse, out of memory).
 */
int manifest_policy_bytes(const struct manifest *m, const uint32_t value[MANIFEST_AXIS_COUNT],
			  size_t subject, const char *prefix, struct policy_size_bytes *out,
			  struct errbuf *eb) __attribute__((warn_unused_result));

/*
 * A point's values (sweep_point.value): the four axes, then the files the sudoers policies
 * are split over (MANIFEST_VALUE_FILES; 0 when the manifest has no "nb_files"). A refusal's
 * "at least as large" compares them all (runstate.c).
 */
#define MANIFEST_VALUE_FILES MANIFEST_AXIS_COUNT
#define MANIFEST_POINT_VALUES (MANIFEST_AXIS_COUNT + 1)
/* The files axis's name in manifests, point ids and results. */
#define MANIFEST_FILES_AXIS "nb_files"

/* "nb_roles", "nb_users", "nb_tasks", "nb_commands". */
const char *manifest_axis_name(enum manifest_axis_id a);

/*
 * The original log.py: n points spaced evenly in log10 from start to stop
 * (numpy.logspace), each truncated to an integer, duplicates removed.
 * Writes at most cap values into out and returns how many it wrote
 * (1..10000 with 15 points gives 14). Requires 1 <= start <= stop, n >= 1.
 */
size_t manifest_logspace(uint32_t start, uint32_t stop, uint32_t n, uint32_t *out, size_t cap);

#endif
