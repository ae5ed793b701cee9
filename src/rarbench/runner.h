/* runner: the state of one `rarbench --manifest` run, shared by its setup, points and main.
 */
#ifndef RARPERF_RUNNER_H
#define RARPERF_RUNNER_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "digest.h"
#include "errbuf.h"
#include "hostfacts.h"
#include "journal.h"
#include "manifest.h"
#include "proc.h"
#include "progress.h"
#include "sweep.h"

#define RUNNER_DEFAULT_PREFIX "/opt/rarperf"

/* Exit statuses of `rarbench --manifest` (decided in runner_main only). */
#define RUNNER_EXIT_OK 0
#define RUNNER_EXIT_FAIL 1
#define RUNNER_EXIT_USAGE 2

struct runner_config {
	const char *manifest;
	const char *out;
	const char *prefix;
	bool resume;
	enum progress_mode progress;
};

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
	struct mntns *mntns;    /* ms->policy_mount_at: where its runs see the policy */
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
	bool *point_done;
	char manifest_sha[DIGEST_SHA256_HEX_LEN + 1];
	char out_abs[PATH_MAX];
	char started[32];
	char out_default[256];
	struct progress progress;
	int stderr_fd;                     /* where the grant check's stderr goes */
	const volatile sig_atomic_t *stop; /* set by SIGINT/SIGTERM; NULL: never */
	bool bad_input;                    /* runner_setup failed on the user's input */
};

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
 * Runs each active subject once as the bench user; a non-zero exit (the
 * policy denied the command) fails with the tool's first stderr line.
 * index names the point in messages. 0 or -1.
 */
int runner_point_check_grants(struct runner *r, size_t index, struct errbuf *eb);

/*
 * Measures all active subjects at pt in round (1-based) with 1/rounds of
 * the manifest's warmup, runs and time, and appends the step to the
 * journal. 0 or -1 (eb "interrupted" when *r->stop was set).
 */
int runner_point_measure(struct runner *r, const struct sweep_point *pt, uint32_t round,
			 struct errbuf *eb);

#endif
