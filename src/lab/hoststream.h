/* hoststream: one host's rarbench event stream: progress to the pool, the end checked, files
 * fetched and verified, done.json. */
#ifndef RARPERF_HOSTSTREAM_H
#define RARPERF_HOSTSTREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"
#include "events.h"
#include "hostpool.h"
#include "hostresults.h"

/* The largest file fetched from a host (results.json, results.tsv, journal.jsonl). */
#define HOSTSTREAM_FILE_MAX_BYTES HOSTRESULTS_MAX_BYTES

/*
 * The life cycle, whatever carries the stream (a local child or SSH):
 * zero a struct hoststream with hp, index and a new events_reader; feed it
 * the child's stdout with hoststream_on_output; when the child ended, call
 * hoststream_check_end, and when that returns 0, hoststream_fetch. Each
 * returns the host's end in a struct host_end, which the job hands back to
 * the pool (hostpool.h); the caller frees reader.
 */

/* The events of one host's stream, forwarded to the pool. */
struct hoststream {
	struct hostpool *hp;
	size_t index;
	struct events_reader *reader;
	struct events_event done;
	uint32_t points_done, points_total;
	bool saw_done, failed;
	struct errbuf eb;
};

/* True when the local file at path has the given SHA-256 (hex); false when unreadable. */
bool hoststream_file_matches(const char *path, const char *sha256);

/*
 * The files a done event may list (hoststream_files_ok): results.json, which
 * it must list, results.tsv and journal.jsonl, each at most once. Anything
 * else (done.json, a path, a quote) is a host error. Returns 0, or -1 with
 * eb saying what is wrong.
 */
int hoststream_files_ok(const struct events_event *done, struct errbuf *eb);

/*
 * True when DIR/<host>/done.json exists, lists the files hoststream_files_ok
 * accepts, every one present with the recorded SHA-256, and results.json
 * passes hostresults_check (a host a previous run completed); then *done
 * and *total (either may be NULL) get the points it recorded.
 */
bool hoststream_host_complete(const char *host_dir, uint32_t *done, uint32_t *total);

/*
 * Feeds len bytes of rarbench's stdout (c is a struct hoststream *) to its
 * event reader, forwarding the events to the pool. Returns 0, or 1 (stop)
 * with st->failed set and st->eb filled when the stream is malformed.
 */
int hoststream_on_output(void *c, const char *data, size_t len);

/*
 * After the run: flushes the event reader and checks how rarbench ended
 * (exit_status: its exit code, -1 when killed; stderr_tail: its stderr, of
 * which the last line names a failure) and that the done event succeeded
 * with the files hoststream_files_ok accepts (else HOST_RESULTS).
 * Returns 0 when the files can be fetched, else -1 with *end filled.
 */
int hoststream_check_end(struct hoststream *st, int exit_status, const char *stderr_tail,
			 struct host_end *end);

/* What a hoststream_fetch_fn did with one file. */
enum hoststream_fetched {
	HOSTSTREAM_FETCH_FAILED = -1, /* eb filled, *outcome set */
	HOSTSTREAM_FETCHED = 0,       /* brought to dst, to be verified */
	HOSTSTREAM_ALREADY_THERE = 1  /* dst was there with f's SHA-256 (an earlier run's) */
};

/*
 * Brings file f of the done event to dst (its path under the host's
 * directory). Returns what it did (above).
 */
typedef enum hoststream_fetched (*hoststream_fetch_fn)(void *c, const struct events_file *f,
						       const char *dst, enum host_outcome *outcome,
						       struct errbuf *eb);

/*
 * The end both carriers share: fetches each file of st's done event into
 * host_dir with fetch(c, ...), verifies its SHA-256 against the done event
 * (a mismatch fails the host; with unlink_bad the bad file is removed),
 * checks results.json with hostresults_check (HOST_RESULTS when it is not
 * usable), then writes host_dir/done.json. Returns 0 with *end HOST_OK, or
 * -1 with *end the first failure (the fetch's outcome, or HOST_EXEC).
 */
int hoststream_fetch(const struct hoststream *st, const char *host_dir, hoststream_fetch_fn fetch,
		     void *c, bool unlink_bad, struct host_end *end);

#endif
