/* job_identify: one host's identity probe, over SSH or as a local shell, into ctx->ident. */
#include "job_identify.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "growbuf.h"
#include "job_config.h"
#include "job_remote.h"
#include "labident.h"
#include "sanitize.h"
#include "sshx.h"

extern char **environ;

/* The probe's output, bounded: more than LABIDENT_OUTPUT_MAX_BYTES stops it. The buffer grows
 * on demand: a lab of 512 hosts probes them all at once. */
struct probe_out {
	struct growbuf buf;
	bool over, nomem;
};

static int append(void *arg, const char *data, size_t len)
{
	struct probe_out *o = arg;
	struct errbuf eb;

	if (len > LABIDENT_OUTPUT_MAX_BYTES - o->buf.len) {
		o->over = true;
		return -1;
	}
	if (growbuf_append(&o->buf, data, len, &eb) < 0) {
		o->nomem = true;
		return -1;
	}
	return 0;
}

/* /bin/sh -c cmd here, its stdout into o (bounded by timeout_ms). Returns 0 or -1 with eb. */
static int probe_local(const char *cmd, struct probe_out *o, long timeout_ms, struct errbuf *eb)
{
	char *argv[] = {"sh", "-c", (char *)cmd, NULL};
	posix_spawn_file_actions_t fa;
	int pfd[2], status, rc = -1;
	long deadline = clock_now_ms() + timeout_ms;
	char chunk[4096];
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC) < 0)
		return errbuf_set_errno(eb, errno, "pipe");
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	if (posix_spawn(&pid, "/bin/sh", &fa, NULL, argv, environ) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		close(pfd[0]);
		close(pfd[1]);
		return errbuf_set(eb, "cannot run /bin/sh");
	}
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	for (;;) {
		struct pollfd p = {pfd[0], POLLIN, 0};
		ssize_t n;
		if (clock_now_ms() > deadline) {
			kill(pid, SIGKILL);
			errbuf_set(eb, "identity probe: no end within %ld s", timeout_ms / 1000);
			break;
		}
		if (poll(&p, 1, 100) <= 0)
			continue;
		n = read(pfd[0], chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = 0;
			break;
		}
		if (append(o, chunk, (size_t)n) < 0) {
			kill(pid, SIGKILL);
			errbuf_set(eb, "identity probe: more than %d bytes",
				   LABIDENT_OUTPUT_MAX_BYTES);
			break;
		}
	}
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return rc;
}

void job_identify(struct hostpool *hp, size_t index, void *arg, struct host_end *end)
{
	struct job_ctx *ctx = arg;
	const struct job_config *cfg = ctx->cfg;
	const struct inventory_host *h = inventory_host(ctx->inv, ctx->sel[index]);
	struct job_early *early = &ctx->early[index];
	struct probe_out o = {.over = false, .nomem = false};
	struct errbuf *eb = &end->eb;
	struct sshx *s = NULL;
	enum host_outcome fail = HOST_EXEC;
	int status = 0, rc;

	growbuf_init(&o.buf, LABIDENT_OUTPUT_MAX_BYTES);
	early->outcome = HOST_EXEC;
	if (h->local) {
		rc = probe_local(ctx->ident_cmd, &o, cfg->connect_timeout_ms, eb);
	} else {
		/* the probe's idle timeout: the run sets its own */
		struct sshx_opts so = job_remote_ssh_opts(ctx, h, cfg->connect_timeout_ms);
		s = sshx_connect(&so, &fail, eb);
		if (s != NULL)
			hostpool_set_state(hp, index, HOSTPOOL_RUNNING); /* connected */
		rc = s == NULL ? -1
			       : sshx_exec(s, ctx->ident_cmd, NULL, append, &o, &status, &fail, eb);
		if (rc < 0)
			early->outcome = fail;
	}
	if (rc < 0)
		goto fail;
	if (status != 0) {
		errbuf_set(eb, "identity probe: exit status %d", status);
		goto fail;
	}
	ctx->ident[index] = labident_parse(o.buf.data ? o.buf.data : "", o.buf.len, eb);
	if (ctx->ident[index] == NULL)
		goto fail;
	if (ctx->sessions != NULL && s != NULL) {
		sshx_set_idle_timeout(s, cfg->command_timeout_ms);
		ctx->sessions[index] = s; /* the run goes on in it */
		s = NULL;
	}
	host_end_set(end, HOST_OK, "identified");
	goto out;
fail:
	if (o.over)
		errbuf_set(eb, "identity probe: more than %d bytes", LABIDENT_OUTPUT_MAX_BYTES);
	if (o.nomem)
		errbuf_set(eb, "identity probe: out of memory");
	early->failed = true;
	sanitize_str(early->message, sizeof(early->message), eb->msg);
	host_end_set(end, early->outcome, NULL);
out:
	sshx_free(s);
	growbuf_free(&o.buf);
}
