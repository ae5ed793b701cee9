/*
 * results_reference: rarbench's calibration workload in a results file (the top-level
 * "reference" object) and every time expressed in its units (results.h).
 */
#include "growbuf.h"
#include "slowruns.h"
#include "jsonget.h"
#include "results.h"
#include "resultsfile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

/*
 * n numbers of the array arr (at path) into v, each >= 0, times scale (1e-9 for ns). With nulls
 * non-NULL a null item is 0 and sets *nulls (cpu_stall_ns: a run whose stall is unknown). 0, or
 * -1 with eb filled (not an array of n numbers).
 */
static int ref_numbers(const cJSON *arr, const char *path, size_t n, double scale, double *v,
		       bool *nulls, struct errbuf *eb)
{
	const cJSON *item;
	size_t i = 0;

	if (!cJSON_IsArray(arr) || (size_t)cJSON_GetArraySize(arr) != n)
		return jsonget_fail(eb, path, "not an array of %zu numbers (one per run)", n);
	cJSON_ArrayForEach(item, arr)
	{
		char at[JSONGET_PATH_MAX_CHARS];

		jsonget_index(at, path, i);
		if (nulls != NULL && cJSON_IsNull(item)) {
			*nulls = true;
			v[i++] = 0;
			continue;
		}
		if (jsonget_as_double(item, at, 0, HUGE_VAL, &v[i], eb) < 0)
			return -1;
		v[i++] *= scale;
	}
	return 0;
}

/*
 * The spread of one reference point's runs (interference.h): its "times" and "cpu_stall_ns" (a
 * stall null or absent: unknown), rarbench.steal and .load1, and the file's cpus into p's ref_*
 * fields (steal and load only word a cause: one that is no number is not said). 0, or -1.
 */
static int ref_spread(const cJSON *entry, unsigned cpus, struct results_point *p, struct errbuf *eb)
{
	const cJSON *times = jsonget_member(entry, "times");
	const cJSON *stall = jsonget_member(entry, "cpu_stall_ns");
	const cJSON *steal = jsonget_member(jsonget_member(entry, "rarbench"), "steal");
	const cJSON *load = jsonget_member(jsonget_member(entry, "rarbench"), "load1");
	double *v = NULL;
	size_t n;
	int rc = -1;

	p->ref_steal = cJSON_IsNumber(steal) && steal->valuedouble >= 0 && steal->valuedouble <= 1
			   ? steal->valuedouble
			   : NAN;
	p->ref_load1 = cJSON_IsNumber(load) && load->valuedouble >= 0 && load->valuedouble < 1e6
			   ? load->valuedouble
			   : NAN;
	p->ref_cpus = cpus;
	if (times == NULL || !cJSON_IsArray(times) || p->n_runs < 2)
		return 0; /* results_entry_parse checked the times; too few to have a spread */
	n = p->n_runs;
	v = malloc(3 * n * sizeof(*v));
	if (v == NULL)
		return errbuf_set(eb, "times: out of memory");
	if (ref_numbers(times, "times", n, 1, v, NULL, eb) != 0)
		goto out;
	if (stall != NULL && !cJSON_IsNull(stall)) {
		bool nulls = false;

		if (ref_numbers(stall, "cpu_stall_ns", n, 1e-9, v + n, &nulls, eb) != 0)
			goto out;
		p->ref_stall_known = !nulls;
	}
	slowruns_count(v, p->ref_stall_known ? v + n : NULL, n, v + 2 * n, &p->ref_slow,
		       &p->ref_unseen);
	rc = 0;
out:
	free(v);
	return rc;
}

int results_reference_parse(struct results *res, const void *root, size_t source, struct errbuf *eb)
{
	cJSON *arr;
	const cJSON *entry;
	const cJSON *cpus =
	    jsonget_member(jsonget_member(jsonget_member(root, "meta"), "host"), "cpus");
	size_t first = res->n_refs, n, i = 0;
	unsigned ncpu = cJSON_IsNumber(cpus) && cpus->valuedouble >= 1 && cpus->valuedouble < 1e6
			    ? (unsigned)cpus->valuedouble
			    : 0;

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
		if (results_entry_parse(entry, p, eb) != 0 || ref_spread(entry, ncpu, p, eb) != 0) {
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
