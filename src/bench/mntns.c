/* mntns: a private mount namespace in which files show at paths fixed in a tool's source. */
#include "mntns.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"

struct mntns {
	int fd;             /* /proc/self/ns/mnt of the namespace */
	char dir[PATH_MAX]; /* the overlay's upper and work directories live here */
};

#define MNTNS_DIR_PREFIX "/tmp/rarbench-mntns-"

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

struct mntns *mntns_show_files_at(const struct mntns_file *files, size_t n, struct errbuf *eb)
{
	struct mntns *ns = NULL;
	int home = -1, cwd = -1;

	if (mntns_check_targets(files, n, eb) < 0)
		return NULL;
	ns = calloc(1, sizeof(*ns));
	if (ns == NULL) {
		errbuf_set(eb, "out of memory");
		return NULL;
	}
	ns->fd = -1;
	if (fileio_fmt(ns->dir, sizeof(ns->dir), "%sXXXXXX", MNTNS_DIR_PREFIX) < 0 ||
	    mkdtemp(ns->dir) == NULL) {
		errbuf_set_errno(eb, errno, "%s", ns->dir);
		ns->dir[0] = '\0';
		goto fail;
	}
	home = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
	/* setns into a mount namespace moves the working directory to its root: keep ours. */
	cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (home < 0 || cwd < 0) {
		errbuf_set_errno(eb, errno, "%s",
				 home < 0 ? "/proc/self/ns/mnt" : "the working directory");
		goto fail;
	}
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

static int mntns_remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

int mntns_remove_leftover(const char *dir)
{
	size_t len = strlen(MNTNS_DIR_PREFIX);

	if (strncmp(dir, MNTNS_DIR_PREFIX, len) != 0 || strlen(dir) != len + 6 ||
	    strchr(dir + len, '/') != NULL || strstr(dir, "..") != NULL)
		return -1;
	return nftw(dir, mntns_remove_one, 8, FTW_DEPTH | FTW_PHYS) == 0 ? 0 : -1;
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
		nftw(ns->dir, mntns_remove_one, 8, FTW_DEPTH | FTW_PHYS);
	free(ns);
}
