/* trustpath: whether a file a root process reads or runs can have been written by root alone. */
#include "trustpath.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
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

/* procfs's f_type (linux/magic.h's PROC_SUPER_MAGIC), written out to keep the header narrow. */
#define TRUSTPATH_PROC_MAGIC 0x9fa0

/*
 * Whether cand, a directory or file met on the walk, lies on a proc file system. Such a path
 * means another file to each process that opens it (/proc/self/cwd is the opener's working
 * directory, /dev/fd/N its descriptor): the walk's verdict, made in rarbench's context, would
 * say nothing of what the measured tool or root's tracer opens through it (issue 45, third
 * round: a PAM directory and a program named through /proc/self/cwd gave root).
 */
static bool on_proc(const char *cand)
{
	struct statfs fs;

	return statfs(cand, &fs) == 0 && fs.f_type == TRUSTPATH_PROC_MAGIC;
}

/* A root-owned sticky directory open to others (/tmp): names in it are their owners'. */
static bool sticky_root_dir(const struct stat *st)
{
	return S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX) && st->st_uid == 0 &&
	       (st->st_mode & (S_IWOTH | S_IWGRP));
}

/*
 * 0 when st (of path, not a link) is root's and closed to group and others;
 * -1 with eb. With sticky_ok, a root-owned sticky directory passes too (its
 * caller then requires what is named in it to be root's).
 */
static int judge(const char *path, const struct stat *st, bool sticky_ok, struct errbuf *eb)
{
	unsigned mode = (unsigned)(st->st_mode & 07777);

	if (sticky_ok && sticky_root_dir(st))
		return 0;
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

/*
 * trustpath_check's walk. With sticky_ok, a root-owned sticky directory on
 * the way passes when what the path names in it (a directory, or a link)
 * is root's; the last component passes so only when last_open_ok (a
 * directory the caller is about to make something of its own in).
 */
static int walk(const char *path, char *resolved, bool sticky_ok, bool last_open_ok,
		bool *per_process, struct errbuf *eb)
{
	char cur[PATH_MAX] = "", rest[PATH_MAX], next[PATH_MAX], link[PATH_MAX], cwd[PATH_MAX];
	char cand[PATH_MAX];
	const char *p;
	struct stat st;
	bool bad = false, in_sticky = false;
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
	bad = judge("/", &st, sticky_ok, eb) < 0;
	in_sticky = sticky_ok && sticky_root_dir(&st);
	p = rest;
	for (;;) {
		size_t n;

		while (*p == '/')
			p++;
		if (*p == '\0')
			break;
		n = strcspn(p, "/");
		if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.')) {
			if (n == 2) {
				pop(cur);
				in_sticky = sticky_ok &&
					    lstat(cur[0] != '\0' ? cur : "/", &st) == 0 &&
					    sticky_root_dir(&st);
			}
			p += n;
			continue;
		}
		if (fileio_fmt(cand, sizeof(cand), "%s/%.*s", cur, (int)n, p) < 0)
			return errbuf_set(eb, "%.64s...: path too long", rest);
		p += n;
		if (lstat(cand, &st) != 0)
			return errbuf_set_errno(eb, errno, "%s", cand);
		/* In a sticky directory, a name is its owner's to replace: root's only. */
		if (in_sticky && st.st_uid != 0) {
			errbuf_set(eb, "%s is owned by uid %u, in the sticky directory %s", cand,
				   (unsigned)st.st_uid, cur[0] != '\0' ? cur : "/");
			bad = true;
		}
		if (!S_ISLNK(st.st_mode) && on_proc(cand)) {
			if (per_process != NULL)
				*per_process = true;
			return errbuf_set(eb,
					  "%s is on /proc, where a path names another file to each "
					  "process: give the file's own path",
					  cand);
		}
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
		if (judge(cand, &st, sticky_ok, eb) < 0)
			bad = true;
		in_sticky = sticky_ok && sticky_root_dir(&st);
		while (*p == '/')
			p++;
		if (*p != '\0' && !S_ISDIR(st.st_mode))
			return errbuf_set_errno(eb, ENOTDIR, "%s", cand);
		memcpy(cur, cand, strlen(cand) + 1);
	}
	if (!bad && in_sticky && !last_open_ok) {
		errbuf_set(eb, "%s is writable by others (mode %04o)", cur[0] != '\0' ? cur : "/",
			   (unsigned)(st.st_mode & 07777));
		bad = true;
	}
	if (bad)
		return -1;
	if (resolved != NULL)
		memcpy(resolved, cur[0] != '\0' ? cur : "/",
		       strlen(cur[0] != '\0' ? cur : "/") + 1);
	return 0;
}

int trustpath_check(const char *path, char *resolved, struct errbuf *eb)
{
	return walk(path, resolved, false, false, NULL, eb);
}

/*
 * Makes what dir lacks below existing (its deepest part that exists, checked by the walk) one
 * directory at a time, each opened without following a link before the next is made in it: a
 * link put in a sticky directory between the check and the mkdir (issue 45, third round: root
 * made the next directory in the bench user's) is refused (ELOOP) with nothing made through it.
 */
static int make_below(const char *existing, const char *dir, struct errbuf *eb)
{
	char rest[PATH_MAX], *tok, *save = NULL;
	size_t n = strcmp(existing, ".") == 0 ? 0 : strlen(existing);
	int fd, next;

	if (fileio_fmt(rest, sizeof(rest), "%s", dir + n) < 0)
		return errbuf_set(eb, "%.64s...: path too long", dir);
	fd = open(existing, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errbuf_set_errno(eb, errno, "%s", existing);
	for (tok = strtok_r(rest, "/", &save); tok != NULL; tok = strtok_r(NULL, "/", &save)) {
		if (mkdirat(fd, tok, 0755) != 0 && errno != EEXIST) {
			errbuf_set_errno(eb, errno, "%s: making %s", dir, tok);
			close(fd);
			return -1;
		}
		next = openat(fd, tok, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(fd);
		if (next < 0)
			return errbuf_set_errno(eb, errno, "%s: %s, once made", dir, tok);
		fd = next;
	}
	close(fd);
	return 0;
}

/* trustpath_make_dir, or with make false its check of what exists (trustpath_check_out_dir). */
static int out_dir(const char *dir, bool make, struct errbuf *eb)
{
	char existing[PATH_MAX];
	struct stat st;
	size_t n;

	if (dir == NULL || dir[0] == '\0')
		return errbuf_set(eb, "an empty path");
	if (fileio_fmt(existing, sizeof(existing), "%s", dir) < 0)
		return errbuf_set(eb, "%.64s...: path too long", dir);
	/* The deepest part that exists: checked before anything is made under it. */
	while (stat(existing, &st) != 0) {
		if (errno != ENOENT)
			return errbuf_set_errno(eb, errno, "%s", existing);
		n = strlen(existing);
		while (n > 0 && existing[n - 1] == '/')
			existing[--n] = '\0';
		while (n > 0 && existing[n - 1] != '/')
			existing[--n] = '\0';
		while (n > 1 && existing[n - 1] == '/')
			existing[--n] = '\0';
		if (n == 0) {
			memcpy(existing, ".", 2);
			break;
		}
	}
	if (walk(existing, NULL, true, strcmp(existing, dir) != 0, NULL, eb) < 0)
		return -1;
	if (!make)
		return 0;
	if (make_below(existing, dir, eb) < 0)
		return -1;
	/* Again, whole: a name raced into a sticky directory meanwhile is someone else's. */
	return walk(dir, NULL, true, false, NULL, eb);
}

int trustpath_make_dir(const char *dir, struct errbuf *eb)
{
	return out_dir(dir, true, eb);
}

int trustpath_check_out_dir(const char *dir, struct errbuf *eb)
{
	return out_dir(dir, false, eb);
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

bool trustpath_is_per_process(const char *path)
{
	struct errbuf eb = {{0}};
	bool per_process = false;

	(void)walk(path, NULL, false, false, &per_process, &eb);
	return per_process;
}
