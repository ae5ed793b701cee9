/* plan: the plan's problems, one line each, its one verdict, and the manifest's warning; the
 * plan is built by plan_build.c. */
#include "plan.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "growbuf.h"

int plan_problem(struct plan *pl, struct errbuf *eb, const char *path, const char *fmt, ...)
{
	char line[2 * PATH_MAX], what[2 * PATH_MAX - 64];
	va_list ap;

	if (pl->nproblems == PLAN_PROBLEMS_MAX)
		return 0; /* the first ones say enough */
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(line, sizeof(line), "%s: %s: %s", pl->manifest, path, what);
	if (growarray(&pl->problems, &pl->cap_problems, pl->nproblems + 1, sizeof(*pl->problems),
		      PLAN_PROBLEMS_MAX, eb) < 0)
		return -1;
	pl->problems[pl->nproblems] = strdup(line);
	if (pl->problems[pl->nproblems] == NULL)
		return errbuf_set(eb, "out of memory");
	pl->nproblems++;
	return 0;
}

int plan_problems_verdict(struct plan *pl, const char *about, struct errbuf *eb)
{
	if (pl->nproblems == 0)
		return 0;
	pl->bad_input = true;
	if (pl->nproblems == 1) {
		/* One problem is the one line. */
		errbuf_set(eb, "%s", pl->problems[0]);
		plan_problems_clear(pl);
		return -1;
	}
	return errbuf_set(eb, "%s: %zu problems%s (above)", pl->manifest, pl->nproblems, about);
}

void plan_problems_clear(struct plan *pl)
{
	for (size_t i = 0; i < pl->nproblems; i++)
		free(pl->problems[i]);
	free(pl->problems);
	pl->problems = NULL;
	pl->nproblems = pl->cap_problems = 0;
}

bool plan_warning(const struct plan *p, char *buf, size_t len)
{
	unsigned n;

	if (p == NULL || p->m == NULL || p->m->repetitions <= 1)
		return false;
	n = p->m->repetitions;
	/* Allowed (a within-sweep study), but never how to repeat an experiment. */
	snprintf(buf, len,
		 "warning: \"repetitions\": %u measures each point %u times in one sweep: "
		 "narrower intervals, still none of the variation between sweeps; to repeat an "
		 "experiment run %u sweeps into %u --out directories and compare them "
		 "(doc/guide-first-comparison.md, step 3)",
		 n, n, n, n);
	return true;
}

const char *plan_bytes_text(uint64_t bytes, char *buf, size_t len)
{
	static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, u == 0 ? "%.0f %s" : "%.1f %s", v, unit[u]);
	return buf;
}
