/* plan_subjects: a plan's subjects resolved against the prefix and checked against its
 * facts.json (plan_subjects.c, plan_trust.c, plan_pam.c), every problem found with them kept in
 * the plan. */
#ifndef RARPERF_PLAN_SUBJECTS_H
#define RARPERF_PLAN_SUBJECTS_H

#include <stdbool.h>
#include <limits.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "errbuf.h"
#include "manifest.h"
#include "mntns.h"

struct plan;

/* One subject, resolved against the prefix. */
struct plan_subject {
	const struct manifest_subject *ms;
	char *program;
	char **argv; /* NULL-terminated, argv[0] = program */
	size_t argc;
	char *policy;
	char *policy_data;
	char *command_line; /* "command" in the results */
	char *skip_reason;  /* non-NULL: missing on this host */
	char *pam_dir;      /* the PAM service files shown at /etc/pam.d; NULL: the host's */
	char *pam_service;  /* facts.json's pam_service of its tool; NULL: none known */
	char *unsafe;       /* plan_trust.c: "UNSAFE: ..." lines the manifest asked for */
};

/*
 * Resolves every subject of p->m against the prefix (p->prefix, p->where's
 * PREFIX/etc) and checks it against p->facts: its program exists (else a
 * problem, unless facts.json records the tool as absent or the subject is
 * optional: then it is skipped with the reason), its rar_version is one the
 * prefix has, its format and files are the ones its tool was built to read,
 * its policies lie in PREFIX/etc. Every problem becomes one line in
 * p->problems ("FILE: $.subjects[i].key: what"). Returns 0, or -1 with
 * p->bad_input set when there are problems (eb: how many) or with eb filled
 * when out of memory.
 */
int plan_resolve_subjects(struct plan *p, struct errbuf *eb);

/* Frees what p->subjects hold, and the array. */
void plan_subjects_clear(struct plan *p);

/*
 * plan_trust.c. Subject i's program (never a set-ID one outside the prefix),
 * PAM directory and files, policy directory and policy_mount_at's directory
 * must be root's along their whole path (trustpath.h); the manifest's
 * unsafe_program / unsafe_pam turn those two refusals into "UNSAFE: ..."
 * lines in s->unsafe. Problems go to p->problems. 0, or -1 out of memory.
 */
int plan_trust_subject(struct plan *p, size_t i, struct errbuf *eb);

/*
 * plan_trust.c. Where the tool of a facts.json entry reads its policy, the only path
 * policy_mount_at may name: its "policy_mounted_at" (sudo-rs: /etc/sudoers-rs, fixed in its
 * source), else its "settings" (RootAsRole), else its "policy". NULL for a NULL tool or one
 * that records none.
 */
const char *plan_tool_policy_path(const cJSON *tool);

/*
 * plan_trust.c. Subject i's policy_mount_at, if any, must be plan_tool_policy_path of its
 * tool (facts.json's entry, NULL for a program the prefix does not know): else a problem
 * naming the field. 0, or -1 out of memory.
 */
int plan_trust_mount_at(struct plan *p, size_t i, const cJSON *tool, struct errbuf *eb);

/*
 * plan_trust.c. The manifest's bench_user must be the prefix's (facts.json's bench_user,
 * with its bench_uid): else a problem naming $.bench_user. 0, or -1 out of memory.
 */
int plan_trust_bench_user(struct plan *p, struct errbuf *eb);

/* plan_pam.c. Subject i's PAM files (manifest "pam", facts.json's tool, which may be NULL):
 * sets pam_dir and pam_service; problems go to p->problems. 0, or -1 (out of memory). */
int plan_pam_resolve(struct plan *p, size_t i, const cJSON *tool, struct errbuf *eb);

/* The files a subject's namespace shows (plan_pam_files), and the room their paths need. */
#define PLAN_PAM_FILES_MAX 64
struct plan_pam_files {
	struct mntns_file file[PLAN_PAM_FILES_MAX + 1];
	size_t n;
	char target[PLAN_PAM_FILES_MAX][PATH_MAX], source[PLAN_PAM_FILES_MAX][PATH_MAX];
};

/*
 * plan_pam.c. What subject s's namespace shows (for mntns_show_files_at): its policy at
 * policy_mount_at (policy_abs, or NULL for none), then every file of pam_dir at
 * /etc/pam.d/<name>, into *out (large: the caller's static or heap). Reads the directory,
 * makes nothing. 0, or -1 with eb.
 */
int plan_pam_files(const struct plan_subject *s, const char *policy_abs, struct plan_pam_files *out,
		   struct errbuf *eb);

/* After a failed grant check: "; PAM service S (DIR): module M is in none of ..." for the first
 * missing module of the subject's stack, or "" when none is missing. */
void plan_pam_explain(const struct plan_subject *s, char *buf, size_t len);

/* meta.pam: per measured subject, its PAM service and the files shown at /etc/pam.d. */
cJSON *plan_pam_meta(const struct plan *p);

#endif
