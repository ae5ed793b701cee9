/* Tests for schedwait: /proc/PID/schedstat parsing (the kernel's real format), and a real
 * process's wait for a CPU: read from its zombie, it counts the time it shared a CPU with a
 * busy loop, whatever else the host runs. */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "schedwait.h"

static void test_parse(void)
{
	/* As Linux 6.x prints it: on-CPU ns, run delay ns, timeslices. */
	static const char real[] = "133885 1702843 2\n";
	uint64_t d = 7;

	CHECK_INT_EQ(schedwait_parse(real, strlen(real), &d), 0);
	CHECK(d == 1702843);
	/* Without its newline (a short read). */
	CHECK_INT_EQ(schedwait_parse(real, strlen(real) - 1, &d), 0);
	CHECK(d == 1702843);
	CHECK_INT_EQ(schedwait_parse("0 18446744073709551615 1\n", 25, &d), 0);
	CHECK(d == UINT64_MAX);
	/* Two numbers, four, a sign, a second space, overflow, trailing bytes, nothing. */
	CHECK_INT_EQ(schedwait_parse("1 2\n", 4, &d), -1);
	CHECK_INT_EQ(schedwait_parse("1 2 3 4\n", 8, &d), -1);
	CHECK_INT_EQ(schedwait_parse("1 -2 3\n", 7, &d), -1);
	CHECK_INT_EQ(schedwait_parse("1  2 3\n", 7, &d), -1);
	CHECK_INT_EQ(schedwait_parse("1 18446744073709551616 3\n", 25, &d), -1);
	CHECK_INT_EQ(schedwait_parse("1 2 3\nx", 7, &d), -1);
	CHECK_INT_EQ(schedwait_parse("", 0, &d), -1);
}

/* Spins on the CPU for ms milliseconds of this thread's CPU time. */
static void spin_ms(long ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000L + (t.tv_nsec - t0.tv_nsec) / 1000000L < ms);
}

/* A child pinned to cpu that spins for ms of CPU time (then exits), or forever (ms < 0). */
static pid_t spin_on(int cpu, long ms)
{
	cpu_set_t one;
	pid_t pid = fork();

	if (pid == 0) {
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		sched_setaffinity(0, sizeof(one), &one);
		if (ms < 0)
			for (;;)
				spin_ms(1000);
		spin_ms(ms);
		_exit(0);
	}
	return pid;
}

/* The run delay of pid, read once it has exited and before it is reaped. */
static int delay_of_zombie(pid_t pid, uint64_t *ns)
{
	siginfo_t si;
	int err, st;

	while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) != 0)
		if (errno != EINTR)
			return errno;
	err = schedwait_read(pid, ns);
	waitpid(pid, &st, 0);
	return err;
}

static void test_real_wait(void)
{
	uint64_t alone = 0, beside = 0;
	pid_t hog, k;

	if (schedwait_read(getpid(), &alone) == ENOENT) {
		fprintf(stderr, "  skipped: no /proc/self/schedstat (CONFIG_SCHED_INFO)\n");
		return;
	}
	/* A task that spins 40 ms of CPU on the CPU a busy loop holds waits about as long. */
	hog = spin_on(0, -1);
	CHECK(hog > 0);
	k = spin_on(0, 40);
	CHECK_INT_EQ(delay_of_zombie(k, &beside), 0);
	kill(hog, SIGKILL);
	waitpid(hog, NULL, 0);
	CHECK(beside >= 10000000ull);
	/* A process that sleeps does not wait for a CPU while asleep: its delay is below the sleep
	 * even on a busy host (the wake-up may wait a time slice, not 200 ms). */
	k = fork();
	if (k == 0) {
		struct timespec ts = {0, 200000000L};

		nanosleep(&ts, NULL);
		_exit(0);
	}
	CHECK_INT_EQ(delay_of_zombie(k, &alone), 0);
	CHECK(alone < 100000000ull);
	/* A reaped process has no account left. */
	CHECK_INT_EQ(schedwait_read(k, &alone), ENOENT);
	CHECK_INT_EQ(schedwait_read(0, &alone), ESRCH);
}

int main(void)
{
	RUN(test_parse);
	RUN(test_real_wait);
	return HARNESS_EXIT();
}
