/* paired: a comparison from runs paired in time, with a bootstrap over rounds (paired.h). */
#include "paired.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The 64-bit generator behind the bootstrap (splitmix64): *state advances. */
static uint64_t paired_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Scratch for one evaluation: the estimates and sigmas of both subjects and the fits' inputs. */
struct paired_work {
	double *x, *b, *c, *sb, *sc, *z, *sz;
};

/* The ratios of one set of point estimates (steps 1-3 of paired.h) into vals: intercept, slope,
 * crossover, then the n_at sizes. 0, or -1 when a fit fails or a baseline value is not > 0. */
static int paired_eval(const struct paired_work *w, size_t n, bool weighted, const double *at,
		       size_t n_at, double *vals, struct fit_line *lb, struct fit_line *lc,
		       struct errbuf *eb)
{
	size_t i;

	if (fit_linear(w->x, w->b, weighted ? w->sb : NULL, n, lb, eb) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		double fb = lb->intercept + lb->slope * w->x[i];

		if (!(w->b[i] > 0))
			return errbuf_set(eb, "a baseline estimate is not > 0");
		w->z[i] = w->c[i] / w->b[i] * fb;
		w->sz[i] = weighted ? fabs(w->sc[i] * fb / w->b[i]) : 1;
		if (!(w->sz[i] > 0))
			w->sz[i] = 1e-300;
	}
	if (fit_linear(w->x, w->z, weighted ? w->sz : NULL, n, lc, eb) != 0)
		return -1;
	vals[0] = lc->intercept / lb->intercept;
	vals[1] = lc->slope / lb->slope;
	vals[2] = lc->slope != lb->slope ? (lb->intercept - lc->intercept) / (lc->slope - lb->slope)
					 : NAN;
	for (i = 0; i < n_at; i++)
		vals[3 + i] =
		    (lc->intercept + lc->slope * at[i]) / (lb->intercept + lb->slope * at[i]);
	return 0;
}

static int paired_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The 2.5 % and 97.5 % quantiles of the finite values of v[0..n) (sorted in place). */
static void paired_quantiles(double *v, size_t n, double *lo, double *hi)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			v[m++] = v[i];
	*lo = *hi = NAN;
	if (m < 2)
		return;
	qsort(v, m, sizeof(*v), paired_cmp);
	*lo = v[(size_t)floor(0.025 * (double)(m - 1))];
	*hi = v[(size_t)ceil(0.975 * (double)(m - 1))];
}

/* One replicate: every point with 2+ rounds rescaled by a draw of its rounds. */
static void paired_draw(const struct paired_point *pts, size_t n, struct paired_work *w,
			uint64_t *state)
{
	for (size_t i = 0; i < n; i++) {
		const struct paired_point *p = &pts[i];
		double sb = 0, sc = 0, db = 0, dc = 0;

		w->b[i] = p->base_s;
		w->c[i] = p->cand_s;
		if (p->n_rounds < 2)
			continue;
		for (size_t r = 0; r < p->n_rounds; r++) {
			size_t k = (size_t)(paired_next(state) % p->n_rounds);

			sb += p->base_round[r];
			sc += p->cand_round[r];
			db += p->base_round[k];
			dc += p->cand_round[k];
		}
		if (sb > 0 && sc > 0) {
			w->b[i] *= db / sb;
			w->c[i] *= dc / sc;
		}
	}
}

static struct paired_ratio paired_make(double value, double lo, double hi)
{
	struct paired_ratio r = {value, lo, hi};

	return r;
}

/* The bootstrap: vals holds (3 + n_at) x resamples replicate values. */
static void paired_bootstrap(const struct paired_point *pts, size_t n,
			     const struct paired_opts *opts, size_t resamples,
			     struct paired_work *w, double *vals, double *v0,
			     struct paired_result *out)
{
	size_t q = 3 + opts->n_at, kept = 0;
	uint64_t state = opts->seed;
	struct fit_line lb, lc;
	struct errbuf eb;
	double *one = v0 + q;

	for (size_t s = 0; s < resamples; s++) {
		paired_draw(pts, n, w, &state);
		if (paired_eval(w, n, opts->weighted, opts->at, opts->n_at, one, &lb, &lc, &eb) !=
		    0)
			continue;
		for (size_t j = 0; j < q; j++)
			vals[j * resamples + kept] = one[j];
		kept++;
	}
	for (size_t j = 0; j < q; j++) {
		double lo, hi;
		struct paired_ratio *dst = j == 0   ? &out->intercept
					   : j == 1 ? &out->slope
					   : j == 2 ? &out->crossover
						    : &out->at[j - 3];

		paired_quantiles(vals + j * resamples, kept, &lo, &hi);
		*dst = paired_make(v0[j], lo, hi);
	}
	out->resamples = kept;
}

int paired_compare(const struct paired_point *pts, size_t n, const struct paired_opts *opts,
		   struct paired_result *out, struct errbuf *eb)
{
	size_t resamples = opts->resamples ? opts->resamples : PAIRED_DEFAULT_RESAMPLES;
	size_t q = 3 + opts->n_at, i;
	struct paired_work w = {0};
	double *buf = NULL, *vals = NULL, *v0 = NULL;
	bool weighted = opts->weighted;
	struct paired_opts o = *opts;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (opts->n_at > PAIRED_MAX_AT)
		return errbuf_set(eb, "more than %d sizes", PAIRED_MAX_AT);
	buf = calloc(7 * (n ? n : 1), sizeof(double));
	vals = calloc(q * resamples, sizeof(double));
	v0 = calloc(2 * q, sizeof(double));
	if (buf == NULL || vals == NULL || v0 == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	w = (struct paired_work){buf,         buf + n,     buf + 2 * n, buf + 3 * n,
				 buf + 4 * n, buf + 5 * n, buf + 6 * n};
	for (i = 0; i < n; i++) {
		w.x[i] = pts[i].x;
		w.b[i] = pts[i].base_s;
		w.c[i] = pts[i].cand_s;
		w.sb[i] = pts[i].base_sigma;
		w.sc[i] = pts[i].cand_sigma;
		if (!(w.sb[i] > 0) || !(w.sc[i] > 0) || !isfinite(w.sb[i]) || !isfinite(w.sc[i]))
			weighted = false;
		out->paired_points += pts[i].n_rounds >= 2;
	}
	o.weighted = weighted;
	if (paired_eval(&w, n, weighted, opts->at, opts->n_at, v0, &out->base, &out->cand, eb) != 0)
		goto out;
	out->n_at = opts->n_at;
	if (out->paired_points == 0) {
		out->intercept = paired_make(v0[0], NAN, NAN);
		out->slope = paired_make(v0[1], NAN, NAN);
		out->crossover = paired_make(v0[2], NAN, NAN);
		for (i = 0; i < opts->n_at; i++)
			out->at[i] = paired_make(v0[3 + i], NAN, NAN);
	} else {
		paired_bootstrap(pts, n, &o, resamples, &w, vals, v0, out);
	}
	rc = 0;
out:
	free(v0);
	free(vals);
	free(buf);
	return rc;
}

/* A ratio u / v of independent estimates with variances vu, vv: delta method, t quantile. */
static struct paired_ratio paired_ratio_delta(double u, double vu, double v, double vv, double t)
{
	double r = u / v, se = sqrt(vu / (v * v) + u * u * vv / (v * v * v * v));

	return paired_make(r, r - t * se, r + t * se);
}

void paired_unpaired(const struct fit_line *cand, const struct fit_line *base, const double *at,
		     size_t n_at, struct paired_result *out)
{
	size_t n = cand->n < base->n ? cand->n : base->n;
	double t = fit_t95(n > 2 ? n - 2 : 0);
	struct fit_comparison cmp;

	memset(out, 0, sizeof(*out));
	out->base = *base;
	out->cand = *cand;
	out->intercept =
	    paired_ratio_delta(cand->intercept, cand->intercept_se * cand->intercept_se,
			       base->intercept, base->intercept_se * base->intercept_se, t);
	out->slope = paired_ratio_delta(cand->slope, cand->slope_se * cand->slope_se, base->slope,
					base->slope_se * base->slope_se, t);
	for (size_t i = 0; i < n_at && i < PAIRED_MAX_AT; i++) {
		double x = at[i];
		double yc = cand->intercept + cand->slope * x,
		       yb = base->intercept + base->slope * x;
		double vc = cand->intercept_se * cand->intercept_se +
			    x * x * cand->slope_se * cand->slope_se + 2 * x * cand->cov;
		double vb = base->intercept_se * base->intercept_se +
			    x * x * base->slope_se * base->slope_se + 2 * x * base->cov;

		out->at[i] = paired_ratio_delta(yc, vc > 0 ? vc : 0, yb, vb > 0 ? vb : 0, t);
	}
	out->n_at = n_at < PAIRED_MAX_AT ? n_at : PAIRED_MAX_AT;
	fit_compare(cand, base, &cmp);
	out->crossover = cmp.has_crossover
			     ? paired_make(cmp.crossover.value, cmp.crossover.lo, cmp.crossover.hi)
			     : paired_make(NAN, NAN, NAN);
}
