/* manifest_run: the state of one `rarbench --manifest` run, shared by its setup, points and main.
 */
#ifndef RARPERF_MANIFEST_RUN_H
#define RARPERF_MANIFEST_RUN_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "errbuf.h"
#include "hostfacts.h"
#include "journal.h"
#include "manifest.h"
#include "manifest_progress.h"
#include "proc.h"
#include "sweep.h"

#define MANIFEST_DEFAULT_PREFIX "/opt/rarperf"

struct manifest_config {
	const char *manifest;
	const char *out;
	const char *prefix;
	bool resume;
	enum manifest_progress_mode progress;
};

/* One subject, resolved against the prefix. */
struct manifest_run_subject {
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
};

/* Everything one run owns; freed by manifest_run_clear. */
struct manifest_run {
	struct manifest_config cfg;
	struct manifest *m;
	struct sweep *sweep;
	struct manifest_run_subject *subjects;
	size_t nsubjects, nactive;
	cJSON *facts;
	cJSON *versions;
	struct proc_user user;
	char **envp;
	struct journal *journal;
	struct journal_contents done;
	bool *point_done;
	char manifest_sha[HOSTFACTS_SHA256_HEX_LEN + 1];
	char out_abs[PATH_MAX];
	char started[32];
	char out_default[256];
	struct manifest_progress progress;
	int stderr_fd;                     /* where the grant check's stderr goes */
	const volatile sig_atomic_t *stop; /* set by SIGINT/SIGTERM; NULL: never */
};

/*
 * manifest_setup.c. Everything before the first point: loads and checks the
 * manifest, the prefix's facts and the bench user, resolves the subjects,
 * creates the output directory and opens (or resumes) the journal, and
 * initialises r->progress. Returns -1 to go on, or the exit status with eb
 * holding the whole line to print.
 */
int manifest_run_setup(struct manifest_run *r, struct errbuf *eb);

/*
 * Rebuilds results.json and results.tsv from the journal on disk and emits
 * the "done" event with the files' SHA-256. Returns 0, or -1 with eb filled.
 */
int manifest_run_finish(struct manifest_run *r, struct errbuf *eb);

/* Frees everything r owns. */
void manifest_run_clear(struct manifest_run *r);

/* manifest_point.c. Writes every active subject's policy for pt (confgen, atomic). 0 or -1. */
int manifest_point_write_policies(struct manifest_run *r, const struct sweep_point *pt,
				  struct errbuf *eb);

/*
 * Runs each active subject once as the bench user; a non-zero exit (the
 * policy denied the command) fails with the tool's first stderr line.
 * index names the point in messages. 0 or -1.
 */
int manifest_point_check_grants(struct manifest_run *r, size_t index, struct errbuf *eb);

/*
 * Measures all active subjects at pt in round (1-based) with 1/rounds of
 * the manifest's warmup, runs and time, and appends the step to the
 * journal. 0 or -1 (eb "interrupted" when *r->stop was set).
 */
int manifest_point_measure(struct manifest_run *r, const struct sweep_point *pt, uint32_t round,
			   struct errbuf *eb);

#endif
