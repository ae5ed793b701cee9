/* job: what rarlab does for one host — run the manifest there, stream its events, fetch and verify.
 */
#ifndef RARPERF_RARLAB_JOB_H
#define RARPERF_RARLAB_JOB_H

#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "hostpool.h"
#include "inventory.h"

#define JOB_RUN_ID_MAX 48
#define JOB_FILE_MAX_BYTES (256L << 20)

/* The options of one rarlab run (filled by main.c). */
struct job_config {
	const char *inventory, *limit, *known_hosts, *identity, *user, *out_dir, *manifest;
	const char *remote_prefix;
	const char *remote_dir; /* runs go to <remote_dir>/<run id>/<host>; relative: under home */
	unsigned forks;
	bool accept_new, resume;
	long connect_timeout_ms, command_timeout_ms;
};

/* What every host's job shares; cancel is set on SIGINT. */
struct job_ctx {
	const struct job_config *cfg;
	const struct inventory *inv;
	const size_t *sel; /* pool index -> inventory index */
	char run_id[JOB_RUN_ID_MAX];
	char manifest_abs[PATH_MAX];
	atomic_int cancel;
};

/*
 * Prepares ctx for a run: the output directory, the run id (new, or read
 * from DIR/run-id with cfg->resume so the hosts resume their remote runs)
 * and the manifest's absolute path. Returns 0 or -1 with eb filled.
 */
int job_prepare(struct job_ctx *ctx, struct errbuf *eb);

/* The hostpool job: runs host index of ctx (a struct job_ctx *). */
void job_run(struct hostpool *hp, size_t index, void *ctx);

/*
 * True when DIR/<host>/done.json exists and every file it lists is present
 * with the recorded SHA-256 (a host a previous run completed); then *done
 * and *total (either may be NULL) get the points it recorded.
 */
bool job_host_complete(const char *host_dir, uint32_t *done, uint32_t *total);

#endif
