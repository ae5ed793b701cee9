/* job_remote: one host's run over SSH — upload the manifest, exec rarbench, stream, download. */
#include "job_remote.h"

#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "atomicfile.h"
#include "fileio.h"
#include "remotecmd.h"
#include "sshx.h"

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* The remote fetch: the host's run directory and its session. */
struct remote_fetch {
	struct sshx *s;
	const char *rdir;
};

/* hoststream_fetch_fn: downloads <rdir>/out/<name> unless dst already has its SHA-256. */
static enum hoststream_fetched remote_fetch(void *c, const struct events_file *f, const char *dst,
					    enum host_outcome *outcome, struct errbuf *eb)
{
	struct remote_fetch *rf = c;
	char remote[PATH_MAX];
	bool missing;

	if (hoststream_file_matches(dst, f->sha256))
		return HOSTSTREAM_ALREADY_THERE; /* fetched by an earlier run */
	*outcome = HOST_EXEC;
	if (fileio_fmt(remote, sizeof(remote), "%s/out/%s", rf->rdir, f->name) < 0) {
		errbuf_set(eb, "remote path too long");
		return HOSTSTREAM_FETCH_FAILED;
	}
	if (sshx_download(rf->s, remote, dst, JOB_FILE_MAX_BYTES, &missing, eb) < 0) {
		*outcome = sshx_fail_kind(rf->s, HOST_EXEC);
		return HOSTSTREAM_FETCH_FAILED;
	}
	return HOSTSTREAM_FETCHED;
}

struct sshx_opts job_remote_ssh_opts(struct job_ctx *ctx, const struct inventory_host *h,
				     long idle_timeout_ms)
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
	    .idle_timeout_ms = idle_timeout_ms,
	    .cancel = &ctx->cancel,
	};

	return o;
}

/*
 * Uploads the manifest to the host's run directory rdir, then runs rarbench
 * there feeding st. Returns 0 when rarbench exited (its status in *status),
 * else -1 with *end filled.
 */
static int remote_exec(struct job_ctx *ctx, const char *host_dir, struct sshx *s, const char *rdir,
		       struct hoststream *st, int *status, struct host_end *end)
{
	const struct job_config *cfg = ctx->cfg;
	char rman[PATH_MAX], local[PATH_MAX];
	char full[REMOTECMD_MAX_BYTES], stop[REMOTECMD_MAX_BYTES];
	enum host_outcome fail;
	struct errbuf eb2;
	const char *tail;
	int rc;

	if (fileio_fmt(rman, sizeof(rman), "%s/%s", rdir, base_name(ctx->manifest_abs)) < 0)
		return host_end_set(end, HOST_EXEC, "remote path too long");
	if (sshx_mkdirs(s, rdir, &end->eb) < 0 ||
	    sshx_upload(s, ctx->manifest_abs, rman, &end->eb) < 0)
		return host_end_set(end, sshx_fail_kind(s, HOST_EXEC), NULL);
	/* the shell records its pid, then exec makes it rarbench's: the stop command signals it */
	if (remotecmd_run(full, sizeof(full), cfg->remote_prefix, rman, rdir) < 0 ||
	    remotecmd_stop(stop, sizeof(stop), rdir) < 0)
		return host_end_set(end, HOST_EXEC, "command too long");
	hostpool_set_state(st->hp, st->index, HOSTPOOL_RUNNING);
	rc = sshx_exec(s, full, stop, hoststream_on_output, st, status, &fail, &end->eb);
	/* the tail of the host's stderr, for the post-mortem (best effort) */
	tail = sshx_stderr_tail(s);
	if (fileio_fmt(local, sizeof(local), "%s/rarbench.stderr", host_dir) == 0 &&
	    atomicfile_write(local, tail, strlen(tail), 0644, &eb2) < 0)
		eb2.msg[0] = '\0'; /* best effort: the host's own outcome says what happened */
	if (rc < 0) {
		if (st->failed)
			return host_end_set(end, fail, "%s", st->eb.msg);
		return host_end_set(end, fail, NULL);
	}
	return 0;
}

void job_remote_run(struct job_ctx *ctx, const struct inventory_host *h, const char *host_dir,
		    struct hoststream *st, struct host_end *end)
{
	struct sshx_opts o = job_remote_ssh_opts(ctx, h, ctx->cfg->command_timeout_ms);
	char rdir[PATH_MAX];
	struct sshx *s = NULL;
	enum host_outcome fail = HOST_EXEC;
	int status;

	/* the identity pass's session when it kept one (its options were these) */
	if (ctx->sessions != NULL && ctx->sessions[st->index] != NULL) {
		s = ctx->sessions[st->index];
		ctx->sessions[st->index] = NULL;
	} else {
		s = sshx_connect(&o, &fail, &end->eb);
	}
	if (s == NULL) {
		host_end_set(end, fail, NULL);
		return;
	}
	if (atomic_load(&ctx->cancel)) {
		host_end_set(end, HOST_INTERRUPTED, "interrupted before the upload");
		goto out;
	}
	hostpool_set_state(st->hp, st->index, HOSTPOOL_UPLOADING);
	/* h->name is a safe path component (inventory.h): rdir stays under remote_dir */
	if (fileio_fmt(rdir, sizeof(rdir), "%s/%s/%s", ctx->cfg->remote_dir, ctx->run_id, h->name) <
	    0) {
		host_end_set(end, HOST_EXEC, "remote path too long");
		goto out;
	}
	if (remote_exec(ctx, host_dir, s, rdir, st, &status, end) < 0 ||
	    hoststream_check_end(st, status, sshx_stderr_tail(s), end) < 0)
		goto out;
	{
		struct remote_fetch rf = {.s = s, .rdir = rdir};
		hoststream_fetch(st, host_dir, remote_fetch, &rf, true, end);
	}
out:
	sshx_free(s);
}
