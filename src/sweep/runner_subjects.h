/* runner_subjects: a manifest run's subjects resolved against the prefix and checked against
 * its facts.json (runner_subjects.c, runner_trust.c, runner_pam.c), every problem found with them
 * kept for main. */
#ifndef RARPERF_RUNNER_SUBJECTS_H
#define RARPERF_RUNNER_SUBJECTS_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "errbuf.h"
#include "manifest.h"
#include "mntns.h"
#include "proc.h"
#include "runner_guard.h"

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
	char *unsafe;           /* runner_trust.c: "UNSAFE: ..." lines the manifest asked for */
};

/*
 * The subjects of a run: what the resolution reads (borrowed from the run,
 * set before runner_resolve_subjects) and what it makes (owned, freed by
 * the run's clear).
 */
struct runner_subjects {
	const struct manifest *m;
	const char *manifest;             /* its path: names every problem */
	const char *prefix;               /* as given */
	const struct runner_guard *guard; /* the prefix resolved */
	const cJSON *facts;               /* the prefix's facts.json */
	struct runner_subject *subjects;
	size_t nsubjects, nactive;
	/* Every problem found with the run's input, one line each, for main. */
	char **problems;
	size_t nproblems, cap_problems;
	bool bad_input; /* the run failed on the user's input (exit 2) */
};

/* At most this many problem lines are kept (the first ones). */
#define RUNNER_PROBLEMS_MAX 64

/*
 * Resolves every subject of sj->m against the prefix (sj->prefix,
 * sj->guard's PREFIX/etc) and checks it against sj->facts: its program
 * exists (else a problem, unless facts.json records the tool as absent or
 * the subject is optional: then it is skipped with the reason), its
 * rar_version is one the prefix has, its format and files are the ones its
 * tool was built to read, its policies lie in PREFIX/etc. Every problem
 * becomes one line in sj->problems ("FILE: $.subjects[i].key: what").
 * Returns 0, or -1 with sj->bad_input set when there are problems (eb: how
 * many) or with eb filled when out of memory.
 */
int runner_resolve_subjects(struct runner_subjects *sj, struct errbuf *eb);

/*
 * runner_trust.c. Subject i's program (never a set-ID one outside the prefix),
 * PAM directory and files, policy directory and policy_mount_at's directory
 * must be root's along their whole path (trustpath.h); the manifest's
 * unsafe_program / unsafe_pam turn those two refusals into "UNSAFE: ..."
 * lines in s->unsafe. Problems go to sj->problems. 0, or -1 out of memory.
 */
int runner_trust_subject(struct runner_subjects *sj, size_t i, struct errbuf *eb);

/*
 * runner_trust.c. Where the tool of a facts.json entry reads its policy, the only path
 * policy_mount_at may name: its "policy_mounted_at" (sudo-rs: /etc/sudoers-rs, fixed in its
 * source), else its "settings" (RootAsRole), else its "policy". NULL for a NULL tool or one
 * that records none.
 */
const char *runner_tool_policy_path(const cJSON *tool);

/*
 * runner_trust.c. Subject i's policy_mount_at, if any, must be runner_tool_policy_path of its
 * tool (facts.json's entry, NULL for a program the prefix does not know): else a problem
 * naming the field. 0, or -1 out of memory.
 */
int runner_trust_mount_at(struct runner_subjects *sj, size_t i, const cJSON *tool,
			  struct errbuf *eb);

/*
 * runner_trust.c. The manifest's bench_user must be the prefix's (facts.json's bench_user,
 * with its bench_uid): else a problem naming $.bench_user. 0, or -1 out of memory.
 */
int runner_trust_bench_user(struct runner_subjects *sj, struct errbuf *eb);

/* Frees sj->problems. */
void runner_problems_clear(struct runner_subjects *sj);

/* runner_pam.c. Subject i's PAM files (manifest "pam", facts.json's tool, which may be NULL):
 * sets pam_dir and pam_service; problems go to sj->problems. 0, or -1 (out of memory). */
int runner_pam_resolve(struct runner_subjects *sj, size_t i, const cJSON *tool, struct errbuf *eb);
/* The subject's namespace: its policy at policy_mount_at (policy_abs, or NULL for none) and
 * every file of pam_dir at /etc/pam.d/<name>, its layers in dir (mntns_reserve_dir, recorded
 * first). NULL with eb on failure. */
struct mntns *runner_pam_mntns(const struct runner_subject *s, const char *policy_abs,
			       const char *dir, struct errbuf *eb);
/* After a failed grant check: "; PAM service S (DIR): module M is in none of ..." for the first
 * missing module of the subject's stack, or "" when none is missing. */
void runner_pam_explain(const struct runner_subject *s, char *buf, size_t len);
/* meta.pam: per measured subject, its PAM service and the files shown at /etc/pam.d. */
cJSON *runner_pam_meta(const struct runner_subjects *sj);

/*
 * Appends one problem line "MANIFEST: PATH: what" (printf-style what) to
 * sj->problems, the first RUNNER_PROBLEMS_MAX kept. 0, or -1 out of memory.
 */
int runner_problem(struct runner_subjects *sj, struct errbuf *eb, const char *path, const char *fmt,
		   ...) __attribute__((format(printf, 4, 5)));

/*
 * 0 when sj->problems is empty; else -1 with sj->bad_input set and eb the
 * one problem (the list emptied), or "MANIFEST: N problems<about> (above)".
 */
int runner_problems_verdict(struct runner_subjects *sj, const char *about, struct errbuf *eb);

#endif
