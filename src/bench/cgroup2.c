/* cgroup2: where the cgroup2 hierarchy is mounted and which cgroup this process is in. */
#include "cgroup2.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

/* Chunks of /proc/self/mountinfo read at a time; a longer line (an overlay mount with many
 * layers) is skipped: it is not the cgroup2 mount. */
#define CGROUP2_LINE_BYTES 4096
/* /proc/self/cgroup of a hybrid host is a few hundred bytes. */
#define CGROUP2_CGROUP_FILE_BYTES 4096

/* The next blank-separated field of [*p, end) as [*f, *f + *n); -1 when none is left. */
static int cgroup2_field(const char **p, const char *end, const char **f, size_t *n)
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
static int cgroup2_unescape(const char *f, size_t n, char *out, size_t cap)
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

enum cgroup2_mount cgroup2_parse_mountinfo_line(const char *line, size_t len, char *mnt, char *root,
						size_t cap)
{
	/* id parent major:minor root mount-point options [optional...] - fstype source super */
	const char *p = line, *end = line + len, *f, *rf = NULL, *mf = NULL;
	size_t n, rn = 0, mn = 0;
	int k;

	for (k = 0; k < 6; k++) {
		if (cgroup2_field(&p, end, &f, &n) != 0)
			return CGROUP2_MOUNT_MALFORMED;
		if (k == 3) {
			rf = f;
			rn = n;
		} else if (k == 4) {
			mf = f;
			mn = n;
		}
	}
	for (;;) {
		if (cgroup2_field(&p, end, &f, &n) != 0)
			return CGROUP2_MOUNT_MALFORMED;
		if (n == 1 && f[0] == '-')
			break;
	}
	if (cgroup2_field(&p, end, &f, &n) != 0)
		return CGROUP2_MOUNT_MALFORMED;
	if (n != 7 || memcmp(f, "cgroup2", 7) != 0)
		return CGROUP2_MOUNT_OTHER;
	if (cgroup2_unescape(mf, mn, mnt, cap) != 0 || cgroup2_unescape(rf, rn, root, cap) != 0 ||
	    mnt[0] != '/' || root[0] != '/')
		return CGROUP2_MOUNT_MALFORMED;
	return CGROUP2_MOUNT_FOUND;
}

int cgroup2_parse_self(const char *text, size_t len, char *path, size_t cap)
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

int cgroup2_mount(char *mnt, char *root, size_t cap)
{
	char buf[CGROUP2_LINE_BYTES];
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
			    cgroup2_parse_mountinfo_line(buf + start, (size_t)(nl - buf) - start,
							 mnt, root, cap) == CGROUP2_MOUNT_FOUND) {
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
static ssize_t cgroup2_slurp(const char *path, char *buf, size_t cap)
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

int cgroup2_own_dir(char *dir, size_t cap)
{
	char mnt[CGROUP2_PATH_MAX], root[CGROUP2_PATH_MAX], own[CGROUP2_PATH_MAX],
	    text[CGROUP2_CGROUP_FILE_BYTES];
	const char *rel;
	size_t nroot, nmnt, nrel;
	ssize_t n;
	int err;

	err = cgroup2_mount(mnt, root, sizeof(mnt));
	if (err != 0)
		return err;
	n = cgroup2_slurp("/proc/self/cgroup", text, sizeof(text));
	if (n < 0)
		return errno;
	if (cgroup2_parse_self(text, (size_t)n, own, sizeof(own)) != 0)
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
