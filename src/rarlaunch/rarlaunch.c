/*
 * rarlaunch: the process rarbench's measured runs start from (src/bench/launchproto.h).
 *
 *   rarlaunch FD PPID host|loopback
 *   rarlaunch --exec HEX...
 *
 * The second form is a traced run's first program (src/bench/proc.h, proc_cmd_exec_argv): root's
 * strace runs it with root's own limits and working directory; it applies the run's (the
 * request HEX spells: limits, umask, cwd, CPUs, identity) to itself alone and execs the
 * program, so the manifest's pin reaches the traced program and never the tracer (issue 52,
 * finding 5: strace with the manifest's "core" and "fsize" limits dumped a root core file into
 * the manifest's cwd).
 *
 * Started by rarbench (never by hand) with a SOCK_SEQPACKET socket on FD. It dies with PPID
 * (parent-death signal) or when the socket closes. With "loopback" it first moves into a
 * network namespace of its own holding only a loopback interface, up: every run it starts
 * then sees the same network whatever the host has (sudo lists every interface at start).
 * It answers one hello, then each run request with one reply: the wall time from just before
 * its vfork to just after the child exited, the child's wait for a CPU (schedwait.h, read
 * from the zombie after the clock) and wait4's counters of that child.
 *
 * MUST invariants (as src/bench/proc.h had them for rarbench's own spawn):
 *  - nothing is allocated, printed or formatted between the two clock reads;
 *  - the child is made with clone(CLONE_VM|CLONE_VFORK) on a static stack and only makes
 *    async-signal-safe calls and raw credential syscalls before execve;
 *  - the command gets stdin, stdout and stderr and no other descriptor (close_range);
 *  - this program stays small (static, no heap): a child's peak RSS at exec starts from this
 *    address space's high-water mark, which its wait4 maxrss then reports as a
 *    floor (about 700 KiB, what a minimal static program holds; a dynamic /usr/bin/true holds
 *    1 MiB).
 */
#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "launchproto.h"
#include "numarg.h"
#include "schedwait.h"

#define LAUNCH_CHILD_STACK_BYTES (64 * 1024)
/* Descriptors the child closes one by one when the kernel lacks close_range (before 5.9). */
#define LAUNCH_CLOSE_LOOP_MAX (1u << 20)

/* The signals this process ignores (rarbench decides) and every child gets back as default. */
static const int launch_ignored[] = {SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE};

static unsigned char req_buf[LAUNCH_REQ_MAX_BYTES] __attribute__((aligned(16)));
static char *strv[LAUNCH_STRV_MAX + 2];
static char child_stack[LAUNCH_CHILD_STACK_BYTES] __attribute__((aligned(16)));

struct launch_child {
	const struct launch_job *job;
	int fds[LAUNCH_FDS_MAX]; /* in, out, err, mntns: -1 when absent */
	volatile int exec_errno; /* written by the child before _exit when it cannot exec */
};

static int launch_child_close_fds(void)
{
	struct {
		uint64_t cur, max;
	} lim;
	uint64_t hi = LAUNCH_CLOSE_LOOP_MAX;

#ifdef SYS_close_range
	if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0)
		return 0;
	if (errno != ENOSYS)
		return -1;
#endif
	if (syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, NULL, &lim) == 0 && lim.cur < hi)
		hi = lim.cur;
	for (uint64_t fd = 3; fd < hi; fd++)
		close((int)fd);
	return 0;
}

/* The pin with raw syscalls, before the identity switch (a hard limit above ours needs root). */
static int launch_child_pin(const struct launch_job *job)
{
	for (size_t i = 0; i < job->nlimits; i++) {
		struct {
			uint64_t cur, max;
		} lim = {job->limits[i].soft, job->limits[i].hard};

		if (syscall(SYS_prlimit64, 0, job->limits[i].resource, &lim, NULL) != 0)
			return -1;
	}
	if (job->umask >= 0)
		syscall(SYS_umask, job->umask);
	if (job->cwd != NULL && syscall(SYS_chdir, job->cwd) != 0)
		return -1;
	if (job->cpus != NULL &&
	    syscall(SYS_sched_setaffinity, 0, sizeof(cpu_set_t), job->cpus) != 0)
		return -1;
	return 0;
}

/*
 * The child of clone(CLONE_VM|CLONE_VFORK): this address space until execve. Order: default
 * signal dispositions, dup2 the standard descriptors, its own process group (with a deadline),
 * the mount namespace, close 3 and up, the pin, the identity, execve.
 */
static int launch_child(void *arg)
{
	struct launch_child *c = arg;
	const struct launch_job *job = c->job;
	struct sigaction dfl;

	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (size_t i = 0; i < sizeof(launch_ignored) / sizeof(launch_ignored[0]); i++)
		sigaction(launch_ignored[i], &dfl, NULL);
	for (int fd = 0; fd < 3; fd++)
		if (c->fds[fd] >= 0 && dup2(c->fds[fd], fd) < 0)
			goto fail;
	if (job->timeout_ms > 0 && syscall(SYS_setpgid, 0, 0) != 0)
		goto fail;
	if (c->fds[3] >= 0 && syscall(SYS_setns, c->fds[3], CLONE_NEWNS) != 0)
		goto fail;
	if (launch_child_close_fds() != 0)
		goto fail;
	if ((job->flags & LAUNCH_F_PIN) && launch_child_pin(job) != 0)
		goto fail;
	if (job->flags & LAUNCH_F_USER) {
		if (syscall(SYS_setgroups, job->n_groups, job->groups) != 0)
			goto fail;
		if (syscall(SYS_setresgid, job->gid, job->gid, job->gid) != 0)
			goto fail;
		if (syscall(SYS_setresuid, job->uid, job->uid, job->uid) != 0)
			goto fail;
	}
	execve(job->path, job->argv, job->envp);
fail:
	c->exec_errno = errno != 0 ? errno : EIO;
	_exit(127);
}

static uint64_t ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000ULL + (uint64_t)ts->tv_nsec;
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ULL + (uint64_t)tv->tv_usec * 1000ULL;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts_ns(&ts);
}

/*
 * Waits on the child's pidfd until it exits, the deadline passes or rarbench sends anything
 * (a LAUNCH_STOP); in the last two cases kills the child's group. One poll for a normal run.
 */
static void wait_deadline(int sock, const struct launch_job *job, pid_t pid, int pidfd,
			  uint64_t t0_ns, struct launch_reply *r)
{
	uint64_t deadline = t0_ns + (uint64_t)job->timeout_ms * 1000000ULL, now;
	struct pollfd pfd[2] = {{.fd = pidfd, .events = POLLIN}, {.fd = sock, .events = POLLIN}};
	int wait_ms = job->timeout_ms > 0 ? (int)job->timeout_ms : -1;
	unsigned char drop[64];

	for (;;) {
		int pr = poll(pfd, 2, wait_ms);

		if (pr > 0 && (pfd[0].revents & POLLIN))
			return;
		if (pr > 0 && pfd[1].revents != 0) {
			/* A stop, or rarbench gone (EOF): either way the run ends now. */
			if (recv(sock, drop, sizeof(drop), MSG_DONTWAIT) < 0 && errno == EAGAIN)
				continue;
			r->flags |= LAUNCH_R_STOPPED;
			break;
		}
		if (job->timeout_ms == 0)
			continue;
		now = now_ns();
		if (now >= deadline) {
			r->flags |= LAUNCH_R_TIMED_OUT;
			break;
		}
		wait_ms = (int)((deadline - now + 999999ULL) / 1000000ULL);
	}
	/* SIGKILL ends a stopped process too. The group first: the child may be gone already. */
	if (job->timeout_ms > 0)
		kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
}

/* One run of job with the received descriptors; fills r (everything but magic and seq). */
static void run_job(int sock, const struct launch_job *job, const int *fds, size_t nfds,
		    struct launch_reply *r)
{
	static const uint32_t fd_flags[LAUNCH_FDS_MAX] = {LAUNCH_F_IN, LAUNCH_F_OUT, LAUNCH_F_ERR,
							  LAUNCH_F_MNTNS};
	struct launch_child c = {.job = job, .fds = {-1, -1, -1, -1}};
	struct timespec t0, t1;
	struct rusage ru;
	uint64_t delay = 0;
	bool stall = false;
	siginfo_t exited;
	int status = 0, pidfd = -1;
	size_t k = 0;
	pid_t pid, w;

	for (size_t i = 0; i < LAUNCH_FDS_MAX && k < nfds; i++)
		if (job->flags & fd_flags[i])
			c.fds[i] = fds[k++];
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = clone(launch_child, child_stack + sizeof(child_stack),
		    CLONE_VM | CLONE_VFORK | CLONE_PIDFD | SIGCHLD, &c, &pidfd, NULL, NULL);
	if (pid < 0) {
		r->flags |= LAUNCH_R_SPAWN_FAILED;
		r->err = errno;
		return;
	}
	r->pid = (uint32_t)pid;
	wait_deadline(sock, job, pid, pidfd, ts_ns(&t0), r);
	/* Exited, not yet reaped: the clock first, then its scheduler account (a zombie keeps it),
	 * then wait4. */
	while (waitid(P_PID, (id_t)pid, &exited, WEXITED | WNOWAIT) != 0 && errno == EINTR)
		;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	stall = schedwait_read(pid, &delay) == 0;
	do
		w = wait4(pid, &status, 0, &ru);
	while (w < 0 && errno == EINTR);
	/* What the group did not hold dies too; in a group, nothing of it outlives the run. */
	if ((r->flags & (LAUNCH_R_TIMED_OUT | LAUNCH_R_STOPPED)) && job->timeout_ms > 0)
		kill(-pid, SIGKILL);
	close(pidfd);
	if (w < 0) {
		r->flags |= LAUNCH_R_SPAWN_FAILED;
		r->err = errno;
		return;
	}
	if (c.exec_errno != 0) {
		r->flags |= LAUNCH_R_EXEC_FAILED;
		r->err = c.exec_errno;
	}
	r->status = status;
	r->wall_ns = ts_ns(&t1) - ts_ns(&t0);
	r->user_ns = tv_ns(&ru.ru_utime);
	r->system_ns = tv_ns(&ru.ru_stime);
	r->minflt = (uint64_t)ru.ru_minflt;
	r->majflt = (uint64_t)ru.ru_majflt;
	r->maxrss_kib = (uint64_t)ru.ru_maxrss;
	r->inblock = (uint64_t)ru.ru_inblock;
	r->nvcsw = (uint64_t)ru.ru_nvcsw;
	r->nivcsw = (uint64_t)ru.ru_nivcsw;
	if (stall) {
		/* Bounded by the window (the child's first wait may begin a little before t0). */
		r->flags |= LAUNCH_R_STALL;
		r->stall_ns = delay < r->wall_ns ? delay : r->wall_ns;
	}
}

/* A network namespace of our own with only lo, up. 0, or an errno. */
static int pin_network(void)
{
	struct ifreq ifr;
	int fd, err = 0;

	if (unshare(CLONE_NEWNET) != 0)
		return errno;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return errno;
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, "lo", 3);
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) != 0)
		err = errno;
	ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
	if (err == 0 && ioctl(fd, SIOCSIFFLAGS, &ifr) != 0)
		err = errno;
	close(fd);
	return err;
}

static int send_reply(int sock, const struct launch_reply *r)
{
	return send(sock, r, sizeof(*r), MSG_NOSIGNAL) == (ssize_t)sizeof(*r) ? 0 : -1;
}

/* Receives one message and its descriptors (close-on-exec). Its length, 0 at EOF, -1. */
static ssize_t recv_req(int sock, int *fds, size_t *nfds)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(LAUNCH_FDS_MAX * sizeof(int))];
	} ctl;
	struct iovec iov = {.iov_base = req_buf, .iov_len = sizeof(req_buf)};
	struct msghdr mh = {.msg_iov = &iov,
			    .msg_iovlen = 1,
			    .msg_control = ctl.buf,
			    .msg_controllen = sizeof(ctl.buf)};
	ssize_t n;

	*nfds = 0;
	do
		n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); n >= 0 && c != NULL; c = CMSG_NXTHDR(&mh, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		for (size_t i = 0; i < (c->cmsg_len - CMSG_LEN(0)) / sizeof(int); i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
			if (*nfds < LAUNCH_FDS_MAX)
				fds[(*nfds)++] = fd;
			else
				close(fd);
		}
	}
	if (n > 0 && (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)))
		n = (ssize_t)sizeof(req_buf) + 1; /* refused by the parser */
	return n;
}

static int serve(int sock);

/* A hex digit's value, -1 for any other byte. */
static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* One line "rarlaunch --exec: WHAT failed (errno N)" on stderr, no stdio; returns 127. */
static int exec_fail(const char *what, int err)
{
	char line[160], num[12];
	size_t len = 0, n = sizeof(num);
	unsigned v = err > 0 ? (unsigned)err : 0;
	const char *parts[4] = {"rarlaunch --exec: ", what, " failed (errno ", NULL};

	do
		num[--n] = (char)('0' + v % 10);
	while ((v /= 10) != 0 && n > 0);
	for (size_t i = 0; i < 3; i++)
		for (const char *p = parts[i]; *p != '\0' && len < sizeof(line) - sizeof(num) - 3;
		     p++)
			line[len++] = *p;
	memcpy(line + len, num + n, sizeof(num) - n);
	len += sizeof(num) - n;
	line[len++] = ')';
	line[len++] = '\n';
	if (write(STDERR_FILENO, line, len) < 0)
		return 127;
	return 127;
}

/*
 * rarlaunch --exec HEX...: the request the HEX strings spell together (launchproto.h, built by
 * proc_cmd_exec_argv; no descriptors) applied to this process, in the order a run's child
 * applies it (the pin, then the identity), then its program executed with its environment.
 * Returns only when that fails: 127, after one line on stderr (the traced run's message).
 */
static int exec_mode(int n, char **hex)
{
	struct launch_job job;
	struct errbuf eb;
	size_t len = 0;

	for (int i = 0; i < n; i++) {
		for (const char *s = hex[i]; *s != '\0'; s += 2) {
			int hi = hex_value(s[0]), lo = hi < 0 ? -1 : hex_value(s[1]);

			if (lo < 0 || len >= sizeof(req_buf))
				return exec_fail("reading the request", EPROTO);
			req_buf[len++] = (unsigned char)(hi << 4 | lo);
		}
	}
	if (launch_req_parse(req_buf, len, 0, &job, strv, &eb) != 0)
		return exec_fail("parsing the request", EPROTO);
	if ((job.flags & LAUNCH_F_PIN) && launch_child_pin(&job) != 0)
		return exec_fail("the pin (limits, umask, cwd, CPUs)", errno);
	if (job.flags & LAUNCH_F_USER) {
		if (syscall(SYS_setgroups, job.n_groups, job.groups) != 0 ||
		    syscall(SYS_setresgid, job.gid, job.gid, job.gid) != 0 ||
		    syscall(SYS_setresuid, job.uid, job.uid, job.uid) != 0)
			return exec_fail("the identity switch", errno);
	}
	execve(job.path, job.argv, job.envp);
	return exec_fail("execve", errno);
}

/* Writes a constant text to fd: no stdio, so that this address space stays a small floor. */
static int say(int fd, const char *text, int status)
{
	size_t len = strlen(text);

	return write(fd, text, len) == (ssize_t)len ? status : 1;
}

/* --help, --version, and one line for anything else that is not rarbench's call. */
static int by_hand(int argc, char **argv)
{
	static const char usage[] =
	    "usage: rarlaunch FD PPID host|loopback   (started by rarbench, not by hand)\n"
	    "       rarlaunch --exec HEX...           (a traced run's first program)\n"
	    "The process rarbench's measured runs start from: it answers run requests on the\n"
	    "socket FD until it closes, and dies with PPID; with loopback its runs see a network\n"
	    "namespace holding only lo. See src/rarlaunch/README.md.\n"
	    "  -h, --help     this help\n"
	    "  -V, --version  the version\n"
	    "Exit status: 0 the socket closed, 1 it failed, 2 usage error.\n";

	if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0))
		return say(STDOUT_FILENO, usage, 0);
	if (argc == 2 && (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0))
		return say(STDOUT_FILENO,
			   "rarlaunch " RARPERF_VERSION " (" RARPERF_GIT_COMMIT ")\n", 0);
	return say(STDERR_FILENO,
		   "rarlaunch: started by rarbench as rarlaunch FD PPID host|loopback, not by "
		   "hand (see rarlaunch --help)\n",
		   2);
}

int main(int argc, char **argv)
{
	struct launch_reply r;
	struct sigaction ign;
	const char *end;
	int64_t sock, ppid;
	uint64_t own_delay;

	if (argc >= 3 && strcmp(argv[1], "--exec") == 0)
		return exec_mode(argc - 2, argv + 2);
	if (argc != 4)
		return by_hand(argc, argv);
	if (numarg_i64_prefix(argv[1], 10, &sock, &end) == NUMARG_NOT_NUMBER || *end != '\0' ||
	    sock < 3 || sock > 1023)
		return by_hand(argc, argv);
	if (numarg_i64_prefix(argv[2], 10, &ppid, &end) == NUMARG_NOT_NUMBER || *end != '\0' ||
	    ppid <= 0)
		return by_hand(argc, argv);
	if (strcmp(argv[3], "host") != 0 && strcmp(argv[3], "loopback") != 0)
		return by_hand(argc, argv);
	/* Dies with rarbench; a rarbench that died before this line is not our parent any more. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != (pid_t)ppid)
		return 1;
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	for (size_t i = 0; i < sizeof(launch_ignored) / sizeof(launch_ignored[0]); i++)
		sigaction(launch_ignored[i], &ign, NULL);
	memset(&r, 0, sizeof(r));
	r.magic = LAUNCH_HELLO_MAGIC;
	r.version = LAUNCH_PROTO_VERSION;
	r.pid = (uint32_t)getpid();
	if (strcmp(argv[3], "loopback") == 0)
		r.err = pin_network();
	/* Whether the kernel keeps each task's wait for a CPU (CONFIG_SCHED_INFO). */
	r.stall_err = schedwait_read(getpid(), &own_delay);
	if (r.stall_err == 0)
		r.flags |= LAUNCH_R_STALL;
	return send_reply((int)sock, &r) != 0 ? 1 : serve((int)sock);
}

/* Answers run requests until the socket closes: 0, or 1 when it fails. */
static int serve(int sock)
{
	struct launch_reply r;

	for (;;) {
		struct launch_job job;
		struct errbuf eb;
		int fds[LAUNCH_FDS_MAX];
		size_t nfds;
		ssize_t n = recv_req((int)sock, fds, &nfds);

		if (n <= 0)
			return n == 0 ? 0 : 1;
		memset(&r, 0, sizeof(r));
		r.magic = LAUNCH_REPLY_MAGIC;
		r.version = LAUNCH_PROTO_VERSION;
		if (launch_req_parse(req_buf, (size_t)n, nfds, &job, strv, &eb) == 0) {
			r.seq = job.seq;
			run_job((int)sock, &job, fds, nfds, &r);
		} else if ((size_t)n >= 2 * sizeof(uint32_t) &&
			   ((const uint32_t *)(const void *)req_buf)[1] == LAUNCH_STOP) {
			/* A stop that crossed the reply of the run it meant: nothing runs. */
			for (size_t i = 0; i < nfds; i++)
				close(fds[i]);
			continue;
		} else {
			r.flags = LAUNCH_R_SPAWN_FAILED;
			r.err = EPROTO;
			if ((size_t)n >= 3 * sizeof(uint32_t))
				memcpy(&r.seq, req_buf + 2 * sizeof(uint32_t), sizeof(r.seq));
		}
		for (size_t i = 0; i < nfds; i++)
			close(fds[i]);
		if (send_reply((int)sock, &r) != 0)
			return 1;
	}
}
