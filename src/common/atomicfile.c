/* atomicfile: write a file through a temporary sibling, fsync, and rename it into place. */
#include "atomicfile.h"

#include "fileio.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"

/* Temporary names tried before giving up (each is random, so a clash is a sign of trouble). */
#define ATOMICFILE_TMP_ATTEMPTS 64

/*
 * Life cycle: open (temporary file created in dirfd) -> writes on stream ->
 * sync (flushed, fsync'd, closed: stream NULL, synced true) -> rename
 * (renameat within dirfd, directory fsync'd) and free. abort unlinks the
 * temporary file at any stage before the rename. Every name is resolved
 * against dirfd, never against a path string again.
 */
struct atomicfile {
	FILE *stream;
	int dirfd;      /* the directory, opened once; owned */
	char *name;     /* the target's name in dirfd */
	char *tmp_name; /* the temporary file's name in dirfd, NULL once gone */
	char *shown;    /* the target as the caller named it, for messages */
	int synced;
	int in_place; /* the target is a device or a FIFO: written to, never replaced */
};

static void atomicfile_free(struct atomicfile *af)
{
	if (af == NULL)
		return;
	if (af->stream != NULL)
		fclose(af->stream);
	if (af->dirfd >= 0)
		close(af->dirfd);
	free(af->name);
	free(af->tmp_name);
	free(af->shown);
	free(af);
}

/* Fills buf (len - 1 chars) with random letters and digits, then a NUL. */
static void atomicfile_random_suffix(char *buf, size_t len)
{
	static const char alphabet[] =
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char rnd[16];
	struct timespec ts;
	size_t i;

	if (getrandom(rnd, sizeof(rnd), GRND_NONBLOCK) != (ssize_t)sizeof(rnd)) {
		/* No entropy yet (early boot): the clock and pid make a name O_EXCL then checks. */
		clock_gettime(CLOCK_MONOTONIC, &ts);
		for (i = 0; i < sizeof(rnd); i++)
			rnd[i] = (unsigned char)((uint64_t)ts.tv_nsec >> (i % 8 * 8) ^
						 (unsigned)getpid() >> (i % 4 * 8) ^ i * 37u);
	}
	for (i = 0; i + 1 < len && i < sizeof(rnd); i++)
		buf[i] = alphabet[rnd[i] % (sizeof(alphabet) - 1)];
	buf[i] = '\0';
}

/*
 * A target that is a character or block device or a FIFO ("--export-json
 * /dev/null", a pipe) is written to where it is: a rename would replace the
 * device node with a regular file (it did: /dev/null became one, and apt broke).
 * Such a target holds no file to keep whole. 0 (af->in_place says which) or -1.
 */
static int open_in_place(struct atomicfile *af, struct errbuf *eb)
{
	struct stat st;
	int fd;

	if (fstatat(af->dirfd, af->name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
	    !(S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISFIFO(st.st_mode)))
		return 0;
	fd = openat(af->dirfd, af->name, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return errbuf_set_errno(eb, errno, "%s", af->shown);
	af->stream = fdopen(fd, "w");
	if (af->stream == NULL) {
		close(fd);
		return errbuf_set_errno(eb, errno, "%s", af->shown);
	}
	free(af->tmp_name);
	af->tmp_name = NULL;
	af->in_place = 1;
	return 0;
}

struct atomicfile *atomicfile_openat(int dirfd, const char *name, const char *shown, mode_t mode,
				     struct errbuf *eb)
{
	return atomicfile_openat_marked(dirfd, name, shown, mode, NULL, eb);
}

/* A target that exists and is not a regular file: refused (atomicfile_open_regular). 0 or -1. */
static int refuse_irregular(int dirfd, const char *name, const char *shown, struct errbuf *eb)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return errno == ENOENT ? 0 : errbuf_set_errno(eb, errno, "%s", shown);
	if (S_ISREG(st.st_mode))
		return 0;
	return errbuf_set(eb, "%s: not a regular file (%s): remove it", shown,
			  S_ISLNK(st.st_mode)    ? "a symbolic link"
			  : S_ISFIFO(st.st_mode) ? "a FIFO"
			  : S_ISDIR(st.st_mode)  ? "a directory"
						 : "a device or socket");
}

static struct atomicfile *openat_how(int dirfd, const char *name, const char *shown, mode_t mode,
				     const char *xattr, bool regular, struct errbuf *eb);

struct atomicfile *atomicfile_openat_marked(int dirfd, const char *name, const char *shown,
					    mode_t mode, const char *xattr, struct errbuf *eb)
{
	return openat_how(dirfd, name, shown, mode, xattr, false, eb);
}

static struct atomicfile *openat_how(int dirfd, const char *name, const char *shown, mode_t mode,
				     const char *xattr, bool regular, struct errbuf *eb)
{
	struct atomicfile *af = NULL;
	char suffix[7];
	size_t len;
	int fd = -1, attempt;

	if (name[0] == '\0' || strchr(name, '/') != NULL) {
		errbuf_set(eb, "%s: not a file name", shown);
		return NULL;
	}
	af = calloc(1, sizeof(*af));
	if (af == NULL) {
		errbuf_set(eb, "%s: out of memory", shown);
		return NULL;
	}
	af->dirfd = -1;
	af->name = strdup(name);
	af->shown = strdup(shown);
	len = strlen(name) + sizeof(suffix) + 3;
	af->tmp_name = malloc(len);
	if (af->name == NULL || af->shown == NULL || af->tmp_name == NULL) {
		errbuf_set(eb, "%s: out of memory", shown);
		goto fail;
	}
	af->dirfd = fcntl(dirfd, F_DUPFD_CLOEXEC, 3);
	if (af->dirfd < 0) {
		errbuf_set_errno(eb, errno, "%s: directory descriptor", shown);
		goto fail;
	}
	if (regular ? refuse_irregular(af->dirfd, name, shown, eb) != 0
		    : open_in_place(af, eb) != 0)
		goto fail;
	if (af->in_place)
		return af;
	for (attempt = 0; attempt < ATOMICFILE_TMP_ATTEMPTS; attempt++) {
		atomicfile_random_suffix(suffix, sizeof(suffix));
		snprintf(af->tmp_name, len, ".%s.%s", name, suffix); /* lint: sized to fit */
		fd = openat(af->dirfd, af->tmp_name,
			    O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0600);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0) {
		errbuf_set_errno(eb, errno, "%s: cannot create a temporary file beside it", shown);
		free(af->tmp_name);
		af->tmp_name = NULL;
		goto fail;
	}
	if (xattr != NULL && fsetxattr(fd, xattr, "1", 1, 0) != 0 && errno != ENOTSUP) {
		errbuf_set_errno(eb, errno, "%s: extended attribute %s", af->tmp_name, xattr);
		goto fail_unlink;
	}
	if (fchmod(fd, mode) != 0) {
		errbuf_set_errno(eb, errno, "%s: chmod", af->tmp_name);
		goto fail_unlink;
	}
	af->stream = fdopen(fd, "w");
	if (af->stream == NULL) {
		errbuf_set_errno(eb, errno, "%s", af->tmp_name);
		goto fail_unlink;
	}
	return af;

fail_unlink:
	close(fd);
	unlinkat(af->dirfd, af->tmp_name, 0);
fail:
	atomicfile_free(af);
	return NULL;
}

static struct atomicfile *open_path(const char *path, mode_t mode, bool regular, struct errbuf *eb)
{
	struct atomicfile *af = NULL;
	char *copy_dir = strdup(path), *copy_base = strdup(path);
	const char *dir, *base;
	int dirfd = -1;

	if (copy_dir == NULL || copy_base == NULL) {
		errbuf_set(eb, "%s: out of memory", path);
		goto out;
	}
	dir = dirname(copy_dir);
	base = basename(copy_base);
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0 && errno == EACCES) /* enough to create files in; fsync then fails, fine */
		dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		errbuf_set_errno(eb, errno, "%s: cannot create a temporary file in %s", path, dir);
		goto out;
	}
	af = openat_how(dirfd, base, path, mode, NULL, regular, eb);
out:
	if (dirfd >= 0)
		close(dirfd);
	free(copy_dir);
	free(copy_base);
	return af;
}

struct atomicfile *atomicfile_open(const char *path, mode_t mode, struct errbuf *eb)
{
	return open_path(path, mode, false, eb);
}

struct atomicfile *atomicfile_open_regular(const char *path, mode_t mode, struct errbuf *eb)
{
	return open_path(path, mode, true, eb);
}

FILE *atomicfile_stream(struct atomicfile *af)
{
	return af->stream;
}

int atomicfile_dirfd(const struct atomicfile *af)
{
	return af->dirfd;
}

const char *atomicfile_name(const struct atomicfile *af)
{
	return af->name;
}

int atomicfile_set_owner(struct atomicfile *af, uid_t uid, gid_t gid, struct errbuf *eb)
{
	if (af->in_place)
		return 0; /* a device keeps its owner */
	if (af->stream == NULL || fchown(fileno(af->stream), uid, gid) != 0)
		return errbuf_set_errno(eb, af->stream == NULL ? EBADF : errno,
					"%s: cannot give the file to %u:%u", af->shown,
					(unsigned)uid, (unsigned)gid);
	return 0;
}

int atomicfile_sync(struct atomicfile *af, struct errbuf *eb)
{
	FILE *stream = af->stream;

	if (af->synced)
		return 0;
	if (stream == NULL)
		return errbuf_set(eb, "%s: no file to sync", af->shown);
	af->stream = NULL;
	if (fflush(stream) != 0 || ferror(stream)) {
		errbuf_set_errno(eb, errno != 0 ? errno : EIO, "%s: write", af->shown);
		fclose(stream);
		return -1;
	}
	if (!af->in_place && fsync(fileno(stream)) != 0) {
		errbuf_set_errno(eb, errno, "%s: fsync", af->shown);
		fclose(stream);
		return -1;
	}
	if (fclose(stream) != 0) {
		errbuf_set_errno(eb, errno, "%s: close", af->shown);
		return -1;
	}
	af->synced = 1;
	return 0;
}

int atomicfile_rename(struct atomicfile *af, struct errbuf *eb)
{
	int rc = -1;

	if (!af->synced && atomicfile_sync(af, eb) != 0)
		goto out;
	if (af->in_place) {
		rc = 0;
		goto out;
	}
	if (renameat(af->dirfd, af->tmp_name, af->dirfd, af->name) != 0) {
		errbuf_set_errno(eb, errno, "%s: rename into place", af->shown);
		goto out;
	}
	free(af->tmp_name);
	af->tmp_name = NULL;
	/* The rename is durable only once the directory entry is on disk (EBADF: an O_PATH fd). */
	fsync(af->dirfd);
	rc = 0;
out:
	atomicfile_abort(af);
	return rc;
}

int atomicfile_commit(struct atomicfile *af, struct errbuf *eb)
{
	if (atomicfile_sync(af, eb) != 0) {
		atomicfile_abort(af);
		return -1;
	}
	return atomicfile_rename(af, eb);
}

void atomicfile_abort(struct atomicfile *af)
{
	if (af == NULL)
		return;
	if (af->stream != NULL) {
		fclose(af->stream);
		af->stream = NULL;
	}
	if (af->tmp_name != NULL)
		unlinkat(af->dirfd, af->tmp_name, 0);
	atomicfile_free(af);
}

int atomicfile_write(const char *path, const void *data, size_t len, mode_t mode, struct errbuf *eb)
{
	struct atomicfile *af = atomicfile_open(path, mode, eb);

	if (af == NULL)
		return -1;
	if (len > 0 && fwrite(data, 1, len, atomicfile_stream(af)) != len) {
		errbuf_set_errno(eb, errno, "%s: write", path);
		atomicfile_abort(af);
		return -1;
	}
	return atomicfile_commit(af, eb);
}

/* Whether name is one atomicfile_openat makes: ".NAME." then six letters or digits. */
static bool tmp_name_shape(const char *name)
{
	size_t len = strlen(name), i;

	if (len < 1 + 1 + 1 + 6 || name[0] != '.' || name[len - 7] != '.')
		return false;
	for (i = len - 6; i < len; i++)
		if (!isalnum((unsigned char)name[i]))
			return false;
	return true;
}

/*
 * Whether some process holds the file (dev, ino) open: 1 yes (or when a
 * process's descriptors cannot be read, so a doubt keeps the file), 0 no.
 */
static int held_open(dev_t dev, ino_t ino)
{
	DIR *proc = opendir("/proc"), *fds;
	struct dirent *p, *f;
	char path[64];
	struct stat st;
	int held = 0;

	if (proc == NULL)
		return 1;
	while (!held && (p = readdir(proc)) != NULL) {
		if (!isdigit((unsigned char)p->d_name[0]))
			continue;
		if (fileio_fmt(path, sizeof(path), "/proc/%s/fd", p->d_name) < 0)
			continue;
		fds = opendir(path);
		if (fds == NULL) {
			/* Gone meanwhile (ENOENT) says nothing; unreadable keeps the doubt. */
			held = errno != ENOENT;
			continue;
		}
		while (!held && (f = readdir(fds)) != NULL) {
			char fd_path[96];

			if (f->d_name[0] == '.' ||
			    fileio_fmt(fd_path, sizeof(fd_path), "%s/%s", path, f->d_name) < 0)
				continue;
			if (stat(fd_path, &st) == 0 && st.st_dev == dev && st.st_ino == ino)
				held = 1;
		}
		closedir(fds);
	}
	closedir(proc);
	return held;
}

int atomicfile_remove_stale(const char *dir, unsigned min_age_s, size_t *removed, struct errbuf *eb)
{
	struct timespec now;
	struct dirent *d;
	struct stat st;
	DIR *dp = NULL;
	int fd, rc = -1;

	if (removed != NULL)
		*removed = 0;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : errbuf_set_errno(eb, errno, "%s", dir);
	dp = fdopendir(fd);
	if (dp == NULL) {
		close(fd);
		return errbuf_set_errno(eb, errno, "%s", dir);
	}
	clock_gettime(CLOCK_REALTIME, &now);
	while ((d = readdir(dp)) != NULL) {
		if (!tmp_name_shape(d->d_name) ||
		    fstatat(fd, d->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
		    st.st_uid != geteuid() || st.st_mtime + (time_t)min_age_s > now.tv_sec ||
		    held_open(st.st_dev, st.st_ino))
			continue;
		if (unlinkat(fd, d->d_name, 0) != 0 && errno != ENOENT) {
			errbuf_set_errno(eb, errno, "%s/%s: removing a leftover temporary file",
					 dir, d->d_name);
			goto out;
		}
		if (removed != NULL)
			(*removed)++;
	}
	rc = 0;
out:
	closedir(dp);
	return rc;
}
