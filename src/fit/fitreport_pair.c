/* fitreport_pair: report.md's comparisons by rarplot --compare's method, paired per round where
 * the sweep has rounds (fitreport.h). */
#include "fitreport.h"
#include "fitreport_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "verdict.h"

/* z of the 95 % interval: a bootstrap interval's half-width over it stands for a standard error. */
#define FITREPORT_Z95 1.959964

/* A ratio r (a / b) as a percentage change with its interval, its standard error from its width. */
static void fitreport_pct_of(const struct paired_ratio *r, struct fit_estimate *e)
{
	e->value = 100 * (r->value - 1);
	e->lo = 100 * (r->lo - 1);
	e->hi = 100 * (r->hi - 1);
	e->se = (e->hi - e->lo) / 2 / FITREPORT_Z95;
}

/* A percentage change (fit_compare's) as a ratio. */
static struct paired_ratio fitreport_ratio_of(const struct fit_estimate *e)
{
	return (struct paired_ratio){1 + e->value / 100, 1 + e->lo / 100, 1 + e->hi / 100};
}

/* The paired comparison of a against b (compare_compute), or false when they cannot be paired. */
static bool fitreport_paired(const struct fitreport *rep, const struct fitreport_row *a,
			     const struct fitreport_row *b, struct fit_comparison *cmp,
			     struct paired_ratio *raw, struct paired_ratio *slope)
{
	struct compare_opts o;
	struct compare_outcome *co;
	struct errbuf eb = {{0}};
	bool ok;

	if (!rep->pairing || a == b || rep->res == NULL || a->series->source != b->series->source ||
	    strcmp(a->series->host, b->series->host) != 0 ||
	    strcmp(a->series->subject, b->series->subject) == 0)
		return false;
	memset(&o, 0, sizeof(o));
	o.baseline = b->series->subject;
	o.candidate = a->series->subject;
	o.axis = rep->set->axis;
	o.noise = VERDICT_DEFAULT_NOISE;
	o.use_weights = rep->pair_weights;
	o.source = a->series->source;
	co = malloc(sizeof(*co)); /* a few KiB of notes: not on the stack */
	if (co == NULL)
		return false;
	/* Not paired (no rounds, several hosts, another axis): the delta method, as said. */
	ok = compare_compute(rep->res, &o, co, &eb) == 0 && co->paired && co->n_q >= 2;
	if (ok) {
		memset(cmp, 0, sizeof(*cmp));
		*raw = co->q[0].paired;
		*slope = co->q[1].paired;
		fitreport_pct_of(raw, &cmp->raw_pct);
		fitreport_pct_of(slope, &cmp->slope_pct);
		cmp->has_crossover = isfinite(co->crossover.value);
		cmp->crossover.value = co->crossover.value;
		cmp->crossover.lo = co->crossover.lo;
		cmp->crossover.hi = co->crossover.hi;
		cmp->crossover.se = (co->crossover.hi - co->crossover.lo) / 2 / FITREPORT_Z95;
		cmp->df = co->n_points > 2 ? co->n_points - 2 : 0;
	}
	free(co);
	return ok;
}

bool fitreport_compare_rows(const struct fitreport *rep, const struct fitreport_row *a,
			    const struct fitreport_row *b, struct fit_comparison *cmp,
			    struct paired_ratio *raw, struct paired_ratio *slope)
{
	if (fitreport_paired(rep, a, b, cmp, raw, slope))
		return true;
	fit_compare(&a->fit, &b->fit, cmp);
	*raw = fitreport_ratio_of(&cmp->raw_pct);
	*slope = fitreport_ratio_of(&cmp->slope_pct);
	return false;
}

size_t fitreport_pair(struct fitreport *rep, bool estimate, bool use_weights)
{
	rep->pairing = estimate;
	rep->pair_weights = use_weights;
	rep->n_paired = 0;
	for (size_t i = 0; i < rep->n_rows; i++) {
		struct fitreport_row *r = &rep->rows[i];

		if (r->baseline == NULL)
			continue;
		fitreport_row_compare(rep, r, r->baseline);
		rep->n_paired += r->paired;
	}
	return rep->n_paired;
}

void fitreport_row_compare(const struct fitreport *rep, struct fitreport_row *r,
			   const struct fitreport_row *b)
{
	double lo, hi;

	r->baseline = b;
	r->paired = fitreport_compare_rows(rep, r, b, &r->cmp, &r->raw_ratio, &r->slope_ratio);
	r->raw_diff_pct = r->cmp.raw_pct.value;
	r->slope_diff_pct = r->cmp.slope_pct.value;
	lo = fmin(r->series->x_min, b->series->x_min);
	hi = fmax(r->series->x_max, b->series->x_max);
	r->has_crossover = r != b && r->cmp.has_crossover && r->cmp.crossover.value >= lo &&
			   r->cmp.crossover.value <= hi;
	r->crossover_x = r->has_crossover ? r->cmp.crossover.value : NAN;
}
