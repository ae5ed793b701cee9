/* policy_file: where confgen may write a policy file, and with which owner, mode and attributes. */
#include "policy_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "fileio.h"

/* The machine's own policies, as directory + base name; base NULL refuses the whole directory. */
static const struct {
	const char *dir, *base;
} policy_file_refused[] = {
    {"/etc", "sudoers"},
    {"/etc/sudoers.d", NULL},
    {"/etc", "doas.conf"},
    {"/etc/security", "rootasrole.json"},
    /* please's, compiled into it (pleaser, src/bin/please.rs) */
    {"/etc", "please.ini"},
    {"/etc/polkit-1/rules.d", NULL},
    {"/usr/share/polkit-1/rules.d", NULL},
};

/*
 * Splits path into a malloc'd directory ("." when path has no slash) and a
 * pointer to its base name inside path. Returns NULL when out of memory.
 */
static char *policy_file_split(const char *path, const char **base)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL) {
		*base = path;
		return strdup(".");
	}
	*base = slash + 1;
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

/*
 * The directory of a policy path, opened once: every later step (the
 * refusal, the temporary file, the rename) goes through fd, so re-pointing
 * a symbolic link in the path meanwhile changes nothing.
 */
struct policy_file_dir {
	int fd;
	char *dir;        /* as given ("." when path has no slash) */
	const char *base; /* inside the caller's path */
	char *resolved;   /* the path of the directory fd is open on */
};

static void policy_file_dir_close(struct policy_file_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	free(d->dir);
	free(d->resolved);
	memset(d, 0, sizeof(*d));
	d->fd = -1;
}

static bool policy_file_same_inode(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/*
 * Where d->fd is open, as an absolute path: the kernel's name for it
 * (/proc/self/fd/N), else realpath of the directory as given; either must
 * still be the very directory fd holds (same device and inode).
 */
static int policy_file_dir_resolve(struct policy_file_dir *d, const struct stat *dst,
				   const char *path, struct errbuf *eb)
{
	char link[64], buf[PATH_MAX];
	struct stat st;
	ssize_t n;

	/* Cannot be cut (64 bytes hold any descriptor); checked all the same: realpath then. */
	n = fileio_fmt(link, sizeof(link), "/proc/self/fd/%d", d->fd) == 0
		? readlink(link, buf, sizeof(buf) - 1)
		: -1;
	if (n > 0 && buf[0] == '/') {
		buf[n] = '\0';
		d->resolved = strdup(buf);
	} else {
		d->resolved = realpath(d->dir, NULL);
	}
	if (d->resolved == NULL)
		return errbuf_set_errno(eb, errno != 0 ? errno : ENOMEM, "%s: directory %s", path,
					d->dir);
	if (stat(d->resolved, &st) != 0 || !policy_file_same_inode(&st, dst))
		return errbuf_set(eb, "%s: directory %s moved while being opened", path, d->dir);
	return 0;
}

/*
 * True when the directory d (open, with stat dst) and its entry d->base name
 * one of the refused paths: the same directory (inode, or resolved path),
 * or an entry that is a hard link to a refused file.
 */
static bool policy_file_is_refused(const struct policy_file_dir *d, const struct stat *dst)
{
	char resolved[PATH_MAX], file[PATH_MAX];
	struct stat st, entry;
	bool have_entry = fstatat(d->fd, d->base, &entry, AT_SYMLINK_NOFOLLOW) == 0;

	for (size_t i = 0; i < sizeof(policy_file_refused) / sizeof(policy_file_refused[0]); i++) {
		const char *dir = policy_file_refused[i].dir, *base = policy_file_refused[i].base;
		bool same_dir =
		    strcmp(d->resolved, dir) == 0 ||
		    (stat(dir, &st) == 0 && policy_file_same_inode(&st, dst)) ||
		    (realpath(dir, resolved) != NULL && strcmp(d->resolved, resolved) == 0);

		if (same_dir && (base == NULL || strcmp(d->base, base) == 0))
			return true;
		if (base != NULL && have_entry && S_ISREG(entry.st_mode) &&
		    (size_t)snprintf(file, sizeof(file), "%s/%s", dir, base) < sizeof(file) &&
		    stat(file, &st) == 0 && policy_file_same_inode(&st, &entry))
			return true;
	}
	return false;
}

/*
 * Opens path's directory into *d and checks, on that descriptor, that path
 * may be written: a file name, not one of the machine's policies, a
 * writable directory, not a directory in the way. 0, or -1 with eb filled
 * (d released).
 */
static int policy_file_dir_open(const char *path, struct policy_file_dir *d, struct errbuf *eb)
{
	struct stat dst, st;

	memset(d, 0, sizeof(*d));
	d->fd = -1;
	if (path == NULL || path[0] == '\0')
		return errbuf_set(eb, "empty output path");
	d->dir = policy_file_split(path, &d->base);
	if (d->dir == NULL) {
		errbuf_set(eb, "%s: out of memory", path);
		goto fail;
	}
	if (d->base[0] == '\0' || strcmp(d->base, ".") == 0 || strcmp(d->base, "..") == 0) {
		errbuf_set(eb, "%s: not a file name", path);
		goto fail;
	}
	d->fd = open(d->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d->fd < 0 && errno == EACCES) /* search and write suffice to create files in it */
		d->fd = open(d->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (d->fd < 0 || fstat(d->fd, &dst) != 0) {
		errbuf_set_errno(eb, errno, "%s: directory %s", path, d->dir);
		goto fail;
	}
	if (policy_file_dir_resolve(d, &dst, path, eb) != 0)
		goto fail;
	if (policy_file_is_refused(d, &dst)) {
		errbuf_set(eb, "%s: refusing to overwrite the machine's own policy %s%s%s", path,
			   d->resolved, strcmp(d->resolved, "/") == 0 ? "" : "/", d->base);
		goto fail;
	}
	if (faccessat(d->fd, ".", W_OK | X_OK, 0) != 0) {
		errbuf_set_errno(eb, errno, "%s: directory %s is not writable", path, d->dir);
		goto fail;
	}
	if (fstatat(d->fd, d->base, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)) {
		errbuf_set(eb, "%s: is a directory", path);
		goto fail;
	}
	return 0;
fail:
	policy_file_dir_close(d);
	return -1;
}

/* d's resolved directory plus its base name, malloc'd; NULL when out of memory. */
static char *policy_file_dir_abspath(const struct policy_file_dir *d)
{
	size_t len = strlen(d->resolved) + 1 + strlen(d->base) + 1;
	char *out = malloc(len);

	if (out != NULL)
		snprintf(out, len, "%s%s%s", d->resolved, strcmp(d->resolved, "/") == 0 ? "" : "/",
			 d->base);
	return out;
}

char *policy_file_abspath(const char *path, struct errbuf *eb)
{
	struct policy_file_dir d;
	char *out;

	if (policy_file_dir_open(path, &d, eb) != 0)
		return NULL;
	out = policy_file_dir_abspath(&d);
	if (out == NULL)
		errbuf_set(eb, "%s: out of memory", path);
	policy_file_dir_close(&d);
	return out;
}

/*
 * Whether the entry name of the directory dirfd may be replaced by confgen
 * without --force: missing, an empty regular file, or one confgen wrote
 * (POLICY_FILE_HEADER or the extended attribute).
 */
static bool policy_file_is_ours(int dirfd, const char *name);

/* The refusal of a target confgen did not write (policy_file_is_ours). Returns -1. */
static int policy_file_refuse_foreign(const char *path, struct errbuf *eb)
{
	return errbuf_set(eb,
			  "%s: exists and was not written by confgen: refusing to overwrite it "
			  "(remove it, or confgen --force)",
			  path);
}

int policy_file_check_path(const char *path, bool overwrite_foreign, struct errbuf *eb)
{
	struct policy_file_dir d;
	int rc = 0;

	if (policy_file_dir_open(path, &d, eb) != 0)
		return -1;
	if (!overwrite_foreign && !policy_file_is_ours(d.fd, d.base))
		rc = policy_file_refuse_foreign(path, eb);
	policy_file_dir_close(&d);
	return rc;
}

#define POLICY_FILE_STDIO_BUF (1u << 20)

static bool policy_file_is_ours(int dirfd, const char *name)
{
	char head[sizeof(POLICY_FILE_HEADER) - 1], mark[8];
	struct stat st;
	ssize_t n;
	bool ours;
	int fd;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return errno == ENOENT;
	if (!S_ISREG(st.st_mode))
		return false; /* a link, a fifo, a device: never confgen's */
	if (st.st_size == 0)
		return true;
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ours = fgetxattr(fd, POLICY_FILE_XATTR, mark, sizeof(mark)) > 0;
	if (!ours) {
		n = pread(fd, head, sizeof(head), 0);
		ours = n == (ssize_t)sizeof(head) &&
		       memcmp(head, POLICY_FILE_HEADER, sizeof(head)) == 0;
	}
	close(fd);
	return ours;
}

bool policy_file_is_ours_at(int dirfd, const char *name)
{
	return policy_file_is_ours(dirfd, name);
}

int policy_file_open(struct policy_file *f, struct policy_txn *txn, const char *path, mode_t mode,
		     struct errbuf *eb)
{
	struct policy_file_dir d;

	memset(f, 0, sizeof(*f));
	if (policy_file_dir_open(path, &d, eb) != 0)
		return -1;
	f->path = path;
	f->txn = txn;
	f->abspath = policy_file_dir_abspath(&d);
	if (f->abspath == NULL) {
		errbuf_set(eb, "%s: out of memory", path);
		goto fail;
	}
	if (!policy_txn_may_overwrite_foreign(txn) && !policy_file_is_ours(d.fd, d.base)) {
		policy_file_refuse_foreign(path, eb);
		goto fail;
	}
	/* The mark lets the next write replace it; a file system without user attributes
	 * (tmpfs before Linux 6.6) leaves only the text formats' header. */
	f->af = atomicfile_openat_marked(d.fd, d.base, path, mode, POLICY_FILE_XATTR, eb);
	if (f->af == NULL)
		goto fail;
	/* Only root can give a file away; a non-root run keeps its own uid (documented). */
	if (geteuid() == 0 && atomicfile_set_owner(f->af, 0, 0, eb) != 0)
		goto fail;
	policy_file_dir_close(&d);
	f->out = atomicfile_stream(f->af);

	f->buf = malloc(POLICY_FILE_STDIO_BUF);
	if (f->buf != NULL)
		setvbuf(f->out, f->buf, _IOFBF, POLICY_FILE_STDIO_BUF);
	return 0;
fail:
	policy_file_dir_close(&d);
	policy_file_abort(f);
	return -1;
}

int policy_file_finish(struct policy_file *f, struct errbuf *eb)
{
	struct atomicfile *af = f->af;
	int rc = -1;

	f->af = NULL;
	if (atomicfile_sync(af, eb) != 0) { /* closes the stream before its buffer goes */
		atomicfile_abort(af);
		goto out;
	}
	rc = policy_txn_add(f->txn, af, f->path, eb); /* adopts af, even on failure */
out:
	policy_file_abort(f);
	return rc;
}

void policy_file_put(struct policy_file *f, const char *s, size_t n)
{
	fwrite_unlocked(s, 1, n, f->out);
}

void policy_file_puts(struct policy_file *f, const char *s)
{
	fwrite_unlocked(s, 1, strlen(s), f->out);
}

void policy_file_put_uint(struct policy_file *f, uint64_t v)
{
	char tmp[24];
	size_t n = sizeof(tmp);

	do {
		tmp[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	fwrite_unlocked(tmp + n, 1, sizeof(tmp) - n, f->out);
}

void policy_file_abort(struct policy_file *f)
{
	atomicfile_abort(f->af);
	free(f->buf);
	free(f->abspath);
	memset(f, 0, sizeof(*f));
}
