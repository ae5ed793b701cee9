/* compare_sweeps: one comparison repeated over several sweeps, and what varies between them
 * (compare.h). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "compare.h"

/* Whether file source holds a point of subject. */
static bool compare_sweeps_holds(const struct results *res, size_t source, const char *subject)
{
	for (size_t i = 0; i < res->n_points; i++)
		if (res->points[i].source == source && strcmp(res->points[i].subject, subject) == 0)
			return true;
	return false;
}

size_t compare_sweeps_find(const struct results *res, const struct compare_opts *o, size_t *source)
{
	size_t k = 0;

	for (size_t s = 0; s < res->n_sources; s++) {
		bool b = compare_sweeps_holds(res, s, o->baseline);
		bool c = compare_sweeps_holds(res, s, o->candidate);

		if (b != c)
			return 0;
		if (!b)
			continue;
		if (k == COMPARE_MAX_SWEEPS)
			return 0;
		source[k++] = s;
	}
	return k;
}

/*
 * The sweeps an interval of the mean, t(K-1) sd / sqrt(K), needs to fit within ±noise with the
 * same spread sd: the smallest K >= 2, or SIZE_MAX when more than COMPARE_MAX_NEEDED would.
 */
#define COMPARE_MAX_NEEDED 1000
static size_t compare_sweeps_needed(double sd, double noise)
{
	for (size_t k = 2; k <= COMPARE_MAX_NEEDED; k++)
		if (fit_t95(k - 1) * sd / sqrt((double)k) <= noise)
			return k;
	return SIZE_MAX;
}

/* Mean, sd, intervals and coverage of quantity j over the k sweeps' ratios. */
static void compare_sweeps_one(struct compare_across *a, size_t j,
			       const struct compare_outcome *per, size_t k, double noise)
{
	double sum = 0, var = 0, t = fit_t95(k - 1), m, half;

	for (size_t i = 0; i < k; i++)
		sum += per[i].paired ? per[i].q[j].paired.value : per[i].q[j].unpaired.value;
	m = sum / (double)k;
	for (size_t i = 0; i < k; i++) {
		const struct paired_ratio *r =
		    per[i].paired ? &per[i].q[j].paired : &per[i].q[j].unpaired;

		var += (r->value - m) * (r->value - m);
		for (size_t o = 0; o < k; o++) {
			const struct paired_ratio *other =
			    per[o].paired ? &per[o].q[j].paired : &per[o].q[j].unpaired;

			a->held[j] += o != i && other->value >= r->lo && other->value <= r->hi;
		}
	}
	a->mean[j] = m;
	a->sd[j] = sqrt(var / (double)(k - 1));
	half = t * a->sd[j] / sqrt((double)k);
	a->ci[j] = (struct paired_ratio){m, m - half, m + half};
	half = t * a->sd[j] * sqrt(1 + 1 / (double)k);
	a->next[j] = (struct paired_ratio){m, m - half, m + half};
	a->verdict[j] = verdict_judge(&a->ci[j], noise);
	a->needed[j] = compare_sweeps_needed(a->sd[j], noise);
	a->regressed |= a->verdict[j] == VERDICT_REGRESSED;
	a->improved |= a->verdict[j] == VERDICT_IMPROVED;
	a->inconclusive |=
	    a->verdict[j] == VERDICT_INCONCLUSIVE || a->verdict[j] == VERDICT_UNKNOWN;
}

int compare_sweeps(const struct results *res, const struct compare_opts *o, const size_t *source,
		   size_t k, struct compare_outcome *per, struct compare_across *a,
		   struct errbuf *eb)
{
	memset(a, 0, sizeof(*a));
	if (k < 2)
		return errbuf_set(eb, "comparing across sweeps needs 2 or more");
	for (size_t i = 0; i < k; i++) {
		struct compare_opts one = *o;

		one.source = source[i];
		if (compare_compute(res, &one, &per[i], eb) != 0)
			return -1;
		if (per[i].n_q != per[0].n_q)
			return errbuf_set(eb, "%s: not the same sizes as %s",
					  res->sources[source[i]], res->sources[source[0]]);
	}
	a->k = k;
	a->n_q = per[0].n_q;
	for (size_t j = 0; j < a->n_q; j++) {
		memcpy(a->names[j], per[0].q[j].name, COMPARE_NAME_MAX);
		compare_sweeps_one(a, j, per, k, o->noise);
	}
	return 0;
}
