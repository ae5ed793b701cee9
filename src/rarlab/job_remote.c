/* job_remote: one host's run over SSH — upload the manifest, exec rarbench, stream, download. */
#include "job_remote.h"

#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "atomicfile.h"
#include "fileio.h"
#include "sshx.h"

#define CMD_MAX_BYTES 4096
/*
 * Stops a remote run: sshd made the command a session leader, so its pid
 * (recorded by the shell before exec) is its process group: SIGINT to the
 * group, up to 1.5 s to leave (within sshx's 2 s grace), then SIGKILL.
 */
#define STOP_SCRIPT                                                                                \
	"p=$(cat %s) || exit 0; kill -INT -- -$p 2>/dev/null; i=0; "                               \
	"while kill -0 -- -$p 2>/dev/null && [ $i -lt 15 ]; do sleep 0.1; i=$((i + 1)); done; "    \
	"kill -KILL -- -$p 2>/dev/null; exit 0"

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

/* The remote fetch: the host's run directory and its session. */
struct remote_fetch {
	struct sshx *s;
	const char *rdir;
};

/* hoststream_fetch_fn: downloads <rdir>/out/<name> unless dst already has its SHA-256. */
static int remote_fetch(void *c, const struct events_file *f, const char *dst,
			enum hostpool_outcome *outcome, struct errbuf *eb)
{
	struct remote_fetch *rf = c;
	char remote[PATH_MAX];
	bool missing;

	if (hoststream_file_matches(dst, f->sha256))
		return 1; /* fetched by an earlier run */
	(void)fileio_fmt(remote, sizeof(remote), "%s/out/%s", rf->rdir, f->name);
	if (sshx_download(rf->s, remote, dst, JOB_FILE_MAX_BYTES, &missing, eb) < 0) {
		*outcome = !sshx_connected(rf->s) ? HOSTPOOL_CONNECT : HOSTPOOL_EXEC;
		return -1;
	}
	return 0;
}

void job_remote_run(struct hostpool *hp, size_t index, struct job_ctx *ctx,
		    const struct inventory_host *h, const char *host_dir, struct hoststream *st)
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
	(void)fileio_fmt(rman, sizeof(rman), "%s/%s", rdir, base_name(ctx->manifest_abs));
	if (sshx_mkdirs(s, rdir, &eb) < 0 || sshx_upload(s, ctx->manifest_abs, rman, &eb) < 0) {
		hostpool_finish(hp, index, HOSTPOOL_EXEC, 0, eb.msg);
		goto out;
	}
	/* exec: the signal of a stop reaches rarbench, not a shell */
	cmd[0] = '\0';
	snprintf(prog, sizeof(prog), "%s/bin/rarbench", cfg->remote_prefix);
	(void)fileio_fmt(remote, sizeof(remote), "%s/out", rdir);
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
	(void)fileio_fmt(remote, sizeof(remote), "%s/rarbench.pid", rdir);
	pidq[0] = '\0';
	if (shell_word(pidq, sizeof(pidq), remote) < 0 ||
	    fileio_fmt(full, sizeof(full), "echo $$ >%s && exec %s", pidq, cmd) < 0 ||
	    fileio_fmt(stop, sizeof(stop), STOP_SCRIPT, pidq) < 0) {
		hostpool_finish(hp, index, HOSTPOOL_EXEC, 0, "command too long");
		goto out;
	}
	hostpool_set_state(hp, index, HOSTPOOL_RUNNING);
	rc = sshx_exec(s, full, stop, hoststream_on_output, st, &status, &fail, &eb);
	/* the tail of the host's stderr, for the post-mortem (best effort) */
	tail = sshx_stderr_tail(s);
	if (fileio_fmt(local, sizeof(local), "%s/rarbench.stderr", host_dir) == 0)
		(void)atomicfile_write(local, tail, strlen(tail), 0644, &eb2);
	if (rc < 0) {
		hostpool_finish(hp, index, outcome_of(fail), 0, st->failed ? st->eb.msg : eb.msg);
		goto out;
	}
	if (hoststream_check_end(hp, index, st, status, sshx_stderr_tail(s)) < 0)
		goto out;
	{
		struct remote_fetch rf = {.s = s, .rdir = rdir};
		hoststream_fetch_and_finish(hp, index, st, host_dir, remote_fetch, &rf, true);
	}
out:
	sshx_free(s);
}
