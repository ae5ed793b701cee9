/*
 * rarkref: the kernel-side calibration of `rarbench --manifest` ("kernel_reference"): a static
 * program whose run costs the kernel a known amount of one kind of work.
 *
 *   rarkref                 exits at once: a run is the exec and the reap of a static program
 *   rarkref faults N        touches N fresh anonymous pages (N minor page faults)
 *   rarkref execve N        executes itself again N times in the same process (N execve(2) of
 *                           a static program, without the fork and the reap)
 *   rarkref CALL N          makes N system calls of one kind, CALL one of
 *                           getppid  the floor of any call (entry and exit)
 *                           close    close(2) of a descriptor that is not open (EBADF)
 *                           read     pread(2) of one byte of this program (in the page cache)
 *                           openat   openat(2) of /etc/passwd, with its close(2)
 *                           stat     newfstatat(2) of /etc/passwd
 *                           mmap     mmap(2) of one anonymous page, untouched, with its munmap(2)
 *
 * exits 0, or 2 on a bad argument, 1 when a call fails that should not. rarbench runs each beside
 * the subjects, in the same steps, and prices a unit as (this run - the bare run) / N: the calls
 * are the ones the subjects' profiles say they make most (doc/precision.md, "What a machine
 * costs"). Static, so that the bare run has no dynamic loader in it; one file, libc only.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define RARKREF_COUNT_MAX 1000000L
#define RARKREF_PAGE 4096u
#define RARKREF_FILE "/etc/passwd"

static int touch_pages(long n)
{
	size_t len = (size_t)n * RARKREF_PAGE;
	volatile unsigned char *p;

	if (n == 0)
		return 0;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	for (size_t i = 0; i < len; i += RARKREF_PAGE)
		p[i] = 1;
	return 0;
}

/* Executes this program again with N - 1 until 0: the bare run's exec without its fork. */
static int exec_chain(long n)
{
	char count[24];
	char *argv[] = {"rarkref", "execve", count, NULL};
	char *envp[] = {NULL};

	if (n == 0)
		return 0;
	snprintf(count, sizeof(count), "%ld", n - 1);
	execve("/proc/self/exe", argv, envp);
	return 1;
}

static int calls_getppid(long n)
{
	for (long i = 0; i < n; i++)
		(void)syscall(SYS_getppid);
	return 0;
}

static int calls_close(long n)
{
	for (long i = 0; i < n; i++)
		(void)close(-1);
	return 0;
}

static int calls_read(long n)
{
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	unsigned char c;

	if (fd < 0)
		return 1;
	for (long i = 0; i < n; i++)
		if (pread(fd, &c, 1, 64) != 1)
			return 1;
	return 0;
}

static int calls_openat(long n)
{
	for (long i = 0; i < n; i++) {
		int fd = openat(AT_FDCWD, RARKREF_FILE, O_RDONLY | O_CLOEXEC);

		if (fd < 0)
			return 1;
		(void)close(fd);
	}
	return 0;
}

static int calls_stat(long n)
{
	struct stat st;

	for (long i = 0; i < n; i++)
		if (fstatat(AT_FDCWD, RARKREF_FILE, &st, 0) != 0)
			return 1;
	return 0;
}

static int calls_mmap(long n)
{
	for (long i = 0; i < n; i++) {
		void *p = mmap(NULL, RARKREF_PAGE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED || munmap(p, RARKREF_PAGE) != 0)
			return 1;
	}
	return 0;
}

static const struct {
	const char *name;
	int (*run)(long n);
} kinds[] = {
    {"faults", touch_pages}, {"execve", exec_chain}, {"getppid", calls_getppid},
    {"close", calls_close},  {"read", calls_read},   {"openat", calls_openat},
    {"stat", calls_stat},    {"mmap", calls_mmap},
};

int main(int argc, char **argv)
{
	char *end = NULL;
	long n;

	if (argc == 1)
		return 0;
	if (argc != 3)
		return 2;
	n = strtol(argv[2], &end, 10);
	if (end == argv[2] || *end != '\0' || n < 0 || n > RARKREF_COUNT_MAX)
		return 2;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(argv[1], kinds[i].name) == 0)
			return kinds[i].run(n);
	return 2;
}
