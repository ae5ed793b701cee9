/* hoststream: one host's rarbench event stream: progress to the pool, the end checked, files
 * fetched and verified, done.json. */
#include "hoststream.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cJSON.h>

#include "atomicfile.h"
#include "digest.h"
#include "fileio.h"
#include "runfiles.h"

/* done.json is one line; the old reader took less than 4096 bytes of it. */
#define HOSTSTREAM_DONE_MAX_BYTES 4095

static int hoststream_on_event(void *c, const struct events_event *ev)
{
	struct hoststream *st = c;

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

int hoststream_on_output(void *c, const char *data, size_t len)
{
	struct hoststream *st = c;

	if (events_feed(st->reader, data, len, hoststream_on_event, st, &st->eb) != 0) {
		st->failed = true;
		errbuf_prefix(&st->eb, "event stream");
		return 1;
	}
	return 0;
}

/* Writes the done event as DIR/<host>/done.json: the record of a complete fetch. */
static int hoststream_write_done(const char *host_dir, const struct hoststream *st,
				 struct errbuf *eb)
{
	const struct events_event *ev = &st->done;
	cJSON *root = cJSON_CreateObject(), *files;
	char path[PATH_MAX], *text = NULL;
	int rc = -1;

	/* cJSON quotes every name: whatever a host sent, the record stays JSON */
	if (root == NULL || cJSON_AddStringToObject(root, "event", "done") == NULL ||
	    cJSON_AddNumberToObject(root, "t", ev->t) == NULL ||
	    cJSON_AddNumberToObject(root, "status", ev->status) == NULL ||
	    cJSON_AddNumberToObject(root, "done", st->points_done) == NULL ||
	    cJSON_AddNumberToObject(root, "total", st->points_total) == NULL ||
	    (files = cJSON_AddObjectToObject(root, "files")) == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < ev->nfiles; i++)
		if (cJSON_AddStringToObject(files, ev->files[i].name, ev->files[i].sha256) ==
		    NULL) {
			errbuf_set(eb, "out of memory");
			goto out;
		}
	text = cJSON_PrintUnformatted(root);
	if (text == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	if (fileio_fmt(path, sizeof(path), "%s/done.json", host_dir) < 0) {
		errbuf_set(eb, "%s: path too long", host_dir);
		goto out;
	}
	/* one line: the text's NUL becomes its newline, written with its length */
	size_t len = strlen(text);
	text[len] = '\n';
	rc = atomicfile_write(path, text, len + 1, 0644, eb);
out:
	cJSON_free(text);
	cJSON_Delete(root);
	return rc;
}

int hoststream_files_ok(const struct events_event *done, struct errbuf *eb)
{
	static const char *const expected[] = RUNFILES_SWEEP;
	bool seen[3] = {false, false, false};

	for (size_t i = 0; i < done->nfiles; i++) {
		size_t k;
		for (k = 0; k < 3; k++)
			if (strcmp(done->files[i].name, expected[k]) == 0)
				break;
		if (k == 3)
			return errbuf_set(eb, "done event lists an unexpected file '%.64s'",
					  done->files[i].name);
		if (seen[k])
			return errbuf_set(eb, "done event lists %s twice", expected[k]);
		seen[k] = true;
	}
	if (!seen[0])
		return errbuf_set(eb, "done event lists no results.json");
	return 0;
}

/* True when the local file has the given SHA-256. */
bool hoststream_file_matches(const char *path, const char *sha256)
{
	char hex[DIGEST_SHA256_HEX_LEN + 1];
	struct errbuf eb;

	return digest_sha256_file(path, hex, &eb) == 0 && strcmp(hex, sha256) == 0;
}

bool hoststream_host_complete(const char *host_dir, uint32_t *done, uint32_t *total)
{
	char path[PATH_MAX], *buf = NULL;
	struct events_event ev;
	struct errbuf eb;
	size_t n = 0;
	bool ok;

	struct hostresults_counts counts;

	if (fileio_fmt(path, sizeof(path), "%s/done.json", host_dir) < 0 ||
	    fileio_read(path, HOSTSTREAM_DONE_MAX_BYTES, NULL, &buf, &n, &eb) < 0)
		return false;
	while (n > 0 && buf[n - 1] == '\n')
		n--;
	ok = n > 0 && events_parse_line(buf, n, &ev, &eb) == 0 && ev.kind == EVENTS_DONE &&
	     hoststream_files_ok(&ev, &eb) == 0;
	free(buf);
	if (!ok)
		return false;
	for (size_t i = 0; i < ev.nfiles; i++) {
		if (fileio_fmt(path, sizeof(path), "%s/%s", host_dir, ev.files[i].name) < 0 ||
		    !hoststream_file_matches(path, ev.files[i].sha256))
			return false;
	}
	if (fileio_fmt(path, sizeof(path), "%s/" RUNFILES_RESULTS, host_dir) < 0 ||
	    hostresults_check(path, &counts, &eb) < 0)
		return false;
	if (done != NULL)
		*done = ev.done;
	if (total != NULL)
		*total = ev.total;
	return true;
}

/* The last non-empty line of text, into out. */
static const char *hoststream_last_line(const char *text, char *out, size_t cap)
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
 * Returns 0 when the files can be fetched, else -1 with *end filled.
 */
int hoststream_check_end(struct hoststream *st, int exit_status, const char *stderr_tail,
			 struct host_end *end)
{
	char line[HOSTPOOL_TEXT_MAX];
	bool saw_done = false;

	if (!st->failed &&
	    events_finish(st->reader, hoststream_on_event, st, &saw_done, &st->eb) != 0)
		st->failed = true;
	if (st->failed)
		return host_end_set(end, HOST_EXEC, "%s", st->eb.msg);
	if (exit_status != 0) {
		hoststream_last_line(stderr_tail, line, sizeof(line));
		host_end_set(end, exit_status < 0 ? HOST_EXEC : HOST_EXIT, "%s",
			     line[0] ? line : "rarbench killed by a signal");
		end->exit_code = exit_status;
		return -1;
	}
	if (!st->saw_done || st->done.status != 0)
		return host_end_set(end, HOST_EXEC, "%s",
				    st->saw_done ? "done event with a failure status"
						 : "rarbench ended without a done event");
	if (hoststream_files_ok(&st->done, &st->eb) < 0)
		return host_end_set(end, HOST_RESULTS, "%s", st->eb.msg);
	return 0;
}

int hoststream_fetch(const struct hoststream *st, const char *host_dir, hoststream_fetch_fn fetch,
		     void *c, bool unlink_bad, struct host_end *end)
{
	struct hostresults_counts counts;
	char local[PATH_MAX];

	hostpool_set_state(st->hp, st->index, HOSTPOOL_FETCHING);
	/* the names were checked by hoststream_check_end: never a path, never done.json */
	if (hoststream_files_ok(&st->done, &end->eb) < 0)
		return host_end_set(end, HOST_RESULTS, NULL);
	for (size_t i = 0; i < st->done.nfiles; i++) {
		const struct events_file *f = &st->done.files[i];
		enum host_outcome outcome = HOST_EXEC;
		enum hoststream_fetched rc;
		if (fileio_fmt(local, sizeof(local), "%s/%s", host_dir, f->name) < 0)
			return host_end_set(end, HOST_EXEC, "path too long");
		rc = fetch(c, f, local, &outcome, &end->eb);
		if (rc == HOSTSTREAM_FETCH_FAILED)
			return host_end_set(end, outcome, NULL);
		if (rc == HOSTSTREAM_FETCHED && !hoststream_file_matches(local, f->sha256)) {
			if (unlink_bad)
				unlink(local);
			return host_end_set(end, HOST_EXEC,
					    "%s: SHA-256 differs from the done event", f->name);
		}
	}
	/* a host is ok only with results the merge can use */
	if (fileio_fmt(local, sizeof(local), "%s/" RUNFILES_RESULTS, host_dir) < 0 ||
	    hostresults_check(local, &counts, &end->eb) < 0) {
		errbuf_prefix(&end->eb, RUNFILES_RESULTS);
		return host_end_set(end, HOST_RESULTS, NULL);
	}
	if (hoststream_write_done(host_dir, st, &end->eb) < 0)
		return host_end_set(end, HOST_EXEC, NULL);
	host_end_set(end, HOST_OK, "%s", "");
	return 0;
}
