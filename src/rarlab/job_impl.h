/* job_impl: what job.c shares with its remote (job_remote.c) and local (job_local.c) paths. */
#ifndef RARPERF_RARLAB_JOB_IMPL_H
#define RARPERF_RARLAB_JOB_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"
#include "events.h"
#include "hostpool.h"
#include "inventory.h"
#include "job.h"

/* The events of one host's stream, forwarded to the pool. */
struct job_stream {
	struct hostpool *hp;
	size_t index;
	struct events_reader *reader;
	struct events_event done;
	uint32_t points_done, points_total;
	bool saw_done, failed;
	struct errbuf eb;
};

/* snprintf that reports truncation: 0, or -1 when the result did not fit. */
int job_fmt(char *buf, size_t cap, const char *format, ...) __attribute__((format(printf, 3, 4)));

/* True when the local file at path has the given SHA-256 (hex); false when unreadable. */
bool job_file_matches(const char *path, const char *sha256);

/*
 * Feeds len bytes of rarbench's stdout (c is a struct job_stream *) to its
 * event reader, forwarding the events to the pool. Returns 0, or 1 (stop)
 * with st->failed set and st->eb filled when the stream is malformed.
 */
int job_on_output(void *c, const char *data, size_t len);

/*
 * After the run: flushes the event reader and checks how rarbench ended
 * (exit_status: its exit code, -1 when killed; stderr_tail: its stderr, of
 * which the last line names a failure) and that the done event succeeded
 * with files. Returns 0 when the files can be fetched, else finishes the
 * host and returns -1.
 */
int job_check_end(struct hostpool *hp, size_t index, struct job_stream *st, int exit_status,
		  const char *stderr_tail);

/*
 * Brings file f of the done event to dst (its path under the host's
 * directory). Returns 0 when fetched (to be verified), 1 when dst was
 * already there with f's SHA-256, or -1 with eb filled and *outcome set.
 */
typedef int (*job_fetch_fn)(void *c, const struct events_file *f, const char *dst,
			    enum hostpool_outcome *outcome, struct errbuf *eb);

/*
 * The end both paths share: fetches each file of st's done event into
 * host_dir with fetch(c, ...), verifies its SHA-256 against the done event
 * (a mismatch fails the host; with unlink_bad the bad file is removed), then
 * writes host_dir/done.json and finishes the host OK. Finishes the host
 * (with the fetch's outcome, or HOSTPOOL_EXEC) on the first failure.
 */
void job_fetch_and_finish(struct hostpool *hp, size_t index, const struct job_stream *st,
			  const char *host_dir, job_fetch_fn fetch, void *c, bool unlink_bad);

/*
 * Runs host h over SSH (job_remote.c): connect, upload the manifest, run
 * rarbench feeding st, then job_fetch_and_finish. Always finishes the host.
 */
void job_run_remote(struct hostpool *hp, size_t index, struct job_ctx *ctx,
		    const struct inventory_host *h, const char *host_dir, struct job_stream *st);

/*
 * Runs rarbench as a local child (job_local.c, ansible_connection=local)
 * feeding st, then job_fetch_and_finish from its output directory
 * host_dir/run. Always finishes the host.
 */
void job_run_local(struct hostpool *hp, size_t index, struct job_ctx *ctx, const char *host_dir,
		   struct job_stream *st);

#endif
