/* runner_precision: precision mode's bookkeeping: the runs each point has so far, and whether it
 * needs another round. */
/*
 * The runner walks the manifest's rounds over every point, then further
 * passes (round rounds+1, rounds+2, ... up to max_rounds) over the points
 * still short of the precision, each pass shuffled like the first ones.
 * r->acc holds, per point and active subject, the runs of every journalled
 * step of that point: built from the journal at start (so --resume decides
 * exactly as the interrupted run would have), grown by runner_point_measure
 * after each step, read by run_points (runner.c) between passes. A
 * point's decision depends only on its own steps, so the passes are
 * reproducible whatever order a resumed run meets them in.
 */
#include "runner_impl.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "contention.h"
#include "estimate.h"
#include "student.h"

int runner_acc_add(struct runner *r, size_t idx, const struct journal_subject *js, size_t n,
		   uint64_t discarded, struct errbuf *eb)
{
	struct runner_acc *a;
	size_t i, k = 0;

	if (r->acc == NULL)
		return 0;
	a = &r->acc[idx];
	/* The reference (last, when the manifest has it) is no subject: the precision ignores it.
	 */
	if (n == r->nactive + 1 && strcmp(js[n - 1].subject, RUNNER_REFERENCE_ID) == 0)
		n--;
	if (n != r->nactive)
		return errbuf_set(eb, "point %zu: a step has %zu subjects, this run measures %zu",
				  idx + 1, n, r->nactive);
	if (a->res == NULL && (a->res = calloc(r->nactive, sizeof(*a->res))) == NULL)
		return errbuf_set(eb, "out of memory");
	for (i = 0; i < r->nsubjects; i++) {
		if (r->subjects[i].skip_reason != NULL)
			continue;
		if (strcmp(js[k].subject, r->subjects[i].ms->id) != 0)
			return errbuf_set(eb, "point %zu: a step measured %s where this run has %s",
					  idx + 1, js[k].subject, r->subjects[i].ms->id);
		if (measure_result_append(&a->res[k], &js[k].result) < 0)
			return errbuf_set(eb, "out of memory");
		k++;
	}
	a->steps++;
	a->discarded += n > 0 ? discarded / n : 0;
	return 0;
}

uint64_t runner_acc_spent(const struct runner *r, size_t idx)
{
	const struct runner_acc *a = r->acc != NULL ? &r->acc[idx] : NULL;

	if (a == NULL || a->res == NULL || r->nactive == 0)
		return 0;
	return a->res[0].n + a->discarded;
}

/* The runs of one round (each round, the extra ones too, takes the same number). */
static uint64_t round_runs(const struct runner *r)
{
	return (r->m->min_runs + r->m->rounds - 1) / r->m->rounds;
}

int runner_acc_init(struct runner *r, struct errbuf *eb)
{
	size_t i, idx;
	uint32_t round;

	if (r->m->precision <= 0)
		return 0;
	r->acc = calloc(sweep_count(r->sweep), sizeof(*r->acc));
	r->reference_ns = calloc(r->nactive ? r->nactive : 1, sizeof(*r->reference_ns));
	if (r->acc == NULL || r->reference_ns == NULL)
		return errbuf_set(eb, "out of memory");
	for (i = 0; i < r->done.npoints; i++) {
		const struct journal_point *p = &r->done.points[i];

		if (sweep_parse_step_id(r->sweep, p->id, r->m->max_rounds, &idx, &round) < 0)
			return errbuf_set(eb, "journal point %s is not in this sweep", p->id);
		if (runner_acc_add(r, idx, p->subjects, p->nsubjects, p->info.discarded_runs, eb) <
		    0)
			return -1;
	}
	runner_acc_refresh(r);
	return 0;
}

void runner_acc_refresh(struct runner *r)
{
	size_t n = sweep_count(r->sweep), i, k, m;
	int64_t *b;

	if (r->acc == NULL)
		return;
	b = malloc((n ? n : 1) * sizeof(*b));
	for (k = 0; k < r->nactive; k++) {
		r->reference_ns[k] = INT64_MAX;
		if (b == NULL)
			continue; /* out of memory: each point judged by itself */
		for (i = m = 0; i < n; i++)
			if (r->acc[i].res != NULL && r->acc[i].res[k].n > 0)
				b[m++] = contention_baseline_ns(&r->acc[i].res[k]);
		r->reference_ns[k] = contention_reference_ns(b, m);
	}
	free(b);
}

/* The active index of the manifest's precision_baseline, or SIZE_MAX (none, or skipped here). */
static size_t baseline_index(const struct runner *r)
{
	size_t i, k = 0;

	if (r->m->precision_baseline == NULL)
		return SIZE_MAX;
	for (i = 0; i < r->nsubjects; i++) {
		if (r->subjects[i].skip_reason != NULL)
			continue;
		if (strcmp(r->subjects[i].ms->id, r->m->precision_baseline) == 0)
			return k;
		k++;
	}
	return SIZE_MAX;
}

/* The estimate of step s of subject k at point idx (its runs alone), NaN when it fell back. */
static double step_estimate(const struct runner *r, size_t idx, size_t k, size_t s, double *scratch)
{
	const struct measure_result *all = &r->acc[idx].res[k];
	uint64_t per = round_runs(r);
	struct measure_result one = *all;
	struct estimate e;
	size_t contended;

	one.n = per;
	one.wall_ns = all->wall_ns + s * per;
	one.user_ns = all->user_ns + s * per;
	one.system_ns = all->system_ns + s * per;
	one.exit_codes = all->exit_codes + s * per;
	one.nivcsw = all->nivcsw != NULL ? all->nivcsw + s * per : NULL;
	one.stall_ns = all->stall_ns != NULL ? all->stall_ns + s * per : NULL;
	if (contention_estimate(&one, r->m->estimator, r->m->contended,
				runner_acc_baseline(r, idx, k), scratch, &e, &contended))
		return NAN;
	return e.value;
}

/*
 * Precision aimed at a comparison (manifest precision_baseline): whether some
 * subject's ratio to the baseline at this point is not yet known to the
 * target. The ratio of each step is paired (the subjects ran interleaved in
 * it); its interval is Student's t on the logs of the steps' ratios, so the
 * drift common to both subjects cancels. -1: cannot say (steps of unequal
 * size), judge each subject's own estimate instead.
 */
static int ratio_needs_more(const struct runner *r, size_t idx, size_t kb, double *scratch)
{
	const struct runner_acc *a = &r->acc[idx];
	size_t steps = a->steps, s, k;

	for (k = 0; k < r->nactive; k++)
		if (a->res[k].n != steps * round_runs(r))
			return -1;
	if (steps < 3)
		return 1;
	for (k = 0; k < r->nactive; k++) {
		double sum = 0, sum2 = 0, mean, sd, half;

		if (k == kb)
			continue;
		for (s = 0; s < steps; s++) {
			double q = step_estimate(r, idx, k, s, scratch) /
				   step_estimate(r, idx, kb, s, scratch);

			if (!(q > 0) || !isfinite(q))
				return 1; /* a step that fell back is no evidence */
			sum += log(q);
			sum2 += log(q) * log(q);
		}
		mean = sum / (double)steps;
		sd = sqrt(fmax(0, (sum2 - (double)steps * mean * mean) / (double)(steps - 1)));
		half = student_t95(steps - 1) * sd / sqrt((double)steps);
		if (expm1(half) > r->m->precision)
			return 1;
	}
	return 0;
}

bool runner_acc_needs_more(const struct runner *r, size_t idx)
{
	const struct runner_acc *a = &r->acc[idx];
	double *scratch = NULL;
	bool more = false;
	size_t k, most = 0;

	if (a->res == NULL)
		return true;
	if (runner_acc_spent(r, idx) + round_runs(r) > r->m->max_runs)
		return false;
	for (k = 0; k < r->nactive; k++)
		if (a->res[k].n > most)
			most = a->res[k].n;
	scratch = malloc(2 * (most ? most : 1) * sizeof(double));
	/* Out of memory here only costs a round: measure rather than stop. */
	if (scratch == NULL)
		return true;
	if (baseline_index(r) != SIZE_MAX) {
		int q = ratio_needs_more(r, idx, baseline_index(r), scratch);

		if (q >= 0) {
			free(scratch);
			return q == 1;
		}
	}
	for (k = 0; k < r->nactive && !more; k++) {
		const struct measure_result *res = &a->res[k];
		struct estimate e;
		size_t contended;

		/* An estimate that fell back to every run (nearly all waited) is no evidence. */
		more =
		    contention_estimate(res, r->m->estimator, r->m->contended,
					runner_acc_baseline(r, idx, k), scratch, &e, &contended) ||
		    !estimate_meets(&e, r->m->precision);
	}
	free(scratch);
	return more;
}

int64_t runner_acc_baseline(const struct runner *r, size_t idx, size_t k)
{
	int64_t own = INT64_MAX;

	if (r->acc == NULL)
		return INT64_MAX;
	if (r->acc[idx].res != NULL && r->acc[idx].res[k].n > 0)
		own = contention_baseline_ns(&r->acc[idx].res[k]);
	return own < r->reference_ns[k] ? own : r->reference_ns[k];
}

void runner_acc_clear(struct runner *r)
{
	size_t i, k;

	for (i = 0; r->acc != NULL && i < sweep_count(r->sweep); i++) {
		for (k = 0; r->acc[i].res != NULL && k < r->nactive; k++)
			measure_result_clear(&r->acc[i].res[k]);
		free(r->acc[i].res);
	}
	free(r->acc);
	free(r->reference_ns);
	r->acc = NULL;
	r->reference_ns = NULL;
}
