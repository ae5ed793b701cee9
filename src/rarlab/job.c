/* job: one host's run: prepare the run, then dispatch the host to job_local or job_remote. */
#include "job.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "atomicfile.h"
#include "fileio.h"
#include "hoststream.h"
#include "job_local.h"
#include "job_remote.h"

int job_prepare(struct job_ctx *ctx, struct errbuf *eb)
{
	char path[PATH_MAX], buf[JOB_RUN_ID_MAX];
	FILE *f;

	if (realpath(ctx->cfg->manifest, ctx->manifest_abs) == NULL)
		return errbuf_set_errno(eb, errno, "%s", ctx->cfg->manifest);
	if (fileio_mkdirs(ctx->cfg->out_dir, eb) < 0)
		return -1;
	if (fileio_fmt(path, sizeof(path), "%s/run-id", ctx->cfg->out_dir) < 0)
		return errbuf_set(eb, "%s: path too long", ctx->cfg->out_dir);
	if (ctx->cfg->resume && (f = fopen(path, "re")) != NULL) {
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
	if (fileio_fmt(buf, sizeof(buf), "%s\n", ctx->run_id) < 0)
		return errbuf_set(eb, "run id too long");
	return atomicfile_write(path, buf, strlen(buf), 0644, eb);
}

void job_run(struct hostpool *hp, size_t index, void *arg, struct host_end *end)
{
	struct job_ctx *ctx = arg;
	const struct inventory_host *h = inventory_host(ctx->inv, ctx->sel[index]);
	struct hoststream st = {.hp = hp, .index = index};
	char host_dir[PATH_MAX];
	uint32_t done, total;

	if (ctx->early != NULL && ctx->early[index].failed) {
		/* the identity pass could not read it: its outcome stands */
		host_end_set(end, ctx->early[index].outcome, "%s", ctx->early[index].message);
		return;
	}
	if (atomic_load(&ctx->cancel)) {
		host_end_set(end, HOST_INTERRUPTED, "not started");
		return;
	}
	/* h->name is a safe path component (inventory.h): host_dir stays under DIR */
	if (fileio_fmt(host_dir, sizeof(host_dir), "%s/%s", ctx->cfg->out_dir, h->name) < 0) {
		host_end_set(end, HOST_EXEC, "DIR/<host>: path too long");
		return;
	}
	if (fileio_mkdirs(host_dir, &end->eb) < 0) {
		host_end_set(end, HOST_EXEC, NULL);
		return;
	}
	if (!ctx->cfg->resume) {
		/* a new run: what an earlier run in DIR left is not this run's result */
		char path[PATH_MAX];
		if (fileio_fmt(path, sizeof(path), "%s/done.json", host_dir) == 0)
			unlink(path);
	}
	if (ctx->cfg->resume && hoststream_host_complete(host_dir, &done, &total)) {
		hostpool_set_progress(hp, index, done, total, -1);
		host_end_set(end, HOST_OK, "fetched by an earlier run");
		return;
	}
	st.reader = events_reader_new();
	if (st.reader == NULL) {
		host_end_set(end, HOST_EXEC, "out of memory");
		return;
	}
	if (h->local)
		job_local_run(ctx, host_dir, &st, end);
	else
		job_remote_run(ctx, h, host_dir, &st, end);
	events_reader_free(st.reader);
}
