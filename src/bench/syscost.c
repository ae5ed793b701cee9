/* syscost: what a few system calls cost on this host, measured in-process. */
#include "syscost.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "clock.h"

#define SYSCOST_LOOP 20000u
#define SYSCOST_FILE_BYTES 65536u
/* A descriptor number no process of ours holds (checked with fcntl first). */
#define SYSCOST_CLOSED_FD 1000000

enum { COST_FLOOR, COST_READ, COST_CLOSE, COST_OPENAT, COST_WRITE };

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The mean ns per call of one loop of `which`. */
static double one_loop(int which, int rfd, int wfd)
{
	char c = 0;
	uint64_t t0 = clock_now_ns();

	for (unsigned i = 0; i < SYSCOST_LOOP; i++) {
		switch (which) {
		case COST_FLOOR:
			syscall(SYS_getppid);
			break;
		case COST_READ:
			/* Sequential one-byte reads, as an unbuffered parser does. */
			if (read(rfd, &c, 1) != 1)
				lseek(rfd, 0, SEEK_SET);
			break;
		case COST_CLOSE:
			close(SYSCOST_CLOSED_FD);
			break;
		case COST_OPENAT: {
			int fd = openat(AT_FDCWD, "/etc/passwd", O_RDONLY | O_CLOEXEC);

			if (fd >= 0)
				close(fd);
			break;
		}
		case COST_WRITE:
			if (write(wfd, &c, 1) < 0)
				c = 1;
			break;
		}
	}
	return (double)(clock_now_ns() - t0) / SYSCOST_LOOP;
}

/* A regular scratch file of SYSCOST_FILE_BYTES under dir, open for reading and unlinked. */
static int scratch_file(const char *dir, struct errbuf *eb)
{
	char path[4096], *buf = NULL;
	int fd;

	if (snprintf(path, sizeof(path), "%s/.syscost-XXXXXX", dir) >= (int)sizeof(path))
		return errbuf_set(eb, "%s: path too long", dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		return errbuf_set_errno(eb, errno, "%s", path);
	unlink(path);
	buf = calloc(1, SYSCOST_FILE_BYTES);
	if (buf == NULL || write(fd, buf, SYSCOST_FILE_BYTES) != (ssize_t)SYSCOST_FILE_BYTES ||
	    lseek(fd, 0, SEEK_SET) != 0) {
		free(buf);
		close(fd);
		return errbuf_set(eb, "%s: cannot write the scratch file", dir);
	}
	free(buf);
	return fd;
}

int syscost_measure(const char *dir, struct syscost out[SYSCOST_COUNT], struct errbuf *eb)
{
	static const struct {
		const char *name, *what;
	} names[SYSCOST_COUNT] = {
	    {"syscall", "getppid(2): entry and exit, the floor of any other call"},
	    {"read", "read(2) of one byte from a regular file in the page cache"},
	    {"close", "close(2) of a descriptor that is not open (EBADF)"},
	    {"openat", "openat(2) of /etc/passwd, with its close(2)"},
	    {"write", "write(2) of one byte to /dev/null"},
	};
	double round[SYSCOST_ROUNDS];
	int rfd = -1, wfd = -1, rc = -1;

	if (fcntl(SYSCOST_CLOSED_FD, F_GETFD) != -1) {
		errbuf_set(eb, "descriptor %d is open", SYSCOST_CLOSED_FD);
		goto out;
	}
	if ((rfd = scratch_file(dir, eb)) < 0)
		goto out;
	if ((wfd = open("/dev/null", O_WRONLY | O_CLOEXEC)) < 0) {
		errbuf_set_errno(eb, errno, "/dev/null");
		goto out;
	}
	for (int k = 0; k < SYSCOST_COUNT; k++) {
		one_loop(k, rfd, wfd); /* warm */
		for (int i = 0; i < SYSCOST_ROUNDS; i++)
			round[i] = one_loop(k, rfd, wfd);
		qsort(round, SYSCOST_ROUNDS, sizeof(double), cmp_double);
		/* The fastest loop: load only ever slows one (as the timed runs' estimate leaves
		 * contended runs' waits out, so do the prices). */
		out[k] = (struct syscost){names[k].name, names[k].what, round[0]};
	}
	rc = 0;
out:
	if (rfd >= 0)
		close(rfd);
	if (wfd >= 0)
		close(wfd);
	return rc;
}
