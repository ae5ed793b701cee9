/* runner_guard: the privileged state of a manifest run (the prefix's lock, the record of what to
 * undo, the marker of its processes, its policies and namespaces), made on record and undone on
 * every path. The design note is runner_guard.c's. */
#ifndef RARPERF_RUNNER_GUARD_H
#define RARPERF_RUNNER_GUARD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "errbuf.h"
#include "manifest.h"
#include "mntns.h"
#include "plan_prefix.h"
#include "runner_target.h"

/* Lines for the run's messages (what the guard undid or could not undo), one each. */
struct runner_notes {
	char **line;
	size_t n, cap;
};

/* Appends one line (printf-style); out of memory drops it. */
void runner_notes_add(struct runner_notes *notes, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Frees every line. */
void runner_notes_clear(struct runner_notes *notes);

/*
 * What the guard records and writes deny-all: the active subjects' policy
 * files, each with its namespace (directory recorded before it is made;
 * *ns freed by runner_guard_end), and the bench user and command of a
 * deny-all policy. Strings and namespaces are borrowed: they outlive the
 * guard's end.
 */
struct runner_guard_policies {
	struct runner_target t[MANIFEST_SUBJECTS_MAX];
	const char *mntns_dir[MANIFEST_SUBJECTS_MAX]; /* NULL: none */
	struct mntns **ns[MANIFEST_SUBJECTS_MAX];
	size_t n;
	uint32_t uid;
	const char *command;
};

struct runner_guard;

/*
 * A new guard of the prefix where (plan_prefix.h; copied, its given path borrowed: it must
 * outlive the guard) with the marker of this run's processes; touches nothing. NULL with eb
 * filled (out of memory, a path too long).
 */
struct runner_guard *runner_guard_locate(const struct plan_prefix *where, struct errbuf *eb);

/* The prefix resolved, PREFIX/etc resolved (where policies may be written), and the
 * environment string that marks this run's measured processes ("NAME=value"). */
const char *runner_guard_prefix(const struct runner_guard *g);
const char *runner_guard_etc(const struct runner_guard *g);
const char *runner_guard_marker(const struct runner_guard *g);

/*
 * Takes the prefix's lock for manifest (wait: waiting for it, stop: the
 * caller's stop flag), undoes what a run that died holding it left (its
 * record: deny-all policies, mount namespace directories, measured
 * processes still alive), then makes, records (p) and enters this run's
 * cgroup. What it undid goes to notes. 0, or -1 with eb filled and *busy
 * set when another live run holds the lock.
 */
int runner_guard_begin(struct runner_guard *g, const char *manifest, bool wait,
		       const volatile sig_atomic_t *stop, const struct runner_guard_policies *p,
		       struct runner_notes *notes, bool *busy, struct errbuf *eb);

/*
 * Saves the record of p (copied), then writes every policy deny-all.
 * Called once the subjects are prepared, before the first grant, and again
 * whenever a namespace directory is reserved. 0 or -1.
 */
int runner_guard_arm(struct runner_guard *g, const struct runner_guard_policies *p,
		     struct errbuf *eb);

/*
 * Writes every armed policy deny-all (policy.h: deny_all), each on its own:
 * one that cannot be written leaves the others written. 0, or -1 with the
 * first error.
 */
int runner_guard_deny(const struct runner_guard *g, struct errbuf *eb);

/*
 * The policy files a record (PREFIX/run/state.json, a JSON object) lists,
 * into t (MANIFEST_SUBJECTS_MAX entries; strings borrowed from record),
 * *n of them; each must lie in etc_real (PREFIX/etc resolved). 0, or -1
 * with eb saying what is wrong with it.
 */
int runner_guard_record_targets(const char *etc_real, const cJSON *record, struct runner_target *t,
				size_t *n, struct errbuf *eb);

/*
 * The end of a step (the policies deny-all again): kills everything the
 * run's cgroup holds beside rarbench — what a grant started and left
 * running — and reaps it. Returns how many it killed.
 */
size_t runner_guard_point_end(struct runner_guard *g);

/*
 * The end of every run, whatever the path: deny-all policies, orphaned
 * measured processes killed, mount namespaces removed, then the record
 * cleared and the lock released; frees g (NULL-safe). What cannot be undone
 * stays in the record for the next run; a line goes to notes.
 */
void runner_guard_end(struct runner_guard *g, struct runner_notes *notes);

#endif
