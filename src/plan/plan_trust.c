/* plan_trust: what a manifest names that root reads or runs must be root's (doc/security.md). */
#include "plan.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fileio.h"
#include "jsonget.h"
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
static int note_unsafe(struct plan_subject *s, struct errbuf *eb, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int note_unsafe(struct plan_subject *s, struct errbuf *eb, const char *fmt, ...)
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
static int not_roots(struct plan *pl, struct plan_subject *s, const char *path, bool allowed,
		     const char *what, const char *thing, const char *why, const char *risk,
		     const char *does, struct errbuf *eb)
{
	if (!allowed)
		return plan_problem(pl, eb, path, "%s is not root's alone (%s): %s", thing, why,
				    risk);
	return note_unsafe(s, eb,
			   "UNSAFE: subject %s's %s %s is not root's alone (%s): a manifest that "
			   "sets this %s",
			   s->ms->id, what, thing, why, does);
}

/* Whether resolved (a resolved path) lies inside the resolved prefix. */
static bool in_prefix(const struct plan *pl, const char *resolved)
{
	size_t n = strlen(pl->where.real);

	return n > 0 && strncmp(resolved, pl->where.real, n) == 0 &&
	       (resolved[n] == '/' || (n == 1 && pl->where.real[0] == '/'));
}

/* The program: never a set-ID one outside the prefix; root's unless "unsafe_program". */
static int check_program(struct plan *pl, size_t i, struct errbuf *eb)
{
	struct plan_subject *s = &pl->subjects[i];
	char path[64], real[PATH_MAX];
	struct errbuf teb = {{0}};
	bool trusted = trustpath_check(s->program, real, &teb) == 0;

	snprintf(path, sizeof(path), "$.subjects[%zu].program", i); /* lint: not a path */
	/* Found from the working directory: rarbench's for the timed runs, the manifest's cwd
	 * (the bench user's, maybe) for the profile's strace, which looks it up as root. */
	if (s->program[0] != '/')
		return plan_problem(pl, eb, path,
				    "%.64s: expected an absolute path (/... or {prefix}/... with "
				    "an absolute --prefix)",
				    s->program);
	/* Through /proc the path means what the opener makes of it (/proc/self/cwd: the
	 * manifest's cwd for rarlaunch's child and root's strace): no check made here holds. */
	if (trustpath_is_per_process(s->program))
		return plan_problem(pl, eb, path,
				    "%.64s goes through /proc, where a path names another file to "
				    "each process: give the program's own path",
				    s->program);
	if (!trusted && realpath(s->program, real) == NULL &&
	    fileio_fmt(real, sizeof(real), "%s", s->program) < 0)
		return plan_problem(pl, eb, path, "%.64s...: path too long", s->program);
	/* su, the host's sudo, pkexec...: one that reads files a manifest can name (a PAM
	 * directory shown at /etc/pam.d, a policy) would be root through them. No key
	 * lifts this: the prefix's own set-user-ID builds are what is measured. */
	if (trustpath_is_privileged(real) && !in_prefix(pl, real))
		return plan_problem(pl, eb, path,
				    "%s is set-user-ID or set-group-ID (or has file capabilities) "
				    "and outside the prefix %s: only the prefix's own builds are "
				    "measured as privileged subjects",
				    s->program, pl->where.real);
	if (trusted)
		return 0;
	/* strace -u, as root, takes the set-user-ID bit it emulates from a stat of the path,
	 * then executes the path: whoever can change the path between the two runs their own
	 * file with the owner's identity, root. */
	if (pl->m->profile && s->ms->unsafe_program)
		return plan_problem(pl, eb, path,
				    "%s is not root's alone (%s) and \"profile\" traces it as "
				    "root, which takes a set-user-ID bit from the path before "
				    "running what the path then names: not with \"unsafe_program\"",
				    s->program, teb.msg);
	return not_roots(pl, s, path, s->ms->unsafe_program, "program", s->program, teb.msg,
			 "whoever can write it chooses what runs at every point (say "
			 "\"unsafe_program\": true to run it anyway)",
			 "runs what that user writes at every point", eb);
}

/* The PAM directory and every file in it: root's unless "unsafe_pam". */
static int check_pam(struct plan *pl, size_t i, struct errbuf *eb)
{
	struct plan_subject *s = &pl->subjects[i];
	struct errbuf teb = {{0}};
	struct stat st;
	char path[64];

	snprintf(path, sizeof(path), "$.subjects[%zu].pam", i); /* lint: not a path */
	/* The tool resolves the links to it in /etc/pam.d from its own working directory. */
	if (s->pam_dir != NULL && trustpath_is_per_process(s->pam_dir))
		return plan_problem(pl, eb, path,
				    "%.64s goes through /proc, where a path names another file to "
				    "each process: give the directory's own path",
				    s->pam_dir);
	/* A missing directory is plan_pam_resolve's problem, already said. */
	if (s->pam_dir == NULL || stat(s->pam_dir, &st) != 0 || !S_ISDIR(st.st_mode) ||
	    trustpath_check_dir(s->pam_dir, &teb) == 0)
		return 0;
	return not_roots(pl, s, path, s->ms->unsafe_pam, "PAM directory", s->pam_dir, teb.msg,
			 "its files are shown at /etc/pam.d to a set-user-ID tool, so whoever can "
			 "write them can run code as root (say \"unsafe_pam\": true to use it "
			 "anyway)",
			 "can run code as root", eb);
}

/* Checks the directory of file (a policy, or policy_mount_at) with trustpath; problems at key. */
static int check_dir_of(struct plan *pl, size_t i, const char *key, const char *file,
			const char *why, struct errbuf *eb)
{
	const char *slash = file != NULL ? strrchr(file, '/') : NULL;
	struct errbuf teb = {{0}};
	char path[64], dir[PATH_MAX];

	if (slash == NULL)
		return 0;
	snprintf(path, sizeof(path), "$.subjects[%zu].%s", i, key); /* lint: not a path */
	if (trustpath_is_per_process(file))
		return plan_problem(pl, eb, path,
				    "%.64s goes through /proc, where a path names another file to "
				    "each process: give the file's own path",
				    file);
	if (fileio_fmt(dir, sizeof(dir), "%.*s", (int)(slash - file), file) < 0)
		return plan_problem(pl, eb, path, "%s: path too long", file);
	if (trustpath_check(dir[0] != '\0' ? dir : "/", NULL, &teb) == 0)
		return 0;
	return plan_problem(pl, eb, path, "%s: its directory is not root's alone (%s): %s", file,
			    teb.msg, why);
}

/* The policy files' directories (in PREFIX/etc, plan_prefix_confine) and policy_mount_at's. */
static int check_policy(struct plan *pl, size_t i, struct errbuf *eb)
{
	const struct plan_subject *s = &pl->subjects[i];
	static const char why[] = "the tool reads its policy there as root";
	struct errbuf ceb = {{0}};

	/* One outside PREFIX/etc is plan_prefix_confine's problem, already said. */
	if ((plan_prefix_confine(pl->where.etc, s->policy, &ceb) == 0 &&
	     check_dir_of(pl, i, "policy", s->policy, why, eb) < 0) ||
	    (s->policy_data != NULL &&
	     plan_prefix_confine(pl->where.etc, s->policy_data, &ceb) == 0 &&
	     check_dir_of(pl, i, "policy_data", s->policy_data, why, eb) < 0))
		return -1;
	return check_dir_of(pl, i, "policy_mount_at", s->ms->policy_mount_at, why, eb);
}

int plan_trust_subject(struct plan *pl, size_t i, struct errbuf *eb)
{
	size_t before = pl->nproblems;

	if (check_program(pl, i, eb) < 0)
		return -1;
	/* A refused program says enough: its PAM files would be read by no one. */
	if (pl->nproblems != before)
		return 0;
	if (check_pam(pl, i, eb) < 0)
		return -1;
	return check_policy(pl, i, eb);
}

const char *plan_tool_policy_path(const cJSON *tool)
{
	static const char *const keys[] = {"policy_mounted_at", "settings", "policy"};

	for (size_t k = 0; tool != NULL && k < sizeof(keys) / sizeof(keys[0]); k++) {
		const cJSON *j = jsonget_member(tool, keys[k]);

		if (cJSON_IsString(j) && j->valuestring[0] == '/')
			return j->valuestring;
	}
	return NULL;
}

int plan_trust_mount_at(struct plan *pl, size_t i, const cJSON *tool, struct errbuf *eb)
{
	const struct plan_subject *s = &pl->subjects[i];
	const char *at = s->ms->policy_mount_at, *reads = plan_tool_policy_path(tool);
	char path[64];

	if (at == NULL)
		return 0;
	snprintf(path, sizeof(path), "$.subjects[%zu].policy_mount_at", i); /* lint: not a path */
	/* Shown over itself, the policy's link in the namespace names itself: the tool then
	 * reads nothing ("Too many levels of symbolic links") and denies every run. */
	if (s->policy != NULL && strcmp(at, s->policy) == 0)
		return plan_problem(pl, eb, path,
				    "%.200s is where the policy is written already: leave "
				    "policy_mount_at out",
				    at);
	if (reads != NULL && strcmp(at, reads) == 0)
		return 0;
	/* Any other path shows the policy where something else reads it as root: at
	 * /etc/ld.so.preload, the loader of a set-user-ID tool read the JSON policy as a list of
	 * libraries to load from the working directory (issue 45, finding 2). */
	if (reads == NULL)
		return plan_problem(pl, eb, path,
				    "%.200s: only where a tool of the prefix reads its policy, and "
				    "facts.json records no such path for %.200s",
				    at, s->program);
	return plan_problem(pl, eb, path,
			    "%.200s is not where %.200s reads its policy (facts.json: %.200s): a "
			    "policy is shown only there",
			    at, s->program, reads);
}

int plan_trust_bench_user(struct plan *pl, struct errbuf *eb)
{
	const cJSON *name = jsonget_member(pl->facts, "bench_user");
	const cJSON *uid = jsonget_member(pl->facts, "bench_uid");
	const char *want = cJSON_IsString(name) ? name->valuestring : NULL;

	/* Measured runs get the policies' grants as this account: one provisioning made for
	 * them, never another account of the host (a human, www-data, a member of docker or
	 * disk: issue 45, finding 3). */
	if (want == NULL)
		return plan_problem(pl, eb, "$.bench_user",
				    "the prefix's facts.json records no bench user (make "
				    "provision records the one it makes)");
	if (strcmp(pl->m->bench_user, want) != 0)
		return plan_problem(
		    pl, eb, "$.bench_user",
		    "\"%.64s\" is not the prefix's bench user (facts.json: \"%.64s\"): "
		    "measured runs run only as the account provisioning made for "
		    "them",
		    pl->m->bench_user, want);
	/* The name may have been given to another uid since provisioning (a remote manifest's
	 * user is looked up by the host: bench_uid 0 here). */
	if (cJSON_IsNumber(uid) && pl->m->bench_uid != 0 &&
	    (double)pl->m->bench_uid != uid->valuedouble)
		return plan_problem(pl, eb, "$.bench_user",
				    "\"%.64s\" has uid %u here, facts.json records uid %.0f: "
				    "provision the prefix again",
				    pl->m->bench_user, (unsigned)pl->m->bench_uid,
				    uid->valuedouble);
	return 0;
}
