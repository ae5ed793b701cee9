/* countrun: one counted run (valgrind's callgrind behind the bench user's set-ID identity), its
 * command and what its files say. Design note in countrun.h. */
#include "countrun.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "fileio.h"
#include "numarg.h"

/*
 * Functions before which callgrind dumps: every way glibc creates a process, and execve; and
 * libc's start ("(below main)", valgrind's name of __libc_start_main), before the tool's own code: the first dump of a process goes to its base file,
 * which callgrind made at its start with the identity the process started with, and later ones
 * to new files; and libc's exit(). callgrind writes the last part, at the process's end, into
 * the base file it made at its start: a capable tool (dosr) that ends as uid 0 without its
 * capabilities cannot open that file, which the bench user's identity made, so its count ends
 * at exit() (countrun.final_lost; what atexit handlers run is not counted). And before wait4 and
 * waitpid: a monitor that polls for the command (RootAsRole 4.x: waitpid(WNOHANG) and a read,
 * in a loop without a sleep) turns as often as the clock lets it; each turn is then a part of
 * its own, counted apart (countrun_proc.polls), so that the rest is the same in every run.
 */
static const char *const dump_before[] = {
    "(below main)", "fork",    "vfork",    "clone",   "posix_spawn*",
    "execve",       "execveat", "fexecve", "__spawni*", "exit",
    "wait4",        "waitpid"};

/* The capabilities by number, as setpriv names them (capabilities(7) without "cap_"). */
static const char *const cap_names[] = {
    "chown",          "dac_override",     "dac_read_search", "fowner",
    "fsetid",         "kill",             "setgid",          "setuid",
    "setpcap",        "linux_immutable",  "net_bind_service", "net_broadcast",
    "net_admin",      "net_raw",          "ipc_lock",        "ipc_owner",
    "sys_module",     "sys_rawio",        "sys_chroot",      "sys_ptrace",
    "sys_pacct",      "sys_admin",        "sys_boot",        "sys_nice",
    "sys_resource",   "sys_time",         "sys_tty_config",  "mknod",
    "lease",          "audit_write",      "audit_control",   "setfcap",
    "mac_override",   "mac_admin",        "syslog",          "wake_alarm",
    "block_suspend",  "audit_read",       "perfmon",         "bpf",
    "checkpoint_restore"};

/*
 * The file's permitted capabilities that this process's bounding set holds (what an exec of it
 * leaves permitted) as setpriv's list, "-all,+chown,+dac_override,...", into id->caps; "" for
 * a file without capabilities. 0 or -1.
 */
static int file_caps(const char *program, struct countrun_identity *id, struct errbuf *eb)
{
	struct vfs_ns_cap_data d;
	ssize_t n = getxattr(program, "security.capability", &d, sizeof(d));
	uint64_t permitted;
	size_t used;

	id->caps[0] = '\0';
	if (n < 0)
		return errno == ENODATA || errno == ENOTSUP ? 0
							    : errbuf_set_errno(eb, errno, "%s", program);
	if (n < (ssize_t)(sizeof(uint32_t) * 3))
		return errbuf_set(eb, "%s: its security.capability is %zd bytes", program, n);
	permitted = d.data[0].permitted;
	if (n >= (ssize_t)(sizeof(uint32_t) * 5))
		permitted |= (uint64_t)d.data[1].permitted << 32;
	used = (size_t)snprintf(id->caps, sizeof(id->caps), "-all");
	for (unsigned c = 0; c < 64; c++) {
		if (!(permitted & (UINT64_C(1) << c)) || prctl(PR_CAPBSET_READ, c, 0, 0, 0) != 1)
			continue;
		if (c >= sizeof(cap_names) / sizeof(cap_names[0]))
			return errbuf_set(eb, "%s: capability %u has no name here", program, c);
		used += (size_t)snprintf(id->caps + used, sizeof(id->caps) - used, ",+%s",
					 cap_names[c]);
		if (used >= sizeof(id->caps))
			return errbuf_set(eb, "%s: its capabilities' list is too long", program);
	}
	return 0;
}

int countrun_identity_of(const char *program, const struct proc_user *u,
			 struct countrun_identity *id, struct errbuf *eb)
{
	struct stat st;

	memset(id, 0, sizeof(*id));
	if (stat(program, &st) != 0)
		return errbuf_set_errno(eb, errno, "%s", program);
	id->ruid = id->euid = u->uid;
	id->rgid = id->egid = u->gid;
	id->groups = u->groups;
	id->ngroups = u->n_groups;
	id->setuid = (st.st_mode & S_ISUID) != 0;
	id->setgid = (st.st_mode & S_ISGID) != 0;
	if (id->setuid)
		id->euid = st.st_uid;
	if (id->setgid)
		id->egid = st.st_gid;
	return file_caps(program, id, eb);
}

const char *countrun_valgrind(void)
{
	return access(COUNTRUN_VALGRIND_BIN, X_OK) == 0 ? COUNTRUN_VALGRIND_BIN : COUNTRUN_VALGRIND;
}

void countrun_argv_free(char **argv)
{
	if (argv == NULL)
		return;
	for (size_t i = 0; argv[i] != NULL; i++)
		free(argv[i]);
	free(argv);
}

/* Appends a copy of the formatted string to a (n so far, cap slots). 0 or -1. */
static int push(char **a, size_t *n, size_t cap, const char *fmt, const char *s, unsigned long v)
{
	char buf[8192];
	int len;

	if (*n + 1 >= cap)
		return -1;
	len = s != NULL ? snprintf(buf, sizeof(buf), fmt, s) : snprintf(buf, sizeof(buf), fmt, v);
	if (len < 0 || (size_t)len >= sizeof(buf) || (a[*n] = strdup(buf)) == NULL)
		return -1;
	(*n)++;
	return 0;
}

char **countrun_launch_argv(const char *setpriv, const struct countrun_identity *id,
			    char *const *mid, char *const *argv, struct errbuf *eb)
{
	size_t n = 0, cap = 16, nargs = 0, nmid = 0, used = 0;
	char **a, groups[4096];
	int bad = 0;

	while (argv[nargs] != NULL)
		nargs++;
	while (mid != NULL && mid[nmid] != NULL)
		nmid++;
	cap += nargs + nmid;
	groups[0] = '\0';
	for (size_t i = 0; i < id->ngroups && used < sizeof(groups); i++)
		used += (size_t)snprintf(groups + used, sizeof(groups) - used, "%s%lu", i ? "," : "",
					 (unsigned long)id->groups[i]);
	if (used >= sizeof(groups) || id->ngroups == 0) {
		errbuf_set(eb, "the bench user's groups: none, or too many");
		return NULL;
	}
	if ((a = calloc(cap, sizeof(*a))) == NULL) {
		errbuf_set(eb, "out of memory");
		return NULL;
	}
	bad |= push(a, &n, cap, "%s", setpriv, 0);
	bad |= push(a, &n, cap, "--ruid=%lu", NULL, (unsigned long)id->ruid);
	bad |= push(a, &n, cap, "--euid=%lu", NULL, (unsigned long)id->euid);
	bad |= push(a, &n, cap, "--rgid=%lu", NULL, (unsigned long)id->rgid);
	bad |= push(a, &n, cap, "--egid=%lu", NULL, (unsigned long)id->egid);
	bad |= push(a, &n, cap, "--groups=%s", groups, 0);
	if (id->caps[0] != '\0') {
		/* Permitted at exec for a capable file: ambient ones become permitted (and, unlike
		 * the file's, effective) in what setpriv executes. */
		bad |= push(a, &n, cap, "--inh-caps=%s", id->caps, 0);
		bad |= push(a, &n, cap, "--ambient-caps=%s", id->caps, 0);
	}
	bad |= push(a, &n, cap, "--", NULL, 0);
	for (size_t i = 0; i < nmid; i++)
		bad |= push(a, &n, cap, "%s", mid[i], 0);
	for (size_t i = 0; i < nargs; i++)
		bad |= push(a, &n, cap, "%s", argv[i], 0);
	if (bad) {
		countrun_argv_free(a);
		errbuf_set(eb, "the counted command: out of memory or an argument too long");
		return NULL;
	}
	return a;
}

char **countrun_argv(const char *setpriv, const char *valgrind, const struct countrun_identity *id,
		     const char *dir, char *const *argv, struct errbuf *eb)
{
	enum { FIXED = 11, DUMPS = sizeof(dump_before) / sizeof(dump_before[0]) };
	char words[FIXED + DUMPS][PATH_MAX + 32];
	char *mid[FIXED + DUMPS + 1];
	size_t n = 0;
	bool bad = false;

	bad |= fileio_fmt(words[n++], sizeof(words[0]), "%s", valgrind) < 0;
	bad |= fileio_fmt(words[n++], sizeof(words[0]), "--tool=callgrind") < 0;
	bad |= fileio_fmt(words[n++], sizeof(words[0]), "--command-line-only=yes") < 0;
	bad |= fileio_fmt(words[n++], sizeof(words[0]), "--vgdb=no") < 0;
	bad |= fileio_fmt(words[n++], sizeof(words[0]), "--trace-children=no") < 0;
	bad |= fileio_fmt(words[n++], sizeof(words[0]), "--log-file=%s/vg.%%p", dir) < 0;
	bad |= fileio_fmt(words[n++], sizeof(words[0]), "--callgrind-out-file=%s/cg.%%p", dir) < 0;
	bad |= fileio_fmt(words[n++], sizeof(words[0]), "--dump-instr=no") < 0;
	bad |= fileio_fmt(words[n++], sizeof(words[0]), "--dump-line=no") < 0;
	bad |= fileio_fmt(words[n++], sizeof(words[0]), "--compress-strings=yes") < 0;
	bad |= fileio_fmt(words[n++], sizeof(words[0]), "--collect-jumps=no") < 0;
	for (size_t i = 0; i < DUMPS; i++)
		bad |= fileio_fmt(words[n++], sizeof(words[0]), "--dump-before=%s", dump_before[i]) <
		       0;
	if (bad) {
		errbuf_set(eb, "%s: path too long", dir);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		mid[i] = words[i];
	mid[n] = NULL;
	return countrun_launch_argv(setpriv, id, mid, argv, eb);
}

/* The process of pid in c, added when new. NULL past the bound. */
static struct countrun_proc *proc_of(struct countrun *c, uint32_t pid)
{
	for (size_t i = 0; i < c->nprocs; i++)
		if (c->procs[i].pid == pid)
			return &c->procs[i];
	if (c->nprocs >= COUNTRUN_PROCS_MAX)
		return NULL;
	memset(&c->procs[c->nprocs], 0, sizeof(c->procs[0]));
	c->procs[c->nprocs].pid = pid;
	c->procs[c->nprocs].first_start = UINT64_MAX;
	return &c->procs[c->nprocs++];
}

/* The unsigned decimal at s (to the end of the line or a space), into *v. 0 or -1. */
static int number(const char *s, const char *end, uint64_t *v)
{
	char buf[24];
	size_t n = 0;
	const char *e;

	while (s + n < end && s[n] >= '0' && s[n] <= '9')
		n++;
	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (numarg_u64_prefix(buf, 0, v, &e) != NUMARG_OK || *e != '\0')
		return -1;
	return 0;
}

/* Whether line [s, end) starts with key; then *v points after it. */
static bool starts(const char *s, const char *end, const char *key, const char **v)
{
	size_t k = strlen(key);

	if ((size_t)(end - s) < k || memcmp(s, key, k) != 0)
		return false;
	*v = s + k;
	return true;
}

/* The program's name: the last part of the first word of cmd [s, end), sanitised to [A-Za-z0-9._-]. */
static void program_name(const char *s, const char *end, char *out, size_t cap)
{
	const char *w, *we, *slash;
	size_t k = 0;

	while (s < end && *s == ' ')
		s++;
	for (we = s; we < end && *we != ' '; we++)
		;
	w = s;
	for (slash = s; slash < we; slash++)
		if (*slash == '/')
			w = slash + 1;
	for (; w < we && k + 1 < cap; w++) {
		char ch = *w;

		out[k++] = ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			    (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-')
			       ? ch
			       : '_';
	}
	if (k == 0)
		out[k++] = '?';
	out[k] = '\0';
}

int countrun_parse_callgrind(struct countrun *c, const char *text, size_t len, const char *name,
			     struct errbuf *eb)
{
	const char *p = text, *end = text + len, *v;
	uint64_t pid = 0, part = 0, start = 0, stop = 0, ir = 0;
	bool has_pid = false, has_part = false, has_range = false, has_sum = false;
	bool spawn = false, exec = false, ends = false, wait = false;
	char program[COUNTRUN_NAME_MAX] = "";
	unsigned line = 0;
	struct countrun_proc *pr;

	while (p < end && !has_sum) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl != NULL ? nl : end;

		line++;
		if (line == 1 && !starts(p, le, "# callgrind format", &v))
			return errbuf_set(eb, "%s: not a callgrind file", name);
		if (starts(p, le, "pid: ", &v)) {
			if (number(v, le, &pid) < 0 || pid == 0 || pid > UINT32_MAX)
				return errbuf_set(eb, "%s: line %u: bad pid", name, line);
			has_pid = true;
		} else if (starts(p, le, "creator: ", &v)) {
			size_t k = 0;

			for (; v < le && k + 1 < sizeof(c->version); v++)
				c->version[k++] = (*v >= '!' && *v <= '~') ? *v : '_';
			c->version[k] = '\0';
		} else if (starts(p, le, "cmd: ", &v)) {
			program_name(v, le, program, sizeof(program));
		} else if (starts(p, le, "part: ", &v)) {
			if (number(v, le, &part) < 0 || part == 0 || part > 1000000)
				return errbuf_set(eb, "%s: line %u: bad part", name, line);
			has_part = true;
		} else if (starts(p, le, "desc: Timerange: Basic block ", &v)) {
			const char *dash = memchr(v, '-', (size_t)(le - v));

			if (dash == NULL || dash < v + 2 || dash + 2 > le ||
			    number(v, dash - 1, &start) < 0 || number(dash + 2, le, &stop) < 0 ||
			    stop < start)
				return errbuf_set(eb, "%s: line %u: bad time range", name, line);
			has_range = true;
		} else if (starts(p, le, "desc: Trigger: --dump-before=", &v)) {
			const char *w;

			exec = starts(v, le, "execve", &w) || starts(v, le, "fexecve", &w);
			ends = exec || (starts(v, le, "exit", &w) && w == le);
			wait = (starts(v, le, "wait4", &w) || starts(v, le, "waitpid", &w)) && w == le;
			spawn = !ends && !wait;
		} else if (starts(p, le, "desc: Trigger: Program termination", &v)) {
			ends = true;
		} else if (starts(p, le, "summary: ", &v)) {
			if (number(v, le, &ir) < 0)
				return errbuf_set(eb, "%s: line %u: bad summary", name, line);
			has_sum = true;
		}
		if (nl == NULL)
			break;
		p = nl + 1;
	}
	if (!has_pid || !has_part || !has_range || !has_sum)
		return errbuf_set(eb, "%s: no %s line in its header", name,
				  !has_pid     ? "pid:"
				  : !has_part  ? "part:"
				  : !has_range ? "Timerange"
					       : "summary:");
	if ((pr = proc_of(c, (uint32_t)pid)) == NULL)
		return errbuf_set(eb, "%s: more than %u processes", name, COUNTRUN_PROCS_MAX);
	if (pr->parts >= COUNTRUN_PARTS_MAX)
		return errbuf_set(eb, "%s: more than %u parts", name, COUNTRUN_PARTS_MAX);
	for (unsigned i = 0; i < pr->parts; i++)
		if (pr->part_no[i] == part)
			return errbuf_set(eb, "%s: part %llu of process %llu twice", name,
					  (unsigned long long)part, (unsigned long long)pid);
	if (pr->instructions + ir < pr->instructions)
		return errbuf_set(eb, "%s: the count overflows", name);
	pr->instructions += ir;
	pr->part_no[pr->parts] = (unsigned)part;
	pr->part_ir[pr->parts] = ir;
	pr->ends[pr->parts] = stop;
	pr->spawn_dump[pr->parts] = spawn;
	pr->wait_dump[pr->parts] = wait;
	if (start < pr->first_start)
		pr->first_start = start;
	/* The last part (the highest number) says how the process ended. */
	{
		unsigned highest = 0;

		for (unsigned i = 0; i < pr->parts; i++)
			if (pr->part_no[i] > highest)
				highest = pr->part_no[i];
		if (part > highest) {
			pr->execs = exec;
			pr->ends_well = ends;
		}
	}
	pr->parts++;
	if (pr->program[0] == '\0')
		snprintf(pr->program, sizeof(pr->program), "%s", program); /* lint: not a path */
	return 0;
}

int countrun_parse_log(struct countrun *c, const char *text, size_t len, const char *name,
		       struct errbuf *eb)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl != NULL ? nl : end, *v, *q;
		uint64_t pid, ppid;

		/* The base file could not be reopened at the end: the last part is lost. */
		if (memmem(p, (size_t)(le - p), "Error: can not open cache simulation output file",
			   48) != NULL)
			c->final_lost = true;
		/* "==PID== Parent PID: N" */
		if (le - p > 4 && p[0] == '=' && p[1] == '=' && number(p + 2, le, &pid) == 0 &&
		    (q = memchr(p + 2, '=', (size_t)(le - p - 2))) != NULL &&
		    starts(q, le, "== Parent PID: ", &v)) {
			struct countrun_proc *pr;

			if (number(v, le, &ppid) < 0 || pid == 0 || pid > UINT32_MAX ||
			    ppid > UINT32_MAX)
				return errbuf_set(eb, "%s: bad parent pid", name);
			if ((pr = proc_of(c, (uint32_t)pid)) == NULL)
				return errbuf_set(eb, "%s: more than %u processes", name,
						  COUNTRUN_PROCS_MAX);
			pr->ppid = (uint32_t)ppid;
		}
		if (nl == NULL)
			break;
		p = nl + 1;
	}
	return 0; /* a log without the line (valgrind stopped early) names no parent */
}

/* The process whose pid is pid, or NULL. */
static struct countrun_proc *find(struct countrun *c, uint32_t pid)
{
	for (size_t i = 0; i < c->nprocs; i++)
		if (c->procs[i].pid == pid)
			return &c->procs[i];
	return NULL;
}

/* Names p (and its children, depth first) from its parent's name. 0 or -1 (a loop). */
static int name_tree(struct countrun *c, struct countrun_proc *p, unsigned depth)
{
	unsigned k = 0;

	if (depth > COUNTRUN_PROCS_MAX)
		return -1;
	/* Children in the order their parents dumped before creating them (their start). */
	for (;;) {
		struct countrun_proc *next = NULL;

		for (size_t i = 0; i < c->nprocs; i++) {
			struct countrun_proc *q = &c->procs[i];

			if (q->ppid == p->pid && q != p && q->name[0] == '\0' &&
			    (next == NULL || q->first_start < next->first_start ||
			     (q->first_start == next->first_start && q->pid < next->pid)))
				next = q;
		}
		if (next == NULL)
			return 0;
		k++;
		if (snprintf(next->name, sizeof(next->name), "%s.child%u", p->name, k) >=
		    (int)sizeof(next->name))
			return -1;
		if (name_tree(c, next, depth + 1) < 0)
			return -1;
	}
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct countrun_proc *)a)->name,
		      ((const struct countrun_proc *)b)->name);
}

/*
 * The turns of p's wait loops: a part whose predecessor (by number) ended at a dump before a
 * wait and which ends at one too runs from one wait to the next. Moved from instructions to
 * polls and poll_instructions.
 */
static void split_polls(struct countrun_proc *p)
{
	for (unsigned i = 0; i < p->parts; i++) {
		bool after_wait = false;

		if (!p->wait_dump[i])
			continue;
		for (unsigned k = 0; k < p->parts && !after_wait; k++)
			after_wait = p->part_no[k] + 1 == p->part_no[i] && p->wait_dump[k];
		if (after_wait) {
			p->polls++;
			p->poll_instructions += p->part_ir[i];
			p->instructions -= p->part_ir[i];
		}
	}
}

int countrun_finish(struct countrun *c, struct errbuf *eb)
{
	struct countrun_proc *root = NULL;

	c->instructions = 0;
	c->polls = 0;
	c->poll_instructions = 0;
	if (c->nprocs == 0)
		return errbuf_set(eb, "the counted run left no count (valgrind could not run it)");
	for (size_t i = 0; i < c->nprocs; i++) {
		struct countrun_proc *p = &c->procs[i], *parent = find(c, p->ppid);

		if (p->parts == 0)
			return errbuf_set(eb, "process %u: a log but no count", p->pid);
		if (!p->ends_well)
			return errbuf_set(eb,
					  "process %u (%s): its count stops at a dump before it ended: "
					  "the later parts could not be written (the process changed "
					  "identity to one that cannot write them)",
					  p->pid, p->program);
		if (parent == NULL || parent == p) {
			if (root != NULL)
				return errbuf_set(eb, "processes %u and %u: two first processes",
						  root->pid, p->pid);
			root = p;
			continue;
		}
		/* A child starts where its parent dumped before creating it: else the counts it
		 * inherited are in its own as well. */
		bool tied = false;

		for (unsigned k = 0; k < parent->parts && !tied; k++)
			tied = parent->spawn_dump[k] && parent->ends[k] == p->first_start;
		if (!tied)
			return errbuf_set(eb,
					  "process %u (%s): not started right after a dump of its "
					  "parent %u (created otherwise than by fork, vfork, clone or "
					  "posix_spawn): its count would hold its parent's",
					  p->pid, p->program, parent->pid);
	}
	snprintf(root->name, sizeof(root->name), "%s", root->program); /* lint: not a path */
	root->ppid = 0;
	if (name_tree(c, root, 0) < 0)
		return errbuf_set(eb, "the processes' names: too deep or too long");
	for (size_t i = 0; i < c->nprocs; i++) {
		if (c->procs[i].name[0] == '\0')
			return errbuf_set(eb, "process %u: not a descendant of the first",
					  c->procs[i].pid);
		split_polls(&c->procs[i]);
		c->instructions += c->procs[i].instructions;
		c->polls += c->procs[i].polls;
		c->poll_instructions += c->procs[i].poll_instructions;
	}
	/* By name, not by pid or directory order: equal runs give equal text. */
	qsort(c->procs, c->nprocs, sizeof(c->procs[0]), by_name);
	return 0;
}

/* Reads the first COUNTRUN_HEADER_MAX bytes of dir/name (regular, not followed) into c. */
static int read_one(struct countrun *c, int dfd, const char *dir, const char *name, bool log,
		    struct errbuf *eb)
{
	char *buf = malloc(COUNTRUN_HEADER_MAX);
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	size_t got = 0;
	ssize_t n;
	int rc = -1;

	if (buf == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		errbuf_set(eb, "%s/%s: not a regular file", dir, name);
		goto out;
	}
	while (got < COUNTRUN_HEADER_MAX &&
	       (n = read(fd, buf + got, COUNTRUN_HEADER_MAX - got)) > 0)
		got += (size_t)n;
	/* An empty cg.PID: the base file a process made and never wrote (it executed first). */
	if (got == 0 && !log) {
		rc = 0;
		goto out;
	}
	rc = log ? countrun_parse_log(c, buf, got, name, eb)
		 : countrun_parse_callgrind(c, buf, got, name, eb);
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return rc;
}

/* Calls fn on every entry of dir named cg.* or vg.*; 0 or -1. */
static int each_file(const char *dir, struct countrun *c, bool remove, struct errbuf *eb)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d;
	struct dirent *e;
	int rc = 0;

	if (dfd < 0)
		return errbuf_set_errno(eb, errno, "%s", dir);
	if ((d = fdopendir(dfd)) == NULL) {
		close(dfd);
		return errbuf_set_errno(eb, errno, "%s", dir);
	}
	while (rc == 0 && (e = readdir(d)) != NULL) {
		bool cg = strncmp(e->d_name, "cg.", 3) == 0, vg = strncmp(e->d_name, "vg.", 3) == 0;

		if (!cg && !vg)
			continue;
		if (remove) {
			if (unlinkat(dirfd(d), e->d_name, 0) != 0 && errno != ENOENT)
				rc = errbuf_set_errno(eb, errno, "%s/%s", dir, e->d_name);
		} else {
			rc = read_one(c, dirfd(d), dir, e->d_name, vg, eb);
		}
	}
	closedir(d);
	return rc;
}

int countrun_read_dir(struct countrun *c, const char *dir, struct errbuf *eb)
{
	if (each_file(dir, c, false, eb) < 0)
		return -1;
	return countrun_finish(c, eb);
}

int countrun_clear_dir(const char *dir, struct errbuf *eb)
{
	return each_file(dir, NULL, true, eb);
}

void countrun_json(const struct countrun *c, cJSON *o)
{
	cJSON *a;

	cJSON_AddNumberToObject(o, "instructions", (double)c->instructions);
	cJSON_AddStringToObject(o, "version", c->version);
	if (c->final_lost)
		cJSON_AddBoolToObject(o, "final_part_lost", true);
	if (c->polls > 0) {
		cJSON_AddNumberToObject(o, "polls", c->polls);
		cJSON_AddNumberToObject(o, "poll_instructions", (double)c->poll_instructions);
	}
	a = cJSON_AddArrayToObject(o, "processes");
	for (size_t i = 0; a != NULL && i < c->nprocs; i++) {
		const struct countrun_proc *p = &c->procs[i];
		cJSON *e = cJSON_CreateObject();

		if (e == NULL)
			return;
		cJSON_AddStringToObject(e, "name", p->name);
		cJSON_AddStringToObject(e, "program", p->program);
		cJSON_AddNumberToObject(e, "instructions", (double)p->instructions);
		cJSON_AddNumberToObject(e, "parts", p->parts);
		cJSON_AddBoolToObject(e, "execs", p->execs);
		if (p->polls > 0) {
			cJSON_AddNumberToObject(e, "polls", p->polls);
			cJSON_AddNumberToObject(e, "poll_instructions", (double)p->poll_instructions);
		}
		cJSON_AddItemToArray(a, e);
	}
}

int countrun_pmu_errno(void)
{
	struct perf_event_attr a;
	long fd;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_HARDWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return errno;
	close((int)fd);
	return 0;
}
