/* mntns: a private mount namespace in which files show at paths fixed in a tool's source. */
#include "mntns.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"

struct mntns {
	int fd;             /* /proc/self/ns/mnt of the namespace */
	char dir[PATH_MAX]; /* the overlay's upper and work directories live here */
};

#define MNTNS_TMP "/tmp"
#define MNTNS_DIR_NAME "rarbench-mntns-"
#define MNTNS_DIR_PREFIX MNTNS_TMP "/" MNTNS_DIR_NAME
/* mkdtemp's six characters: the names stay those recovery accepts. */
#define MNTNS_DIR_RANDOM 6
/* The layers are at most base/N/{upper,work}/work: deeper is not ours. */
#define MNTNS_DEPTH_MAX 6

const char *mntns_dir(const struct mntns *ns)
{
	return ns->dir;
}

int mntns_fd(const struct mntns *ns)
{
	return ns->fd;
}

/* The directory part of an absolute TARGET into parent (NUL-terminated); 0 or -1 with eb. */
static int mntns_parent_of(const char *target, char *parent, size_t size, struct errbuf *eb)
{
	const char *name;
	int n;

	if (target[0] != '/') {
		errbuf_set(eb, "%s: policy_mount_at and the policy must be absolute paths", target);
		return -1;
	}
	name = strrchr(target, '/') + 1;
	n = snprintf(parent, size, "%.*s", (int)(name - target - 1), target);
	if (name[0] == '\0' || n < 0 || (size_t)n >= size || parent[0] == '\0' ||
	    strcspn(parent, ",:\\") != strlen(parent)) {
		errbuf_set(eb,
			   "%s: cannot show a file there (its directory must not be / nor hold "
			   "',' ':' or '\\')",
			   target);
		return -1;
	}
	return 0;
}

/*
 * In the (already private) namespace: one overlay on the directory of files[first], whose
 * upper layer ns->dir/<layer> holds a link for it and for every following file of the same
 * directory. Returns how many files it showed, or -1 with eb.
 */
static long mntns_overlay(struct mntns *ns, const struct mntns_file *files, size_t first, size_t n,
			  unsigned layer, struct errbuf *eb)
{
	char parent[PATH_MAX], other[PATH_MAX], base[PATH_MAX + 16];
	char upper[PATH_MAX + 32], work[PATH_MAX + 32], link[2 * PATH_MAX + 32];
	char opts[3 * PATH_MAX + 128];
	size_t i;

	if (mntns_parent_of(files[first].target, parent, sizeof(parent), eb) < 0)
		return -1;
	if (fileio_fmt(base, sizeof(base), "%s/%u", ns->dir, layer) < 0 ||
	    fileio_join(upper, sizeof(upper), base, "upper", eb) != 0 ||
	    fileio_join(work, sizeof(work), base, "work", eb) != 0)
		return errbuf_set(eb, "%s: path too long", ns->dir);
	if (mkdir(base, 0700) != 0 || mkdir(upper, 0755) != 0 || mkdir(work, 0700) != 0) {
		errbuf_set_errno(eb, errno, "%s", base);
		return -1;
	}
	for (i = first; i < n; i++) {
		if (mntns_parent_of(files[i].target, other, sizeof(other), eb) < 0)
			return -1;
		if (strcmp(other, parent) != 0)
			break;
		if (files[i].source[0] != '/') {
			errbuf_set(eb, "%s: policy_mount_at and the policy must be absolute paths",
				   files[i].source);
			return -1;
		}
		if (fileio_join(link, sizeof(link), upper, strrchr(files[i].target, '/') + 1, eb) !=
		    0)
			return -1;
		if (symlink(files[i].source, link) != 0) {
			errbuf_set_errno(eb, errno, "%s", link);
			return -1;
		}
	}
	snprintf(opts, sizeof(opts), "lowerdir=%s,upperdir=%s,workdir=%s", parent, upper, work);
	if (mount("overlay", parent, "overlay", 0, opts) != 0) {
		errbuf_set_errno(eb, errno, "overlay on %s", parent);
		return -1;
	}
	return (long)(i - first);
}

/* Every target's directory exists (checked before anything is made). */
static int mntns_check_targets(const struct mntns_file *files, size_t n, struct errbuf *eb)
{
	char parent[PATH_MAX];
	struct stat st;
	size_t i;

	if (n == 0) {
		errbuf_set(eb, "no file to show");
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (mntns_parent_of(files[i].target, parent, sizeof(parent), eb) < 0)
			return -1;
		if (files[i].source[0] != '/') {
			errbuf_set(eb, "%s: policy_mount_at and the policy must be absolute paths",
				   files[i].source);
			return -1;
		}
		if (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode)) {
			errbuf_set(eb, "%s: not a directory", parent);
			return -1;
		}
	}
	return 0;
}

/* In the new namespace: every mount private, then the overlays. 0 or -1 with eb. */
static int mntns_populate(struct mntns *ns, const struct mntns_file *files, size_t n,
			  struct errbuf *eb)
{
	unsigned layer = 0;
	size_t i = 0;

	/* Source and type are ignored by a propagation change; valgrind wants them readable. */
	if (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) != 0) {
		errbuf_set_errno(eb, errno, "making the mounts of a private namespace private");
		return -1;
	}
	while (i < n) {
		long done = mntns_overlay(ns, files, i, n, layer++, eb);

		if (done < 0)
			return -1;
		i += (size_t)done;
	}
	return 0;
}

/*
 * This process's mount namespace and working directory, to return to: setns into a mount
 * namespace moves the working directory to its root. 0, or -1 (eb; what was opened stays in
 * *home and *cwd for the caller to close).
 */
static int save_place(int *home, int *cwd, struct errbuf *eb)
{
	*home = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
	*cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*home < 0 || *cwd < 0)
		return errbuf_set_errno(eb, errno, "%s",
					*home < 0 ? "/proc/self/ns/mnt" : "the working directory");
	return 0;
}

/* Whether dir has the form mntns_reserve_dir gives (and nothing else: no '/' or '..' after). */
static bool mntns_dir_form(const char *dir)
{
	size_t len = strlen(MNTNS_DIR_PREFIX), i;

	if (strncmp(dir, MNTNS_DIR_PREFIX, len) != 0 || strlen(dir) != len + MNTNS_DIR_RANDOM)
		return false;
	for (i = len; dir[i] != '\0'; i++)
		if (!isalnum((unsigned char)dir[i]))
			return false;
	return true;
}

int mntns_reserve_dir(char *dir, size_t size, struct errbuf *eb)
{
	static const char chars[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char rnd[MNTNS_DIR_RANDOM];
	char name[MNTNS_DIR_RANDOM + 1];
	struct stat st;
	int tries, i;

	for (tries = 0; tries < 100; tries++) {
		if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
			return errbuf_set_errno(eb, errno, "getrandom");
		for (i = 0; i < MNTNS_DIR_RANDOM; i++)
			name[i] = chars[rnd[i] % (sizeof(chars) - 1)];
		name[MNTNS_DIR_RANDOM] = '\0';
		if (fileio_fmt(dir, size, "%s%s", MNTNS_DIR_PREFIX, name) < 0)
			return errbuf_set(eb, "%s: path too long", MNTNS_DIR_PREFIX);
		if (lstat(dir, &st) != 0 && errno == ENOENT)
			return 0;
	}
	return errbuf_set(eb, "%sXXXXXX: no free name", MNTNS_DIR_PREFIX);
}

struct mntns *mntns_show_files_at(const struct mntns_file *files, size_t n, const char *dir,
				  struct errbuf *eb)
{
	struct mntns *ns = NULL;
	int home = -1, cwd = -1;

	if (mntns_check_targets(files, n, eb) < 0)
		return NULL;
	if (!mntns_dir_form(dir)) {
		errbuf_set(eb, "%s: not a name mntns_reserve_dir gives", dir);
		return NULL;
	}
	ns = calloc(1, sizeof(*ns));
	if (ns == NULL) {
		errbuf_set(eb, "out of memory");
		return NULL;
	}
	ns->fd = -1;
	/* mkdir fails on a name someone took since it was reserved: theirs is never ours. */
	if (fileio_fmt(ns->dir, sizeof(ns->dir), "%s", dir) < 0 || mkdir(ns->dir, 0700) != 0) {
		errbuf_set_errno(eb, errno, "%s", dir);
		ns->dir[0] = '\0';
		goto fail;
	}
	if (save_place(&home, &cwd, eb) < 0)
		goto fail;
	if (unshare(CLONE_NEWNS) != 0) {
		errbuf_set_errno(eb, errno, "unshare(CLONE_NEWNS) (policy_mount_at needs root)");
		goto fail;
	}
	/* From here on, every failure must return to the home namespace. */
	if (mntns_populate(ns, files, n, eb) == 0) {
		ns->fd = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
		if (ns->fd < 0)
			errbuf_set_errno(eb, errno, "/proc/self/ns/mnt");
	}
	if (setns(home, CLONE_NEWNS) != 0) {
		/* Cannot happen as root; staying in the namespace would hide nothing. */
		errbuf_set_errno(eb, errno, "returning to the original mount namespace");
		goto fail;
	}
	close(home);
	home = -1;
	if (fchdir(cwd) != 0) {
		errbuf_set_errno(eb, errno, "returning to the working directory");
		goto fail;
	}
	close(cwd);
	cwd = -1;
	if (ns->fd < 0)
		goto fail;
	return ns;
fail:
	if (home >= 0)
		close(home);
	if (cwd >= 0)
		close(cwd);
	mntns_free(ns);
	return NULL;
}

struct mntns *mntns_bind_at(const struct mntns *base, const char *source, const char *target,
			    struct errbuf *eb)
{
	const unsigned long ro = MS_BIND | MS_REMOUNT | MS_NOSUID | MS_NODEV | MS_NOEXEC;
	struct mntns *ns = NULL;
	struct stat st;
	int home = -1, cwd = -1;
	bool away = false;

	if (source[0] != '/' || target[0] != '/' || stat(source, &st) != 0 ||
	    !S_ISDIR(st.st_mode) || stat(target, &st) != 0 || !S_ISDIR(st.st_mode)) {
		errbuf_set(eb, "%s at %s: both must be absolute paths of directories", source,
			   target);
		return NULL;
	}
	if ((ns = calloc(1, sizeof(*ns))) == NULL) {
		errbuf_set(eb, "out of memory");
		return NULL;
	}
	ns->fd = -1;
	if (save_place(&home, &cwd, eb) < 0)
		goto fail;
	if (base != NULL && setns(base->fd, CLONE_NEWNS) != 0) {
		errbuf_set_errno(eb, errno, "joining a subject's mount namespace");
		goto fail;
	}
	away = base != NULL;
	if (unshare(CLONE_NEWNS) != 0) {
		errbuf_set_errno(eb, errno, "unshare(CLONE_NEWNS) (needs root)");
		goto fail;
	}
	away = true;
	/* From here on, every path returns to the home namespace. Source and type are ignored
	 * by a propagation change. */
	if (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) != 0)
		errbuf_set_errno(eb, errno, "making the mounts of a private namespace private");
	/* The type (and the remount's source) are ignored by a bind: "none", not NULL, which
	 * valgrind reads as a string. */
	else if (mount(source, target, "none", MS_BIND, NULL) != 0 ||
		 mount("none", target, "none", ro, NULL) != 0)
		errbuf_set_errno(eb, errno, "binding %s at %s", source, target);
	else if ((ns->fd = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC)) < 0)
		errbuf_set_errno(eb, errno, "/proc/self/ns/mnt");
fail:
	if (away && setns(home, CLONE_NEWNS) != 0 && ns != NULL && ns->fd >= 0) {
		/* Cannot happen as root; the caller must not go on in another namespace. */
		close(ns->fd);
		ns->fd = -1;
		errbuf_set_errno(eb, errno, "returning to the original mount namespace");
	}
	if (away && cwd >= 0 && fchdir(cwd) != 0 && ns->fd >= 0) {
		close(ns->fd);
		ns->fd = -1;
		errbuf_set_errno(eb, errno, "returning to the working directory");
	}
	if (home >= 0)
		close(home);
	if (cwd >= 0)
		close(cwd);
	if (ns != NULL && ns->fd < 0) {
		mntns_free(ns);
		ns = NULL;
	}
	return ns;
}

/*
 * Empties the directory dfd (closed here) entry by entry through descriptors:
 * a subdirectory is opened with O_NOFOLLOW relative to its parent's
 * descriptor, so a name swapped for a symbolic link meanwhile is unlinked as
 * the link it is, never followed; nothing is looked up by path. Stays on
 * dev. 0, or -1 when something stayed.
 */
static int mntns_empty_at(int dfd, dev_t dev, int depth)
{
	DIR *d = fdopendir(dfd);
	struct dirent *e;
	struct stat st;
	int rc = 0, sub;

	if (d == NULL) {
		close(dfd);
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			rc = -1;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			if (unlinkat(dfd, e->d_name, 0) != 0)
				rc = -1;
			continue;
		}
		sub = depth < MNTNS_DEPTH_MAX && st.st_dev == dev
			  ? openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
			  : -1;
		if (sub < 0 || fstat(sub, &st) != 0 || st.st_dev != dev) {
			if (sub >= 0)
				close(sub);
			/* Swapped (a link now), too deep or another file system: the name only. */
			if (unlinkat(dfd, e->d_name, 0) != 0)
				rc = -1;
			continue;
		}
		if (mntns_empty_at(sub, dev, depth + 1) < 0 ||
		    unlinkat(dfd, e->d_name, AT_REMOVEDIR) != 0)
			rc = -1;
	}
	closedir(d);
	return rc;
}

/*
 * Removes dir (a name of mntns_reserve_dir's form) when it is a directory of
 * root's that no one else may write (0700 as made): a directory another user
 * recreated at a recorded name after a crash and a reboot is left alone.
 */
static int mntns_remove_dir(const char *dir)
{
	const char *name = dir + strlen(MNTNS_TMP) + 1;
	struct stat st;
	int tmp, dfd = -1, rc = -1;

	if (!mntns_dir_form(dir))
		return -1;
	tmp = open(MNTNS_TMP, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (tmp < 0)
		return -1;
	dfd = openat(tmp, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0) {
		rc = errno == ENOENT ? 0 : -1;
		goto out;
	}
	if (fstat(dfd, &st) != 0 || st.st_uid != 0 || (st.st_mode & 077) != 0)
		goto out;
	rc = mntns_empty_at(dfd, st.st_dev, 0);
	dfd = -1; /* closed by mntns_empty_at */
	if (rc == 0 && unlinkat(tmp, name, AT_REMOVEDIR) != 0)
		rc = -1;
out:
	if (dfd >= 0)
		close(dfd);
	close(tmp);
	return rc;
}

int mntns_remove_leftover(const char *dir)
{
	return mntns_remove_dir(dir);
}

void mntns_free(struct mntns *ns)
{
	if (ns == NULL)
		return;
	/* The last reference: the namespace, and with it the overlay, ends here (the runs that
	 * joined it are over), so the layers can go. */
	if (ns->fd >= 0)
		close(ns->fd);
	if (ns->dir[0] != '\0')
		mntns_remove_dir(ns->dir);
	free(ns);
}
