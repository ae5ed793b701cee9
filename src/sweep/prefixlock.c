/* prefixlock: one sweep at a time per prefix, and the record of what a sweep must undo. */
#include "prefixlock.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "atomicfile.h"
#include "fileio.h"
#include "sanitize.h"

#define PREFIXLOCK_HOLDER_MAX_BYTES 4096
#define PREFIXLOCK_RECORD_MAX_BYTES (1024 * 1024)

struct prefixlock {
	int fd; /* PREFIX/run/lock, flock'd */
	char dir[PATH_MAX];
	char holder[PATH_MAX];
	char record[PATH_MAX];
};

/* The holder file's text, one line, malloc'd; NULL when there is none. */
static char *prefixlock_read_holder(const struct prefixlock *lock)
{
	char *text = NULL;
	size_t len = 0;
	struct errbuf eb = {{0}};

	if (fileio_read(lock->holder, PREFIXLOCK_HOLDER_MAX_BYTES, "holder", &text, &len, &eb) < 0)
		return NULL;
	char *shown;

	while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r'))
		text[--len] = '\0';
	/* Another process's words, shown on a terminal: through the one sanitiser. */
	shown = malloc(4 * len + 1);
	if (shown != NULL)
		sanitize_text(shown, 4 * len + 1, text, len);
	free(text);
	return shown;
}

static int prefixlock_write_holder(const struct prefixlock *lock, const char *what,
				   struct errbuf *eb)
{
	char line[PATH_MAX + 128], started[32];
	time_t t = time(NULL);
	struct tm tm;
	int n;

	gmtime_r(&t, &tm);
	strftime(started, sizeof(started), "%Y-%m-%dT%H:%M:%SZ", &tm);
	n = snprintf(line, sizeof(line), "pid %ld since %s (%s)\n", (long)getpid(), started, what);
	if (n < 0 || (size_t)n >= sizeof(line))
		return errbuf_set(eb, "%s: description too long", lock->holder);
	/* Root's alone, like the whole of PREFIX/run (prefixlock_secure_dir). */
	return atomicfile_write(lock->holder, line, (size_t)n, 0600, eb);
}

static int prefixlock_paths(struct prefixlock *lock, const char *prefix, struct errbuf *eb)
{
	if (fileio_fmt(lock->dir, sizeof(lock->dir), "%s/run", prefix) < 0 ||
	    fileio_fmt(lock->holder, sizeof(lock->holder), "%s/run/holder", prefix) < 0 ||
	    fileio_fmt(lock->record, sizeof(lock->record), "%s/run/state.json", prefix) < 0)
		return errbuf_set(eb, "%s: path too long", prefix);
	return 0;
}

/*
 * PREFIX/run and what it holds are root's alone: flock(2) needs only a
 * read-only descriptor, so a lock others can open is a lock others can hold
 * (any user would stop every sweep, and keep a successor from undoing a dead
 * run's grant). Creates the directory 0700 when missing; on a prefix made
 * before this rule, sets the modes (0700 directory, 0600 files) through
 * descriptors, and refuses an entry owned by anyone but root (it would keep
 * its owner's power over the lock). Returns the directory's descriptor or -1.
 */
static int prefixlock_secure_dir(const struct prefixlock *lock, struct errbuf *eb)
{
	static const char *const files[] = {"lock", "holder", "state.json"};
	struct stat st;
	int dfd, fd;
	size_t i;

	if (mkdir(lock->dir, 0700) != 0 && errno != EEXIST)
		return errbuf_set_errno(eb, errno, "%s", lock->dir);
	dfd = open(lock->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return errbuf_set_errno(eb, errno, "%s", lock->dir);
	/* geteuid() is root's for every run that writes policies; a test runs as itself. */
	if (fstat(dfd, &st) != 0 || st.st_uid != geteuid()) {
		errbuf_set(eb, "%s: owned by uid %ju, not root: remove it (rarbench makes it anew)",
			   lock->dir, (uintmax_t)st.st_uid);
		goto fail;
	}
	if ((st.st_mode & 07777) != 0700 && fchmod(dfd, 0700) != 0) {
		errbuf_set_errno(eb, errno, "%s: chmod 0700", lock->dir);
		goto fail;
	}
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		fd = openat(dfd, files[i], O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0 && errno == ENOENT)
			continue;
		if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
		    st.st_uid != geteuid() ||
		    ((st.st_mode & 07777) != 0600 && fchmod(fd, 0600) != 0)) {
			errbuf_set(eb, "%s/%s: not a regular file of root's (mode 0600): remove it",
				   lock->dir, files[i]);
			if (fd >= 0)
				close(fd);
			goto fail;
		}
		close(fd);
	}
	return dfd;
fail:
	close(dfd);
	return -1;
}

enum prefixlock_outcome prefixlock_acquire(const char *prefix, const char *what, bool wait,
					   const volatile sig_atomic_t *stop,
					   struct prefixlock **out, char **stale_holder,
					   struct errbuf *eb)
{
	struct prefixlock *lock = calloc(1, sizeof(*lock));
	char path[PATH_MAX];
	struct stat st;
	enum prefixlock_outcome rc = PREFIXLOCK_FAILED;
	int dfd = -1;

	*out = NULL;
	*stale_holder = NULL;
	if (lock == NULL) {
		errbuf_set(eb, "out of memory");
		return PREFIXLOCK_FAILED;
	}
	lock->fd = -1;
	if (stat(prefix, &st) != 0 || !S_ISDIR(st.st_mode)) {
		errbuf_set(eb, "%s: no such prefix directory (provision it first: make provision)",
			   prefix);
		goto out;
	}
	if (prefixlock_paths(lock, prefix, eb) < 0)
		goto out;
	if ((dfd = prefixlock_secure_dir(lock, eb)) < 0)
		goto out;
	if (fileio_fmt(path, sizeof(path), "%s/lock", lock->dir) < 0) {
		errbuf_set(eb, "%s: path too long", lock->dir);
		goto out;
	}
	lock->fd = openat(dfd, "lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (lock->fd < 0) {
		errbuf_set_errno(eb, errno, "%s", path);
		goto out;
	}
	while (flock(lock->fd, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0) {
		char *holder;

		if (errno == EINTR && !(stop != NULL && *stop))
			continue;
		if (errno == EINTR) {
			errbuf_set(eb, "%s: interrupted while waiting for the lock", prefix);
			goto out;
		}
		if (errno != EWOULDBLOCK) {
			errbuf_set_errno(eb, errno, "%s: flock", path);
			goto out;
		}
		holder = prefixlock_read_holder(lock);
		errbuf_set(eb, "%s is in use by %s; wait for it with --wait", prefix,
			   holder != NULL ? holder : "another process (no description yet)");
		free(holder);
		rc = PREFIXLOCK_BUSY;
		goto out;
	}
	/* The lock is ours: a holder file left now names a process that died holding it. */
	*stale_holder = prefixlock_read_holder(lock);
	if (prefixlock_write_holder(lock, what, eb) < 0)
		goto out;
	*out = lock;
	lock = NULL;
	rc = PREFIXLOCK_TAKEN;
out:
	if (dfd >= 0)
		close(dfd);
	if (lock != NULL) {
		if (lock->fd >= 0)
			close(lock->fd);
		free(lock);
	}
	if (rc != PREFIXLOCK_TAKEN) {
		free(*stale_holder);
		*stale_holder = NULL;
	}
	return rc;
}

int prefixlock_take_record(struct prefixlock *lock, cJSON **record, struct errbuf *eb)
{
	char *text = NULL;
	size_t len = 0;

	*record = NULL;
	if (access(lock->record, F_OK) != 0)
		return 0;
	if (fileio_read(lock->record, PREFIXLOCK_RECORD_MAX_BYTES, "cannot open", &text, &len, eb) <
	    0)
		return -1;
	*record = cJSON_ParseWithLength(text, len);
	free(text);
	if (!cJSON_IsObject(*record)) {
		cJSON_Delete(*record);
		*record = NULL;
		return errbuf_set(eb, "%s: not a JSON object: undo what it held by hand",
				  lock->record);
	}
	return 0;
}

int prefixlock_save_record(struct prefixlock *lock, const cJSON *record, struct errbuf *eb)
{
	char *text = cJSON_PrintUnformatted(record);
	int rc;

	if (text == NULL)
		return errbuf_set(eb, "out of memory");
	rc = atomicfile_write(lock->record, text, strlen(text), 0600, eb);
	free(text);
	return rc;
}

int prefixlock_clear_record(struct prefixlock *lock, struct errbuf *eb)
{
	if (unlink(lock->record) != 0 && errno != ENOENT)
		return errbuf_set_errno(eb, errno, "%s: cannot remove", lock->record);
	return 0;
}

void prefixlock_release(struct prefixlock *lock)
{
	if (lock == NULL)
		return;
	unlink(lock->holder);
	close(lock->fd);
	free(lock);
}
