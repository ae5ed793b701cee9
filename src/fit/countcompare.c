/* countcompare: rarplot --compare on counted instructions (pure over the results). */
#include "countcompare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitreport.h"
#include "lsq.h"
#include "plotseries.h"

/* Whether every point of subject in res was counted; false also when it has none. */
static bool all_counted(const struct results *res, const char *subject, size_t *n,
			double *spread)
{
	*n = 0;
	for (size_t i = 0; i < res->n_points; i++) {
		if (strcmp(res->points[i].subject, subject) != 0)
			continue;
		if (!res->points[i].counted)
			return false;
		if (res->points[i].count_spread > *spread)
			*spread = res->points[i].count_spread;
		(*n)++;
	}
	return *n > 0;
}

static const struct plotseries *series_of(const struct plotseries_set *set, const char *subject)
{
	for (size_t i = 0; i < set->n_series; i++)
		if (strcmp(set->series[i].subject, subject) == 0)
			return &set->series[i];
	return NULL;
}

/* Intercept and slope of s's counts. 0 or -1 (out of memory). */
static int fit_counts(const struct plotseries *s, double *intercept, double *slope)
{
	double *x = calloc(s->n, sizeof(*x)), *y = calloc(s->n, sizeof(*y));
	struct lsq_sums sums;

	if (x == NULL || y == NULL) {
		free(x);
		free(y);
		return -1;
	}
	for (size_t i = 0; i < s->n; i++) {
		x[i] = s->pts[i].x;
		y[i] = s->pts[i].y_ms;
	}
	lsq_fit(x, y, NULL, s->n, &sums);
	*intercept = (double)sums.intercept;
	*slope = (double)sums.slope;
	free(x);
	free(y);
	return 0;
}

static void judge(struct countcompare_quantity *q, const char *name, double base, double cand,
		  double spread)
{
	snprintf(q->name, sizeof(q->name), "%s", name);
	q->base = base;
	q->cand = cand;
	q->ratio.value = base != 0 ? cand / base : NAN;
	q->ratio.lo = q->ratio.value * (1 - COUNTCOMPARE_SPREAD - spread);
	q->ratio.hi = q->ratio.value * (1 + COUNTCOMPARE_SPREAD + spread);
	q->verdict = verdict_judge(&q->ratio, COUNTCOMPARE_NOISE);
}

int countcompare_compute(const struct results *res, const char *baseline, const char *candidate,
			 const char *axis, struct countcompare *out, struct errbuf *eb)
{
	struct plotseries_set *set = NULL;
	const struct plotseries *b, *c;
	double bi, bs, ci, cs;
	char at_name[64];

	memset(out, 0, sizeof(*out));
	if (!all_counted(res, baseline, &out->n_base, &out->spread) ||
	    !all_counted(res, candidate, &out->n_cand, &out->spread)) {
		snprintf(out->why, sizeof(out->why),
			 "not every point of both subjects was counted (rarbench --counts)");
		return 0;
	}
	if (plotseries_build(res, axis, PLOTSERIES_INSTRUCTIONS, &set, eb) != 0)
		return -1;
	b = series_of(set, baseline);
	c = series_of(set, candidate);
	if (b == NULL || c == NULL) {
		plotseries_set_free(set);
		return errbuf_set(eb, "counts: no series of %s", b == NULL ? baseline : candidate);
	}
	if (fit_counts(b, &bi, &bs) < 0 || fit_counts(c, &ci, &cs) < 0) {
		plotseries_set_free(set);
		return errbuf_set(eb, "out of memory");
	}
	out->x_max = b->x_max < c->x_max ? b->x_max : c->x_max;
	judge(&out->q[0], "instructions per call", bi, ci, out->spread);
	judge(&out->q[1], "instructions per unit", bs, cs, out->spread);
	snprintf(at_name, sizeof(at_name), "instructions at %g %ss", out->x_max,
		 fitreport_unit(axis));
	judge(&out->q[2], at_name, bi + bs * out->x_max, ci + cs * out->x_max, out->spread);
	out->n_q = 3;
	/* A slope of (nearly) nothing, e.g. a tool that reads no policy: its ratio means nothing;
	 * per call and at the largest size carry the verdict. */
	if (fabs(bs) * out->x_max < 1e-6 * fabs(bi))
		out->q[1].verdict = VERDICT_UNKNOWN;
	for (size_t i = 0; i < out->n_q; i++) {
		out->regressed |= out->q[i].verdict == VERDICT_REGRESSED;
		out->improved |= out->q[i].verdict == VERDICT_IMPROVED;
	}
	out->available = true;
	plotseries_set_free(set);
	return 0;
}
