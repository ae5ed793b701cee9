/* runner_trust: what a manifest names that root reads or runs must be root's (doc/security.md). */
#include "runner_subjects.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fileio.h"
#include "trustpath.h"

/*
 * Why: a manifest is meant to be shared, and rarbench runs it as root. A
 * subject's program runs at every point (a set-user-ID one as root), its PAM
 * directory's files are shown at /etc/pam.d to a set-user-ID tool, its
 * policy is read by that tool and shown at policy_mount_at. If a user other
 * than root could write any of those (or a directory on their way), that
 * user chooses what root runs: issue 36's finding 1 ran the bench user's
 * script as root through /bin/su and a PAM directory saying pam_permit.
 */

/* Appends "UNSAFE: ..." (one line) to subject s's notes. 0, or -1 out of memory. */
static int note_unsafe(struct runner_subject *s, struct errbuf *eb, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int note_unsafe(struct runner_subject *s, struct errbuf *eb, const char *fmt, ...)
{
	char line[2 * PATH_MAX];
	size_t old = s->unsafe != NULL ? strlen(s->unsafe) : 0, len;
	char *grown;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	len = strlen(line);
	grown = realloc(s->unsafe, old + len + 2);
	if (grown == NULL)
		return errbuf_set(eb, "out of memory");
	memcpy(grown + old, line, len);
	grown[old + len] = '\n';
	grown[old + len + 1] = '\0';
	s->unsafe = grown;
	return 0;
}

/*
 * Subject s's what (thing, named at path) is not root's alone (why): a problem
 * saying the risk, or with the manifest's unsafe key (allowed) a note saying
 * what a manifest that sets it does. 0, or -1.
 */
static int not_roots(struct runner_subjects *sj, struct runner_subject *s, const char *path,
		     bool allowed, const char *what, const char *thing, const char *why,
		     const char *risk, const char *does, struct errbuf *eb)
{
	if (!allowed)
		return runner_problem(sj, eb, path, "%s is not root's alone (%s): %s", thing, why,
				      risk);
	return note_unsafe(s, eb,
			   "UNSAFE: subject %s's %s %s is not root's alone (%s): a manifest that "
			   "sets this %s",
			   s->ms->id, what, thing, why, does);
}

/* Whether resolved (a resolved path) lies inside the resolved prefix. */
static bool in_prefix(const struct runner_subjects *sj, const char *resolved)
{
	size_t n = strlen(runner_guard_prefix(sj->guard));

	return n > 0 && strncmp(resolved, runner_guard_prefix(sj->guard), n) == 0 &&
	       (resolved[n] == '/' || (n == 1 && runner_guard_prefix(sj->guard)[0] == '/'));
}

/* The program: never a set-ID one outside the prefix; root's unless "unsafe_program". */
static int check_program(struct runner_subjects *sj, size_t i, struct errbuf *eb)
{
	struct runner_subject *s = &sj->subjects[i];
	char path[64], real[PATH_MAX];
	struct errbuf teb = {{0}};
	bool trusted = trustpath_check(s->program, real, &teb) == 0;

	snprintf(path, sizeof(path), "$.subjects[%zu].program", i); /* lint: not a path */
	if (!trusted && realpath(s->program, real) == NULL &&
	    fileio_fmt(real, sizeof(real), "%s", s->program) < 0)
		return runner_problem(sj, eb, path, "%.64s...: path too long", s->program);
	/* su, the host's sudo, pkexec...: one that reads files a manifest can name (a PAM
	 * directory shown at /etc/pam.d, a policy) would be root through them. No key
	 * lifts this: the prefix's own set-user-ID builds are what is measured. */
	if (trustpath_is_privileged(real) && !in_prefix(sj, real))
		return runner_problem(
		    sj, eb, path,
		    "%s is set-user-ID or set-group-ID (or has file capabilities) "
		    "and outside the prefix %s: only the prefix's own builds are "
		    "measured as privileged subjects",
		    s->program, runner_guard_prefix(sj->guard));
	if (trusted)
		return 0;
	return not_roots(sj, s, path, s->ms->unsafe_program, "program", s->program, teb.msg,
			 "whoever can write it chooses what runs at every point (say "
			 "\"unsafe_program\": true to run it anyway)",
			 "runs what that user writes at every point", eb);
}

/* The PAM directory and every file in it: root's unless "unsafe_pam". */
static int check_pam(struct runner_subjects *sj, size_t i, struct errbuf *eb)
{
	struct runner_subject *s = &sj->subjects[i];
	struct errbuf teb = {{0}};
	struct stat st;
	char path[64];

	/* A missing directory is runner_pam_resolve's problem, already said. */
	if (s->pam_dir == NULL || stat(s->pam_dir, &st) != 0 || !S_ISDIR(st.st_mode) ||
	    trustpath_check_dir(s->pam_dir, &teb) == 0)
		return 0;
	snprintf(path, sizeof(path), "$.subjects[%zu].pam", i); /* lint: not a path */
	return not_roots(sj, s, path, s->ms->unsafe_pam, "PAM directory", s->pam_dir, teb.msg,
			 "its files are shown at /etc/pam.d to a set-user-ID tool, so whoever can "
			 "write them can run code as root (say \"unsafe_pam\": true to use it "
			 "anyway)",
			 "can run code as root", eb);
}

/* Checks the directory of file (a policy, or policy_mount_at) with trustpath; problems at key. */
static int check_dir_of(struct runner_subjects *sj, size_t i, const char *key, const char *file,
			const char *why, struct errbuf *eb)
{
	const char *slash = file != NULL ? strrchr(file, '/') : NULL;
	struct errbuf teb = {{0}};
	char path[64], dir[PATH_MAX];

	if (slash == NULL)
		return 0;
	snprintf(path, sizeof(path), "$.subjects[%zu].%s", i, key); /* lint: not a path */
	if (fileio_fmt(dir, sizeof(dir), "%.*s", (int)(slash - file), file) < 0)
		return runner_problem(sj, eb, path, "%s: path too long", file);
	if (trustpath_check(dir[0] != '\0' ? dir : "/", NULL, &teb) == 0)
		return 0;
	return runner_problem(sj, eb, path, "%s: its directory is not root's alone (%s): %s", file,
			      teb.msg, why);
}

/* The policy files' directories (in PREFIX/etc, runner_guard_confine) and policy_mount_at's. */
static int check_policy(struct runner_subjects *sj, size_t i, struct errbuf *eb)
{
	const struct runner_subject *s = &sj->subjects[i];
	static const char why[] = "the tool reads its policy there as root";
	struct errbuf ceb = {{0}};

	/* One outside PREFIX/etc is runner_guard_confine's problem, already said. */
	if ((runner_guard_confine(sj->guard, s->policy, &ceb) == 0 &&
	     check_dir_of(sj, i, "policy", s->policy, why, eb) < 0) ||
	    (s->policy_data != NULL && runner_guard_confine(sj->guard, s->policy_data, &ceb) == 0 &&
	     check_dir_of(sj, i, "policy_data", s->policy_data, why, eb) < 0))
		return -1;
	return check_dir_of(sj, i, "policy_mount_at", s->ms->policy_mount_at, why, eb);
}

int runner_trust_subject(struct runner_subjects *sj, size_t i, struct errbuf *eb)
{
	size_t before = sj->nproblems;

	if (check_program(sj, i, eb) < 0)
		return -1;
	/* A refused program says enough: its PAM files would be read by no one. */
	if (sj->nproblems != before)
		return 0;
	if (check_pam(sj, i, eb) < 0)
		return -1;
	return check_policy(sj, i, eb);
}
