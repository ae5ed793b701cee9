/* trustpath: whether a file a root process reads or runs can have been written by root alone. */
#include "trustpath.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "fileio.h"

/*
 * Why the walk checks every component instead of the file alone: whoever may
 * write a directory on the way may rename the file's parent away and put one
 * of their own in its place, so a root-owned 0644 file under /tmp/x (x the
 * bench user's) is the bench user's file. Once every component is root's
 * and closed to group and others, only root can change what the path names,
 * so the verdict holds after the check (no window for a non-root writer).
 */

/* 0 when st (of path, not a link) is root's and closed to group and others; -1 with eb. */
static int judge(const char *path, const struct stat *st, struct errbuf *eb)
{
	unsigned mode = (unsigned)(st->st_mode & 07777);

	if (st->st_uid != 0)
		return errbuf_set(eb, "%s is owned by uid %u (mode %04o)", path,
				  (unsigned)st->st_uid, mode);
	if (st->st_mode & S_IWOTH)
		return errbuf_set(eb, "%s is writable by others (mode %04o)", path, mode);
	if (st->st_mode & S_IWGRP)
		return errbuf_set(eb, "%s is writable by group %u (mode %04o)", path,
				  (unsigned)st->st_gid, mode);
	return 0;
}

/* Removes cur's last component (cur "" is /, which stays). */
static void pop(char *cur)
{
	char *slash = strrchr(cur, '/');

	if (slash != NULL)
		*slash = '\0';
}

int trustpath_check(const char *path, char *resolved, struct errbuf *eb)
{
	char cur[PATH_MAX] = "", rest[PATH_MAX], next[PATH_MAX], link[PATH_MAX], cwd[PATH_MAX];
	char cand[PATH_MAX];
	const char *p;
	struct stat st;
	bool bad = false;
	int links = 0;

	if (path == NULL || path[0] == '\0')
		return errbuf_set(eb, "an empty path");
	if (path[0] == '/') {
		if (fileio_fmt(rest, sizeof(rest), "%s", path) < 0)
			return errbuf_set(eb, "%.64s...: path too long", path);
	} else if (getcwd(cwd, sizeof(cwd)) == NULL ||
		   fileio_fmt(rest, sizeof(rest), "%s/%s", cwd, path) < 0) {
		return errbuf_set(eb, "%.64s...: path too long", path);
	}
	if (lstat("/", &st) != 0)
		return errbuf_set_errno(eb, errno, "/");
	bad = judge("/", &st, eb) < 0;
	p = rest;
	for (;;) {
		size_t n;

		while (*p == '/')
			p++;
		if (*p == '\0')
			break;
		n = strcspn(p, "/");
		if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.')) {
			if (n == 2)
				pop(cur);
			p += n;
			continue;
		}
		if (fileio_fmt(cand, sizeof(cand), "%s/%.*s", cur, (int)n, p) < 0)
			return errbuf_set(eb, "%.64s...: path too long", rest);
		p += n;
		if (lstat(cand, &st) != 0)
			return errbuf_set_errno(eb, errno, "%s", cand);
		if (S_ISLNK(st.st_mode)) {
			ssize_t len;

			if (++links > TRUSTPATH_LINKS_MAX)
				return errbuf_set_errno(eb, ELOOP, "%s", path);
			len = readlink(cand, link, sizeof(link) - 1);
			if (len < 0)
				return errbuf_set_errno(eb, errno, "%s", cand);
			link[len] = '\0';
			/* The link's target, then what followed it; an absolute one starts at /. */
			if (fileio_fmt(next, sizeof(next), "%s%s", link, p) < 0)
				return errbuf_set(eb, "%s: path too long through its link", cand);
			memcpy(rest, next, strlen(next) + 1);
			p = rest;
			if (link[0] == '/')
				cur[0] = '\0';
			continue;
		}
		/* Walk on: the deepest component at fault is the one to name (the user's directory
		 * under /tmp, rather than /tmp); eb keeps the last verdict against. */
		if (judge(cand, &st, eb) < 0)
			bad = true;
		while (*p == '/')
			p++;
		if (*p != '\0' && !S_ISDIR(st.st_mode))
			return errbuf_set_errno(eb, ENOTDIR, "%s", cand);
		memcpy(cur, cand, strlen(cand) + 1);
	}
	if (bad)
		return -1;
	if (resolved != NULL)
		memcpy(resolved, cur[0] != '\0' ? cur : "/",
		       strlen(cur[0] != '\0' ? cur : "/") + 1);
	return 0;
}

int trustpath_check_dir(const char *dir, struct errbuf *eb)
{
	char real[PATH_MAX], entry[PATH_MAX];
	struct dirent *d;
	struct stat st;
	DIR *dp = NULL;
	size_t n = 0;
	int rc = -1;

	if (trustpath_check(dir, real, eb) < 0)
		goto out;
	if (stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
		errbuf_set(eb, "%s: not a directory", dir);
		goto out;
	}
	dp = opendir(real);
	if (dp == NULL) {
		errbuf_set_errno(eb, errno, "%s", dir);
		goto out;
	}
	while ((errno = 0, d = readdir(dp)) != NULL) {
		if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0)
			continue;
		if (++n > TRUSTPATH_DIR_ENTRIES_MAX) {
			errbuf_set(eb, "%s: more than %d entries", dir, TRUSTPATH_DIR_ENTRIES_MAX);
			goto out;
		}
		if (fileio_fmt(entry, sizeof(entry), "%s/%s", real, d->d_name) < 0) {
			errbuf_set(eb, "%s/%s: path too long", real, d->d_name);
			goto out;
		}
		if (trustpath_check(entry, NULL, eb) < 0)
			goto out;
	}
	if (errno != 0) {
		errbuf_set_errno(eb, errno, "%s", dir);
		goto out;
	}
	rc = 0;
out:
	if (dp != NULL)
		closedir(dp);
	return rc;
}

bool trustpath_is_privileged(const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return false;
	return (st.st_mode & (S_ISUID | S_ISGID)) != 0 ||
	       getxattr(path, "security.capability", NULL, 0) > 0;
}
