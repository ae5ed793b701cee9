/* job_config: the options of one rarlab run and what every host's job shares (no code). */
#ifndef RARPERF_RARLAB_JOB_CONFIG_H
#define RARPERF_RARLAB_JOB_CONFIG_H

#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "hoststream.h"
#include "inventory.h"

#define JOB_RUN_ID_MAX 48
#define JOB_FILE_MAX_BYTES HOSTSTREAM_FILE_MAX_BYTES /* a larger file fetched fails the host */

/* The options of one rarlab run (filled by main.c). */
struct job_config {
	const char *inventory, *limit, *known_hosts, *identity, *user, *out_dir, *manifest;
	const char *remote_prefix;
	const char *remote_dir; /* runs go to <remote_dir>/<run id>/<host>; relative: under home */
	unsigned forks;
	bool accept_new, resume;
	bool dry_run; /* check the manifest and the selection, contact no host */
	long connect_timeout_ms, command_timeout_ms;
};

/* What every host's job shares; cancel counts SIGINTs and SIGTERMs (non-zero: stop). */
struct job_ctx {
	const struct job_config *cfg;
	const struct inventory *inv;
	const size_t *sel; /* pool index -> inventory index */
	char run_id[JOB_RUN_ID_MAX];
	char manifest_abs[PATH_MAX];
	atomic_int cancel;
};

#endif
