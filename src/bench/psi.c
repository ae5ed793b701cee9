/* psi: how long a run waited for a CPU, from the PSI of a cgroup of rarlaunch's own. */
#include "psi.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Chunks of /proc/self/mountinfo read at a time; a longer line (an overlay mount with many
 * layers) is skipped: it is not the cgroup2 mount. */
#define PSI_LINE_BYTES 4096
/* /proc/self/cgroup of a hybrid host is a few hundred bytes. */
#define PSI_CGROUP_FILE_BYTES 4096
/* cpu.pressure is two lines of about 60 bytes. */
#define PSI_PRESSURE_BYTES 256
/* Microseconds above this would overflow ns: 584 years. */
#define PSI_US_MAX (UINT64_MAX / 1000u)

int psi_parse_some_total(const char *text, size_t len, uint64_t *total_us)
{
	const char *nl = memchr(text, '\n', len), *p;
	size_t line = nl != NULL ? (size_t)(nl - text) : len;
	uint64_t v = 0;
	size_t i;

	if (line < 5 || memcmp(text, "some ", 5) != 0)
		return -1;
	/* The last " total=" of the line: the averages come first. */
	for (p = NULL, i = 5; i + 7 <= line; i++)
		if (memcmp(text + i, " total=", 7) == 0)
			p = text + i + 7;
	if (p == NULL || p >= text + line || *p < '0' || *p > '9')
		return -1;
	for (; p < text + line && *p >= '0' && *p <= '9'; p++) {
		if (v > (PSI_US_MAX - (uint64_t)(*p - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (p != text + line && *p != ' ')
		return -1;
	*total_us = v;
	return 0;
}

/* The next blank-separated field of [*p, end) as [*f, *f + *n); -1 when none is left. */
static int psi_field(const char **p, const char *end, const char **f, size_t *n)
{
	while (*p < end && **p == ' ')
		(*p)++;
	if (*p >= end)
		return -1;
	*f = *p;
	while (*p < end && **p != ' ')
		(*p)++;
	*n = (size_t)(*p - *f);
	return 0;
}

/* A mountinfo path field with its \ooo escapes decoded into out (cap bytes); -1 when it does
 * not fit or an escape is malformed. */
static int psi_unescape(const char *f, size_t n, char *out, size_t cap)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		char ch = f[i];

		if (ch == '\\') {
			if (i + 3 >= n || f[i + 1] < '0' || f[i + 1] > '3' || f[i + 2] < '0' ||
			    f[i + 2] > '7' || f[i + 3] < '0' || f[i + 3] > '7')
				return -1;
			ch =
			    (char)((f[i + 1] - '0') * 64 + (f[i + 2] - '0') * 8 + (f[i + 3] - '0'));
			i += 3;
			if (ch == '\0')
				return -1;
		}
		if (o + 1 >= cap)
			return -1;
		out[o++] = ch;
	}
	out[o] = '\0';
	return 0;
}

int psi_parse_mountinfo_line(const char *line, size_t len, char *mnt, char *root, size_t cap)
{
	/* id parent major:minor root mount-point options [optional...] - fstype source super */
	const char *p = line, *end = line + len, *f, *rf = NULL, *mf = NULL;
	size_t n, rn = 0, mn = 0;
	int k;

	for (k = 0; k < 6; k++) {
		if (psi_field(&p, end, &f, &n) != 0)
			return -1;
		if (k == 3) {
			rf = f;
			rn = n;
		} else if (k == 4) {
			mf = f;
			mn = n;
		}
	}
	for (;;) {
		if (psi_field(&p, end, &f, &n) != 0)
			return -1;
		if (n == 1 && f[0] == '-')
			break;
	}
	if (psi_field(&p, end, &f, &n) != 0)
		return -1;
	if (n != 7 || memcmp(f, "cgroup2", 7) != 0)
		return 0;
	if (psi_unescape(mf, mn, mnt, cap) != 0 || psi_unescape(rf, rn, root, cap) != 0 ||
	    mnt[0] != '/' || root[0] != '/')
		return -1;
	return 1;
}

int psi_parse_cgroup(const char *text, size_t len, char *path, size_t cap)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);

		if (n >= 4 && memcmp(p, "0::/", 4) == 0) {
			if (n - 3 >= cap || memchr(p + 3, '\0', n - 3) != NULL)
				return -1;
			memcpy(path, p + 3, n - 3);
			path[n - 3] = '\0';
			return 0;
		}
		p += n + 1;
	}
	return -1;
}

int psi_cgroup2_mount(char *mnt, char *root, size_t cap)
{
	char buf[PSI_LINE_BYTES];
	size_t have = 0;
	bool skipping = false;
	int fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC), found = 0;

	if (fd < 0)
		return errno;
	for (;;) {
		ssize_t got = read(fd, buf + have, sizeof(buf) - have);
		size_t start = 0;

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		have += (size_t)got;
		for (;;) {
			char *nl = memchr(buf + start, '\n', have - start);

			if (nl == NULL)
				break;
			if (!skipping &&
			    psi_parse_mountinfo_line(buf + start, (size_t)(nl - buf) - start, mnt,
						     root, cap) == 1) {
				found = 1;
				break;
			}
			skipping = false;
			start = (size_t)(nl - buf) + 1;
		}
		if (found)
			break;
		if (start == 0 && have == sizeof(buf)) {
			have = 0; /* a line longer than the buffer: drop it to its end */
			skipping = true;
			continue;
		}
		memmove(buf, buf + start, have - start);
		have -= start;
	}
	close(fd);
	return found ? 0 : ENOENT;
}

/* Reads a small file whole into buf (cap bytes, NUL-terminated). Its length, or -1. */
static ssize_t psi_slurp(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t have = 0;

	if (fd < 0)
		return -1;
	while (have + 1 < cap) {
		ssize_t got = read(fd, buf + have, cap - 1 - have);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;

			close(fd);
			errno = e;
			return -1;
		}
		if (got == 0)
			break;
		have += (size_t)got;
	}
	close(fd);
	buf[have] = '\0';
	return (ssize_t)have;
}

/* dst = a + b (+ c), all NUL-terminated; -1 when it does not fit in PSI_PATH_MAX. */
static int psi_join(char *dst, const char *a, const char *b, const char *c)
{
	size_t na = strlen(a), nb = strlen(b), nc = c != NULL ? strlen(c) : 0;

	if (na + nb + nc + 1 > PSI_PATH_MAX)
		return -1;
	memcpy(dst, a, na);
	memcpy(dst + na, b, nb);
	if (nc > 0)
		memcpy(dst + na + nb, c, nc);
	dst[na + nb + nc] = '\0';
	return 0;
}

/* Decimal digits of v into buf (at least 21 bytes). */
static void psi_utoa(unsigned long v, char *buf)
{
	char tmp[24];
	size_t n = 0;

	do
		tmp[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	for (size_t i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = '\0';
}

/* Moves this process into the cgroup directory dir. 0, or an errno. */
static int psi_enter(const char *dir)
{
	char path[PSI_PATH_MAX];
	int fd, err = 0;

	if (psi_join(path, dir, "/cgroup.procs", NULL) != 0)
		return ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	/* "0": the writing process. */
	if (write(fd, "0", 1) != 1)
		err = errno != 0 ? errno : EIO;
	close(fd);
	return err;
}

/* Removes parent's empty rarlaunch-<pid> cgroups whose pid is gone (a rarlaunch killed with
 * rarbench cannot remove its own). A cgroup still holding a process refuses rmdir: kept. */
static void psi_sweep_stale(const char *parent)
{
	char buf[4096] __attribute__((aligned(8)));
	char path[PSI_PATH_MAX];
	int fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long n;

	if (fd < 0)
		return;
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			struct {
				uint64_t ino;
				int64_t off;
				unsigned short reclen;
				unsigned char type;
				char name[];
			} *d = (void *)(buf + off);
			const char *num = d->name + sizeof(PSI_CGROUP_PREFIX) - 1;
			unsigned long pid = 0;
			const char *q;

			off += d->reclen;
			if (d->type != DT_DIR ||
			    strncmp(d->name, PSI_CGROUP_PREFIX, sizeof(PSI_CGROUP_PREFIX) - 1) != 0)
				continue;
			for (q = num; *q >= '0' && *q <= '9' && pid < 100000000ul; q++)
				pid = pid * 10 + (unsigned long)(*q - '0');
			if (q == num || *q != '\0' || pid == 0 || pid >= 100000000ul)
				continue;
			if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
				continue;
			if (psi_join(path, parent, "/", d->name) == 0)
				rmdir(path);
		}
	}
	close(fd);
}

int psi_own_cgroup(char *dir, size_t cap)
{
	char mnt[PSI_PATH_MAX], root[PSI_PATH_MAX], own[PSI_PATH_MAX], text[PSI_CGROUP_FILE_BYTES];
	const char *rel;
	size_t nroot, nmnt, nrel;
	ssize_t n;
	int err;

	err = psi_cgroup2_mount(mnt, root, sizeof(mnt));
	if (err != 0)
		return err;
	n = psi_slurp("/proc/self/cgroup", text, sizeof(text));
	if (n < 0)
		return errno;
	if (psi_parse_cgroup(text, (size_t)n, own, sizeof(own)) != 0)
		return ENOENT;
	/* A mount of a sub-tree (a container's cgroup namespace): paths are below its root. */
	rel = own;
	nroot = strlen(root);
	if (strcmp(root, "/") != 0) {
		if (strncmp(own, root, nroot) != 0 || (own[nroot] != '/' && own[nroot] != '\0'))
			return ENOENT;
		rel = own + nroot;
	}
	if (strcmp(rel, "/") == 0)
		rel = "";
	nmnt = strlen(mnt);
	nrel = strlen(rel);
	if (nmnt + nrel + 1 > cap)
		return ENAMETOOLONG;
	memcpy(dir, mnt, nmnt);
	memcpy(dir + nmnt, rel, nrel + 1);
	return 0;
}

int psi_open(struct psi_cgroup *c, pid_t self)
{
	char name[sizeof(PSI_CGROUP_PREFIX) + 24], path[PSI_PATH_MAX];
	int err;

	memset(c, 0, sizeof(*c));
	c->pressure_fd = -1;
	err = psi_own_cgroup(c->parent, sizeof(c->parent));
	if (err != 0)
		return err;
	psi_sweep_stale(c->parent);
	memcpy(name, "/" PSI_CGROUP_PREFIX, sizeof(PSI_CGROUP_PREFIX));
	psi_utoa((unsigned long)self, name + sizeof(PSI_CGROUP_PREFIX));
	if (psi_join(c->dir, c->parent, name, NULL) != 0)
		return ENAMETOOLONG;
	if (mkdir(c->dir, 0755) != 0 && errno != EEXIST) {
		err = errno;
		c->dir[0] = '\0';
		return err;
	}
	if (psi_join(path, c->dir, "/cpu.pressure", NULL) != 0) {
		err = ENAMETOOLONG;
		goto out;
	}
	c->pressure_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (c->pressure_fd < 0) {
		err = errno;
		goto out;
	}
	err = psi_enter(c->dir);
out:
	if (err != 0)
		psi_close(c);
	return err;
}

int psi_read_ns(const struct psi_cgroup *c, uint64_t *total_ns)
{
	char buf[PSI_PRESSURE_BYTES];
	uint64_t us;
	ssize_t n;

	if (c->pressure_fd < 0) {
		errno = ENOENT;
		return -1;
	}
	/* A read at offset 0 makes the kernel print the counters anew. */
	n = pread(c->pressure_fd, buf, sizeof(buf), 0);
	if (n < 0)
		return -1;
	if (psi_parse_some_total(buf, (size_t)n, &us) != 0) {
		errno = EPROTO;
		return -1;
	}
	*total_ns = us * 1000u;
	return 0;
}

void psi_close(struct psi_cgroup *c)
{
	if (c->pressure_fd >= 0)
		close(c->pressure_fd);
	c->pressure_fd = -1;
	if (c->dir[0] == '\0')
		return;
	/* Out of it first: a cgroup holding a process cannot be removed. */
	(void)psi_enter(c->parent);
	rmdir(c->dir);
	c->dir[0] = '\0';
}
