/* job_config: the options of one rarlab run and what every host's job shares (no code). */
#ifndef RARPERF_RARLAB_JOB_CONFIG_H
#define RARPERF_RARLAB_JOB_CONFIG_H

#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hostpool.h"
#include "hoststream.h"
#include "inventory.h"
#include "labident.h"
#include "sshx.h"

#define JOB_RUN_ID_MAX 48
#define JOB_FILE_MAX_BYTES HOSTSTREAM_FILE_MAX_BYTES /* a larger file fetched fails the host */

/* The options of one rarlab run (filled by main.c). */
struct job_config {
	const char *inventory, *limit, *known_hosts, *identity, *user, *out_dir, *manifest;
	const char *remote_prefix;
	const char *remote_dir; /* runs go to <remote_dir>/<run id>/<host>; relative: under home */
	unsigned forks;
	bool accept_new, resume;
	bool allow_mixed; /* run a lab whose hosts differ, grouped by what differs */
	bool dry_run;     /* check the manifest and the selection, contact no host */
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
	/* the identity pass (job_identify): the probe, then per host its identity or why not */
	char ident_cmd[2048];
	struct labident **ident; /* per host; NULL: not read */
	struct job_early *early; /* per host: a failure of the identity pass, replayed by job_run */
	/* per host, when every host runs at once: the identity pass's session, taken over by
	 * job_remote_run (one handshake per host, not two); NULL: connect anew */
	struct sshx **sessions;
	FILE *phase_log;          /* RARLAB_PHASE_LOG (phaselog.h); NULL: none */
	uint64_t t0_ns;           /* when rarlab started (CLOCK_MONOTONIC) */
	const char *const *names; /* per host: its inventory name */
};

/* A host that failed before its run (the identity pass): its outcome, replayed by job_run. */
struct job_early {
	bool failed;
	enum host_outcome outcome;
	char message[HOSTPOOL_TEXT_MAX];
};

#endif
