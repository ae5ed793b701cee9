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
#include "clock.h"
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
static int local_fetch(void *c, const struct events_file *f, const char *dst,
		       enum hostpool_outcome *outcome, struct errbuf *eb)
{
	char src[PATH_MAX];

	*outcome = HOSTPOOL_EXEC;
	if (fileio_fmt(src, sizeof(src), "%s/%s", (const char *)c, f->name) < 0)
		return errbuf_set(eb, "%s: path too long", (const char *)c);
	return copy_file(src, dst, eb) < 0 ? -1 : 0;
}

/* ansible_connection=local: rarbench as a child, the same event reader on its stdout. */
void job_local_run(struct hostpool *hp, size_t index, struct job_ctx *ctx, const char *host_dir,
		   struct hoststream *st)
{
	const struct job_config *cfg = ctx->cfg;
	char prog[PATH_MAX], out_dir[PATH_MAX], errlog[PATH_MAX];
	char *argv[] = {prog,         "--manifest", ctx->manifest_abs, "--out", out_dir,
			"--progress", "jsonl",      "--resume",        NULL};
	char *buf = malloc(READ_CHUNK_BYTES);
	struct errbuf eb = {{0}};
	int pfd[2] = {-1, -1}, errfd = -1, wstatus, status;
	long last = clock_now_ms();
	pid_t pid;

	if (fileio_fmt(prog, sizeof(prog), "%s/bin/rarbench", cfg->remote_prefix) < 0 ||
	    fileio_fmt(out_dir, sizeof(out_dir), "%s/run", host_dir) < 0 ||
	    fileio_fmt(errlog, sizeof(errlog), "%s/rarbench.stderr", host_dir) < 0) {
		hostpool_finish(hp, index, HOSTPOOL_EXEC, 0, "path too long");
		goto out;
	}
	if (buf == NULL || pipe2(pfd, O_CLOEXEC) < 0 ||
	    (errfd = open(errlog, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0) {
		hostpool_finish(hp, index, HOSTPOOL_EXEC, 0, "cannot set up the local run");
		goto out;
	}
	hostpool_set_state(hp, index, HOSTPOOL_RUNNING);
	pid = fork();
	if (pid < 0) {
		hostpool_finish(hp, index, HOSTPOOL_EXEC, 0, "fork failed");
		goto out;
	}
	if (pid == 0) {
		struct sigaction dfl;
		sigset_t none;
		int devnull;
		/* its own process group: a stop reaches what it runs too */
		setpgid(0, 0);
		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		sigaction(SIGPIPE, &dfl,
			  NULL); /* rarlab ignores it; an ignored signal survives exec */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL); /* workers run with SIGINT blocked */
		devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
		/* dup2 clears close-on-exec on 0, 1 and 2 only */
		if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(pfd[1], 1) < 0 ||
		    dup2(errfd, 2) < 0)
			_exit(127);
		close_from_3();
		execv(prog, argv);
		_exit(127);
	}
	setpgid(pid, pid); /* also here: whichever of the two runs first */
	close(pfd[1]);
	pfd[1] = -1;
	for (;;) {
		struct pollfd p = {pfd[0], POLLIN, 0};
		ssize_t n;
		if (atomic_load(&ctx->cancel) || st->failed ||
		    (cfg->command_timeout_ms > 0 &&
		     clock_now_ms() - last > cfg->command_timeout_ms)) {
			bool cancel = atomic_load(&ctx->cancel) != 0, failed = st->failed;
			signal_child(pid, SIGINT);
			reap(pid, LOCAL_STOP_GRACE_MS);
			hostpool_finish(hp, index,
					cancel   ? HOSTPOOL_INTERRUPTED
					: failed ? HOSTPOOL_EXEC
						 : HOSTPOOL_TIMEOUT,
					0,
					cancel   ? "interrupted"
					: failed ? st->eb.msg
						 : "no output for too long");
			goto out;
		}
		if (poll(&p, 1, POLL_MS) <= 0)
			continue;
		n = read(pfd[0], buf, READ_CHUNK_BYTES);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		last = clock_now_ms();
		hoststream_on_output(st, buf, (size_t)n);
	}
	/* EOF: its exit follows, unless it goes on running (then stopped like a silent run) */
	last = clock_now_ms();
	for (;;) {
		pid_t r = waitpid(pid, &wstatus, WNOHANG);
		if (r == pid || (r < 0 && errno != EINTR)) {
			if (r < 0)
				wstatus = -1;
			break;
		}
		bool cancel = atomic_load(&ctx->cancel) != 0;
		if (cancel || clock_now_ms() - last > cfg->command_timeout_ms) {
			signal_child(pid, SIGINT);
			reap(pid, LOCAL_STOP_GRACE_MS);
			(void)fileio_fmt(eb.msg, sizeof(eb.msg),
					 "closed its output but did not exit within %ld s: stopped",
					 cfg->command_timeout_ms / 1000);
			hostpool_finish(hp, index, cancel ? HOSTPOOL_INTERRUPTED : HOSTPOOL_TIMEOUT,
					0, cancel ? "interrupted" : eb.msg);
			goto out;
		}
		struct timespec ts = {0, 20 * 1000000L};
		nanosleep(&ts, NULL);
	}
	status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
	if (WIFEXITED(wstatus) && status == 127) {
		(void)fileio_fmt(eb.msg, sizeof(eb.msg), "cannot run %s", prog);
		hostpool_finish(hp, index, HOSTPOOL_EXEC, 0, eb.msg);
		goto out;
	}
	{
		char tail[HOSTPOOL_TEXT_MAX] = "";
		FILE *f = fopen(errlog, "re");
		if (f != NULL) {
			/* keep the last line of the child's stderr for the message */
			char line[HOSTPOOL_TEXT_MAX];
			while (fgets(line, sizeof(line), f) != NULL)
				if (line[0] != '\n')
					snprintf(tail, sizeof(tail), "%s", line);
			fclose(f);
		}
		if (hoststream_check_end(hp, index, st, status, tail) < 0)
			goto out;
	}
	hoststream_fetch_and_finish(hp, index, st, host_dir, local_fetch, out_dir, false);
out:
	if (pfd[0] >= 0)
		close(pfd[0]);
	if (pfd[1] >= 0)
		close(pfd[1]);
	if (errfd >= 0)
		close(errfd);
	free(buf);
}
