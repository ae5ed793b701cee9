/*
 * results_reference: rarbench's calibration workload in a results file (the top-level
 * "reference" object) and every time expressed in its units (results.h).
 */
#include "growbuf.h"
#include "jsonget.h"
#include "results.h"
#include "resultsfile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

int results_reference_parse(struct results *res, const void *root, size_t source, struct errbuf *eb)
{
	cJSON *arr;
	const cJSON *entry;
	size_t first = res->n_refs, n, i = 0;

	if (resultsfile_require_reference_results(root, &arr, eb) < 0)
		return -1;
	if (arr == NULL)
		return 0;
	n = (size_t)cJSON_GetArraySize(arr);
	if (n > RESULTS_MAX_POINTS || res->n_refs + n > RESULTS_MAX_POINTS)
		return errbuf_set(eb, "reference.results: more than %u in all", RESULTS_MAX_POINTS);
	if (growarray(&res->refs, &res->cap_refs, res->n_refs + n, sizeof(*res->refs),
		      RESULTS_MAX_POINTS, eb) != 0)
		return errbuf_prefix(eb, "reference.results");
	cJSON_ArrayForEach(entry, arr)
	{
		struct results_point *p = &res->refs[res->n_refs];

		memset(p, 0, sizeof(*p));
		p->source = source;
		p->index = i;
		if (results_entry_parse(entry, p, eb) != 0) {
			results_point_clear(p);
			errbuf_prefix(eb, "reference.results[%zu]", i);
			while (res->n_refs > first)
				results_point_clear(&res->refs[--res->n_refs]);
			return -1;
		}
		res->n_refs++;
		i++;
	}
	return 0;
}

/* Whether a and b name the same point: the same value of every parameter but subject/format. */
static bool same_point(const struct results_point *a, const struct results_point *b)
{
	size_t i;

	if (a->source != b->source || strcmp(a->host, b->host) != 0)
		return false;
	for (i = 0; i < a->n_params; i++) {
		const char *k = a->params[i].key, *v;

		if (strcmp(k, "subject") == 0 || strcmp(k, "format") == 0 || strcmp(k, "host") == 0)
			continue;
		v = results_point_param(b, k);
		if (v == NULL || strcmp(v, a->params[i].value) != 0)
			return false;
	}
	return true;
}

static double ref_value(const struct results_point *r)
{
	return isfinite(r->estimate_s) && r->estimate_s > 0 ? r->estimate_s : r->median_s;
}

/* The reference's estimate in round, or NaN. */
static double ref_round(const struct results_point *r, unsigned round)
{
	for (size_t i = 0; i < r->n_rounds; i++)
		if (r->rounds[i].round == round)
			return r->rounds[i].estimate_s;
	return NAN;
}

/* Divides every time of p by ref's (see results_normalise). */
static void scale_point(struct results_point *p, const struct results_point *ref)
{
	double f = 1.0 / (1000.0 * ref_value(ref));
	double *t[] = {&p->mean_s,        &p->stddev_s,     &p->median_s,  &p->min_s,
		       &p->max_s,         &p->q1_s,         &p->q3_s,      &p->median_lo_s,
		       &p->median_hi_s,   &p->mean_lo_s,    &p->mean_hi_s, &p->estimate_s,
		       &p->estimate_lo_s, &p->estimate_hi_s};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		*t[i] *= f;
	for (size_t i = 0; i < p->n_rounds; i++) {
		double r = ref_round(ref, p->rounds[i].round);

		p->rounds[i].estimate_s /= isfinite(r) && r > 0 ? 1000.0 * r : 1.0 / f;
	}
}

long results_normalise(struct results *res, size_t *dropped, struct errbuf *eb)
{
	size_t i, j, kept = 0;

	*dropped = 0;
	(void)eb;
	if (res->n_refs == 0)
		return 0;
	for (i = 0; i < res->n_points; i++) {
		struct results_point *p = &res->points[i];
		const struct results_point *ref = NULL;

		for (j = 0; j < res->n_refs && ref == NULL; j++)
			if (same_point(p, &res->refs[j]) && ref_value(&res->refs[j]) > 0)
				ref = &res->refs[j];
		if (ref == NULL) {
			results_point_clear(p);
			(*dropped)++;
			continue;
		}
		scale_point(p, ref);
		if (kept != i)
			res->points[kept] = *p;
		kept++;
	}
	res->n_points = kept;
	return (long)res->n_refs;
}
