/* job: what rarlab does for one host — run the manifest there, stream its events, fetch and verify.
 */
#ifndef RARPERF_RARLAB_JOB_H
#define RARPERF_RARLAB_JOB_H

#include <stddef.h>

#include "errbuf.h"
#include "hostpool.h"
#include "job_config.h"

/*
 * Prepares ctx for a run: the output directory, the run id (new, or read
 * from DIR/run-id with cfg->resume so the hosts resume their remote runs)
 * and the manifest's absolute path. Returns 0 or -1 with eb filled.
 */
int job_prepare(struct job_ctx *ctx, struct errbuf *eb);

/* The hostpool job: runs host index of ctx (a struct job_ctx *), its end into *end. */
void job_run(struct hostpool *hp, size_t index, void *ctx, struct host_end *end);

#endif
