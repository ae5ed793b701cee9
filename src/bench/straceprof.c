/* straceprof: counts what an `strace -f -qq -o FILE` trace says a command did. */
#include "straceprof.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "growbuf.h"
#include "numarg.h"
#include "trustpath.h"

/* Open-addressing tables: twice the bound, a power of two. */
#define SYS_SLOTS 1024u
#define PATH_SLOTS 16384u

/* A call left <unfinished ...> by a process, completed by its "<... name resumed>" line. */
struct straceprof_pending {
	uint32_t pid;
	size_t sys; /* index into syscalls */
	char *path; /* open/exec family: the path seen so far; NULL otherwise */
};

enum call_kind { KIND_OTHER, KIND_OPEN, KIND_EXEC, KIND_READ, KIND_WRITE };

static const struct {
	const char *name;
	enum call_kind kind;
} kinds[] = {
    {"open", KIND_OPEN},      {"openat", KIND_OPEN},  {"openat2", KIND_OPEN},
    {"creat", KIND_OPEN},     {"execve", KIND_EXEC},  {"execveat", KIND_EXEC},
    {"read", KIND_READ},      {"pread64", KIND_READ}, {"readv", KIND_READ},
    {"preadv", KIND_READ},    {"preadv2", KIND_READ}, {"write", KIND_WRITE},
    {"pwrite64", KIND_WRITE}, {"writev", KIND_WRITE}, {"pwritev", KIND_WRITE},
    {"pwritev2", KIND_WRITE},
};

static enum call_kind kind_of(const char *name)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(kinds[i].name, name) == 0)
			return kinds[i].kind;
	return KIND_OTHER;
}

static uint32_t hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

void straceprof_init(struct straceprof *p)
{
	memset(p, 0, sizeof(*p));
}

void straceprof_clear(struct straceprof *p)
{
	if (p == NULL)
		return;
	for (size_t i = 0; i < p->npaths; i++)
		free(p->paths[i].path);
	for (size_t i = 0; i < p->npending; i++)
		free(p->pending[i].path);
	free(p->paths);
	free(p->syscalls);
	free(p->sys_index);
	free(p->path_index);
	free(p->pending);
	free(p->pid_set);
	memset(p, 0, sizeof(*p));
}

/* Allocates the tables on first use. 0 or -1. */
static int ensure_tables(struct straceprof *p, struct errbuf *eb)
{
	if (p->sys_index != NULL)
		return 0;
	p->sys_index = malloc(SYS_SLOTS * sizeof(int32_t));
	p->path_index = malloc(PATH_SLOTS * sizeof(int32_t));
	p->pid_set = calloc(2 * STRACEPROF_PIDS_MAX, sizeof(uint32_t));
	p->syscalls = calloc(STRACEPROF_SYSCALLS_MAX, sizeof(*p->syscalls));
	p->pending = calloc(STRACEPROF_PIDS_MAX, sizeof(*p->pending));
	if (p->sys_index == NULL || p->path_index == NULL || p->pid_set == NULL ||
	    p->syscalls == NULL || p->pending == NULL)
		return errbuf_set(eb, "out of memory");
	memset(p->sys_index, 0xff, SYS_SLOTS * sizeof(int32_t));
	memset(p->path_index, 0xff, PATH_SLOTS * sizeof(int32_t));
	return 0;
}

/* The index of syscall name[0..len) in p->syscalls, added when new. -1 past the bound. */
static long sys_slot(struct straceprof *p, const char *name, size_t len)
{
	uint32_t h = hash(name, len) & (SYS_SLOTS - 1);

	for (;; h = (h + 1) & (SYS_SLOTS - 1)) {
		int32_t i = p->sys_index[h];

		if (i < 0)
			break;
		if (strncmp(p->syscalls[i].name, name, len) == 0 &&
		    p->syscalls[i].name[len] == '\0')
			return i;
	}
	if (p->nsyscalls >= STRACEPROF_SYSCALLS_MAX)
		return -1;
	memcpy(p->syscalls[p->nsyscalls].name, name, len);
	p->syscalls[p->nsyscalls].name[len] = '\0';
	p->sys_index[h] = (int32_t)p->nsyscalls;
	return (long)p->nsyscalls++;
}

/*
 * "/proc/1234/stat" as "/proc/PID/stat", "/dev/pts/3" as "/dev/pts/N": a
 * process's own entries, or the terminal of whoever started the sweep,
 * under another name each run would make two identical runs differ.
 */
static void normalise_proc(const char *path, char *out, size_t cap)
{
	static const struct {
		const char *dir, *as;
	} numbered[] = {{"/proc/", "/proc/PID"}, {"/dev/pts/", "/dev/pts/N"}};

	for (size_t i = 0; i < sizeof(numbered) / sizeof(numbered[0]); i++) {
		size_t len = strlen(numbered[i].dir), d = len;

		if (strncmp(path, numbered[i].dir, len) != 0)
			continue;
		while (path[d] >= '0' && path[d] <= '9')
			d++;
		if (d > len && (path[d] == '/' || path[d] == '\0') &&
		    (size_t)snprintf(out, cap, "%s%s", numbered[i].as, path + d) < cap)
			return;
	}
	snprintf(out, cap, "%s", path);
}

/* Counts one open or exec of path. 0 or -1 (eb). */
static int add_path(struct straceprof *p, const char *given, bool exec, bool failed,
		    struct errbuf *eb)
{
	char path[STRACEPROF_PATH_MAX];
	size_t len;

	normalise_proc(given, path, sizeof(path));
	len = strlen(path);
	uint32_t h = (hash(path, len) ^ (exec ? 0x9e3779b9u : 0)) & (PATH_SLOTS - 1);
	struct straceprof_path *e;

	for (;; h = (h + 1) & (PATH_SLOTS - 1)) {
		int32_t i = p->path_index[h];

		if (i < 0)
			break;
		e = &p->paths[i];
		if (e->exec == exec && strcmp(e->path, path) == 0)
			goto count;
	}
	if (p->npaths >= STRACEPROF_PATHS_MAX)
		return errbuf_set(eb, "more than %d distinct paths", STRACEPROF_PATHS_MAX);
	if (growarray(&p->paths, &p->cap_paths, p->npaths + 1, sizeof(*p->paths),
		      STRACEPROF_PATHS_MAX, eb) < 0)
		return -1;
	e = &p->paths[p->npaths];
	memset(e, 0, sizeof(*e));
	if ((e->path = strdup(path)) == NULL)
		return errbuf_set(eb, "out of memory");
	e->exec = exec;
	p->path_index[h] = (int32_t)p->npaths++;
count:
	e->count++;
	e->failed += failed;
	return 0;
}

/* Records pid as seen. 0, or -1 past STRACEPROF_PIDS_MAX processes. */
static int see_pid(struct straceprof *p, uint32_t pid)
{
	const uint32_t slots = 2 * STRACEPROF_PIDS_MAX;
	uint32_t h = (pid * 2654435761u) & (slots - 1);

	/* pid 0 never appears (the line parser refuses it), so 0 marks an empty slot. */
	for (;; h = (h + 1) & (slots - 1)) {
		if (p->pid_set[h] == pid)
			return 0;
		if (p->pid_set[h] == 0)
			break;
	}
	if (p->processes >= STRACEPROF_PIDS_MAX)
		return -1;
	p->pid_set[h] = pid;
	p->processes++;
	return 0;
}

/* What first_string found. */
enum string_found {
	STRING_BAD = -1,   /* too long, a control byte, or unterminated */
	STRING_COPIED = 0, /* in out */
	STRING_NONE = 1    /* the call has no string argument */
};

/*
 * The first string argument in s[0..len) ("..." with \ escapes), copied
 * into out (cap bytes) as printed; control bytes cannot occur (strace
 * escapes them) but are refused all the same.
 */
static enum string_found first_string(const char *s, size_t len, char *out, size_t cap)
{
	const char *q = memchr(s, '"', len);
	size_t i, k = 0;

	if (q == NULL)
		return STRING_NONE;
	for (i = (size_t)(q - s) + 1; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"') {
			out[k] = '\0';
			return STRING_COPIED;
		}
		if (c < 0x20 || c == 0x7f || k + 2 >= cap)
			return STRING_BAD;
		out[k++] = (char)c;
		if (c == '\\' && i + 1 < len)
			out[k++] = s[++i];
	}
	return STRING_BAD; /* unterminated: an unfinished call cut the string, or a bad line */
}

/*
 * Where the return value of s[0..len) starts: after the last " = " outside
 * quotes that follows a ')' (strace pads with spaces). -1 when none.
 */
static long find_result(const char *s, size_t len)
{
	bool quoted = false;
	long last = -1;

	for (size_t i = 0; i < len; i++) {
		if (quoted) {
			if (s[i] == '\\')
				i++;
			else if (s[i] == '"')
				quoted = false;
			continue;
		}
		if (s[i] == '"') {
			quoted = true;
		} else if (s[i] == '=' && i > 0 && s[i - 1] == ' ' && i + 1 < len &&
			   s[i + 1] == ' ') {
			size_t j = i - 1;

			while (j > 0 && s[j] == ' ')
				j--;
			if (s[j] == ')')
				last = (long)(i + 2);
		}
	}
	return last;
}

/* The return value at s[0..len): *failed for "-1 ...", *value for a number (0 for "?"). */
static int parse_result(const char *s, size_t len, bool *failed, int64_t *value)
{
	char buf[32];
	const char *end;
	size_t n = len < sizeof(buf) - 1 ? len : sizeof(buf) - 1;

	memcpy(buf, s, n);
	buf[n] = '\0';
	*failed = false;
	*value = 0;
	if (buf[0] == '?')
		return 0;
	if (strncmp(buf, "-1 ", 3) == 0 || strcmp(buf, "-1") == 0) {
		*failed = true;
		*value = -1;
		return 0;
	}
	if (!((buf[0] >= '0' && buf[0] <= '9') || buf[0] == '-'))
		return -1;
	if (numarg_i64_prefix(buf, 0, value, &end) != NUMARG_OK || (*end != '\0' && *end != ' '))
		return -1;
	return 0;
}

/* Counts a finished call of syscall sys. */
static int finish_call(struct straceprof *p, size_t sys, const char *path, const char *rest,
		       size_t restlen, struct errbuf *eb)
{
	struct straceprof_syscall *sc = &p->syscalls[sys];
	enum call_kind kind = kind_of(sc->name);
	long at = find_result(rest, restlen);
	bool failed;
	int64_t v;

	if (at < 0 || parse_result(rest + at, restlen - (size_t)at, &failed, &v) < 0)
		return errbuf_set(eb, "no return value");
	sc->calls++;
	sc->failed += failed;
	p->calls++;
	p->failed += failed;
	if (kind == KIND_READ && v > 0)
		p->bytes_read += (uint64_t)v;
	else if (kind == KIND_WRITE && v > 0)
		p->bytes_written += (uint64_t)v;
	else if (kind == KIND_EXEC && !failed)
		p->execs++;
	if ((kind == KIND_OPEN || kind == KIND_EXEC) && path != NULL)
		return add_path(p, path, kind == KIND_EXEC, failed, eb);
	return 0;
}

/* The pending call of pid, or NULL. */
static struct straceprof_pending *pending_of(struct straceprof *p, uint32_t pid)
{
	for (size_t i = 0; i < p->npending; i++)
		if (p->pending[i].pid == pid)
			return &p->pending[i];
	return NULL;
}

static void pending_drop(struct straceprof *p, struct straceprof_pending *e)
{
	free(e->path);
	*e = p->pending[--p->npending];
}

/* "<... name resumed>rest": finishes pid's pending call (or counts it by name). */
static int resumed(struct straceprof *p, uint32_t pid, const char *s, size_t len, struct errbuf *eb)
{
	const char *gt = memchr(s, '>', len);
	struct straceprof_pending *e = pending_of(p, pid);
	size_t nlen;
	long sys;
	int rc;

	if (len < 13 || gt == NULL || (size_t)(gt - s) < 13)
		return errbuf_set(eb, "bad resumed call");
	nlen = (size_t)(gt - s) - 13; /* "<... " + name + " resumed" */
	if (nlen == 0 || nlen >= STRACEPROF_NAME_MAX || memcmp(s + 5 + nlen, " resumed", 8) != 0)
		return errbuf_set(eb, "bad resumed call");
	if ((sys = sys_slot(p, s + 5, nlen)) < 0)
		return errbuf_set(eb, "more than %d syscall names", STRACEPROF_SYSCALLS_MAX);
	if (e != NULL && e->sys != (size_t)sys)
		return errbuf_set(eb, "%.*s resumed while %s was pending", (int)nlen, s + 5,
				  p->syscalls[e->sys].name);
	rc = finish_call(p, (size_t)sys, e != NULL ? e->path : NULL, s, len, eb);
	if (e != NULL)
		pending_drop(p, e);
	return rc;
}

/* "name(args...": a call, finished on this line or left unfinished. */
static int call(struct straceprof *p, uint32_t pid, const char *s, size_t len, struct errbuf *eb)
{
	static const char unfinished[] = " <unfinished ...>";
	const size_t ulen = sizeof(unfinished) - 1;
	char path[STRACEPROF_PATH_MAX];
	const char *paren = memchr(s, '(', len);
	size_t nlen, i;
	long sys;
	enum call_kind kind;
	enum string_found ps = STRING_NONE;

	if (paren == NULL || (nlen = (size_t)(paren - s)) == 0 || nlen >= STRACEPROF_NAME_MAX)
		return errbuf_set(eb, "not a system call");
	for (i = 0; i < nlen; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return errbuf_set(eb, "not a system call name");
	if ((sys = sys_slot(p, s, nlen)) < 0)
		return errbuf_set(eb, "more than %d syscall names", STRACEPROF_SYSCALLS_MAX);
	kind = kind_of(p->syscalls[sys].name);
	if (kind == KIND_OPEN || kind == KIND_EXEC) {
		ps = first_string(paren, len - nlen, path, sizeof(path));
		if (ps == STRING_BAD &&
		    !(len >= ulen && memcmp(s + len - ulen, unfinished, ulen) == 0))
			return errbuf_set(eb, "bad path");
	}
	if (len >= ulen && memcmp(s + len - ulen, unfinished, ulen) == 0) {
		struct straceprof_pending *e = pending_of(p, pid);

		if (e != NULL)
			return errbuf_set(eb, "two unfinished calls of process %u", pid);
		if (p->npending >= STRACEPROF_PIDS_MAX)
			return errbuf_set(eb, "too many unfinished calls");
		e = &p->pending[p->npending];
		e->pid = pid;
		e->sys = (size_t)sys;
		e->path = NULL;
		if (ps == STRING_COPIED && (e->path = strdup(path)) == NULL)
			return errbuf_set(eb, "out of memory");
		p->npending++;
		return 0;
	}
	return finish_call(p, (size_t)sys, ps == STRING_COPIED ? path : NULL, s, len, eb);
}

void straceprof_skip_launcher(struct straceprof *p)
{
	p->skip_launcher = true;
	p->launcher_pid = 0;
	p->launcher_execs = 0;
}

/* Whether the call s (len bytes, after the pid) of process pid is rarlaunch's, to leave out
 * (straceprof_skip_launcher); ends the skipping at the program's execve. */
static bool launcher_line(struct straceprof *p, uint32_t pid, const char *s, size_t len)
{
	if (p->launcher_pid == 0)
		p->launcher_pid = pid;
	if (pid != p->launcher_pid)
		return false; /* rarlaunch starts no process: not its line */
	if (((len >= 7 && memcmp(s, "execve(", 7) == 0) ||
	     (len >= 9 && memcmp(s, "execveat(", 9) == 0)) &&
	    len >= 5 && memcmp(s + len - 5, ") = 0", 5) == 0 && ++p->launcher_execs == 2) {
		p->skip_launcher = false;
		return false;
	}
	return true;
}

int straceprof_line(struct straceprof *p, const char *line, size_t len, uint64_t lineno,
		    struct errbuf *eb)
{
	uint64_t pid = 0;
	size_t i = 0;
	int rc;

	if (ensure_tables(p, eb) < 0)
		return -1;
	while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	p->lines++;
	if (len == 0)
		return 0;
	if (len > STRACEPROF_LINE_MAX)
		return errbuf_set(eb, "line %llu: longer than %d bytes", (unsigned long long)lineno,
				  STRACEPROF_LINE_MAX);
	while (i < len && line[i] >= '0' && line[i] <= '9' && pid <= UINT32_MAX)
		pid = pid * 10 + (uint64_t)(line[i++] - '0');
	if (i == 0 || i >= len || line[i] != ' ' || pid == 0 || pid > UINT32_MAX)
		return errbuf_set(eb, "line %llu: does not start with a process id",
				  (unsigned long long)lineno);
	while (i < len && line[i] == ' ')
		i++;
	if (p->skip_launcher && launcher_line(p, (uint32_t)pid, line + i, len - i))
		return 0;
	if (see_pid(p, (uint32_t)pid) < 0)
		return errbuf_set(eb, "line %llu: more than %d processes",
				  (unsigned long long)lineno, STRACEPROF_PIDS_MAX);
	if (len - i >= 4 && (memcmp(line + i, "--- ", 4) == 0 || memcmp(line + i, "+++ ", 4) == 0))
		return 0;
	if (len - i >= 5 && memcmp(line + i, "<... ", 5) == 0)
		rc = resumed(p, (uint32_t)pid, line + i, len - i, eb);
	else
		rc = call(p, (uint32_t)pid, line + i, len - i, eb);
	if (rc < 0)
		return errbuf_prefix(eb, "line %llu", (unsigned long long)lineno);
	return 0;
}

int straceprof_parse(struct straceprof *p, const char *buf, size_t len, struct errbuf *eb)
{
	uint64_t lineno = 0;
	size_t start = 0;

	while (start < len) {
		const char *nl = memchr(buf + start, '\n', len - start);
		size_t end = nl != NULL ? (size_t)(nl - buf) : len;

		if (straceprof_line(p, buf + start, end - start, ++lineno, eb) < 0)
			return -1;
		start = end + 1;
	}
	return 0;
}

int straceprof_read_file(struct straceprof *p, const char *path, struct errbuf *eb)
{
	char *line = malloc(STRACEPROF_LINE_MAX + 2);
	uint64_t lineno = 0;
	FILE *f = NULL;
	int rc = -1;

	if (line == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	if ((f = fopen(path, "re")) == NULL) {
		errbuf_set_errno(eb, errno, "%s", path);
		goto out;
	}
	while (fgets(line, STRACEPROF_LINE_MAX + 2, f) != NULL) {
		size_t len = strlen(line);

		lineno++;
		if (len > 0 && line[len - 1] != '\n' && !feof(f)) {
			errbuf_set(eb, "%s: line %llu: longer than %d bytes", path,
				   (unsigned long long)lineno, STRACEPROF_LINE_MAX);
			goto out;
		}
		if (straceprof_line(p, line, len, lineno, eb) < 0) {
			errbuf_prefix(eb, "%s", path);
			goto out;
		}
	}
	if (ferror(f)) {
		errbuf_set_errno(eb, EIO, "%s", path);
		goto out;
	}
	rc = 0;
out:
	if (f != NULL)
		fclose(f);
	free(line);
	return rc;
}

const struct straceprof_syscall *straceprof_find(const struct straceprof *p, const char *name)
{
	for (size_t i = 0; i < p->nsyscalls; i++)
		if (strcmp(p->syscalls[i].name, name) == 0)
			return &p->syscalls[i];
	return NULL;
}

int straceprof_check_tracer(const char *tracer, struct errbuf *eb)
{
	struct errbuf teb = {{0}};

	if (geteuid() != 0 || trustpath_check(tracer, NULL, &teb) == 0)
		return 0;
	return errbuf_set(
	    eb,
	    "RARPERF_STRACE: %s is not root's alone (%s): rarbench runs the tracer as "
	    "root, so whoever can write it would be root",
	    tracer, teb.msg);
}
