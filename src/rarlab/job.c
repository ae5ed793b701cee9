/* job: one host's run — the shared part: events, verification, done.json, remote or local. */
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
#include "events.h"
#include "hostfacts.h"
#include "job_impl.h"

int job_fmt(char *buf, size_t cap, const char *format, ...)
{
	va_list ap;
	int n;

	va_start(ap, format);
	n = vsnprintf(buf, cap, format, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= cap ? -1 : 0;
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
	struct job_stream *st = c;

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

int job_on_output(void *c, const char *data, size_t len)
{
	struct job_stream *st = c;

	if (events_feed(st->reader, data, len, on_event, st, &st->eb) != 0) {
		st->failed = true;
		errbuf_prefix(&st->eb, "event stream");
		return 1;
	}
	return 0;
}

/* Writes the done event as DIR/<host>/done.json: the record of a complete fetch. */
static int write_done(const char *host_dir, const struct job_stream *st, struct errbuf *eb)
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
bool job_file_matches(const char *path, const char *sha256)
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
		if (!job_file_matches(path, ev.files[i].sha256))
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
	(void)job_fmt(buf, sizeof(buf), "%s\n", ctx->run_id);
	return atomicfile_write(path, buf, strlen(buf), 0644, eb);
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
int job_check_end(struct hostpool *hp, size_t index, struct job_stream *st, int exit_status,
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

void job_fetch_and_finish(struct hostpool *hp, size_t index, const struct job_stream *st,
			  const char *host_dir, job_fetch_fn fetch, void *c, bool unlink_bad)
{
	enum hostpool_outcome outcome = HOSTPOOL_EXEC;
	struct errbuf eb = {{0}};
	char local[PATH_MAX];

	hostpool_set_state(hp, index, HOSTPOOL_FETCHING);
	for (size_t i = 0; i < st->done.nfiles; i++) {
		const struct events_file *f = &st->done.files[i];
		int rc;
		(void)job_fmt(local, sizeof(local), "%s/%s", host_dir, f->name);
		rc = fetch(c, f, local, &outcome, &eb);
		if (rc < 0) {
			hostpool_finish(hp, index, outcome, 0, eb.msg);
			return;
		}
		if (rc == 0 && !job_file_matches(local, f->sha256)) {
			snprintf(eb.msg, sizeof(eb.msg), "%s: SHA-256 differs from the done event",
				 f->name);
			if (unlink_bad)
				unlink(local);
			hostpool_finish(hp, index, HOSTPOOL_EXEC, 0, eb.msg);
			return;
		}
	}
	if (write_done(host_dir, st, &eb) < 0) {
		hostpool_finish(hp, index, HOSTPOOL_EXEC, 0, eb.msg);
		return;
	}
	hostpool_finish(hp, index, HOSTPOOL_OK, 0, "");
}

void job_run(struct hostpool *hp, size_t index, void *arg)
{
	struct job_ctx *ctx = arg;
	const struct inventory_host *h = inventory_host(ctx->inv, ctx->sel[index]);
	struct job_stream st = {.hp = hp, .index = index};
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
		if (job_fmt(path, sizeof(path), "%s/done.json", host_dir) == 0)
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
		job_run_local(hp, index, ctx, host_dir, &st);
	else
		job_run_remote(hp, index, ctx, h, host_dir, &st);
	events_reader_free(st.reader);
}
