/* proc_reap: what a measured command leaves behind — the subreaper, orphans and marked processes
 * ended. */
#include "proc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fileio.h"
#include "numarg.h"

int proc_become_subreaper(struct errbuf *eb)
{
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0)
		return errbuf_set_errno(eb, errno, "prctl(PR_SET_CHILD_SUBREAPER)");
	return 0;
}

/* The parent of /proc/<pid>, 0 when unknown. */
static pid_t proc_ppid_of(long pid)
{
	char path[64], buf[256], *paren;
	long ppid;
	ssize_t n;
	int fd;

	if (fileio_fmt(path, sizeof(path), "/proc/%ld/stat", pid) < 0)
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* "pid (comm) state ppid ...": comm may hold spaces and ')', so from the last ')'. */
	paren = strrchr(buf, ')');
	if (paren == NULL || sscanf(paren + 1, " %*c %ld", &ppid) != 1)
		return 0;
	return (pid_t)ppid;
}

/*
 * The children of parent (from /proc): the first one, or with kill every one signalled
 * (SIGKILL, its process group first). Returns the pid found (0: none), or how many were killed.
 */
static long proc_children_of(pid_t parent, bool kill_all)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	long found = 0;

	if (d == NULL)
		return 0;
	while ((kill_all || found == 0) && (e = readdir(d)) != NULL) {
		const char *end;
		int64_t pid;

		(void)numarg_i64_prefix(e->d_name, 10, &pid, &end);
		if (*end != '\0' || pid <= 1 || proc_ppid_of(pid) != parent)
			continue;
		if (!kill_all) {
			found = pid;
		} else {
			kill(-(pid_t)pid, SIGKILL);
			if (kill((pid_t)pid, SIGKILL) == 0)
				found++;
		}
	}
	closedir(d);
	return found;
}

size_t proc_kill_children_of(pid_t parent)
{
	return (size_t)proc_children_of(parent, true);
}

pid_t proc_first_child_of(pid_t parent)
{
	return (pid_t)proc_children_of(parent, false);
}

/* Whether the NUL-separated environment of /proc/<pid> holds kv (at most 256 KiB read). */
static bool proc_environ_has(long pid, const char *kv)
{
	static char buf[256 * 1024];
	char path[64];
	size_t len = strlen(kv), off = 0;
	ssize_t n;
	int fd;

	if (fileio_fmt(path, sizeof(path), "/proc/%ld/environ", pid) < 0)
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	while (off < sizeof(buf) && (n = read(fd, buf + off, sizeof(buf) - off)) > 0)
		off += (size_t)n;
	close(fd);
	for (size_t i = 0; i < off;) {
		size_t end = i;

		while (end < off && buf[end] != '\0')
			end++;
		if (end - i == len && memcmp(buf + i, kv, len) == 0)
			return true;
		i = end + 1;
	}
	return false;
}

size_t proc_kill_marked(const char *kv)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	size_t killed = 0;
	long self = (long)getpid();

	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL) {
		const char *end;
		int64_t pid;

		(void)numarg_i64_prefix(e->d_name, 10, &pid, &end);
		if (*end != '\0' || pid <= 1 || pid == self || !proc_environ_has(pid, kv))
			continue;
		if (kill((pid_t)pid, SIGKILL) == 0)
			killed++;
	}
	closedir(d);
	return killed;
}
