/* job_identify: the identity pass — what each host is (facts.json and a live probe), before runs.
 */
#ifndef RARPERF_RARLAB_JOB_IDENTIFY_H
#define RARPERF_RARLAB_JOB_IDENTIFY_H

#include <stddef.h>

#include "hostpool.h"

/*
 * The hostpool job of the identity pass: runs ctx->ident_cmd on host index
 * (over SSH, or /bin/sh for ansible_connection=local) and stores the parsed
 * identity in ctx->ident[index]; a host that cannot be read gets
 * ctx->early[index] filled (its outcome: connect, hostkey, auth, ...).
 * ctx is a struct job_ctx *. The host's end (ok, or why it cannot be
 * read) goes to *end.
 */
void job_identify(struct hostpool *hp, size_t index, void *ctx, struct host_end *end);

#endif
