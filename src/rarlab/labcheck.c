/* labcheck: the identity pass on a hostpool of its own, then the comparison and its verdict. */
#include "labcheck.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "atomicfile.h"
#include "clock.h"
#include "fileio.h"
#include "hostpool.h"
#include "job_identify.h"
#include "labident.h"
#include "phaselog.h"
#include "sshx.h"

#define WAIT_MS 200

/* The probe for the limits m pins, into ctx->ident_cmd. */
static int build_command(struct job_ctx *ctx, const struct manifest *m, struct errbuf *eb)
{
	const char *names[MANIFEST_LIMITS_MAX];
	size_t n = 0;

	for (size_t i = 0; i < m->env.nlimits && n < MANIFEST_LIMITS_MAX; i++)
		names[n++] = m->env.limits[i].name;
	if (labident_command(ctx->ident_cmd, sizeof(ctx->ident_cmd), ctx->cfg->remote_prefix, names,
			     n) < 0)
		return errbuf_set(eb, "identity probe: command too long");
	return 0;
}

/* Runs job_identify on every host; false when interrupted. */
static int identify_all(struct job_ctx *ctx, size_t n, struct errbuf *eb)
{
	struct hostpool *hp = hostpool_new(n, ctx->cfg->forks, eb);
	int rc = -1;

	if (hp == NULL)
		return -1;
	if (hostpool_start(hp, job_identify, ctx, eb) < 0)
		goto out;
	while (!hostpool_wait(hp, WAIT_MS))
		;
	phaselog_write(ctx->phase_log, "identify", hp, ctx->names, ctx->t0_ns);
	rc = 0;
out:
	hostpool_free(hp);
	return rc;
}

enum labcheck_verdict labcheck_run(struct job_ctx *ctx, const char *const *names, size_t n,
				   const struct manifest *m, unsigned *group, char **lab_json,
				   struct errbuf *eb)
{
	struct labident_cmp *cmp = NULL;
	char path[PATH_MAX];
	size_t read = 0;
	uint64_t t0;
	enum labcheck_verdict rc = LABCHECK_FAILED;

	*lab_json = NULL;
	ctx->ident = calloc(n ? n : 1, sizeof(*ctx->ident));
	ctx->early = calloc(n ? n : 1, sizeof(*ctx->early));
	/* every host at once: each keeps its session for its run (else it would sit idle, maybe
	 * for hours, waiting for its turn) */
	if (ctx->cfg->forks >= n)
		ctx->sessions = calloc(n ? n : 1, sizeof(*ctx->sessions));
	if (ctx->ident == NULL || ctx->early == NULL ||
	    (ctx->cfg->forks >= n && ctx->sessions == NULL)) {
		errbuf_set(eb, "out of memory");
		return LABCHECK_FAILED;
	}
	t0 = clock_now_ns();
	if (build_command(ctx, m, eb) < 0 || identify_all(ctx, n, eb) < 0)
		return LABCHECK_FAILED;
	for (size_t i = 0; i < n; i++)
		read += ctx->ident[i] != NULL;
	fprintf(stderr, "rarlab: %zu of %zu host%s identified in %.1f s\n", read, n,
		n == 1 ? "" : "s", (double)(clock_now_ns() - t0) / 1e9);
	cmp = labident_compare((struct labident *const *)ctx->ident, names, n, eb);
	if (cmp == NULL)
		return LABCHECK_FAILED;
	*lab_json = labident_cmp_json(cmp);
	if (*lab_json == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	if (fileio_fmt(path, sizeof(path), "%s/lab.json", ctx->cfg->out_dir) < 0) {
		errbuf_set(eb, "%s: path too long", ctx->cfg->out_dir);
		goto out;
	}
	if (atomicfile_write(path, *lab_json, strlen(*lab_json), 0644, eb) < 0)
		goto out;
	for (size_t i = 0; i < n; i++)
		group[i] = labident_cmp_ndiffs(cmp) > 0 ? labident_cmp_group(cmp, i) : 0;
	rc = LABCHECK_GO;
	if (labident_cmp_ndiffs(cmp) > 0) {
		fprintf(stderr,
			"rarlab: the lab's %zu hosts read differ in %zu key%s, %zu groups "
			"(DIR/lab.json):\n",
			read, labident_cmp_ndiffs(cmp), labident_cmp_ndiffs(cmp) == 1 ? "" : "s",
			labident_cmp_ngroups(cmp));
		labident_cmp_print(cmp, stderr, LABCHECK_NAMES_SHOWN);
		if (ctx->cfg->allow_mixed) {
			fprintf(stderr, "rarlab: --allow-mixed: running it, hosts grouped by what "
					"differs\n");
		} else {
			fprintf(stderr, "rarlab: a lab whose hosts differ is refused (its "
					"between-host variance would not be noise); "
					"--allow-mixed runs it grouped\n");
			rc = LABCHECK_REFUSED;
		}
	}
out:
	labident_cmp_free(cmp);
	if (rc == LABCHECK_FAILED) {
		free(*lab_json);
		*lab_json = NULL;
	}
	return rc;
}

void labcheck_clear(struct job_ctx *ctx, size_t n)
{
	for (size_t i = 0; ctx->ident != NULL && i < n; i++)
		labident_free(ctx->ident[i]);
	for (size_t i = 0; ctx->sessions != NULL && i < n; i++)
		sshx_free(ctx->sessions[i]);
	free(ctx->sessions);
	ctx->sessions = NULL;
	free(ctx->ident);
	free(ctx->early);
	ctx->ident = NULL;
	ctx->early = NULL;
}
