/* job_local: one host's run on this machine (ansible_connection=local) — fork rarbench, copy. */
#ifndef RARPERF_RARLAB_JOB_LOCAL_H
#define RARPERF_RARLAB_JOB_LOCAL_H

#include <stddef.h>

#include "hostpool.h"
#include "hoststream.h"
#include "inventory.h"
#include "job_config.h"

/*
 * Runs rarbench as a local child (ansible_connection=local) feeding st, then
 * hoststream_fetch from its output directory host_dir/run. The host's end
 * (ok or the first failure) goes to *end.
 */
void job_local_run(struct job_ctx *ctx, const char *host_dir, struct hoststream *st,
		   struct host_end *end);

#endif
