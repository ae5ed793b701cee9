/* runner_precision: precision mode's bookkeeping: the runs each point has so far, and whether it
 * needs another round. */
/*
 * The runner walks the manifest's rounds over every point, then further
 * passes (round rounds+1, rounds+2, ... up to max_rounds) over the points
 * still short of the precision, each pass shuffled like the first ones.
 * p->acc holds, per point and active subject, the runs of every journalled
 * step of that point: built from the journal at start (so --resume decides
 * exactly as the interrupted run would have), grown by each step's one
 * runner_precision_offer, read by run_points (runner.c) between passes. A
 * point's decision depends only on its own steps, so the passes are
 * reproducible whatever order a resumed run meets them in.
 */
#include "runner_precision.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "contention.h"
#include "estimate.h"
#include "runner_kernel.h"
#include "student.h"

/* busy_throughout judges the host on at least this many attempts. */
#define RUNNER_BUSY_MIN_ATTEMPTS 8

/* What one point has measured so far, per active subject (the runs of its journalled steps,
 * concatenated). */
struct runner_acc {
	struct measure_result *res; /* nactive entries; NULL until the point's first step */
	uint32_t steps;
	uint64_t discarded; /* runs of attempts measured again, per subject: they count
			       towards max_runs, which bounds what a point costs */
};

struct runner_precision {
	const struct manifest *m;
	size_t npoints, nactive;
	const char **ids;       /* the active subjects, borrowed */
	struct runner_acc *acc; /* npoints entries in precision mode, else NULL */
	int64_t *reference_ns;  /* per active subject: contention_reference_ns over acc */
	/* Attempts judged by this invocation, and how many had too many contended runs:
	 * re-measuring pays only against bursts (busy_throughout). */
	size_t attempts, flagged;
};

struct runner_precision *runner_precision_new(const struct manifest *m, size_t npoints,
					      const char *const *ids, size_t nactive)
{
	struct runner_precision *p = calloc(1, sizeof(*p));

	if (p == NULL)
		return NULL;
	*p = (struct runner_precision){.m = m, .npoints = npoints, .nactive = nactive};
	p->ids = calloc(nactive ? nactive : 1, sizeof(*p->ids));
	if (p->ids == NULL)
		goto oom;
	if (nactive > 0)
		memcpy(p->ids, ids, nactive * sizeof(*p->ids));
	if (m->precision <= 0)
		return p;
	p->acc = calloc(npoints, sizeof(*p->acc));
	p->reference_ns = calloc(nactive ? nactive : 1, sizeof(*p->reference_ns));
	if (p->acc == NULL || p->reference_ns == NULL)
		goto oom;
	return p;
oom:
	runner_precision_free(p);
	return NULL;
}

/*
 * Appends one journalled step of point idx (subjects in active order) to
 * p->acc, with the runs its thrown-away attempts cost (summed over subjects).
 * 0 or -1.
 */
static int acc_add(struct runner_precision *p, size_t idx, const struct journal_subject *js,
		   size_t n, uint64_t discarded, struct errbuf *eb)
{
	struct runner_acc *a;
	size_t k;

	if (p->acc == NULL)
		return 0;
	a = &p->acc[idx];
	/* The calibration workloads (last, when the manifest has them) are no subjects: the
	 * precision ignores them. */
	while (n > p->nactive && runner_is_calibration(js[n - 1].subject))
		n--;
	if (n != p->nactive)
		return errbuf_set(eb, "point %zu: a step has %zu subjects, this run measures %zu",
				  idx + 1, n, p->nactive);
	if (a->res == NULL && (a->res = calloc(p->nactive, sizeof(*a->res))) == NULL)
		return errbuf_set(eb, "out of memory");
	for (k = 0; k < p->nactive; k++) {
		if (strcmp(js[k].subject, p->ids[k]) != 0)
			return errbuf_set(eb, "point %zu: a step measured %s where this run has %s",
					  idx + 1, js[k].subject, p->ids[k]);
		if (measure_result_append(&a->res[k], &js[k].result) < 0)
			return errbuf_set(eb, "out of memory");
	}
	a->steps++;
	a->discarded += n > 0 ? discarded / n : 0;
	return 0;
}

/* The runs point idx has cost each subject so far (kept and thrown away); 0 outside precision
 * mode. */
static uint64_t acc_spent(const struct runner_precision *p, size_t idx)
{
	const struct runner_acc *a = p->acc != NULL ? &p->acc[idx] : NULL;

	if (a == NULL || a->res == NULL || p->nactive == 0)
		return 0;
	return a->res[0].n + a->discarded;
}

/* The runs of one round (each round, the extra ones too, takes the same number). */
static uint64_t round_runs(const struct runner_precision *p)
{
	return (p->m->min_runs + p->m->rounds - 1) / p->m->rounds;
}

int runner_precision_load(struct runner_precision *p, const struct sweep *sw,
			  const struct journal_contents *done, struct errbuf *eb)
{
	size_t i, idx;
	uint32_t round;

	if (p->acc == NULL)
		return 0;
	for (i = 0; i < done->npoints; i++) {
		const struct journal_point *jp = &done->points[i];

		if (sweep_parse_step_id(sw, jp->id, p->m->max_rounds, &idx, &round) < 0)
			return errbuf_set(eb, "journal point %s is not in this sweep", jp->id);
		if (acc_add(p, idx, jp->subjects, jp->nsubjects, jp->info.discarded_runs, eb) < 0)
			return -1;
	}
	runner_precision_refresh(p);
	return 0;
}

void runner_precision_refresh(struct runner_precision *p)
{
	size_t n = p->npoints, i, k, m;
	int64_t *b;

	if (p->acc == NULL)
		return;
	b = malloc((n ? n : 1) * sizeof(*b));
	for (k = 0; k < p->nactive; k++) {
		p->reference_ns[k] = INT64_MAX;
		if (b == NULL)
			continue; /* out of memory: each point judged by itself */
		for (i = m = 0; i < n; i++)
			if (p->acc[i].res != NULL && p->acc[i].res[k].n > 0)
				b[m++] = contention_baseline_ns(&p->acc[i].res[k]);
		p->reference_ns[k] = contention_reference_ns(b, m);
	}
	free(b);
}

/* The active index of the manifest's precision_baseline, or SIZE_MAX (none, or skipped here). */
static size_t baseline_index(const struct runner_precision *p)
{
	size_t k;

	if (p->m->precision_baseline == NULL)
		return SIZE_MAX;
	for (k = 0; k < p->nactive; k++)
		if (strcmp(p->ids[k], p->m->precision_baseline) == 0)
			return k;
	return SIZE_MAX;
}

/*
 * The baseline off-CPU time subject k's runs at point idx are judged
 * against: the smaller of the point's own so far and the subject's
 * reference across the sweep (INT64_MAX: neither is known yet).
 */
static int64_t acc_baseline(const struct runner_precision *p, size_t idx, size_t k)
{
	int64_t own = INT64_MAX;

	if (p->acc == NULL)
		return INT64_MAX;
	if (p->acc[idx].res != NULL && p->acc[idx].res[k].n > 0)
		own = contention_baseline_ns(&p->acc[idx].res[k]);
	return own < p->reference_ns[k] ? own : p->reference_ns[k];
}

/* The estimate of step s of subject k at point idx (its runs alone), NaN when it fell back. */
static double step_estimate(const struct runner_precision *p, size_t idx, size_t k, size_t s,
			    double *scratch)
{
	const struct measure_result *all = &p->acc[idx].res[k];
	uint64_t per = round_runs(p);
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
	if (contention_estimate(&one, p->m->estimator, p->m->contended, acc_baseline(p, idx, k),
				scratch, &e, &contended))
		return NAN;
	return e.value;
}

/* Whether the ratios to the baseline at a point are known to the precision (ratio_needs_more). */
enum ratio_verdict {
	RATIO_UNKNOWN,   /* cannot say: judge each subject's own estimate */
	RATIO_KNOWN,     /* every ratio is known to the precision */
	RATIO_NEEDS_MORE /* some ratio is not yet: another round */
};

/*
 * Precision aimed at a comparison (manifest precision_baseline): whether some
 * subject's ratio to the baseline at this point is not yet known to the
 * target. The ratio of each step is paired (the subjects ran interleaved in
 * it); its interval is Student's t on the logs of the steps' ratios, so the
 * drift common to both subjects cancels. RATIO_UNKNOWN: cannot say (steps
 * of unequal size), judge each subject's own estimate instead.
 */
static enum ratio_verdict ratio_needs_more(const struct runner_precision *p, size_t idx, size_t kb,
					   double *scratch)
{
	const struct runner_acc *a = &p->acc[idx];
	size_t steps = a->steps, s, k;

	for (k = 0; k < p->nactive; k++)
		if (a->res[k].n != steps * round_runs(p))
			return RATIO_UNKNOWN;
	if (steps < 3)
		return RATIO_NEEDS_MORE;
	for (k = 0; k < p->nactive; k++) {
		double sum = 0, sum2 = 0, mean, sd, half;

		if (k == kb)
			continue;
		for (s = 0; s < steps; s++) {
			double q = step_estimate(p, idx, k, s, scratch) /
				   step_estimate(p, idx, kb, s, scratch);

			if (!(q > 0) || !isfinite(q))
				return RATIO_NEEDS_MORE; /* a step that fell back is no evidence */
			sum += log(q);
			sum2 += log(q) * log(q);
		}
		mean = sum / (double)steps;
		sd = sqrt(fmax(0, (sum2 - (double)steps * mean * mean) / (double)(steps - 1)));
		half = student_t95(steps - 1) * sd / sqrt((double)steps);
		if (expm1(half) > p->m->precision)
			return RATIO_NEEDS_MORE;
	}
	return RATIO_KNOWN;
}

bool runner_precision_needs_more(const struct runner_precision *p, size_t idx)
{
	const struct runner_acc *a = &p->acc[idx];
	double *scratch = NULL;
	bool more = false;
	size_t k, most = 0;

	if (a->res == NULL)
		return true;
	if (acc_spent(p, idx) + round_runs(p) > p->m->max_runs)
		return false;
	for (k = 0; k < p->nactive; k++)
		if (a->res[k].n > most)
			most = a->res[k].n;
	scratch = malloc(2 * (most ? most : 1) * sizeof(double));
	/* Out of memory here only costs a round: measure rather than stop. */
	if (scratch == NULL)
		return true;
	if (baseline_index(p) != SIZE_MAX) {
		enum ratio_verdict q = ratio_needs_more(p, idx, baseline_index(p), scratch);

		if (q != RATIO_UNKNOWN) {
			free(scratch);
			return q == RATIO_NEEDS_MORE;
		}
	}
	for (k = 0; k < p->nactive && !more; k++) {
		const struct measure_result *res = &a->res[k];
		struct estimate e;
		size_t contended;

		/* An estimate that fell back to every run (nearly all waited) is no evidence. */
		more = contention_estimate(res, p->m->estimator, p->m->contended,
					   acc_baseline(p, idx, k), scratch, &e, &contended) ||
		       !estimate_meets(&e, p->m->precision);
	}
	free(scratch);
	return more;
}

/*
 * Whether the step's runs call for measuring it again: a subject with more
 * contended runs than the manifest's limit, judged against the best
 * baseline the point has shown so far (a step contended throughout would
 * otherwise be its own clean reference).
 */
static bool step_contended(const struct runner_precision *p, size_t idx,
			   const struct journal_subject *js, size_t nsub)
{
	for (size_t k = 0; k < nsub; k++) {
		const struct measure_result *res = &js[k].result;
		int64_t base = contention_baseline_ns(res), before;

		before = acc_baseline(p, idx, k);
		if (before < base)
			base = before;
		if ((double)contention_count(res, base) > p->m->contention_limit * res->n)
			return true;
	}
	return false;
}

/*
 * Re-measuring helps against a burst of load (a build's link step, another
 * benchmark), not against a host busy all along: once more than a quarter of
 * the attempts so far (at least 8 of them) were flagged, steps are kept as
 * they are, flagged, and precision mode's extra rounds gather the clean runs.
 */
static bool busy_throughout(const struct runner_precision *p)
{
	return p->attempts >= RUNNER_BUSY_MIN_ATTEMPTS && 4 * p->flagged > p->attempts;
}

/*
 * Precision mode: measuring the step again must keep the point within
 * max_runs, counting what it has kept, what this step has cost (thrown away
 * included) and another attempt of the same size.
 */
static bool remeasure_affordable(const struct runner_precision *p, size_t idx, uint64_t step_cost,
				 uint64_t again)
{
	if (p->m->precision <= 0 || p->m->max_runs == 0)
		return true;
	return acc_spent(p, idx) + step_cost + again <= p->m->max_runs;
}

enum runner_precision_verdict runner_precision_offer(struct runner_precision *p, size_t idx,
						     const struct journal_subject *js, size_t n,
						     size_t nsub, uint32_t attempt,
						     uint64_t *discarded, struct errbuf *eb)
{
	bool flagged = step_contended(p, idx, js, nsub);
	size_t i;

	p->attempts++;
	p->flagged += flagged;
	if (flagged && attempt < p->m->remeasure && !busy_throughout(p) &&
	    remeasure_affordable(p, idx, *discarded / p->nactive + js[0].result.n,
				 js[0].result.n)) {
		for (i = 0; i < nsub; i++)
			*discarded += js[i].result.n;
		return RUNNER_PRECISION_REMEASURE;
	}
	if (acc_add(p, idx, js, n, *discarded, eb) < 0)
		return RUNNER_PRECISION_FAILED;
	return RUNNER_PRECISION_KEPT;
}

void runner_precision_free(struct runner_precision *p)
{
	size_t i, k;

	if (p == NULL)
		return;
	for (i = 0; p->acc != NULL && i < p->npoints; i++) {
		for (k = 0; p->acc[i].res != NULL && k < p->nactive; k++)
			measure_result_clear(&p->acc[i].res[k]);
		free(p->acc[i].res);
	}
	free(p->acc);
	free(p->reference_ns);
	free(p->ids);
	free(p);
}
