/* job_remote: one host's run over SSH — upload the manifest, exec rarbench, stream, download. */
#ifndef RARPERF_RARLAB_JOB_REMOTE_H
#define RARPERF_RARLAB_JOB_REMOTE_H

#include <stddef.h>

#include "hostpool.h"
#include "hoststream.h"
#include "inventory.h"
#include "job_config.h"
#include "sshx.h"

/*
 * Runs host h over SSH: connect, upload the manifest, run rarbench feeding
 * st, then hoststream_fetch. The host's end (ok or the first failure) goes
 * to *end.
 */
void job_remote_run(struct job_ctx *ctx, const struct inventory_host *h, const char *host_dir,
		    struct hoststream *st, struct host_end *end);

/*
 * The SSH options of host h: its address, port, user and key (else the run's), the run's
 * known_hosts, connect timeout and cancel flag, and idle_timeout_ms for each read.
 */
struct sshx_opts job_remote_ssh_opts(struct job_ctx *ctx, const struct inventory_host *h,
				     long idle_timeout_ms);

#endif
