/* job_local: one host's run on this machine (ansible_connection=local) — fork rarbench, copy. */
#include "job_local.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "atomicfile.h"
#include "benchexit.h"
#include "clock.h"
#include "exitcode.h"
#include "fileio.h"

#define READ_CHUNK_BYTES (32 * 1024)
#define POLL_MS 100
#define LOCAL_STOP_GRACE_MS 2000

/*
 * Copies src to dst atomically (at most JOB_FILE_MAX_BYTES). src must be a
 * regular file: opened without blocking and without following a link, so
 * a FIFO or a link rarbench left in its place fails instead of hanging.
 */
static int copy_file(const char *src, const char *dst, struct errbuf *eb)
{
	struct atomicfile *af = NULL;
	char *buf = malloc(READ_CHUNK_BYTES);
	int in = open(src, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	struct stat st;
	long total = 0;
	ssize_t n;
	int rc = -1;

	if (buf == NULL || in < 0) {
		errbuf_set_errno(eb, buf ? errno : ENOMEM, "%s", src);
		goto out;
	}
	if (fstat(in, &st) < 0 || !S_ISREG(st.st_mode)) {
		errbuf_set(eb, "%s: not a regular file", src);
		goto out;
	}
	if (fcntl(in, F_SETFL, O_RDONLY) < 0) {
		errbuf_set_errno(eb, errno, "%s", src);
		goto out;
	}
	af = atomicfile_open(dst, 0644, eb);
	if (af == NULL)
		goto out;
	while ((n = read(in, buf, READ_CHUNK_BYTES)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			errbuf_set_errno(eb, errno, "%s", src);
			goto out;
		}
		total += (long)n;
		if (total > JOB_FILE_MAX_BYTES) {
			errbuf_set(eb, "%s is larger than %ld bytes", src,
				   (long)JOB_FILE_MAX_BYTES);
			goto out;
		}
		if (fwrite(buf, 1, (size_t)n, atomicfile_stream(af)) != (size_t)n) {
			errbuf_set_errno(eb, errno, "%s", dst);
			goto out;
		}
	}
	rc = atomicfile_commit(af, eb);
	af = NULL;
out:
	atomicfile_abort(af);
	if (in >= 0)
		close(in);
	free(buf);
	return rc;
}

/* Sends sig to the child's process group (its own, see job_local_run), else to the child. */
static void signal_child(pid_t pid, int sig)
{
	if (kill(-pid, sig) < 0)
		kill(pid, sig);
}

/* Waits for pid (bounded by grace_ms, then SIGKILL to its group). Returns its wait status. */
static int reap(pid_t pid, long grace_ms)
{
	long deadline = clock_now_ms() + grace_ms;
	int wstatus = 0;

	while (waitpid(pid, &wstatus, WNOHANG) == 0) {
		if (clock_now_ms() > deadline) {
			signal_child(pid, SIGKILL);
			waitpid(pid, &wstatus, 0);
			break;
		}
		struct timespec ts = {0, 20 * 1000000L};
		nanosleep(&ts, NULL);
	}
	return wstatus;
}

/*
 * In the child, between fork and exec (async-signal-safe calls only): closes
 * every descriptor above stderr, so rarbench and what it runs as root get
 * stdin, stdout and stderr and nothing else — no other host's SSH socket,
 * pipe or temporary file, whatever their close-on-exec flag.
 */
static void close_from_3(void)
{
	char buf[4096] __attribute__((aligned(8)));
	ssize_t n;
	int dfd;

	if (close_range(3, ~0U, 0) == 0)
		return;
	/* kernels before 5.9: the descriptors /proc/self/fd lists */
	dfd = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		for (int fd = 3; fd < 65536; fd++)
			close(fd);
		return;
	}
	while ((n = getdents64(dfd, buf, sizeof(buf))) > 0) {
		for (ssize_t off = 0; off < n;) {
			const struct dirent64 *d = (const struct dirent64 *)(void *)(buf + off);
			int fd = 0;
			const char *c = d->d_name;
			while (*c >= '0' && *c <= '9' && fd < 1000000)
				fd = fd * 10 + (*c++ - '0');
			if (*c == '\0' && c != d->d_name && fd > 2 && fd != dfd)
				close(fd);
			off += d->d_reclen;
		}
	}
	close(dfd);
}

/* hoststream_fetch_fn: copies <c>/<name> (c: rarbench's output directory) to dst. */
static enum hoststream_fetched local_fetch(void *c, const struct events_file *f, const char *dst,
					   enum host_outcome *outcome, struct errbuf *eb)
{
	char src[PATH_MAX];

	*outcome = HOST_EXEC;
	if (fileio_fmt(src, sizeof(src), "%s/%s", (const char *)c, f->name) < 0) {
		errbuf_set(eb, "%s: path too long", (const char *)c);
		return HOSTSTREAM_FETCH_FAILED;
	}
	return copy_file(src, dst, eb) < 0 ? HOSTSTREAM_FETCH_FAILED : HOSTSTREAM_FETCHED;
}

/* One local run: rarbench's paths, its output pipe and stderr log, the child. */
struct local_run {
	char prog[PATH_MAX], out_dir[PATH_MAX], errlog[PATH_MAX];
	int pfd[2], errfd;
	pid_t pid;
};

/* In the child: stdin /dev/null, stdout the pipe, stderr the log, then rarbench. */
static void local_exec(struct job_ctx *ctx, struct local_run *r)
{
	char *argv[] = {r->prog,      "--manifest", ctx->manifest_abs, "--out", r->out_dir,
			"--progress", "jsonl",      "--resume",        NULL};
	struct sigaction dfl;
	sigset_t none;
	int devnull;

	/* its own process group: a stop reaches what it runs too */
	setpgid(0, 0);
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(SIGPIPE, &dfl, NULL); /* rarlab ignores it; an ignored signal survives exec */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL); /* workers run with SIGINT blocked */
	devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	/* dup2 clears close-on-exec on 0, 1 and 2 only */
	if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(r->pfd[1], 1) < 0 || dup2(r->errfd, 2) < 0)
		_exit(EXITCODE_CANNOT_RUN);
	close_from_3();
	execv(r->prog, argv);
	_exit(EXITCODE_CANNOT_RUN);
}

/* Starts rarbench as r's child (the host RUNNING). Returns 0, or -1 with *end filled. */
static int local_start(struct job_ctx *ctx, const char *host_dir, const struct hoststream *st,
		       struct local_run *r, struct host_end *end)
{
	if (fileio_fmt(r->prog, sizeof(r->prog), "%s/bin/rarbench", ctx->cfg->remote_prefix) < 0 ||
	    fileio_fmt(r->out_dir, sizeof(r->out_dir), "%s/run", host_dir) < 0 ||
	    fileio_fmt(r->errlog, sizeof(r->errlog), "%s/rarbench.stderr", host_dir) < 0)
		return host_end_set(end, HOST_EXEC, "path too long");
	if (pipe2(r->pfd, O_CLOEXEC) < 0 ||
	    (r->errfd = open(r->errlog, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0)
		return host_end_set(end, HOST_EXEC, "cannot set up the local run");
	hostpool_set_state(st->hp, st->index, HOSTPOOL_RUNNING);
	r->pid = fork();
	if (r->pid < 0)
		return host_end_set(end, HOST_EXEC, "fork failed");
	if (r->pid == 0)
		local_exec(ctx, r);
	setpgid(r->pid, r->pid); /* also here: whichever of the two runs first */
	close(r->pfd[1]);
	r->pfd[1] = -1;
	return 0;
}

/*
 * Feeds the child's stdout to st until EOF. On cancel, a malformed stream or
 * command_timeout_ms of silence, stops the child and returns -1 with *end.
 */
static int local_stream(struct job_ctx *ctx, struct hoststream *st, struct local_run *r, char *buf,
			struct host_end *end)
{
	long timeout_ms = ctx->cfg->command_timeout_ms, last = clock_now_ms();

	for (;;) {
		struct pollfd p = {r->pfd[0], POLLIN, 0};
		ssize_t n;
		if (atomic_load(&ctx->cancel) || st->failed ||
		    (timeout_ms > 0 && clock_now_ms() - last > timeout_ms)) {
			bool cancel = atomic_load(&ctx->cancel) != 0, failed = st->failed;
			signal_child(r->pid, SIGINT);
			reap(r->pid, LOCAL_STOP_GRACE_MS);
			if (cancel)
				return host_end_set(end, HOST_INTERRUPTED, "interrupted");
			if (failed)
				return host_end_set(end, HOST_EXEC, "%s", st->eb.msg);
			return host_end_set(end, HOST_TIMEOUT, "no output for too long");
		}
		if (poll(&p, 1, POLL_MS) <= 0)
			continue;
		n = read(r->pfd[0], buf, READ_CHUNK_BYTES);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return 0;
		last = clock_now_ms();
		hoststream_on_output(st, buf, (size_t)n);
	}
}

/*
 * After EOF: its exit follows, unless it goes on running (then stopped like
 * a silent run). Returns 0 with rarbench's exit code in *status (-1: killed),
 * or -1 with *end filled.
 */
static int local_wait(struct job_ctx *ctx, const struct local_run *r, int *status,
		      struct host_end *end)
{
	long timeout_ms = ctx->cfg->command_timeout_ms, last = clock_now_ms();
	int wstatus;

	for (;;) {
		pid_t w = waitpid(r->pid, &wstatus, WNOHANG);
		if (w == r->pid || (w < 0 && errno != EINTR)) {
			if (w < 0)
				wstatus = -1;
			break;
		}
		bool cancel = atomic_load(&ctx->cancel) != 0;
		if (cancel || clock_now_ms() - last > timeout_ms) {
			signal_child(r->pid, SIGINT);
			reap(r->pid, LOCAL_STOP_GRACE_MS);
			if (cancel)
				return host_end_set(end, HOST_INTERRUPTED, "interrupted");
			return host_end_set(
			    end, HOST_TIMEOUT,
			    "closed its output but did not exit within %ld s: stopped",
			    timeout_ms / 1000);
		}
		struct timespec ts = {0, 20 * 1000000L};
		nanosleep(&ts, NULL);
	}
	*status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
	if (benchexit_of(*status) == BENCHEXIT_CANNOT_RUN)
		return host_end_set(end, HOST_EXEC, "cannot run %s", r->prog);
	return 0;
}

/* The last non-empty line of the child's stderr log (for the message), "" when none. */
static void local_stderr_tail(const char *errlog, char *tail, size_t cap)
{
	char line[HOSTPOOL_TEXT_MAX];
	FILE *f = fopen(errlog, "re");

	tail[0] = '\0';
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL)
		if (line[0] != '\n')
			snprintf(tail, cap, "%s", line);
	fclose(f);
}

/* ansible_connection=local: rarbench as a child, the same event reader on its stdout. */
void job_local_run(struct job_ctx *ctx, const char *host_dir, struct hoststream *st,
		   struct host_end *end)
{
	struct local_run r = {.pfd = {-1, -1}, .errfd = -1, .pid = -1};
	char *buf = malloc(READ_CHUNK_BYTES), tail[HOSTPOOL_TEXT_MAX];
	int status = -1; /* set by local_wait when it returns 0 */

	if (buf == NULL) {
		host_end_set(end, HOST_EXEC, "cannot set up the local run");
		goto out;
	}
	if (local_start(ctx, host_dir, st, &r, end) < 0 ||
	    local_stream(ctx, st, &r, buf, end) < 0 || local_wait(ctx, &r, &status, end) < 0)
		goto out;
	local_stderr_tail(r.errlog, tail, sizeof(tail));
	if (hoststream_check_end(st, status, tail, end) < 0)
		goto out;
	hoststream_fetch(st, host_dir, local_fetch, r.out_dir, false, end);
out:
	if (r.pfd[0] >= 0)
		close(r.pfd[0]);
	if (r.pfd[1] >= 0)
		close(r.pfd[1]);
	if (r.errfd >= 0)
		close(r.errfd);
	free(buf);
}
