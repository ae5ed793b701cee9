/* job: one host's run — connect (or fork locally), upload, stream events, download, verify. */
#include "job.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "atomicfile.h"
#include "events.h"
#include "hostfacts.h"
#include "sshx.h"

#define CMD_MAX_BYTES 4096
#define READ_CHUNK_BYTES (32 * 1024)
#define POLL_MS 100
/*
 * Stops a remote run: sshd made the command a session leader, so its pid
 * (recorded by the shell before exec) is its process group: SIGINT to the
 * group, up to 1.5 s to leave (within sshx's 2 s grace), then SIGKILL.
 */
#define STOP_SCRIPT                                                                                \
	"p=$(cat %s) || exit 0; kill -INT -- -$p 2>/dev/null; i=0; "                               \
	"while kill -0 -- -$p 2>/dev/null && [ $i -lt 15 ]; do sleep 0.1; i=$((i + 1)); done; "    \
	"kill -KILL -- -$p 2>/dev/null; exit 0"
#define LOCAL_STOP_GRACE_MS 2000

/* The events of one host's stream, forwarded to the pool. */
struct stream {
	struct hostpool *hp;
	size_t index;
	struct events_reader *reader;
	struct events_event done;
	uint32_t points_done, points_total;
	bool saw_done, failed;
	struct errbuf eb;
};

/* snprintf that reports truncation: 0, or -1 when the result did not fit. */
static int fmt(char *buf, size_t cap, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static int fmt(char *buf, size_t cap, const char *format, ...)
{
	va_list ap;
	int n;

	va_start(ap, format);
	n = vsnprintf(buf, cap, format, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= cap ? -1 : 0;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int mkdirs(const char *path, struct errbuf *eb)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(buf))
		return errbuf_set(eb, "bad directory '%s'", path);
	memcpy(buf, path, len + 1);
	for (size_t i = 1; i <= len; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return errbuf_set_errno(eb, errno, "mkdir %s", buf);
		buf[i] = path[i];
	}
	return 0;
}

static int on_event(void *c, const struct events_event *ev)
{
	struct stream *st = c;

	switch (ev->kind) {
	case EVENTS_START:
		st->points_done = ev->done;
		st->points_total = ev->total;
		hostpool_set_progress(st->hp, st->index, ev->done, ev->total, -1);
		break;
	case EVENTS_POINT_START:
		hostpool_set_point(st->hp, st->index, ev->text);
		break;
	case EVENTS_POINT_DONE:
		st->points_done = ev->done;
		if (ev->total > 0)
			st->points_total = ev->total;
		hostpool_set_progress(st->hp, st->index, ev->done, ev->total, ev->eta_s);
		break;
	case EVENTS_ERROR:
	case EVENTS_SKIP_SUBJECT:
		hostpool_set_message(st->hp, st->index, ev->text);
		break;
	case EVENTS_DONE:
		st->done = *ev;
		st->saw_done = true;
		break;
	case EVENTS_UNKNOWN:
		break;
	}
	return 0;
}

static int on_output(void *c, const char *data, size_t len)
{
	struct stream *st = c;

	if (events_feed(st->reader, data, len, on_event, st, &st->eb) != 0) {
		st->failed = true;
		errbuf_prefix(&st->eb, "event stream");
		return 1;
	}
	return 0;
}

/* Appends s to buf as one shell word in single quotes. Returns -1 when it does not fit. */
static int shell_word(char *buf, size_t cap, const char *s)
{
	size_t len = strlen(buf);

	if (len + 4 >= cap)
		return -1;
	if (len > 0)
		buf[len++] = ' ';
	buf[len++] = '\'';
	for (; *s; s++) {
		if (*s == '\'') {
			if (len + 5 >= cap)
				return -1;
			memcpy(buf + len, "'\\''", 4);
			len += 4;
		} else {
			if (len + 2 >= cap)
				return -1;
			buf[len++] = *s;
		}
	}
	buf[len++] = '\'';
	buf[len] = '\0';
	return 0;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* Writes the done event as DIR/<host>/done.json: the record of a complete fetch. */
static int write_done(const char *host_dir, const struct stream *st, struct errbuf *eb)
{
	const struct events_event *ev = &st->done;
	char path[PATH_MAX], buf[2048];
	size_t len;

	len = (size_t)snprintf(buf, sizeof(buf),
			       "{\"event\":\"done\",\"t\":%.3f,\"status\":%d,\"done\":%u,"
			       "\"total\":%u,\"files\":{",
			       ev->t, ev->status, st->points_done, st->points_total);
	for (size_t i = 0; i < ev->nfiles && len < sizeof(buf); i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s\"%s\":\"%s\"",
					i ? "," : "", ev->files[i].name, ev->files[i].sha256);
	if (len < sizeof(buf))
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "}}\n");
	if (len >= sizeof(buf))
		return errbuf_set(eb, "done record too long");
	snprintf(path, sizeof(path), "%s/done.json", host_dir);
	return atomicfile_write(path, buf, len, 0644, eb);
}

/* True when the local file has the given SHA-256. */
static bool file_matches(const char *path, const char *sha256)
{
	char hex[HOSTFACTS_SHA256_HEX_LEN + 1];
	struct errbuf eb;

	return hostfacts_sha256_file(path, hex, &eb) == 0 && strcmp(hex, sha256) == 0;
}

bool job_host_complete(const char *host_dir, uint32_t *done, uint32_t *total)
{
	char path[PATH_MAX], buf[4096];
	struct events_event ev;
	struct errbuf eb;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/done.json", host_dir);
	f = fopen(path, "r");
	if (f == NULL)
		return false;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	while (n > 0 && buf[n - 1] == '\n')
		n--;
	if (n == 0 || n >= sizeof(buf) || events_parse_line(buf, n, &ev, &eb) < 0 ||
	    ev.kind != EVENTS_DONE || ev.nfiles == 0)
		return false;
	for (size_t i = 0; i < ev.nfiles; i++) {
		snprintf(path, sizeof(path), "%s/%s", host_dir, ev.files[i].name);
		if (!file_matches(path, ev.files[i].sha256))
			return false;
	}
	if (done != NULL)
		*done = ev.done;
	if (total != NULL)
		*total = ev.total;
	return true;
}

int job_prepare(struct job_ctx *ctx, struct errbuf *eb)
{
	char path[PATH_MAX], buf[JOB_RUN_ID_MAX];
	FILE *f;

	if (realpath(ctx->cfg->manifest, ctx->manifest_abs) == NULL)
		return errbuf_set_errno(eb, errno, "%s", ctx->cfg->manifest);
	if (mkdirs(ctx->cfg->out_dir, eb) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/run-id", ctx->cfg->out_dir);
	if (ctx->cfg->resume && (f = fopen(path, "r")) != NULL) {
		bool ok = fgets(buf, sizeof(buf), f) != NULL;
		fclose(f);
		buf[strcspn(buf, "\n")] = '\0';
		if (!ok || buf[0] == '\0' || strspn(buf, "0123456789abcdefTZ-") != strlen(buf))
			return errbuf_set(eb, "%s: not a run id", path);
		snprintf(ctx->run_id, sizeof(ctx->run_id), "%s", buf);
		return 0;
	}
	time_t t = time(NULL);
	struct tm tm;
	struct timespec ts;
	char stamp[32];
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(ctx->run_id, sizeof(ctx->run_id), "%s-%x-%lx", stamp, (unsigned)getpid(),
		 (unsigned long)ts.tv_nsec);
	(void)fmt(buf, sizeof(buf), "%s\n", ctx->run_id);
	return atomicfile_write(path, buf, strlen(buf), 0644, eb);
}

static enum hostpool_outcome outcome_of(enum sshx_fail f)
{
	switch (f) {
	case SSHX_FAIL_NONE:
		return HOSTPOOL_OK;
	case SSHX_FAIL_CONNECT:
		return HOSTPOOL_CONNECT;
	case SSHX_FAIL_HOSTKEY:
		return HOSTPOOL_HOSTKEY;
	case SSHX_FAIL_AUTH:
		return HOSTPOOL_AUTH;
	case SSHX_FAIL_TIMEOUT:
		return HOSTPOOL_TIMEOUT;
	case SSHX_FAIL_CANCELLED:
		return HOSTPOOL_INTERRUPTED;
	case SSHX_FAIL_EXEC:
		break;
	}
	return HOSTPOOL_EXEC;
}

/* The last non-empty line of text, into out. */
static const char *last_line(const char *text, char *out, size_t cap)
{
	size_t end = strlen(text), start;

	while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r'))
		end--;
	start = end;
	while (start > 0 && text[start - 1] != '\n')
		start--;
	snprintf(out, cap, "%.*s", (int)(end - start), text + start);
	return out;
}

/*
 * After the run: checks how it ended and whether the done event is there.
 * Returns 0 when the files can be fetched, else finishes the host.
 */
static int check_end(struct hostpool *hp, size_t index, struct stream *st, int exit_status,
		     const char *stderr_tail)
{
	char line[HOSTPOOL_TEXT_MAX];
	bool saw_done = false;

	if (!st->failed && events_finish(st->reader, on_event, st, &saw_done, &st->eb) != 0)
		st->failed = true;
	if (st->failed) {
		hostpool_finish(hp, index, HOSTPOOL_EXEC, 0, st->eb.msg);
		return -1;
	}
	if (exit_status != 0) {
		last_line(stderr_tail, line, sizeof(line));
		hostpool_finish(hp, index, exit_status < 0 ? HOSTPOOL_EXEC : HOSTPOOL_EXIT,
				exit_status, line[0] ? line : "rarbench killed by a signal");
		return -1;
	}
	if (!st->saw_done || st->done.status != 0 || st->done.nfiles == 0) {
		hostpool_finish(hp, index, HOSTPOOL_EXEC, 0,
				st->saw_done ? "done event with a failure status or no files"
					     : "rarbench ended without a done event");
		return -1;
	}
	return 0;
}

static void run_remote(struct hostpool *hp, size_t index, struct job_ctx *ctx,
		       const struct inventory_host *h, const char *host_dir, struct stream *st)
{
	const struct job_config *cfg = ctx->cfg;
	struct sshx_opts o = {
	    .host = h->addr,
	    .port = h->port,
	    .user = h->user ? h->user : cfg->user,
	    .identity = h->identity ? h->identity : cfg->identity,
	    .known_hosts = cfg->known_hosts,
	    .accept_new = cfg->accept_new,
	    .connect_timeout_ms = cfg->connect_timeout_ms,
	    .idle_timeout_ms = cfg->command_timeout_ms,
	    .cancel = &ctx->cancel,
	};
	char rdir[PATH_MAX], rman[PATH_MAX], cmd[CMD_MAX_BYTES], prog[PATH_MAX];
	char remote[PATH_MAX], local[PATH_MAX], pidq[PATH_MAX + 16];
	char full[CMD_MAX_BYTES + PATH_MAX + 32], stop[PATH_MAX + 256];
	struct sshx *s = NULL;
	enum sshx_fail fail;
	struct errbuf eb = {{0}}, eb2;
	const char *tail;
	int status, rc;

	s = sshx_connect(&o, &fail, &eb);
	if (s == NULL) {
		hostpool_finish(hp, index, outcome_of(fail), 0, eb.msg);
		return;
	}
	if (atomic_load(&ctx->cancel)) {
		hostpool_finish(hp, index, HOSTPOOL_INTERRUPTED, 0,
				"interrupted before the upload");
		goto out;
	}
	hostpool_set_state(hp, index, HOSTPOOL_UPLOADING);
	snprintf(rdir, sizeof(rdir), "%s/%s/%s", cfg->remote_dir, ctx->run_id, h->name);
	(void)fmt(rman, sizeof(rman), "%s/%s", rdir, base_name(ctx->manifest_abs));
	if (sshx_mkdirs(s, rdir, &eb) < 0 || sshx_upload(s, ctx->manifest_abs, rman, &eb) < 0) {
		hostpool_finish(hp, index, HOSTPOOL_EXEC, 0, eb.msg);
		goto out;
	}
	/* exec: the signal of a stop reaches rarbench, not a shell */
	cmd[0] = '\0';
	snprintf(prog, sizeof(prog), "%s/bin/rarbench", cfg->remote_prefix);
	(void)fmt(remote, sizeof(remote), "%s/out", rdir);
	if (shell_word(cmd, sizeof(cmd), prog) < 0 ||
	    shell_word(cmd, sizeof(cmd), "--manifest") < 0 ||
	    shell_word(cmd, sizeof(cmd), rman) < 0 || shell_word(cmd, sizeof(cmd), "--out") < 0 ||
	    shell_word(cmd, sizeof(cmd), remote) < 0 ||
	    shell_word(cmd, sizeof(cmd), "--progress") < 0 ||
	    shell_word(cmd, sizeof(cmd), "jsonl") < 0 ||
	    shell_word(cmd, sizeof(cmd), "--resume") < 0) {
		hostpool_finish(hp, index, HOSTPOOL_EXEC, 0, "command too long");
		goto out;
	}
	/* the shell records its pid, then exec makes it rarbench's: stop_cmd signals it */
	(void)fmt(remote, sizeof(remote), "%s/rarbench.pid", rdir);
	pidq[0] = '\0';
	if (shell_word(pidq, sizeof(pidq), remote) < 0 ||
	    fmt(full, sizeof(full), "echo $$ >%s && exec %s", pidq, cmd) < 0 ||
	    fmt(stop, sizeof(stop), STOP_SCRIPT, pidq) < 0) {
		hostpool_finish(hp, index, HOSTPOOL_EXEC, 0, "command too long");
		goto out;
	}
	hostpool_set_state(hp, index, HOSTPOOL_RUNNING);
	rc = sshx_exec(s, full, stop, on_output, st, &status, &fail, &eb);
	/* the tail of the host's stderr, for the post-mortem (best effort) */
	tail = sshx_stderr_tail(s);
	if (fmt(local, sizeof(local), "%s/rarbench.stderr", host_dir) == 0)
		(void)atomicfile_write(local, tail, strlen(tail), 0644, &eb2);
	if (rc < 0) {
		hostpool_finish(hp, index, outcome_of(fail), 0, st->failed ? st->eb.msg : eb.msg);
		goto out;
	}
	if (check_end(hp, index, st, status, sshx_stderr_tail(s)) < 0)
		goto out;
	hostpool_set_state(hp, index, HOSTPOOL_FETCHING);
	for (size_t i = 0; i < st->done.nfiles; i++) {
		const struct events_file *f = &st->done.files[i];
		bool missing;
		(void)fmt(local, sizeof(local), "%s/%s", host_dir, f->name);
		if (file_matches(local, f->sha256))
			continue; /* fetched by an earlier run */
		(void)fmt(remote, sizeof(remote), "%s/out/%s", rdir, f->name);
		if (sshx_download(s, remote, local, JOB_FILE_MAX_BYTES, &missing, &eb) < 0) {
			hostpool_finish(hp, index,
					!sshx_connected(s) ? HOSTPOOL_CONNECT : HOSTPOOL_EXEC, 0,
					eb.msg);
			goto out;
		}
		if (!file_matches(local, f->sha256)) {
			snprintf(eb.msg, sizeof(eb.msg), "%s: SHA-256 differs from the done event",
				 f->name);
			unlink(local);
			hostpool_finish(hp, index, HOSTPOOL_EXEC, 0, eb.msg);
			goto out;
		}
	}
	if (write_done(host_dir, st, &eb) < 0) {
		hostpool_finish(hp, index, HOSTPOOL_EXEC, 0, eb.msg);
		goto out;
	}
	hostpool_finish(hp, index, HOSTPOOL_OK, 0, "");
out:
	sshx_free(s);
}

/* Copies src to dst atomically (at most JOB_FILE_MAX_BYTES). */
static int copy_file(const char *src, const char *dst, struct errbuf *eb)
{
	struct atomicfile *af = NULL;
	char *buf = malloc(READ_CHUNK_BYTES);
	FILE *in = fopen(src, "rb");
	long total = 0;
	size_t n;
	int rc = -1;

	if (buf == NULL || in == NULL) {
		errbuf_set_errno(eb, buf ? errno : ENOMEM, "%s", src);
		goto out;
	}
	af = atomicfile_open(dst, 0644, eb);
	if (af == NULL)
		goto out;
	while ((n = fread(buf, 1, READ_CHUNK_BYTES, in)) > 0) {
		total += (long)n;
		if (total > JOB_FILE_MAX_BYTES) {
			errbuf_set(eb, "%s is larger than %ld bytes", src, JOB_FILE_MAX_BYTES);
			goto out;
		}
		if (fwrite(buf, 1, n, atomicfile_stream(af)) != n) {
			errbuf_set_errno(eb, errno, "%s", dst);
			goto out;
		}
	}
	rc = atomicfile_commit(af, eb);
	af = NULL;
out:
	atomicfile_abort(af);
	if (in != NULL)
		fclose(in);
	free(buf);
	return rc;
}

/* Waits for pid (bounded by grace_ms, then SIGKILL). Returns its wait status. */
static int reap(pid_t pid, long grace_ms)
{
	long deadline = now_ms() + grace_ms;
	int wstatus = 0;

	while (waitpid(pid, &wstatus, WNOHANG) == 0) {
		if (now_ms() > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, &wstatus, 0);
			break;
		}
		struct timespec ts = {0, 20 * 1000000L};
		nanosleep(&ts, NULL);
	}
	return wstatus;
}

/* ansible_connection=local: rarbench as a child, the same event reader on its stdout. */
static void run_local(struct hostpool *hp, size_t index, struct job_ctx *ctx, const char *host_dir,
		      struct stream *st)
{
	const struct job_config *cfg = ctx->cfg;
	char prog[PATH_MAX], out_dir[PATH_MAX], errlog[PATH_MAX], src[PATH_MAX], dst[PATH_MAX];
	char *argv[] = {prog,         "--manifest", ctx->manifest_abs, "--out", out_dir,
			"--progress", "jsonl",      "--resume",        NULL};
	char *buf = malloc(READ_CHUNK_BYTES);
	struct errbuf eb = {{0}};
	int pfd[2] = {-1, -1}, errfd = -1, wstatus, status;
	long last = now_ms();
	pid_t pid;

	snprintf(prog, sizeof(prog), "%s/bin/rarbench", cfg->remote_prefix);
	(void)fmt(out_dir, sizeof(out_dir), "%s/run", host_dir);
	(void)fmt(errlog, sizeof(errlog), "%s/rarbench.stderr", host_dir);
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
		sigset_t none;
		int devnull = open("/dev/null", O_RDONLY);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL); /* workers run with SIGINT blocked */
		if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(pfd[1], 1) < 0 ||
		    dup2(errfd, 2) < 0)
			_exit(127);
		execv(prog, argv);
		_exit(127);
	}
	close(pfd[1]);
	pfd[1] = -1;
	for (;;) {
		struct pollfd p = {pfd[0], POLLIN, 0};
		ssize_t n;
		if (atomic_load(&ctx->cancel) || st->failed ||
		    (cfg->command_timeout_ms > 0 && now_ms() - last > cfg->command_timeout_ms)) {
			bool cancel = atomic_load(&ctx->cancel) != 0, failed = st->failed;
			kill(pid, SIGINT);
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
		last = now_ms();
		on_output(st, buf, (size_t)n);
	}
	wstatus = reap(pid, cfg->connect_timeout_ms);
	status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
	if (WIFEXITED(wstatus) && status == 127) {
		(void)fmt(eb.msg, sizeof(eb.msg), "cannot run %s", prog);
		hostpool_finish(hp, index, HOSTPOOL_EXEC, 0, eb.msg);
		goto out;
	}
	{
		char tail[HOSTPOOL_TEXT_MAX] = "";
		FILE *f = fopen(errlog, "r");
		if (f != NULL) {
			/* keep the last line of the child's stderr for the message */
			char line[HOSTPOOL_TEXT_MAX];
			while (fgets(line, sizeof(line), f) != NULL)
				if (line[0] != '\n')
					snprintf(tail, sizeof(tail), "%s", line);
			fclose(f);
		}
		if (check_end(hp, index, st, status, tail) < 0)
			goto out;
	}
	hostpool_set_state(hp, index, HOSTPOOL_FETCHING);
	for (size_t i = 0; i < st->done.nfiles; i++) {
		const struct events_file *f = &st->done.files[i];
		(void)fmt(src, sizeof(src), "%s/%s", out_dir, f->name);
		(void)fmt(dst, sizeof(dst), "%s/%s", host_dir, f->name);
		if (copy_file(src, dst, &eb) < 0 || !file_matches(dst, f->sha256)) {
			if (eb.msg[0] == '\0')
				snprintf(eb.msg, sizeof(eb.msg),
					 "%s: SHA-256 differs from the done event", f->name);
			hostpool_finish(hp, index, HOSTPOOL_EXEC, 0, eb.msg);
			goto out;
		}
	}
	if (write_done(host_dir, st, &eb) < 0) {
		hostpool_finish(hp, index, HOSTPOOL_EXEC, 0, eb.msg);
		goto out;
	}
	hostpool_finish(hp, index, HOSTPOOL_OK, 0, "");
out:
	if (pfd[0] >= 0)
		close(pfd[0]);
	if (pfd[1] >= 0)
		close(pfd[1]);
	if (errfd >= 0)
		close(errfd);
	free(buf);
}

void job_run(struct hostpool *hp, size_t index, void *arg)
{
	struct job_ctx *ctx = arg;
	const struct inventory_host *h = inventory_host(ctx->inv, ctx->sel[index]);
	struct stream st = {.hp = hp, .index = index};
	char host_dir[PATH_MAX];
	struct errbuf eb = {{0}};
	uint32_t done, total;

	if (atomic_load(&ctx->cancel)) {
		hostpool_finish(hp, index, HOSTPOOL_INTERRUPTED, 0, "not started");
		return;
	}
	snprintf(host_dir, sizeof(host_dir), "%s/%s", ctx->cfg->out_dir, h->name);
	if (mkdirs(host_dir, &eb) < 0) {
		hostpool_finish(hp, index, HOSTPOOL_EXEC, 0, eb.msg);
		return;
	}
	if (!ctx->cfg->resume) {
		/* a new run: what an earlier run in DIR left is not this run's result */
		char path[PATH_MAX];
		if (fmt(path, sizeof(path), "%s/done.json", host_dir) == 0)
			unlink(path);
	}
	if (ctx->cfg->resume && job_host_complete(host_dir, &done, &total)) {
		hostpool_set_progress(hp, index, done, total, -1);
		hostpool_finish(hp, index, HOSTPOOL_OK, 0, "fetched by an earlier run");
		return;
	}
	st.reader = events_reader_new();
	if (st.reader == NULL) {
		hostpool_finish(hp, index, HOSTPOOL_EXEC, 0, "out of memory");
		return;
	}
	if (h->local)
		run_local(hp, index, ctx, host_dir, &st);
	else
		run_remote(hp, index, ctx, h, host_dir, &st);
	events_reader_free(st.reader);
}
