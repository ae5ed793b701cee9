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

enum hostpool_outcome job_remote_outcome(enum sshx_fail f)
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
		*outcome = job_remote_outcome(sshx_fail_kind(rf->s, SSHX_FAIL_EXEC));
		return -1;
	}
	return 0;
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

void job_remote_run(struct hostpool *hp, size_t index, struct job_ctx *ctx,
		    const struct inventory_host *h, const char *host_dir, struct hoststream *st)
{
	const struct job_config *cfg = ctx->cfg;
	struct sshx_opts o = job_remote_ssh_opts(ctx, h, cfg->command_timeout_ms);
	char rdir[PATH_MAX], rman[PATH_MAX], local[PATH_MAX];
	char full[REMOTECMD_MAX_BYTES], stop[REMOTECMD_MAX_BYTES];
	struct sshx *s = NULL;
	enum sshx_fail fail;
	struct errbuf eb = {{0}}, eb2;
	const char *tail;
	int status, rc;

	/* the identity pass's session when it kept one (its options were these) */
	if (ctx->sessions != NULL && ctx->sessions[index] != NULL) {
		s = ctx->sessions[index];
		ctx->sessions[index] = NULL;
	} else {
		s = sshx_connect(&o, &fail, &eb);
	}
	if (s == NULL) {
		hostpool_finish(hp, index, job_remote_outcome(fail), 0, eb.msg);
		return;
	}
	if (atomic_load(&ctx->cancel)) {
		hostpool_finish(hp, index, HOSTPOOL_INTERRUPTED, 0,
				"interrupted before the upload");
		goto out;
	}
	hostpool_set_state(hp, index, HOSTPOOL_UPLOADING);
	/* h->name is a safe path component (inventory.h): rdir stays under remote_dir */
	if (fileio_fmt(rdir, sizeof(rdir), "%s/%s/%s", cfg->remote_dir, ctx->run_id, h->name) < 0 ||
	    fileio_fmt(rman, sizeof(rman), "%s/%s", rdir, base_name(ctx->manifest_abs)) < 0) {
		hostpool_finish(hp, index, HOSTPOOL_EXEC, 0, "remote path too long");
		goto out;
	}
	if (sshx_mkdirs(s, rdir, &eb) < 0 || sshx_upload(s, ctx->manifest_abs, rman, &eb) < 0) {
		hostpool_finish(hp, index, job_remote_outcome(sshx_fail_kind(s, SSHX_FAIL_EXEC)), 0,
				eb.msg);
		goto out;
	}
	/* the shell records its pid, then exec makes it rarbench's: the stop command signals it */
	if (remotecmd_run(full, sizeof(full), cfg->remote_prefix, rman, rdir) < 0 ||
	    remotecmd_stop(stop, sizeof(stop), rdir) < 0) {
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
		hostpool_finish(hp, index, job_remote_outcome(fail), 0,
				st->failed ? st->eb.msg : eb.msg);
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
