/* Tests for psi: cpu.pressure, mountinfo and /proc/self/cgroup parsing (the kernel's real
 * formats), and, as root on a host with cgroup2 and PSI, a cgroup made, counted and removed. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "psi.h"

static void test_parse_pressure(void)
{
	/* As Linux 6.x prints a cgroup's cpu.pressure. */
	static const char real[] = "some avg10=82.33 avg60=81.45 avg300=74.46 total=2467729376\n"
				   "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n";
	/* As 4.20-5.12 print /proc/pressure/cpu: no "full" line. */
	static const char old[] = "some avg10=0.00 avg60=0.00 avg300=0.00 total=229543\n";
	uint64_t us = 7;

	CHECK_INT_EQ(psi_parse_some_total(real, strlen(real), &us), 0);
	CHECK(us == 2467729376ull);
	CHECK_INT_EQ(psi_parse_some_total(old, strlen(old), &us), 0);
	CHECK(us == 229543);
	/* Cut after the number (a short read) still has it; cut inside it does not end a line. */
	CHECK_INT_EQ(psi_parse_some_total(old, strlen(old) - 1, &us), 0);
	CHECK(us == 229543);
	/* Not a "some" line first, no total, a total that is not a number, overflow. */
	CHECK_INT_EQ(psi_parse_some_total(real + 62, strlen(real) - 62, &us), -1);
	CHECK_INT_EQ(psi_parse_some_total("some avg10=0.00\n", 16, &us), -1);
	CHECK_INT_EQ(psi_parse_some_total("some total=x1\n", 14, &us), -1);
	CHECK_INT_EQ(psi_parse_some_total("some total=12a\n", 15, &us), -1);
	CHECK_INT_EQ(psi_parse_some_total("some total=99999999999999999999\n", 32, &us), -1);
	CHECK_INT_EQ(psi_parse_some_total("", 0, &us), -1);
	/* The total on the next line is not this line's. */
	CHECK_INT_EQ(psi_parse_some_total("some avg10=1\nfull total=5\n", 26, &us), -1);
}

static void test_parse_mountinfo(void)
{
	char mnt[64], root[64];
	static const char hybrid[] = "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 "
				     "cgroup2 rw";
	static const char systemd[] =
	    "30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime "
	    "shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot";
	static const char v1[] = "35 31 0:31 / /sys/fs/cgroup/memory rw,relatime shared:13 - "
				 "cgroup cgroup rw,memory";
	static const char ns[] = "50 40 0:26 /machine/c1 /sys/fs/cgroup\\040x rw - cgroup2 none rw";

	CHECK_INT_EQ(psi_parse_mountinfo_line(hybrid, strlen(hybrid), mnt, root, sizeof(mnt)), 1);
	CHECK_STR_EQ(mnt, "/sys/fs/cgroup/unified");
	CHECK_STR_EQ(root, "/");
	/* Optional fields before the separator. */
	CHECK_INT_EQ(psi_parse_mountinfo_line(systemd, strlen(systemd), mnt, root, sizeof(mnt)), 1);
	CHECK_STR_EQ(mnt, "/sys/fs/cgroup");
	CHECK_INT_EQ(psi_parse_mountinfo_line(v1, strlen(v1), mnt, root, sizeof(mnt)), 0);
	/* A sub-tree mounted (a cgroup namespace), a blank escaped. */
	CHECK_INT_EQ(psi_parse_mountinfo_line(ns, strlen(ns), mnt, root, sizeof(mnt)), 1);
	CHECK_STR_EQ(mnt, "/sys/fs/cgroup x");
	CHECK_STR_EQ(root, "/machine/c1");
	/* Too long for the buffer, no separator, a bad escape. */
	CHECK_INT_EQ(psi_parse_mountinfo_line(hybrid, strlen(hybrid), mnt, root, 8), -1);
	CHECK_INT_EQ(psi_parse_mountinfo_line("41 31 0:38 / /x rw cgroup2", 26, mnt, root, 64), -1);
	CHECK_INT_EQ(
	    psi_parse_mountinfo_line("1 2 0:3 / /a\\04 rw - cgroup2 c rw", 33, mnt, root, 64), -1);
	CHECK_INT_EQ(psi_parse_mountinfo_line("", 0, mnt, root, 64), -1);
}

static void test_parse_cgroup(void)
{
	/* This project's hybrid host, then a systemd host's single line. */
	static const char hybrid[] = "10:hugetlb:/\n4:memory:/process_api/2f05\n1:cpu:/\n0::/\n";
	static const char unified[] = "0::/user.slice/user-0.slice/session-3.scope\n";
	char path[64];

	CHECK_INT_EQ(psi_parse_cgroup(hybrid, strlen(hybrid), path, sizeof(path)), 0);
	CHECK_STR_EQ(path, "/");
	CHECK_INT_EQ(psi_parse_cgroup(unified, strlen(unified), path, sizeof(path)), 0);
	CHECK_STR_EQ(path, "/user.slice/user-0.slice/session-3.scope");
	/* Without its newline (a short read). */
	CHECK_INT_EQ(psi_parse_cgroup(unified, strlen(unified) - 1, path, sizeof(path)), 0);
	CHECK_STR_EQ(path, "/user.slice/user-0.slice/session-3.scope");
	CHECK_INT_EQ(psi_parse_cgroup(unified, strlen(unified), path, 10), -1);
	CHECK_INT_EQ(psi_parse_cgroup("4:memory:/x\n", 12, path, sizeof(path)), -1);
	CHECK_INT_EQ(psi_parse_cgroup("", 0, path, sizeof(path)), -1);
}

/* Spins on the CPU for ms milliseconds (thread CPU time). */
static void spin_ms(long ms)
{
	struct timespec t;

	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	while (t.tv_sec * 1000 + t.tv_nsec / 1000000 < ms);
}

/*
 * In a child (the cgroup moves the calling process): makes the cgroup, has two CPU-bound
 * children pinned to one CPU wait for each other (a stall that must be counted), closes it.
 * Exit 0 when it all held, 77 when the host has no cgroup2 or PSI, else the step that failed.
 */
static int psi_child(void)
{
	struct psi_cgroup c;
	char dir[PSI_PATH_MAX];
	uint64_t a = 0, b = 0;
	cpu_set_t one;
	pid_t k[2];
	int err = psi_open(&c, getpid()), st;
	struct stat sb;

	if (err == ENOENT)
		return 77;
	if (err != 0 || c.pressure_fd < 0 || stat(c.dir, &sb) != 0)
		return 1;
	if (psi_read_ns(&c, &a) != 0)
		return 2;
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	for (int i = 0; i < 2; i++) {
		k[i] = fork();
		if (k[i] == 0) {
			sched_setaffinity(0, sizeof(one), &one);
			spin_ms(60);
			_exit(0);
		}
	}
	for (int i = 0; i < 2; i++)
		waitpid(k[i], &st, 0);
	if (psi_read_ns(&c, &b) != 0)
		return 3;
	/* Two tasks on one CPU for 120 ms of CPU: one waited about 60 ms. */
	if (b - a < 20000000ull)
		return 4;
	memcpy(dir, c.dir, sizeof(dir));
	psi_close(&c);
	if (stat(dir, &sb) == 0 || errno != ENOENT)
		return 5;
	return 0;
}

static void test_cgroup_stall(void)
{
	pid_t pid;
	int st = 0;

	if (geteuid() != 0) {
		fprintf(stderr, "  skipped: not root, no cgroup of its own\n");
		return;
	}
	pid = fork();
	if (pid == 0)
		_exit(psi_child());
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 77) {
		fprintf(stderr, "  skipped: no cgroup2 mount with cpu.pressure\n");
		return;
	}
	CHECK_INT_EQ(WIFEXITED(st) ? WEXITSTATUS(st) : 100 + WTERMSIG(st), 0);
}

int main(void)
{
	RUN(test_parse_pressure);
	RUN(test_parse_mountinfo);
	RUN(test_parse_cgroup);
	RUN(test_cgroup_stall);
	return HARNESS_EXIT();
}
