/* labcheck: rarlab's identity pass — every host's identity read, compared, refused or grouped. */
#ifndef RARPERF_RARLAB_LABCHECK_H
#define RARPERF_RARLAB_LABCHECK_H

#include <stddef.h>

#include "errbuf.h"
#include "job_config.h"
#include "manifest.h"

#define LABCHECK_NAMES_SHOWN 8 /* host names per value in the table of differences */

/* What the identity pass decided. */
enum labcheck_verdict {
	LABCHECK_FAILED = -1, /* it could not tell: eb says why */
	LABCHECK_GO = 0,      /* the lab is one (or mixed and allowed): run it */
	LABCHECK_REFUSED = 1  /* the hosts differ without cfg->allow_mixed: the table is printed */
};

/*
 * Reads every host's identity at once (ctx->cfg->forks at a time, the
 * probe labident_command builds for the limits m pins), compares them and
 * writes DIR/lab.json (labident_cmp_json). Hosts that cannot be read keep
 * their failure in ctx->early (job_run replays it) and are left out of the
 * comparison. A lab that differs is printed as a table on stderr and, without
 * cfg->allow_mixed, refused. When forks >= n each host's SSH session is kept
 * in ctx->sessions for its run. group[i] gets host i's group (0 when the lab is
 * identical). *lab_json (caller frees) is what goes into merged.json.
 * Returns the verdict (LABCHECK_FAILED with eb filled).
 */
enum labcheck_verdict labcheck_run(struct job_ctx *ctx, const char *const *names, size_t n,
				   const struct manifest *m, unsigned *group, char **lab_json,
				   struct errbuf *eb);

/* Frees what labcheck_run stored in ctx (identities, early failures, sessions not taken). */
void labcheck_clear(struct job_ctx *ctx, size_t n);

#endif
