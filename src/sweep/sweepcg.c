/* sweepcg: the cgroup (v2) that holds a sweep and everything it starts, so that all of it can
 * be found and ended, even what a setuid tool started as root with a fresh environment. */
#include "sweepcg.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cgroup2.h"
#include "fileio.h"
#include "numarg.h"

#define SWEEPCG_NAME "rarperf-sweep-"
/* cgroup.procs is read in chunks of this; the kill loops give up after SWEEPCG_ROUNDS. */
#define SWEEPCG_READ_BYTES 65536
#define SWEEPCG_ROUNDS 100
#define SWEEPCG_ROUND_NS 10000000L
/* Cgroups below the sweep's: a launcher's, and whatever its runs make (bounded). */
#define SWEEPCG_DEPTH_MAX 8

struct sweepcg {
	char path[PATH_MAX];
	char home[PATH_MAX]; /* where this process was; "" before sweepcg_enter */
};

/* The first cgroup2 mount point into mnt (cgroup2.h). 0 or -1. */
static int sweepcg_mount(char *mnt, size_t size)
{
	char root[PATH_MAX];

	if (size > sizeof(root))
		size = sizeof(root);
	return cgroup2_mount(mnt, root, size) == 0 ? 0 : -1;
}

/* Writes text to dir/name. 0 or -1 (errno set). */
static int sweepcg_write(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd, saved;

	if (fileio_fmt(path, sizeof(path), "%s/%s", dir, name) < 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	saved = errno;
	close(fd);
	errno = saved;
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/*
 * SIGKILLs every pid listed in dir/cgroup.procs but this process; *seen
 * counts them. Returns how many it listed (0: empty), or -1 when the file
 * cannot be read (the cgroup is gone).
 */
static long sweepcg_kill_listed(const char *dir, size_t *seen)
{
	char path[PATH_MAX], *buf = malloc(SWEEPCG_READ_BYTES + 1);
	long listed = 0, self = (long)getpid();
	ssize_t n;
	int fd;

	if (buf == NULL || fileio_fmt(path, sizeof(path), "%s/cgroup.procs", dir) < 0 ||
	    (fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
		free(buf);
		return -1;
	}
	while ((n = read(fd, buf, SWEEPCG_READ_BYTES)) > 0) {
		/* A pid cut by the chunk's end is read whole on the next round. */
		buf[n] = '\0';
		for (const char *p = buf, *end; *p != '\0'; p = end) {
			int64_t pid;

			(void)numarg_i64_prefix(p, 10, &pid, &end);
			if (end == p) {
				end = p + 1;
				continue;
			}
			if (pid > 1 && pid != self) {
				kill((pid_t)pid, SIGKILL);
				listed++;
				(*seen)++;
			}
		}
	}
	close(fd);
	free(buf);
	return listed;
}

static void sweepcg_pause(void)
{
	struct timespec ts = {0, SWEEPCG_ROUND_NS};

	nanosleep(&ts, NULL);
}

/*
 * sweepcg_kill_listed over dir and every cgroup below it (a launcher may put its runs in a
 * child cgroup of its own: they are still the sweep's). Returns how many it listed, or -1 when
 * dir itself cannot be read.
 */
static long sweepcg_kill_tree(const char *dir, size_t *seen, int depth)
{
	long listed = sweepcg_kill_listed(dir, seen), sub;
	char child[PATH_MAX];
	struct dirent *e;
	DIR *d;

	if (listed < 0 || depth >= SWEEPCG_DEPTH_MAX || (d = opendir(dir)) == NULL)
		return listed;
	while ((e = readdir(d)) != NULL) {
		if (e->d_type != DT_DIR || e->d_name[0] == '.' ||
		    fileio_fmt(child, sizeof(child), "%s/%s", dir, e->d_name) < 0)
			continue;
		sub = sweepcg_kill_tree(child, seen, depth + 1);
		if (sub > 0)
			listed += sub;
	}
	closedir(d);
	return listed;
}

/* Removes dir's child cgroups, deepest first, then dir (waiting for the killed to exit). 0 or
 * -1 (errno set). */
static int sweepcg_remove_tree(const char *dir, int depth)
{
	char child[PATH_MAX];
	struct dirent *e;
	DIR *d;
	int round;

	if (depth < SWEEPCG_DEPTH_MAX && (d = opendir(dir)) != NULL) {
		while ((e = readdir(d)) != NULL)
			if (e->d_type == DT_DIR && e->d_name[0] != '.' &&
			    fileio_fmt(child, sizeof(child), "%s/%s", dir, e->d_name) == 0)
				sweepcg_remove_tree(child, depth + 1);
		closedir(d);
	}
	for (round = 0; round < SWEEPCG_ROUNDS; round++) {
		if (rmdir(dir) == 0 || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			return -1;
		sweepcg_pause();
	}
	return -1;
}

struct sweepcg *sweepcg_create(struct errbuf *eb)
{
	struct sweepcg *cg = calloc(1, sizeof(*cg));
	char mnt[PATH_MAX];
	int made;

	if (cg == NULL) {
		errbuf_set(eb, "out of memory");
		return NULL;
	}
	if (sweepcg_mount(mnt, sizeof(mnt)) < 0) {
		errbuf_set(eb, "no cgroup2 file system mounted (/proc/self/mountinfo)");
		goto fail;
	}
	if (fileio_fmt(cg->path, sizeof(cg->path), "%s/" SWEEPCG_NAME "%ld", mnt, (long)getpid()) <
	    0) {
		errbuf_set(eb, "%s: path too long", mnt);
		goto fail;
	}
	made = mkdir(cg->path, 0700);
	if (made != 0 && errno == EEXIST) {
		size_t killed;

		/* Named after this pid, so no live run's: a dead one's that no record named (its
		 * successor predates cgroups). Emptied, removed and made anew. */
		if (sweepcg_remove_leftover(cg->path, &killed, eb) < 0)
			goto fail;
		made = mkdir(cg->path, 0700);
	}
	if (made != 0) {
		errbuf_set_errno(eb, errno, "%s", cg->path);
		goto fail;
	}
	return cg;
fail:
	free(cg);
	return NULL;
}

const char *sweepcg_path(const struct sweepcg *cg)
{
	return cg->path;
}

int sweepcg_enter(struct sweepcg *cg, struct errbuf *eb)
{
	if (cgroup2_own_dir(cg->home, sizeof(cg->home)) != 0)
		return errbuf_set(eb, "/proc/self/cgroup: no cgroup2 path");
	/* "0" is the writer itself. */
	if (sweepcg_write(cg->path, "cgroup.procs", "0\n") < 0) {
		int saved = errno;

		cg->home[0] = '\0';
		return errbuf_set_errno(eb, saved, "%s/cgroup.procs", cg->path);
	}
	return 0;
}

size_t sweepcg_kill_others(struct sweepcg *cg)
{
	size_t seen = 0;
	int round;

	if (cg == NULL)
		return 0;
	for (round = 0; round < SWEEPCG_ROUNDS; round++) {
		if (sweepcg_kill_tree(cg->path, &seen, 0) <= 0)
			break;
		sweepcg_pause();
	}
	return seen;
}

void sweepcg_free(struct sweepcg *cg)
{
	char mnt[PATH_MAX];

	if (cg == NULL)
		return;
	sweepcg_kill_others(cg);
	if (cg->home[0] != '\0' && sweepcg_write(cg->home, "cgroup.procs", "0\n") < 0 &&
	    sweepcg_mount(mnt, sizeof(mnt)) == 0)
		/* The cgroup we came from is gone: the root's is always there. */
		sweepcg_write(mnt, "cgroup.procs", "0\n");
	/* A killed process leaves its cgroup once it has exited: rmdir waits for the last. */
	sweepcg_remove_tree(cg->path, 0);
	free(cg);
}

int sweepcg_remove_leftover(const char *path, size_t *killed, struct errbuf *eb)
{
	char mnt[PATH_MAX], expect[PATH_MAX];
	size_t len, i;
	struct stat st;
	int round;

	*killed = 0;
	/* No cgroup2 on this boot: the recorded cgroup, and whatever it held, ended with the last.
	 */
	if (sweepcg_mount(mnt, sizeof(mnt)) < 0)
		return 0;
	if (fileio_fmt(expect, sizeof(expect), "%s/" SWEEPCG_NAME, mnt) < 0)
		return errbuf_set(eb, "%s: path too long", mnt);
	len = strlen(expect);
	if (strncmp(path, expect, len) != 0 || path[len] == '\0')
		return errbuf_set(eb, "%s: not a sweep's cgroup (%s<pid>)", path, expect);
	for (i = len; path[i] != '\0'; i++)
		if (!isdigit((unsigned char)path[i]))
			return errbuf_set(eb, "%s: not a sweep's cgroup (%s<pid>)", path, expect);
	if (lstat(path, &st) != 0 && errno == ENOENT)
		return 0;
	for (round = 0; round < SWEEPCG_ROUNDS; round++) {
		long listed = sweepcg_kill_tree(path, killed, 0);

		if (listed < 0)
			return errbuf_set_errno(eb, errno, "%s/cgroup.procs", path);
		if (listed == 0)
			break;
		/* The whole tree, what forks meanwhile too (5.14 and later); the loop does without.
		 */
		sweepcg_write(path, "cgroup.kill", "1\n");
		sweepcg_pause();
	}
	if (sweepcg_remove_tree(path, 0) < 0)
		return errbuf_set_errno(eb, errno, "%s: cannot remove", path);
	return 0;
}
