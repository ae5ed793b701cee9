/* runner_counts: the counted pass of a manifest run: each subject's instructions at every point. */
/*
 * Design. After the timed steps and the profile pass (nothing timed ever
 * depends on it), the pass walks the points in sweep order. For a point
 * whose OUT/counts/point-N.json is missing it writes the point's policies,
 * checks the grants, and for each active subject runs, as root from
 * rarlaunch in exactly what the timed runs get (the pin's limits, umask,
 * cwd and CPUs, the pinned environment, the subject's mount namespace)
 *   setpriv IDENTITY -- valgrind --tool=callgrind ... PROGRAM ARGS
 * where IDENTITY is what a set-user-ID (or capable) exec of PROGRAM by the
 * bench user leaves (countrun.h): so the tool sees the bench user's real
 * ids, the owner's effective ones, the bench user's groups, and takes the
 * bench user's path through its policy. valgrind writes each process's
 * counts into a directory made for the run, OUT/counts/run/ids (root's and
 * the bench user's group's, 0770, under run/ 0700), which only the run sees,
 * at SHARED/run, in a mount namespace of its own (run_dir_make: a tool that
 * changes identity writes every part; doc/security.md R44), read back and
 * removed after each run (a subject neither set-ID nor capable: SHARED/run-user,
 * the bench user's). Each subject is counted twice, five times when the two differ by
 * more than 0.01 %, its median kept (countrepeat.h, count_repeated). With
 * "profile", the same launch without valgrind
 *   setpriv IDENTITY -- strace -f -qq -o OUT/counts/trace PROGRAM ARGS
 * gives its system calls, compared with the profile pass's at that point
 * ("launch": the calls that differ, none expected). Then the policies deny
 * again and point-N.json is written whole: the pass's journal, so
 * --resume counts only what is missing.
 */
#include "runner_counts.h"
#include "runner_refcount.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "countrepeat.h"
#include "countrun.h"
#include "fileio.h"
#include "jsonget.h"
#include "runner_passfile.h"
#include "runner_point.h"
#include "runner_profile_files.h"
#include "straceprof.h"
#include "tracedrun.h"
#include "trustpath.h"

/* A counted run is 20 to 100 times slower than a timed one. */
#define COUNTS_TIMEOUT_FACTOR 100u
#define COUNTS_TIMEOUT_MAX_MS (3600u * 1000u)
#define COUNTS_FILE_MAX_BYTES (16u << 20)

/* The pass's directories (runner_counts_pass makes them). */
struct runner_count_dirs {
	char rundir[PATH_MAX];  /* OUT/counts/run: root's, 0700; a set-ID run's ids/ in it */
	char userdir[PATH_MAX]; /* SHARED/run-user: the bench user's, 0700 */
	char bindir[PATH_MAX];  /* SHARED/bin: the copies, root's, 0755 */
	char shown[PATH_MAX];   /* SHARED/run: root's, 0755, empty; ids/ shows there in a run */
	char trace[PATH_MAX];   /* OUT/counts/trace: the launch's strace output */
};

static uint32_t counted_timeout_ms(uint32_t run_timeout_ms)
{
	uint64_t t = (uint64_t)run_timeout_ms * COUNTS_TIMEOUT_FACTOR;

	return t > COUNTS_TIMEOUT_MAX_MS ? COUNTS_TIMEOUT_MAX_MS : (uint32_t)t;
}

static int counts_path(const char *out, const char *name, char *buf, size_t len, struct errbuf *eb)
{
	return fileio_fmt(buf, len, "%s/%s/%s", out, RUNNER_COUNTS_DIR, name) < 0
		   ? errbuf_set(eb, "%s: path too long", out)
		   : 0;
}

static int point_path(const char *out, size_t index, char *buf, size_t len, struct errbuf *eb)
{
	return fileio_fmt(buf, len, "%s/%s/point-%zu.json", out, RUNNER_COUNTS_DIR, index + 1) < 0
		   ? errbuf_set(eb, "%s: path too long", out)
		   : 0;
}

cJSON *runner_counts_read(const char *out, size_t index, struct errbuf *eb)
{
	char path[PATH_MAX], *text = NULL;
	cJSON *doc;
	size_t len = 0;

	eb->msg[0] = '\0';
	if (point_path(out, index, path, sizeof(path), eb) < 0 || access(path, F_OK) != 0)
		return NULL;
	if (fileio_read_regular(path, COUNTS_FILE_MAX_BYTES, "cannot open", &text, &len, eb) < 0)
		return NULL;
	doc = cJSON_ParseWithLength(text, len);
	free(text);
	if (doc == NULL || !cJSON_IsObject(jsonget_member(doc, "subjects"))) {
		cJSON_Delete(doc);
		errbuf_set(eb, "%s: not a point's counts", path);
		return NULL;
	}
	return doc;
}

/*
 * The timed runs' pin with room above the nofile limit for valgrind's own
 * descriptors (COUNTRUN_VALGRIND_FDS): the hard limit raised so that the tool
 * still sees the soft limit (and, from valgrind, that as its hard limit).
 */
static struct proc_pin counted_pin(const struct proc_pin *pin)
{
	struct proc_pin p = *pin;

	for (size_t i = 0; i < p.nlimits; i++)
		if (p.limits[i].resource == RLIMIT_NOFILE && p.limits[i].soft != RLIM_INFINITY &&
		    p.limits[i].hard < p.limits[i].soft + COUNTRUN_VALGRIND_FDS)
			p.limits[i].hard = p.limits[i].soft + COUNTRUN_VALGRIND_FDS;
	return p;
}

/* Whether id runs as root or with capabilities: it writes into root's run/. */
static bool privileged(const struct countrun_identity *id)
{
	return id->euid == 0 || id->caps[0] != '\0';
}

/* A prepared command of argv as root in s's runs' pin and namespace ns. NULL (eb). */
static struct proc_cmd *root_cmd(struct runner *r, const struct mntns *ns, char *const *argv,
				 const struct proc_pin *pin, struct errbuf *eb)
{
	struct proc_opts po = {.envp = r->env.envp,
			       .output = PROC_OUTPUT_STDERR_FD,
			       .output_fd = r->rs.stderr_fd,
			       .stdin_null = true,
			       .timeout_ms = counted_timeout_ms(r->m->run_timeout_ms),
			       .stop = r->cfg.stop,
			       .pin = pin,
			       .mntns = ns};

	return proc_cmd_new(argv, &po, eb);
}

/*
 * valgrind refuses to run a set-user-ID, set-group-ID or capable file ("Can't execute
 * setuid/setgid/setcap executable"), and the privileges come from setpriv anyway: it runs a copy
 * of the program, the same bytes under the same name, without those bits or capabilities, in
 * OUT/counts/bin (root's, 0755: valgrind checks that the real uid, the bench user's, may
 * execute it; a copy without its set-ID bits or capabilities grants nothing). Made once per
 * pass (argv[0] then names it). 0 or -1.
 */
static int counted_copy(const char *program, const char *bindir, char *copy, size_t len,
			struct errbuf *eb)
{
	const char *base = strrchr(program, '/');
	char buf[65536];
	int in = -1, out = -1, rc = -1;
	ssize_t n;

	base = base != NULL ? base + 1 : program;
	if (fileio_fmt(copy, len, "%s/%s", bindir, base) < 0)
		return errbuf_set(eb, "%s: path too long", bindir);
	if (access(copy, F_OK) == 0)
		return 0;
	in = open(program, O_RDONLY | O_CLOEXEC);
	out = open(copy, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0700);
	if (in < 0 || out < 0) {
		errbuf_set_errno(eb, errno, "counts: a copy of %s", program);
		goto out;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			errbuf_set_errno(eb, errno, "counts: %s", copy);
			goto out;
		}
	if (n < 0 || fchmod(out, 0755) != 0) {
		errbuf_set_errno(eb, errno, "counts: %s", copy);
		goto out;
	}
	rc = 0;
out:
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out) != 0 && rc == 0)
		rc = errbuf_set_errno(eb, errno, "counts: %s", copy);
	if (rc < 0)
		unlink(copy);
	return rc;
}

/* s's argv with argv[0] the copy (heap array of borrowed strings; free it alone). */
static char **copy_argv(const struct runner_subject *s, char *copy)
{
	size_t n = 0;
	char **a;

	while (s->p->argv[n] != NULL)
		n++;
	if ((a = calloc(n + 1, sizeof(*a))) == NULL)
		return NULL;
	for (size_t i = 0; i < n; i++)
		a[i] = s->p->argv[i];
	a[0] = copy;
	return a;
}

/*
 * What a count may move with and a tool reads whole: /etc/passwd and /etc/group. doas's rules
 * name the bench user by uid, and OpenDoas tries the uid as a name first (getpwnam("4242")),
 * which reads /etc/passwd to its end for every rule: one line more there is about 1 000
 * instructions more per task (doc/counts.md). A user another program adds or removes meanwhile
 * moves the count; its size and change time are recorded, and a change between a point's runs
 * is the reason given for their spread.
 */
struct nss_state {
	long long passwd_bytes, group_bytes;
	struct timespec passwd_ctime, group_ctime;
};

static void nss_state_read(struct nss_state *n)
{
	struct stat st;

	memset(n, 0, sizeof(*n));
	n->passwd_bytes = n->group_bytes = -1;
	if (stat("/etc/passwd", &st) == 0) {
		n->passwd_bytes = (long long)st.st_size;
		n->passwd_ctime = st.st_ctim;
	}
	if (stat("/etc/group", &st) == 0) {
		n->group_bytes = (long long)st.st_size;
		n->group_ctime = st.st_ctim;
	}
}

static bool nss_state_same(const struct nss_state *a, const struct nss_state *b)
{
	return a->passwd_bytes == b->passwd_bytes && a->group_bytes == b->group_bytes &&
	       a->passwd_ctime.tv_sec == b->passwd_ctime.tv_sec &&
	       a->passwd_ctime.tv_nsec == b->passwd_ctime.tv_nsec &&
	       a->group_ctime.tv_sec == b->group_ctime.tv_sec &&
	       a->group_ctime.tv_nsec == b->group_ctime.tv_nsec;
}

/*
 * Where a set-ID or capable subject's counted run writes: a directory made for the run,
 * OUT/counts/run/ids (root's and the bench user's group's, 0770), which the tool's every
 * identity may write (the bench user's with its capabilities dropped, root's without any:
 * RootAsRole 4.x's monitor and command child), shown at SHARED/run in a mount namespace of
 * the run's own (the subject's, copied), and nowhere else: on the host it lies under run/,
 * root's and 0700, which the bench user cannot pass. The namespace ends with the run; the
 * directory is read, emptied and removed after it. Into *ns and ids. 0 or -1.
 */
static int run_dir_make(const struct runner *r, const struct runner_subject *s,
			const char *rundir, const char *shown, char *ids, size_t len,
			struct mntns **ns, struct errbuf *eb)
{
	int fd;

	*ns = NULL;
	if (fileio_fmt(ids, len, "%s/ids", rundir) < 0)
		return errbuf_set(eb, "%s: path too long", rundir);
	{
		struct errbuf gone = {{0}}; /* none there: the usual case */

		if (countrun_clear_dir(ids, &gone) == 0)
			rmdir(ids); /* a crashed run's */
	}
	if (mkdir(ids, 0700) != 0)
		return errbuf_set_errno(eb, errno, "%s", ids);
	fd = open(ids, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fchown(fd, 0, r->user.gid) != 0 || fchmod(fd, 0770) != 0) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		rmdir(ids);
		return errbuf_set_errno(eb, e, "%s", ids);
	}
	close(fd);
	if ((*ns = mntns_bind_at(s->mntns, ids, shown, eb)) == NULL) {
		rmdir(ids);
		return -1;
	}
	return 0;
}

/* Ends what run_dir_make made: the namespace, then the directory's files and itself. */
static void run_dir_end(struct mntns *ns, const char *ids)
{
	struct errbuf ignored = {{0}};

	mntns_free(ns);
	if (countrun_clear_dir(ids, &ignored) == 0)
		rmdir(ids);
}

/*
 * One counted run, its counts into o: valgrind writes into dir (the path seen from the run, in
 * the namespace ns) and they are read from files (the same directory seen from here). 0, or
 * -1 when the pass must stop.
 */
static int count_once(struct runner *r, const struct mntns *ns, char *const *sargv,
		      const struct countrun_identity *id, const char *dir, const char *files,
		      cJSON *o, uint64_t *ns_total, struct errbuf *eb)
{
	struct proc_pin pin = counted_pin(&r->env.pin);
	struct countrun *c = calloc(1, sizeof(*c));
	struct proc_cmd *cmd = NULL;
	struct proc_sample smp = {0};
	struct errbuf ceb = {{0}};
	char **argv = NULL, line[TRACEDRUN_MESSAGE_MAX + 1];
	int rc = -1;

	if (c == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	if (countrun_clear_dir(files, eb) < 0 ||
	    (argv = countrun_argv(COUNTRUN_SETPRIV, countrun_valgrind(), id, dir, sargv, eb)) ==
		NULL ||
	    (cmd = root_cmd(r, ns, argv, &pin, eb)) == NULL)
		goto out;
	if (ftruncate(r->rs.stderr_fd, 0) != 0 || lseek(r->rs.stderr_fd, 0, SEEK_SET) != 0) {
		errbuf_set_errno(eb, errno, "counts: temporary file");
		goto out;
	}
	if (proc_run(cmd, &smp, eb) < 0)
		goto out;
	if (smp.stopped) {
		errbuf_set(eb, "interrupted");
		goto out;
	}
	*ns_total += smp.wall_ns;
	cJSON_AddNumberToObject(o, "counted_ns", (double)smp.wall_ns);
	cJSON_AddNumberToObject(o, "exit_code", smp.exit_code);
	if (smp.timed_out) {
		cJSON_AddStringToObject(o, "status", "uncounted");
		cJSON_AddStringToObject(o, "message", "the counted run passed its timeout");
	} else if (countrun_read_dir(c, files, &ceb) < 0) {
		char why[ERRBUF_MSG_MAX + TRACEDRUN_MESSAGE_MAX + 8];

		/* valgrind's own complaint, when it made one, says why. */
		tracedrun_stderr_line(r->rs.stderr_fd, line, sizeof(line));
		snprintf(why, sizeof(why), "%s%s%s", ceb.msg, line[0] != '\0' ? ": " : "", line);
		cJSON_AddStringToObject(o, "status", "uncounted");
		cJSON_AddStringToObject(o, "message", why);
	} else {
		/* A lost last part makes valgrind exit 1 whatever the tool did; the launch without
		 * valgrind gives the tool's own exit status. */
		bool ok = smp.exit_code == 0 || (c->final_lost && smp.exit_code == 1);

		cJSON_AddStringToObject(o, "status", ok ? "ok" : "exit_differs");
		if (!ok) {
			tracedrun_stderr_line(r->rs.stderr_fd, line, sizeof(line));
			cJSON_AddStringToObject(o, "message", line);
		}
		countrun_json(c, o);
	}
	rc = 0;
out:
	proc_cmd_free(cmd);
	countrun_argv_free(argv);
	free(c);
	return rc;
}

/*
 * The counted run of s, its counts into o: a set-ID or capable identity writes into a
 * directory and namespace of the run's own (run_dir_make), the bench user alone into userdir
 * in s's namespace. 0, or -1 when the pass must stop.
 */
static int count_subject(struct runner *r, const struct runner_subject *s, char *const *sargv,
			 const struct countrun_identity *id, const struct runner_count_dirs *d,
			 cJSON *o, uint64_t *ns_total, struct errbuf *eb)
{
	char ids[PATH_MAX];
	struct mntns *ns;
	int rc;

	if (!privileged(id))
		return count_once(r, s->mntns, sargv, id, d->userdir, d->userdir, o, ns_total, eb);
	if (run_dir_make(r, s, d->rundir, d->shown, ids, sizeof(ids), &ns, eb) < 0)
		return -1;
	rc = count_once(r, ns, sargv, id, d->shown, ids, o, ns_total, eb);
	run_dir_end(ns, ids);
	return rc;
}

/* The system calls of the traced launch that differ from the profile's (name: [profile,
 * launch]) into o's "launch"; NULL profile: only the launch's totals. */
static void compare_launch(struct straceprof *t, const cJSON *profile, cJSON *o)
{
	cJSON *l = cJSON_AddObjectToObject(o, "launch"), *diff;
	const cJSON *ps = jsonget_member(profile, "syscalls"), *e;
	size_t ndiff = 0;

	if (l == NULL)
		return;
	cJSON_AddNumberToObject(l, "calls", (double)t->calls);
	if (!cJSON_IsObject(ps))
		return;
	diff = cJSON_AddObjectToObject(l, "differs");
	for (size_t i = 0; diff != NULL && i < t->nsyscalls; i++) {
		const cJSON *pc = jsonget_member(jsonget_member(ps, t->syscalls[i].name), "calls");
		double want = cJSON_IsNumber(pc) ? pc->valuedouble : 0;

		if (want != (double)t->syscalls[i].calls) {
			cJSON *a = cJSON_AddArrayToObject(diff, t->syscalls[i].name);

			cJSON_AddItemToArray(a, cJSON_CreateNumber(want));
			cJSON_AddItemToArray(a, cJSON_CreateNumber((double)t->syscalls[i].calls));
			ndiff++;
		}
	}
	cJSON_ArrayForEach(e, ps)
	{
		if (diff != NULL && e->string != NULL && straceprof_find(t, e->string) == NULL) {
			const cJSON *pc = jsonget_member(e, "calls");
			cJSON *a = cJSON_AddArrayToObject(diff, e->string);

			cJSON_AddItemToArray(
			    a, cJSON_CreateNumber(cJSON_IsNumber(pc) ? pc->valuedouble : 0));
			cJSON_AddItemToArray(a, cJSON_CreateNumber(0));
			ndiff++;
		}
	}
	cJSON_AddBoolToObject(l, "same_calls", ndiff == 0);
}

/*
 * A line of strace -f's output after the tool's own exec: a program a process of the tool
 * executes (not one that failed) is appended to execs, in order, its path sanitised: the
 * counted run's children that execute (countrun: ".childN", execs) are, in the same order, a
 * PAM helper (unix_chkpwd) and the command.
 */
static void note_exec(const char *line, cJSON *execs)
{
	const char *p = strstr(line, "execve(\""), *q;
	char path[256];
	size_t k = 0;

	if (p == NULL || strstr(line, "= -1 ") != NULL)
		return;
	for (q = p + 8; *q != '\0' && *q != '"' && k + 1 < sizeof(path); q++)
		path[k++] = (*q >= ' ' && *q <= '~') ? *q : '_';
	path[k] = '\0';
	cJSON_AddItemToArray(execs, cJSON_CreateString(path));
}

/*
 * The counted launch without valgrind, under strace (the proof that the counted identity takes
 * the timed runs' path): its calls against the profile's at this point (profile: the point's
 * profile of s, or NULL). 0, or -1 when the pass must stop.
 */
static int trace_launch(struct runner *r, const struct runner_subject *s, char *const *sargv,
			const struct countrun_identity *id, const char *trace, const cJSON *profile,
			cJSON *o, struct errbuf *eb)
{
	char **launch = NULL, **full = NULL, *line = NULL, marker[PATH_MAX + 16];
	cJSON *execs = NULL;
	struct proc_cmd *cmd = NULL;
	struct tracedrun t = {0};
	struct straceprof from_exec;
	size_t n = 0, k = 0;
	uint64_t lineno = 0;
	bool seen = false;
	FILE *f = NULL;
	int rc = -1, fd;

	straceprof_init(&from_exec);
	if ((execs = cJSON_CreateArray()) == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	/* strace as root (its trace root's, R25) over setpriv's launch: the calls from the exec of
	 * the program on are the launch's, as the profile's start at its exec. */
	if ((launch = countrun_launch_argv(COUNTRUN_SETPRIV, id, NULL, sargv, eb)) == NULL)
		goto out;
	while (launch[n] != NULL)
		n++;
	if ((full = calloc(n + 6, sizeof(*full))) == NULL ||
	    (line = malloc(STRACEPROF_LINE_MAX + 2)) == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	full[k++] = (char *)r->cfg.tracer;
	full[k++] = "-f";
	full[k++] = "-qq";
	full[k++] = "-o";
	full[k++] = (char *)trace;
	for (size_t i = 0; i < n; i++)
		full[k++] = launch[i];
	if (unlink(trace) != 0 && errno != ENOENT) {
		errbuf_set_errno(eb, errno, "counts: %s", trace);
		goto out;
	}
	fd = open(trace, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || close(fd) != 0) {
		errbuf_set_errno(eb, errno, "counts: %s", trace);
		goto out;
	}
	if ((cmd = root_cmd(r, s->mntns, full, &r->env.pin, eb)) == NULL)
		goto out;
	if (tracedrun_run(&t, cmd, trace, r->rs.stderr_fd, counted_timeout_ms(r->m->run_timeout_ms),
			  eb) < 0)
		goto out;
	cJSON_AddNumberToObject(o, "launch_exit_code", t.sample.exit_code);
	if (t.status == TRACEDRUN_UNTRACEABLE) {
		cJSON_AddStringToObject(o, "launch_message", t.message);
		rc = 0;
		goto out;
	}
	if (fileio_fmt(marker, sizeof(marker), "execve(\"%s\"", sargv[0]) < 0 ||
	    (f = fopen(trace, "re")) == NULL) {
		errbuf_set(eb, "counts: %s: cannot read it back", trace);
		goto out;
	}
	while (fgets(line, STRACEPROF_LINE_MAX + 2, f) != NULL) {
		struct errbuf leb = {{0}};

		lineno++;
		if (seen)
			note_exec(line, execs);
		seen = seen || strstr(line, marker) != NULL;
		if (seen && straceprof_line(&from_exec, line, strlen(line), lineno, &leb) < 0) {
			cJSON_AddStringToObject(o, "launch_message", leb.msg);
			rc = 0;
			goto out;
		}
	}
	compare_launch(&from_exec, profile, o);
	if (cJSON_GetArraySize(execs) > 0 &&
	    cJSON_AddItemToObject(cJSON_GetObjectItemCaseSensitive(o, "launch"), "executes", execs))
		execs = NULL;
	rc = 0;
out:
	cJSON_Delete(execs);
	if (f != NULL)
		fclose(f);
	unlink(trace);
	proc_cmd_free(cmd);
	tracedrun_clear(&t);
	straceprof_clear(&from_exec);
	free(line);
	free(full);
	countrun_argv_free(launch);
	return rc;
}

/* Writes doc to OUT/counts/point-N.json whole. 0 or -1. */
static int write_point(struct runner *r, size_t index, const cJSON *doc, struct errbuf *eb)
{
	char path[PATH_MAX];

	if (point_path(r->cfg.out, index, path, sizeof(path), eb) < 0)
		return -1;
	return runner_passfile_write(path, doc, eb);
}

/*
 * s counted by countrepeat's rule: twice, and COUNTREPEAT_MORE times more when the two differ
 * by more than 0.01 %; the run whose count is the median replaces *o in subjects (its
 * processes with it), its "instructions" the median, with "counted_runs", "counted_ns" over all
 * runs, the files the count may move with ("nss_files"), and, when the runs differed,
 * "repeats": every count, the least, the most, the spread and why. A run whose status is not
 * "ok" ends the repeats and is kept as it is. 0, or -1 when the pass must stop.
 */
static int count_repeated(struct runner *r, const struct runner_subject *s, char *const *sargv,
			  const struct countrun_identity *id, const struct runner_count_dirs *d,
			  cJSON *subjects,
			  cJSON **o, uint64_t *ns, struct errbuf *eb)
{
	cJSON *runs[COUNTREPEAT_MAX] = {0}, *keep, *rep, *arr, *nss, *idn;
	struct nss_state st[COUNTREPEAT_MAX + 1];
	struct countrepeat c = {.n = 0};
	uint64_t ns0 = *ns, lo, hi;
	size_t k, want = 2, done;
	double spread;
	bool changed = false;
	int rc = -1;

	for (k = 0; k < want; k++) {
		const cJSON *v;

		nss_state_read(&st[k]);
		if ((runs[k] = cJSON_CreateObject()) == NULL) {
			errbuf_set(eb, "out of memory");
			goto out;
		}
		if (count_subject(r, s, sargv, id, d, runs[k], ns, eb) < 0)
			goto out;
		v = cJSON_GetObjectItemCaseSensitive(runs[k], "instructions");
		if (!cJSON_IsNumber(v) ||
		    !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(runs[k], "status")) ||
		    strcmp(cJSON_GetObjectItemCaseSensitive(runs[k], "status")->valuestring,
			   "ok") != 0)
			break;
		c.v[c.n++] = (uint64_t)v->valuedouble;
		want = countrepeat_want(&c);
	}
	done = k < want ? k + 1 : k;
	nss_state_read(&st[done]);
	if (k < want) {
		keep = runs[k]; /* not counted, or not "ok": kept as it is, not repeated */
		runs[k] = NULL;
	} else {
		size_t m = countrepeat_median(&c);

		keep = runs[m];
		runs[m] = NULL;
	}
	for (size_t i = 1; i <= done; i++)
		changed |= !nss_state_same(&st[0], &st[i]);
	if ((idn = cJSON_DetachItemFromObjectCaseSensitive(*o, "identity")) != NULL)
		cJSON_AddItemToObject(keep, "identity", idn);
	cJSON_ReplaceItemInObject(keep, "counted_ns", cJSON_CreateNumber((double)(*ns - ns0)));
	cJSON_AddNumberToObject(keep, "counted_runs", (double)done);
	if ((nss = cJSON_AddObjectToObject(keep, "nss_files")) != NULL) {
		cJSON_AddNumberToObject(nss, "passwd_bytes", (double)st[0].passwd_bytes);
		cJSON_AddNumberToObject(nss, "group_bytes", (double)st[0].group_bytes);
		if (changed)
			cJSON_AddBoolToObject(nss, "changed", true);
	}
	if (c.n > 2 && (rep = cJSON_AddObjectToObject(keep, "repeats")) != NULL) {
		countrepeat_range(&c, &lo, &hi, &spread);
		if ((arr = cJSON_AddArrayToObject(rep, "instructions")) != NULL)
			for (size_t i = 0; i < c.n; i++)
				cJSON_AddItemToArray(arr, cJSON_CreateNumber((double)c.v[i]));
		cJSON_AddNumberToObject(rep, "min", (double)lo);
		cJSON_AddNumberToObject(rep, "max", (double)hi);
		cJSON_AddNumberToObject(rep, "spread", spread);
		cJSON_AddStringToObject(
		    rep, "reason",
		    changed
			? "/etc/passwd or /etc/group changed between the counted runs (a user "
			  "added or removed meanwhile): a tool that reads them whole counts "
			  "more or fewer instructions; the median is kept"
			: "the first two counts differ by more than 0.01 % with /etc/passwd and "
			  "/etc/group unchanged (a tool's hash seeds from getrandom, the clock): "
			  "the median of the runs is kept");
	}
	cJSON_ReplaceItemInObjectCaseSensitive(subjects, s->p->ms->id, keep);
	*o = keep;
	rc = 0;
out:
	for (k = 0; k < COUNTREPEAT_MAX; k++)
		cJSON_Delete(runs[k]);
	return rc;
}

/* Counts every active subject at pt, policies granting throughout. RUNNER_STEP_*. */
static enum runner_step count_point(struct runner *r, const struct sweep_point *pt,
				    const struct runner_count_dirs *d, struct errbuf *eb)
{
	cJSON *doc = cJSON_CreateObject(), *subjects, *profile = NULL;
	struct errbuf deny = {{0}}, peb = {{0}};
	uint64_t ns = 0;
	enum runner_step rc = RUNNER_STEP_FAILED;

	if (doc == NULL) {
		errbuf_set(eb, "out of memory");
		return RUNNER_STEP_FAILED;
	}
	cJSON_AddStringToObject(doc, "point", pt->id);
	cJSON_AddStringToObject(doc, "instrument", "callgrind");
	cJSON_AddBoolToObject(doc, "pmu", countrun_pmu_errno() == 0);
	subjects = cJSON_AddObjectToObject(doc, "subjects");
	if (subjects == NULL)
		goto out;
	if (r->m->profile)
		profile = runner_profile_read(r->cfg.out, pt->index, &peb);
	if (runner_env_apply_point(&r->sj, pt) < 0) {
		errbuf_set(eb, "point %zu: its limit", pt->index + 1);
		goto out;
	}
	if (runner_point_write_policies(&r->sj, pt, eb) < 0)
		goto deny;
	rc = runner_point_check_grants(&r->sj, &r->rs, pt, eb);
	for (size_t i = 0; rc == RUNNER_STEP_OK && i < r->sj.nsubjects; i++) {
		const struct runner_subject *s = &r->sj.subjects[i];
		struct countrun_identity id;
		struct errbuf ieb = {{0}};
		char copy[PATH_MAX], **sargv = NULL;
		cJSON *o;

		if (!runstate_in_step(&r->rs, i))
			continue;
		o = cJSON_AddObjectToObject(subjects, s->p->ms->id);
		if (o == NULL) {
			errbuf_set(eb, "out of memory");
			rc = RUNNER_STEP_FAILED;
			break;
		}
		if (countrun_identity_of(s->p->program, &r->user, &id, &ieb) < 0) {
			cJSON_AddStringToObject(o, "status", "uncounted");
			cJSON_AddStringToObject(o, "message", ieb.msg);
			continue;
		}
		cJSON_AddStringToObject(o, "identity",
					id.caps[0] != '\0' ? "file capabilities (ambient)"
					: id.setuid        ? "set-user-ID"
							   : "the bench user");
		if (counted_copy(s->p->program, d->bindir, copy, sizeof(copy), eb) < 0 ||
		    (sargv = copy_argv(s, copy)) == NULL ||
		    count_repeated(r, s, sargv, &id, d, subjects, &o, &ns, eb) < 0 ||
		    (r->m->profile &&
		     trace_launch(r, s, sargv, &id, d->trace,
				  jsonget_member(jsonget_member(profile, "subjects"), s->p->ms->id),
				  o, eb) < 0)) {
			if (sargv == NULL && eb->msg[0] == '\0')
				errbuf_set(eb, "out of memory");
			errbuf_prefix(eb, "counts of point %zu: subject %s", pt->index + 1,
				      s->p->ms->id);
			rc = RUNNER_STEP_FAILED;
		}
		free(sargv);
	}
deny:
	runner_point_stop_daemons(&r->sj);
	if (runner_guard_deny(r->guard, &deny) < 0) {
		*eb = deny;
		rc = RUNNER_STEP_FAILED;
	}
	runner_guard_point_end(r->guard);
	cJSON_AddNumberToObject(doc, "counted_ns", (double)ns);
	if (rc == RUNNER_STEP_OK && write_point(r, pt->index, doc, eb) < 0)
		rc = RUNNER_STEP_FAILED;
out:
	cJSON_Delete(profile);
	cJSON_Delete(doc);
	return rc;
}

/*
 * OUT/counts/run-user: where a subject that runs as the bench user alone (neither set-ID nor
 * capable) has valgrind write. Made anew each pass (a leftover removed first, without following
 * a link), the bench user's, 0700; root reads it back without following links (countrun.c).
 */
static int make_user_dir(const char *dir, const struct proc_user *u, struct errbuf *eb)
{
	struct stat st;
	int fd;

	if (lstat(dir, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			return errbuf_set(eb, "%s: not a directory", dir);
		if (countrun_clear_dir(dir, eb) < 0)
			return -1;
		if (rmdir(dir) != 0)
			return errbuf_set_errno(eb, errno, "%s", dir);
	}
	if (mkdir(dir, 0700) != 0)
		return errbuf_set_errno(eb, errno, "%s", dir);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errbuf_set_errno(eb, errno, "%s", dir);
	if (fchown(fd, u->uid, u->gid) != 0 || fchmod(fd, 0700) != 0) {
		int e = errno;

		close(fd);
		return errbuf_set_errno(eb, e, "%s", dir);
	}
	return close(fd) == 0 ? 0 : errbuf_set_errno(eb, errno, "%s", dir);
}

/* OUT/counts/bin made (root's, 0755) and emptied: this pass's copies are made anew. 0 or -1. */
static int clear_bin(const char *bindir, struct errbuf *eb)
{
	DIR *d;
	struct dirent *e;
	int dfd, rc = 0;

	if (trustpath_make_dir(bindir, eb) < 0 || chmod(bindir, 0755) != 0)
		return eb->msg[0] != '\0' ? -1 : errbuf_set_errno(eb, errno, "%s", bindir);
	dfd = open(bindir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0 || (d = fdopendir(dfd)) == NULL) {
		if (dfd >= 0)
			close(dfd);
		return errbuf_set_errno(eb, errno, "%s", bindir);
	}
	while (rc == 0 && (e = readdir(d)) != NULL)
		if (e->d_name[0] != '.' && unlinkat(dirfd(d), e->d_name, 0) != 0)
			rc = errbuf_set_errno(eb, errno, "%s/%s", bindir, e->d_name);
	closedir(d);
	return rc;
}

/*
 * The pass's directory for what the bench user's identity must reach whatever OUT's modes:
 * /tmp/rarperf-counts.XXXXXX (mkdtemp, root's, 0755: in sticky /tmp nobody else can rename
 * or write it), holding bin/ (the copies, whose path then has the same length on every
 * machine: a tool that reads its /proc/self/maps reads as many bytes) and run-user/. 0 or -1.
 */
static int make_shared(char *shared, size_t len, struct errbuf *eb)
{
	if (fileio_fmt(shared, len, "/tmp/rarperf-counts.XXXXXX") < 0 || mkdtemp(shared) == NULL) {
		shared[0] = '\0';
		return errbuf_set_errno(eb, errno, "counts: a directory in /tmp");
	}
	if (chmod(shared, 0755) != 0)
		return errbuf_set_errno(eb, errno, "%s", shared);
	return 0;
}

/* Removes what make_shared made (best effort, on every path). */
static void remove_shared(const char *shared, const struct runner_count_dirs *d)
{
	struct errbuf ignored = {{0}};

	if (shared[0] == '\0')
		return;
	if (countrun_clear_dir(d->userdir, &ignored) == 0)
		rmdir(d->userdir);
	if (clear_bin(d->bindir, &ignored) == 0)
		rmdir(d->bindir);
	rmdir(d->shown);
	rmdir(shared);
}

int runner_counts_pass(struct runner *r, struct errbuf *eb)
{
	char dir[PATH_MAX], path[PATH_MAX], shared[PATH_MAX] = "";
	struct runner_count_dirs *d = calloc(1, sizeof(*d));
	size_t n = sweep_count(r->sweep);
	int rc = -1;
	struct stat st;

	if (!r->m->counts) {
		free(d);
		return 0;
	}
	if (d == NULL)
		return errbuf_set(eb, "out of memory");
	if (fileio_fmt(dir, sizeof(dir), "%s/%s", r->cfg.out, RUNNER_COUNTS_DIR) < 0 ||
	    counts_path(r->out_abs, "run", d->rundir, sizeof(d->rundir), eb) < 0 ||
	    make_shared(shared, sizeof(shared), eb) < 0 ||
	    fileio_fmt(d->userdir, sizeof(d->userdir), "%s/run-user", shared) < 0 ||
	    fileio_fmt(d->bindir, sizeof(d->bindir), "%s/bin", shared) < 0 ||
	    fileio_fmt(d->shown, sizeof(d->shown), "%s/run", shared) < 0 ||
	    counts_path(r->out_abs, "trace", d->trace, sizeof(d->trace), eb) < 0) {
		if (eb->msg[0] == '\0')
			errbuf_set(eb, "%s: path too long", r->cfg.out);
		goto out;
	}
	/* valgrind writes in run/ as root (or with the tool's capabilities): root's, 0700; a
	 * set-ID run in a directory of its own in it, shown at SHARED/run (root's, 0755, empty
	 * outside the run's namespace). */
	if (runner_reset_tool_state(runner_guard_prefix(r->guard), eb) < 0 ||
	    trustpath_make_dir(dir, eb) < 0 || trustpath_make_dir(d->rundir, eb) < 0 ||
	    chmod(d->rundir, 0700) != 0 || make_user_dir(d->userdir, &r->user, eb) < 0 ||
	    clear_bin(d->bindir, eb) < 0 || mkdir(d->shown, 0755) != 0 || chmod(d->shown, 0755) != 0) {
		if (eb->msg[0] == '\0')
			errbuf_set_errno(eb, errno, "%s", d->rundir);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		if (point_path(r->cfg.out, i, path, sizeof(path), eb) < 0)
			goto out;
		if (stat(path, &st) == 0)
			continue; /* counted by an earlier invocation (--resume) */
		if (r->cfg.stop != NULL && *r->cfg.stop) {
			errbuf_set(eb, "interrupted");
			goto out;
		}
		if (!runstate_profile_end(&r->rs, count_point(r, sweep_at(r->sweep, i), d, eb)))
			goto out;
	}
	if (runner_refcount_pass(r, d->userdir, eb) < 0)
		goto out;
	rc = countrun_clear_dir(d->rundir, eb);
out:
	remove_shared(shared, d);
	free(d);
	return rc;
}
