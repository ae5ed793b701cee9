/* proc_launch: runs a prepared command from rarlaunch and reads its reply (launchproto.h). */
/*
 * Design. One rarlaunch per network view (PROC_NET_HOST, PROC_NET_LOOPBACK), started on the
 * first run that needs it (posix_spawn: rarlaunch's socket on descriptor 3, the parent's pid,
 * the view) and kept until proc_launchers_stop, its death, or a wrong answer. States of one:
 * absent (pid 0) -> running (pid, sock, seq) -> absent. A run: seq+1, one sendmsg of the
 * command's prebuilt request with its descriptors, then poll on the socket:
 *  - a reply: parsed (exact size, magic, seq, flags), copied into the sample;
 *  - a signal with *stop set: a LAUNCH_STOP message; rarlaunch kills the run and replies;
 *  - no reply by timeout_ms + PROC_LAUNCH_GRACE_MS (or the grace after a stop): rarlaunch is
 *    held (a child stopped before its exec holds its vfork) or broken. It is stopped, its
 *    children and their groups killed, then it is killed and reaped; the sample says
 *    launcher_killed. Without a timeout and a stop the wait has no bound, as hyperfine's.
 */
#include "proc_impl.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"

/* How long rarlaunch may take to say hello (start, network namespace). */
#define PROC_LAUNCH_HELLO_MS 10000
#define PROC_LAUNCH_FD 3

struct proc_launcher {
	pid_t pid;   /* 0: not running */
	pid_t owner; /* the process that started it (a fork of it starts its own) */
	int sock;
	uint32_t seq;
	int stall_err; /* from the hello: 0 when its runs' CPU stall is known (schedwait.h), an
			  errno */
};

static struct proc_launcher launchers[2] = {{0, 0, -1, 0, 0}, {0, 0, -1, 0, 0}};
static char launcher_path[PATH_MAX];
static bool atexit_set;

int proc_set_launcher(const char *path, struct errbuf *eb)
{
	struct stat st;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || access(path, X_OK) != 0)
		return errbuf_set_errno(eb, errno != 0 ? errno : EACCES, "rarlaunch %s", path);
	if (realpath(path, launcher_path) == NULL)
		return errbuf_set_errno(eb, errno, "rarlaunch %s", path);
	return 0;
}

/* rarlaunch beside this executable, unless proc_set_launcher named one (proc_impl.h). */
const char *proc_launcher_path(struct errbuf *eb)
{
	char self[PATH_MAX], *slash;
	ssize_t n;

	if (launcher_path[0] != '\0')
		return launcher_path;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0 || (size_t)n >= sizeof(self) - 1) {
		errbuf_set_errno(eb, n < 0 ? errno : ENAMETOOLONG, "/proc/self/exe");
		return NULL;
	}
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (slash == NULL) {
		errbuf_set(eb, "/proc/self/exe: %s is not a path", self);
		return NULL;
	}
	*slash = '\0';
	if (fileio_fmt(launcher_path, sizeof(launcher_path), "%s/rarlaunch", self) < 0) {
		launcher_path[0] = '\0';
		errbuf_set(eb, "%s/rarlaunch: path too long", self);
		return NULL;
	}
	if (access(launcher_path, X_OK) != 0) {
		errbuf_set_errno(eb, errno, "%s (rarlaunch, built by make beside rarbench)",
				 launcher_path);
		launcher_path[0] = '\0';
		return NULL;
	}
	return launcher_path;
}

pid_t proc_launcher_pid(enum proc_net net)
{
	return launchers[net == PROC_NET_LOOPBACK].pid;
}

static int proc_launcher_start(struct proc_launcher *l, enum proc_net net, struct errbuf *eb);

int proc_launcher_stall(enum proc_net net, struct errbuf *eb)
{
	struct proc_launcher *l = &launchers[net == PROC_NET_LOOPBACK];

	if (l->pid > 0 && l->owner != getpid()) {
		close(l->sock);
		l->pid = 0;
		l->sock = -1;
	}
	if (l->pid <= 0 && proc_launcher_start(l, net, eb) < 0)
		return -1;
	return l->stall_err;
}

uint64_t proc_cmd_floor_kib(const struct proc_cmd *cmd)
{
	pid_t pid = proc_launcher_pid(cmd->net);
	char path[64], line[128];
	uint64_t kib = 0;
	FILE *f;

	if (pid <= 0 || fileio_fmt(path, sizeof(path), "/proc/%ld/status", (long)pid) < 0)
		return 0;
	f = fopen(path, "re");
	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "VmHWM: %" SCNu64, &kib) == 1)
			break;
	if (f != NULL)
		fclose(f);
	return kib;
}

/* Ends l: closes its socket (it exits at EOF), kills it and reaps it. */
/* How long (ms) a rarlaunch whose socket closed may take to leave before it is killed. */
#define PROC_LAUNCH_END_MS 1000

static void proc_launcher_end(struct proc_launcher *l, bool hard)
{
	int status;

	if (l->pid <= 0)
		return;
	if (l->owner != getpid()) {
		close(l->sock);
		l->pid = 0;
		l->sock = -1;
		return;
	}
	if (hard) {
		/* Stopped first, it reaps nothing while its children are looked for and killed. */
		kill(l->pid, SIGSTOP);
		proc_kill_children_of(l->pid);
	}
	close(l->sock);
	/* Not hard: it sees the socket close and leaves; killed only when it does not within the
	 * bound. */
	for (int i = 0; !hard && i < PROC_LAUNCH_END_MS; i++) {
		pid_t w = waitpid(l->pid, &status, WNOHANG);

		if (w == l->pid || (w < 0 && errno != EINTR))
			goto out;
		nanosleep(&(struct timespec){0, 1000000L}, NULL);
	}
	kill(l->pid, SIGKILL);
	while (waitpid(l->pid, &status, 0) < 0 && errno == EINTR)
		;
out:
	l->pid = 0;
	l->sock = -1;
}

void proc_launchers_stop(void)
{
	for (size_t i = 0; i < 2; i++)
		proc_launcher_end(&launchers[i], false);
}

/* Waits up to ms (< 0: no bound) for the socket to be readable. 1, 0 (time passed), -1. */
static int proc_poll_sock(int sock, int ms)
{
	struct pollfd pfd = {.fd = sock, .events = POLLIN};
	int pr = poll(&pfd, 1, ms);

	return pr > 0 ? 1 : pr;
}

/* Reads one message of at most one reply and a byte (so a longer one shows). Its length, -1. */
static ssize_t proc_recv_reply(int sock, unsigned char *buf, size_t len)
{
	return recv(sock, buf, len, MSG_DONTWAIT | MSG_TRUNC);
}

/* Starts rarlaunch for net into l and reads its hello. 0, or -1 (eb; nothing left running). */
static int proc_launcher_start(struct proc_launcher *l, enum proc_net net, struct errbuf *eb)
{
	const char *path = proc_launcher_path(eb);
	char fd_arg[16], ppid_arg[24];
	char *argv[] = {(char *)"rarlaunch", fd_arg, ppid_arg,
			(char *)(net == PROC_NET_LOOPBACK ? "loopback" : "host"), NULL};
	char *envp[] = {NULL};
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	unsigned char buf[sizeof(struct launch_reply) + 1];
	struct launch_reply hello;
	sigset_t none;
	int sv[2] = {-1, -1}, rc;
	ssize_t n;
	pid_t pid;

	if (path == NULL)
		return -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
		return errbuf_set_errno(eb, errno, "rarlaunch: socketpair");
	snprintf(fd_arg, sizeof(fd_arg), "%d", PROC_LAUNCH_FD);
	snprintf(ppid_arg, sizeof(ppid_arg), "%ld", (long)getpid());
	sigemptyset(&none);
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	/* dup2 onto 3 clears close-on-exec (glibc also when sv[1] is 3 already). */
	posix_spawn_file_actions_adddup2(&fa, sv[1], PROC_LAUNCH_FD);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK);
	rc = posix_spawn(&pid, path, &fa, &at, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	close(sv[1]);
	if (rc != 0) {
		close(sv[0]);
		return errbuf_set_errno(eb, rc, "cannot start %s", path);
	}
	l->pid = pid;
	l->owner = getpid();
	l->sock = sv[0];
	/* At exit it ends cleanly (its cgroup removed); a rarbench killed leaves the cgroup to
	 * the next start. */
	if (!atexit_set && atexit(proc_launchers_stop) == 0)
		atexit_set = true;
	l->seq = 0;
	if (proc_poll_sock(l->sock, PROC_LAUNCH_HELLO_MS) != 1) {
		errbuf_set(eb, "%s did not start", path);
		goto fail;
	}
	n = proc_recv_reply(l->sock, buf, sizeof(buf));
	if (n <= 0) {
		errbuf_set(eb, "%s exited at start", path);
		goto fail;
	}
	if (launch_reply_parse(buf, (size_t)n, LAUNCH_HELLO_MAGIC, 0, &hello, eb) < 0) {
		errbuf_prefix(eb, "%s", path);
		goto fail;
	}
	if (hello.err != 0) {
		errbuf_set_errno(eb, hello.err,
				 "%s: a network namespace with only the loopback interface", path);
		goto fail;
	}
	l->stall_err = (hello.flags & LAUNCH_R_STALL) ? 0
		       : hello.stall_err != 0         ? hello.stall_err
						      : ENOENT;
	return 0;
fail:
	proc_launcher_end(l, true);
	return -1;
}

/* Sends cmd's request (seq set) with its descriptors. 0 or -1 (errno). */
static int proc_send_req(struct proc_launcher *l, const struct proc_cmd *cmd)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(LAUNCH_FDS_MAX * sizeof(int))];
	} ctl;
	struct iovec iov = {.iov_base = cmd->req, .iov_len = cmd->req_len};
	struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};
	ssize_t n;

	if (cmd->nfds > 0) {
		struct cmsghdr *c;

		memset(&ctl, 0, sizeof(ctl));
		mh.msg_control = ctl.buf;
		mh.msg_controllen = CMSG_SPACE(cmd->nfds * sizeof(int));
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(cmd->nfds * sizeof(int));
		memcpy(CMSG_DATA(c), cmd->fds, cmd->nfds * sizeof(int));
	}
	do
		n = sendmsg(l->sock, &mh, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)cmd->req_len ? 0 : -1;
}

static void proc_send_stop(struct proc_launcher *l)
{
	uint32_t stop[3] = {LAUNCH_REQ_MAGIC, LAUNCH_STOP, l->seq};

	if (send(l->sock, stop, sizeof(stop), MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
		/* rarlaunch gone: the poll sees its EOF */
	}
}

static uint64_t proc_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* How a wait for rarlaunch's reply ended (proc_await). */
enum proc_answer {
	PROC_ANSWER_LOST = -1,    /* EOF or a malformed reply: eb, rarlaunch killed */
	PROC_ANSWER_TOO_LATE = 0, /* the bound passed: rarlaunch killed, out marked */
	PROC_ANSWER_REPLY = 1     /* the reply, in *r */
};

/* Waits for the reply to l->seq into *r. */
static enum proc_answer proc_await(struct proc_launcher *l, const struct proc_cmd *cmd,
				   struct launch_reply *r, struct proc_sample *out,
				   struct errbuf *eb)
{
	uint64_t deadline = 0, now;
	bool bounded = cmd->timeout_ms > 0, stop_sent = false;
	unsigned char buf[sizeof(*r) + 1];
	ssize_t n;
	int pr;

	if (bounded)
		deadline = proc_now_ms() + cmd->timeout_ms + PROC_LAUNCH_GRACE_MS;
	for (;;) {
		int ms = -1;

		if (bounded) {
			now = proc_now_ms();
			ms = now >= deadline ? 0 : (int)(deadline - now);
		}
		pr = proc_poll_sock(l->sock, ms);
		if (pr == 1)
			break;
		if (pr < 0 && errno == EINTR) {
			if (!stop_sent && cmd->stop != NULL && *cmd->stop) {
				proc_send_stop(l);
				stop_sent = true;
				if (!bounded || deadline > proc_now_ms() + PROC_LAUNCH_GRACE_MS)
					deadline = proc_now_ms() + PROC_LAUNCH_GRACE_MS;
				bounded = true;
			}
			continue;
		}
		if (pr < 0) {
			errbuf_set_errno(eb, errno, "waiting for rarlaunch");
			proc_launcher_end(l, true);
			return PROC_ANSWER_LOST;
		}
		/* No answer in time: rarlaunch is held (a child stopped before its exec). */
		proc_launcher_end(l, true);
		out->launcher_killed = true;
		out->stopped = stop_sent;
		out->timed_out = !stop_sent;
		out->status = SIGKILL;
		out->exit_code = 128 + SIGKILL;
		return PROC_ANSWER_TOO_LATE;
	}
	n = proc_recv_reply(l->sock, buf, sizeof(buf));
	if (n <= 0) {
		errbuf_set(eb, "rarlaunch (pid %ld) exited during a run", (long)l->pid);
		proc_launcher_end(l, true);
		return PROC_ANSWER_LOST;
	}
	if (launch_reply_parse(buf, (size_t)n, LAUNCH_REPLY_MAGIC, l->seq, r, eb) < 0) {
		errbuf_prefix(eb, "rarlaunch");
		proc_launcher_end(l, true);
		return PROC_ANSWER_LOST;
	}
	return PROC_ANSWER_REPLY;
}

/*
 * Why a run did not start, naming the program as given and the file it resolved to. rarlaunch
 * answers EPROTO, with no child, to a request its parser refused: one this build's
 * launch_req_build would not make, so that rarlaunch is of another build.
 */
static int proc_start_error(const struct proc_cmd *cmd, const struct launch_reply *r,
			    struct errbuf *eb)
{
	const char *verb = (r->flags & LAUNCH_R_SPAWN_FAILED) ? "cannot start" : "cannot execute";
	char what[PATH_MAX + 256];

	/* lint: not a path (words of a message, which may be cut) */
	if (strcmp(cmd->argv[0], cmd->path) == 0)
		snprintf(what, sizeof(what), "'%s'", cmd->path);
	else
		snprintf(what, sizeof(what), "'%s' (%s)", cmd->argv[0], cmd->path);
	if ((r->flags & LAUNCH_R_SPAWN_FAILED) && r->err == EPROTO)
		return errbuf_set(eb, "%s %s: %s refused the request (not of this build?)", verb,
				  what, launcher_path[0] != '\0' ? launcher_path : "rarlaunch");
	return errbuf_set_errno(eb, r->err, "%s %s", verb, what);
}

int proc_run(struct proc_cmd *cmd, struct proc_sample *out, struct errbuf *eb)
{
	struct proc_launcher *l = &launchers[cmd->net == PROC_NET_LOOPBACK];
	struct launch_reply r;
	enum proc_answer rc;

	out->timed_out = out->stopped = out->launcher_killed = false;
	out->stall_ns = -1;
	if (l->pid > 0 && l->owner != getpid()) {
		/* A fork of the process that started it: the socket is the parent's. */
		close(l->sock);
		l->pid = 0;
		l->sock = -1;
	}
	if (l->pid <= 0 && proc_launcher_start(l, cmd->net, eb) < 0)
		return errbuf_prefix(eb, "cannot start '%s'", cmd->argv[0]);
	launch_req_set_seq(cmd->req, ++l->seq);
	if (proc_send_req(l, cmd) < 0) {
		errbuf_set_errno(eb, errno, "cannot start '%s': rarlaunch", cmd->argv[0]);
		proc_launcher_end(l, true);
		return -1;
	}
	rc = proc_await(l, cmd, &r, out, eb);
	if (rc == PROC_ANSWER_LOST)
		return errbuf_prefix(eb, "%s", cmd->argv[0]);
	if (rc == PROC_ANSWER_TOO_LATE)
		return 0;
	if (r.flags & (LAUNCH_R_SPAWN_FAILED | LAUNCH_R_EXEC_FAILED))
		return proc_start_error(cmd, &r, eb);
	out->timed_out = (r.flags & LAUNCH_R_TIMED_OUT) != 0;
	out->stopped = (r.flags & LAUNCH_R_STOPPED) != 0;
	out->wall_ns = r.wall_ns;
	out->user_ns = r.user_ns;
	out->system_ns = r.system_ns;
	out->nivcsw = r.nivcsw > UINT32_MAX ? UINT32_MAX : (uint32_t)r.nivcsw;
	out->stall_ns = (r.flags & LAUNCH_R_STALL) ? (int64_t)r.stall_ns : -1;
	out->ru = (struct proc_rusage){r.minflt, r.majflt, r.maxrss_kib, r.inblock, r.nvcsw};
	out->status = r.status;
	if (WIFEXITED(r.status))
		out->exit_code = WEXITSTATUS(r.status);
	else
		out->exit_code = 128 + WTERMSIG(r.status);
	return 0;
}
