/* runner_fault: the deny-all a fault's signal handler can still write (runner_fault.h). */
#include "runner_fault.h"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "manifest.h"

/* A deny-all policy is small; a file larger than this is left to the next run's recovery. */
#define RUNNER_FAULT_FILE_MAX_BYTES (64 * 1024)
#define RUNNER_FAULT_FILES (2 * MANIFEST_SUBJECTS_MAX)

/*
 * Process-wide, because a signal handler has nothing else to reach: one
 * sweep runs per process. Written only outside handlers (runner_fault_prepare,
 * before any grant); nfiles last, so a handler sees whole entries.
 */
static struct {
	int dirfd;
	char name[NAME_MAX + 1];
	char *bytes;
	size_t len;
	mode_t mode;
} fault_files[RUNNER_FAULT_FILES];
static volatile sig_atomic_t fault_nfiles;

/* Keeps path's bytes, mode and directory as entry k. 0 or -1. */
static int keep_file(size_t k, const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	struct errbuf eb = {{0}};
	struct stat st;

	if (slash == NULL || slash[1] == '\0' || strlen(slash + 1) > NAME_MAX ||
	    fileio_fmt(dir, sizeof(dir), "%.*s", (int)(slash == path ? 1 : slash - path), path) <
		0 ||
	    stat(path, &st) != 0)
		return -1;
	if (fileio_read(path, RUNNER_FAULT_FILE_MAX_BYTES, "cannot open", &fault_files[k].bytes,
			&fault_files[k].len, &eb) < 0)
		return -1;
	fault_files[k].dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fault_files[k].dirfd < 0) {
		free(fault_files[k].bytes);
		fault_files[k].bytes = NULL;
		return -1;
	}
	memcpy(fault_files[k].name, slash + 1, strlen(slash + 1) + 1);
	fault_files[k].mode = st.st_mode & 07777;
	return 0;
}

void runner_fault_prepare(const struct runner_target *t, size_t n)
{
	size_t i, k = 0;

	fault_nfiles = 0;
	for (i = 0; i < RUNNER_FAULT_FILES; i++) {
		if (fault_files[i].bytes != NULL) {
			free(fault_files[i].bytes);
			close(fault_files[i].dirfd);
			fault_files[i].bytes = NULL;
		}
	}
	for (i = 0; i < n && k + 2 <= RUNNER_FAULT_FILES; i++) {
		if (keep_file(k, t[i].policy) == 0)
			k++;
		if (t[i].policy_data != NULL && keep_file(k, t[i].policy_data) == 0)
			k++;
	}
	fault_nfiles = (sig_atomic_t)k;
}

void runner_fault_deny(void)
{
	static const char tmp[] = ".rarbench-fault";
	sig_atomic_t i, n = fault_nfiles;

	for (i = 0; i < n; i++) {
		int fd = openat(fault_files[i].dirfd, tmp,
				O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);

		if (fd < 0)
			continue;
		if (write(fd, fault_files[i].bytes, fault_files[i].len) ==
			(ssize_t)fault_files[i].len &&
		    fchmod(fd, fault_files[i].mode) == 0 && fsync(fd) == 0) {
			close(fd);
			renameat(fault_files[i].dirfd, tmp, fault_files[i].dirfd,
				 fault_files[i].name);
			continue;
		}
		close(fd);
		unlinkat(fault_files[i].dirfd, tmp, 0);
	}
}
