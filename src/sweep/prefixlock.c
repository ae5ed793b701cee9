/* prefixlock: one sweep at a time per prefix, and the record of what a sweep must undo. */
#include "prefixlock.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomicfile.h"
#include "clock.h"
#include "fileio.h"
#include "jsonget.h"
#include "sanitize.h"

#define PREFIXLOCK_HOLDER_MAX_BYTES 4096
#define PREFIXLOCK_RECORD_MAX_BYTES (1024 * 1024)
#define PREFIXLOCK_BOOT_ID_MAX 64

/* Who holds a lock or wrote a record: what a copy of the prefix cannot pass for. */
struct prefixlock_owner {
	char prefix[PATH_MAX]; /* resolved */
	uintmax_t dev, ino;    /* the prefix directory's */
	char boot_id[PREFIXLOCK_BOOT_ID_MAX];
	long pid;
	unsigned long long start; /* /proc/PID/stat field 22, clock ticks since boot */
};

struct prefixlock {
	int fd; /* PREFIX/run/lock, flock'd */
	char dir[PATH_MAX];
	char holder[PATH_MAX];
	char record[PATH_MAX];
	struct prefixlock_owner self;
};

/* This boot's id (/proc/sys/kernel/random/boot_id), "" when the kernel has none. */
static void read_boot_id(char *out, size_t size)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");
	size_t len;

	out[0] = '\0';
	if (f == NULL)
		return;
	if (fgets(out, (int)size, f) == NULL)
		out[0] = '\0';
	fclose(f);
	len = strcspn(out, "\n");
	out[len] = '\0';
}

/*
 * The start time of pid (field 22 of /proc/PID/stat, after the command's
 * closing parenthesis, which may itself hold any byte). 0 and *start set, or
 * -1 when the process is gone or a zombie (it holds nothing any more).
 */
static int process_start(long pid, unsigned long long *start)
{
	char path[64], buf[1024], *p;
	unsigned long long v = 0;
	ssize_t n;
	int fd, field;

	if (pid <= 0 || fileio_fmt(path, sizeof(path), "/proc/%ld/stat", pid) < 0)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	/* Field 3, the state, follows ") "; field 22 is 19 fields further. */
	if (p == NULL || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X')
		return -1;
	p += 2;
	for (field = 3; field < 22 && p != NULL; field++) {
		p = strchr(p, ' ');
		if (p != NULL)
			p++;
	}
	if (p == NULL || !isdigit((unsigned char)*p))
		return -1;
	while (isdigit((unsigned char)*p))
		v = v * 10 + (unsigned long long)(*p++ - '0');
	*start = v;
	return 0;
}

/* This process as the owner of prefix (whose directory's stat is st). 0 or -1. */
static int owner_self(struct prefixlock_owner *o, const char *prefix, const struct stat *st,
		      struct errbuf *eb)
{
	memset(o, 0, sizeof(*o));
	if (realpath(prefix, o->prefix) == NULL)
		return errbuf_set_errno(eb, errno, "%s", prefix);
	o->dev = (uintmax_t)st->st_dev;
	o->ino = (uintmax_t)st->st_ino;
	read_boot_id(o->boot_id, sizeof(o->boot_id));
	o->pid = (long)getpid();
	if (process_start(o->pid, &o->start) < 0)
		return errbuf_set(eb, "/proc/self/stat: cannot read this process's start time");
	return 0;
}

/* Whether the owner's process, started when it says, still runs. */
static bool owner_alive(const struct prefixlock_owner *o)
{
	unsigned long long start;

	return process_start(o->pid, &start) == 0 && start == o->start;
}

/* Whether o names the same prefix directory as self (path, device and inode). */
static bool owner_same_prefix(const struct prefixlock_owner *o, const struct prefixlock_owner *self)
{
	return o->dev == self->dev && o->ino == self->ino && strcmp(o->prefix, self->prefix) == 0;
}

/* The holder file's owner line: "owner DEV:INO BOOT_ID PID START PREFIX". */
static int owner_line(const struct prefixlock_owner *o, char *out, size_t size)
{
	return fileio_fmt(out, size, "owner %ju:%ju %s %ld %llu %s\n", o->dev, o->ino,
			  o->boot_id[0] != '\0' ? o->boot_id : "-", o->pid, o->start, o->prefix);
}

/* Parses an owner line (owner_line); 0 or -1 when line is not one. */
static int owner_parse_line(const char *line, struct prefixlock_owner *o)
{
	int used = 0;

	memset(o, 0, sizeof(*o));
	/* The boot id is 36 characters; the path is the rest of the line. */
	if (sscanf(line, "owner %ju:%ju %63s %ld %llu %n", &o->dev, &o->ino, o->boot_id, &o->pid,
		   &o->start, &used) != 5 ||
	    used == 0 || line[used] != '/')
		return -1;
	if (fileio_fmt(o->prefix, sizeof(o->prefix), "%.*s", (int)strcspn(line + used, "\n"),
		       line + used) < 0)
		return -1;
	if (strcmp(o->boot_id, "-") == 0)
		o->boot_id[0] = '\0';
	return 0;
}

/* The record's "owner" object as a struct; 0, or -1 when it has none (an older rarbench's). */
static int owner_from_json(const cJSON *rec, struct prefixlock_owner *o)
{
	const cJSON *j = jsonget_member(rec, "owner");
	const cJSON *prefix = jsonget_member(j, "prefix"), *boot = jsonget_member(j, "boot_id");
	const cJSON *dev = jsonget_member(j, "dev"), *ino = jsonget_member(j, "ino");
	const cJSON *pid = jsonget_member(j, "pid"), *start = jsonget_member(j, "start");

	memset(o, 0, sizeof(*o));
	if (!cJSON_IsString(prefix) || !cJSON_IsString(boot) || !cJSON_IsNumber(dev) ||
	    !cJSON_IsNumber(ino) || !cJSON_IsNumber(pid) || !cJSON_IsNumber(start) ||
	    dev->valuedouble < 0 || ino->valuedouble < 0 || start->valuedouble < 0)
		return -1;
	if (fileio_fmt(o->prefix, sizeof(o->prefix), "%s", prefix->valuestring) < 0 ||
	    fileio_fmt(o->boot_id, sizeof(o->boot_id), "%s", boot->valuestring) < 0)
		return -1;
	o->dev = (uintmax_t)dev->valuedouble;
	o->ino = (uintmax_t)ino->valuedouble;
	o->pid = (long)pid->valuedouble;
	o->start = (unsigned long long)start->valuedouble;
	return 0;
}

/* Adds o to rec as "owner"; 0, or -1 out of memory. Numbers up to 2^53 are kept exactly. */
static int owner_to_json(const struct prefixlock_owner *o, cJSON *rec)
{
	cJSON *j = cJSON_CreateObject();

	if (j == NULL)
		return -1;
	cJSON_DeleteItemFromObjectCaseSensitive(rec, "owner");
	cJSON_AddItemToObject(rec, "owner", j); /* rec adopts j */
	if (cJSON_AddStringToObject(j, "prefix", o->prefix) == NULL ||
	    cJSON_AddNumberToObject(j, "dev", (double)o->dev) == NULL ||
	    cJSON_AddNumberToObject(j, "ino", (double)o->ino) == NULL ||
	    cJSON_AddStringToObject(j, "boot_id", o->boot_id) == NULL ||
	    cJSON_AddNumberToObject(j, "pid", (double)o->pid) == NULL ||
	    cJSON_AddNumberToObject(j, "start", (double)o->start) == NULL)
		return -1;
	return 0;
}

/*
 * The holder file's description (its first line), sanitised and malloc'd;
 * NULL when there is none. *has_owner says whether its second line named an
 * owner (into *o; a holder written by an older rarbench, or by tests/lib/tap.sh,
 * names none).
 */
static char *prefixlock_read_holder(const struct prefixlock *lock, struct prefixlock_owner *o,
				    bool *has_owner)
{
	char *text = NULL, *nl;
	size_t len = 0;
	struct errbuf eb = {{0}};

	*has_owner = false;
	if (fileio_read(lock->holder, PREFIXLOCK_HOLDER_MAX_BYTES, "holder", &text, &len, &eb) < 0)
		return NULL;
	char *shown;

	nl = memchr(text, '\n', len);
	if (nl != NULL) {
		*has_owner = owner_parse_line(nl + 1, o) == 0;
		len = (size_t)(nl - text);
		text[len] = '\0';
	}
	while (len > 0 && text[len - 1] == '\r')
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
	char line[2 * PATH_MAX + 256], started[32];
	int n;

	clock_utc_now(started, sizeof(started));
	n = snprintf(line, sizeof(line), "pid %ld since %s (%s)\n", (long)getpid(), started, what);
	if (n < 0 || (size_t)n >= sizeof(line) ||
	    owner_line(&lock->self, line + n, sizeof(line) - (size_t)n) < 0)
		return errbuf_set(eb, "%s: description too long", lock->holder);
	/* Root's alone, like the whole of PREFIX/run (prefixlock_secure_dir). */
	return atomicfile_write(lock->holder, line, strlen(line), 0600, eb);
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
	struct prefixlock_owner other;
	bool has_owner = false;
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
	if (prefixlock_paths(lock, prefix, eb) < 0 || owner_self(&lock->self, prefix, &st, eb) < 0)
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
		holder = prefixlock_read_holder(lock, &other, &has_owner);
		errbuf_set(eb, "%s is in use by %s; wait for it with --wait", prefix,
			   holder != NULL ? holder : "another process (no description yet)");
		free(holder);
		rc = PREFIXLOCK_BUSY;
		goto out;
	}
	/* The lock is ours: a holder file left now names a process that died holding it, unless
	 * it came with a copy of the prefix (its holder, of the original, may well live) or its
	 * process still runs (the record's judge says what then). */
	*stale_holder = prefixlock_read_holder(lock, &other, &has_owner);
	if (*stale_holder != NULL && has_owner &&
	    (!owner_same_prefix(&other, &lock->self) ||
	     (strcmp(other.boot_id, lock->self.boot_id) == 0 && owner_alive(&other)))) {
		free(*stale_holder);
		*stale_holder = NULL;
	}
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

/* Judges whose rec is (prefixlock_take_record), why filled for FOREIGN and LIVE. */
static enum prefixlock_record_owner judge(const struct prefixlock *lock, const cJSON *rec,
					  char *why, size_t why_size)
{
	const struct prefixlock_owner *self = &lock->self;
	struct prefixlock_owner o;
	const cJSON *pid;

	why[0] = '\0';
	if (owner_from_json(rec, &o) < 0) {
		/* An older rarbench's record names only its pid: trusted only when that is gone. */
		pid = jsonget_member(rec, "pid");
		if (cJSON_IsNumber(pid) && pid->valuedouble >= 1 && pid->valuedouble < 1e9 &&
		    kill((pid_t)pid->valuedouble, 0) == 0) {
			snprintf(why, why_size, /* lint: a message, truncation harmless */
				 "%s names no prefix (an older rarbench wrote it) and its pid %ld "
				 "runs: ignored, nothing it lists undone",
				 lock->record, (long)pid->valuedouble);
			return PREFIXLOCK_RECORD_FOREIGN;
		}
		return PREFIXLOCK_RECORD_DEAD;
	}
	if (!owner_same_prefix(&o, self)) {
		snprintf(
		    why, why_size, /* lint: a message, truncation harmless */
		    "%s is the record of another prefix (%s, device %ju inode %ju; this one is "
		    "%s, device %ju inode %ju), copied with it: ignored, nothing it lists undone",
		    lock->record, o.prefix, o.dev, o.ino, self->prefix, self->dev, self->ino);
		return PREFIXLOCK_RECORD_FOREIGN;
	}
	if (strcmp(o.boot_id, self->boot_id) != 0 || self->boot_id[0] == '\0')
		return PREFIXLOCK_RECORD_OLD_BOOT;
	if (owner_alive(&o)) {
		snprintf(why, why_size, /* lint: a message, truncation harmless */
			 "%s: the run that wrote it (pid %ld) still runs, yet the lock was free: "
			 "stop it first (nothing it lists was undone)",
			 lock->record, o.pid);
		return PREFIXLOCK_RECORD_LIVE;
	}
	return PREFIXLOCK_RECORD_DEAD;
}

int prefixlock_take_record(struct prefixlock *lock, cJSON **record,
			   enum prefixlock_record_owner *owner, char *why, size_t why_size,
			   struct errbuf *eb)
{
	char *text = NULL;
	size_t len = 0;

	*record = NULL;
	*owner = PREFIXLOCK_RECORD_NONE;
	if (why_size > 0)
		why[0] = '\0';
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
	*owner = judge(lock, *record, why, why_size);
	return 0;
}

int prefixlock_save_record(struct prefixlock *lock, const cJSON *record, struct errbuf *eb)
{
	cJSON *owned = cJSON_Duplicate(record, true);
	char *text = NULL;
	int rc;

	if (owned != NULL && owner_to_json(&lock->self, owned) == 0)
		text = cJSON_PrintUnformatted(owned);
	cJSON_Delete(owned);
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
