/* hostpool: run one job per host on worker threads, at most `forks` at once, with per-host state.
 */
#ifndef RARPERF_HOSTPOOL_H
#define RARPERF_HOSTPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"
#include "host_outcome.h"

#define HOSTPOOL_FORKS_MAX 1024
#define HOSTPOOL_STACK_BYTES (256 * 1024) /* worker thread stack */
#define HOSTPOOL_TEXT_MAX 160

enum hostpool_state {
	HOSTPOOL_WAITING,
	HOSTPOOL_CONNECTING,
	HOSTPOOL_UPLOADING,
	HOSTPOOL_RUNNING,
	HOSTPOOL_FETCHING,
	HOSTPOOL_FINISHED,
};

/* A copy of one host's state (what the display and the summary read). */
struct hostpool_status {
	enum hostpool_state state;
	enum host_outcome outcome;                /* valid when state is HOSTPOOL_FINISHED */
	int exit_code;                            /* HOST_EXIT */
	uint32_t done, total;                     /* points */
	double eta_s;                             /* -1 when unknown */
	uint64_t started_ns, finished_ns;         /* CLOCK_MONOTONIC; 0 when not yet */
	uint64_t state_ns[HOSTPOOL_FINISHED + 1]; /* when each state was first entered; 0: never */
	char point[HOSTPOOL_TEXT_MAX];            /* the current point (sanitised) */
	char message[HOSTPOOL_TEXT_MAX];          /* the last error or note (sanitised) */
	unsigned version;                         /* bumped at every change */
};

struct hostpool;

/*
 * The job for host index; runs on a worker thread, reports its progress
 * through the hostpool_set_* calls and returns the host's end in *end: the
 * pool then finishes the host (the one place a host ends). *end comes
 * filled with HOST_EXEC and the host's last message, what a job that sets
 * nothing ends with. ctx is the one given to hostpool_start.
 */
typedef void (*hostpool_job)(struct hostpool *hp, size_t index, void *ctx, struct host_end *end);

/* A pool for nhosts hosts, all WAITING. forks is clamped to 1..HOSTPOOL_FORKS_MAX. */
struct hostpool *hostpool_new(size_t nhosts, unsigned forks, struct errbuf *eb);

/* Starts min(forks, nhosts) workers taking hosts in index order. Returns 0 or -1. */
int hostpool_start(struct hostpool *hp, hostpool_job job, void *ctx, struct errbuf *eb);

/* Waits up to timeout_ms for every host to finish; true when all have (workers joined). */
bool hostpool_wait(struct hostpool *hp, long timeout_ms);

/* Joins the workers (waiting for them) and frees; NULL is a no-op. */
void hostpool_free(struct hostpool *hp);

/*
 * Job side: thread-safe updates of host index. Texts (point, message) come
 * from the host: they are stored through sanitize_str (src/common), so what
 * the display and the summary read is safe for a terminal and a TSV field.
 */
void hostpool_set_state(struct hostpool *hp, size_t index, enum hostpool_state state);
void hostpool_set_progress(struct hostpool *hp, size_t index, uint32_t done, uint32_t total,
			   double eta_s);
void hostpool_set_point(struct hostpool *hp, size_t index, const char *point);
void hostpool_set_message(struct hostpool *hp, size_t index, const char *message);

/* A consistent copy of host index's state. */
void hostpool_get(struct hostpool *hp, size_t index, struct hostpool_status *out);

/* Number of hosts. */
size_t hostpool_count(const struct hostpool *hp);

const char *hostpool_state_name(enum hostpool_state s);

#endif
