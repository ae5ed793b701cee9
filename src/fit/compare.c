/* compare: a baseline subject against a candidate, paired in time when their runs were
 * (compare.h). */
#include "compare.h"
#include "numarg.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A point this far from its line (relative), beyond its own interval, is not on a line. */
#define COMPARE_MAX_RESIDUAL 0.05

/* The points of one subject on the comparison's axis, sorted by x. */
struct compare_side {
	const char *name, *role; /* "sudo", "baseline" */
	const struct results_point **pts;
	double *x;
	size_t n;
};

static const char *compare_source(const struct results *res, const struct results_point *p)
{
	return p->source < res->n_sources ? res->sources[p->source] : "(input)";
}

/* The parameter key of p as a number >= 0 into *v. 0, or -1 (absent or not a number). */
static int compare_number(const struct results_point *p, const char *key, double *v)
{
	const char *s = results_point_param(p, key);
	const char *end = NULL;

	if (s == NULL)
		return -1;
	return numarg_any_double_prefix(s, v, &end) != NUMARG_OK || *end != '\0' || !isfinite(*v) ||
		       *v < 0
		   ? -1
		   : 0;
}

/* Whether p's other nb_* axes are at their smallest value among the subject's points. */
static bool compare_held(const struct results *res, const struct results_point *p, const char *name,
			 const char *axis)
{
	for (size_t k = 0; k < p->n_params; k++) {
		const char *key = p->params[k].key;
		double v, min;

		if (strncmp(key, "nb_", 3) != 0 || strcmp(key, axis) == 0 ||
		    compare_number(p, key, &v) != 0)
			continue;
		min = v;
		for (size_t i = 0; i < res->n_points; i++) {
			double w;

			if (strcmp(res->points[i].subject, name) == 0 &&
			    compare_number(&res->points[i], key, &w) == 0 && w < min)
				min = w;
		}
		if (v != min)
			return false;
	}
	return true;
}

static void compare_side_free(struct compare_side *s)
{
	free(s->pts);
	free(s->x);
	s->pts = NULL;
	s->x = NULL;
}

/* Gathers side s of res (one host, one file, other axes held at their minimum), sorted by x. */
static int compare_gather(const struct results *res, const char *axis, size_t source,
			  struct compare_side *s, struct errbuf *eb)
{
	const struct results_point *first = NULL;
	char list[256];

	s->pts = calloc(COMPARE_MAX_POINTS, sizeof(*s->pts));
	s->x = calloc(COMPARE_MAX_POINTS, sizeof(*s->x));
	if (s->pts == NULL || s->x == NULL)
		return errbuf_set(eb, "out of memory");
	for (size_t i = 0; i < res->n_points; i++) {
		const struct results_point *p = &res->points[i];
		double x;

		if (strcmp(p->subject, s->name) != 0 || (source != SIZE_MAX && p->source != source))
			continue;
		if (first == NULL)
			first = p;
		if (strcmp(p->host, first->host) != 0)
			return errbuf_set(eb,
					  "%s %s: measured on several hosts (%s, %s): --compare "
					  "takes one host's results",
					  s->role, s->name, first->host, p->host);
		if (p->source != first->source)
			return errbuf_set(eb, "%s %s: in several files (%s, %s): compare one sweep",
					  s->role, s->name, compare_source(res, first),
					  compare_source(res, p));
		if (compare_number(p, axis, &x) != 0)
			return errbuf_set(eb, "%s: results[%zu]: no numeric parameter %s",
					  compare_source(res, p), p->index, axis);
		if (!compare_held(res, p, s->name, axis))
			continue;
		if (s->n == COMPARE_MAX_POINTS)
			return errbuf_set(eb, "%s %s: more than %d points", s->role, s->name,
					  COMPARE_MAX_POINTS);
		/* Insertion keeps x sorted (stable for equal x: repetitions stay in order). */
		size_t j = s->n++;

		while (j > 0 && s->x[j - 1] > x) {
			s->x[j] = s->x[j - 1];
			s->pts[j] = s->pts[j - 1];
			j--;
		}
		s->x[j] = x;
		s->pts[j] = p;
	}
	if (s->n == 0) {
		results_subjects(res, list, sizeof(list));
		return errbuf_set(eb, "%s %s: not in the results (subjects: %s)", s->role, s->name,
				  list);
	}
	return 0;
}

/* The same points on both sides, or the first that differs. */
static int compare_match(const struct compare_side *b, const struct compare_side *c,
			 const char *axis, struct errbuf *eb)
{
	size_t n = b->n < c->n ? b->n : c->n;

	for (size_t i = 0; i < n; i++)
		if (b->x[i] != c->x[i])
			return errbuf_set(eb,
					  "baseline %s and candidate %s were measured at different "
					  "points: %s=%g for %s, %s=%g for %s",
					  b->name, c->name, axis, b->x[i], b->name, axis, c->x[i],
					  c->name);
	if (b->n != c->n) {
		const struct compare_side *more = b->n > c->n ? b : c, *less = more == b ? c : b;

		return errbuf_set(eb,
				  "baseline %s and candidate %s were measured at different "
				  "points: %s has %s=%g, %s has not",
				  b->name, c->name, more->name, axis, more->x[n], less->name);
	}
	return 0;
}

/* A point's estimate and standard error in seconds (estimate: interval / 1.96; median:
 * stddev / sqrt(runs)), as rarplot's fits weight them. */
static void compare_y(const struct results_point *p, bool estimate, double *y, double *sigma)
{
	if (estimate) {
		double half = (p->estimate_hi_s - p->estimate_lo_s) / 2;

		*y = p->estimate_s;
		*sigma = isfinite(half) ? fmax(half, 1e-9 * *y) / 1.959964 : NAN;
	} else {
		*y = p->median_s;
		*sigma = isfinite(p->stddev_s) && p->stddev_s > 0 && p->n_runs >= 2
			     ? p->stddev_s / sqrt((double)p->n_runs)
			     : NAN;
	}
}

/* Pairs the rounds of pb and pc by round number (both estimates finite) into rb, rc. */
static size_t compare_rounds(const struct results_point *pb, const struct results_point *pc,
			     double *rb, double *rc)
{
	size_t n = 0;

	for (size_t i = 0; i < pb->n_rounds; i++)
		for (size_t j = 0; j < pc->n_rounds; j++)
			if (pb->rounds[i].round == pc->rounds[j].round &&
			    isfinite(pb->rounds[i].estimate_s) &&
			    isfinite(pc->rounds[j].estimate_s)) {
				rb[n] = pb->rounds[i].estimate_s;
				rc[n] = pc->rounds[j].estimate_s;
				n++;
				break;
			}
	return n;
}

/* Why b and c are not paired in time ("" when they are). */
static void compare_why_unpaired(const struct results *res, const struct compare_side *b,
				 const struct compare_side *c, char *buf, size_t size)
{
	buf[0] = '\0';
	if (b->pts[0]->source != c->pts[0]->source) {
		snprintf(buf, size, "baseline and candidate come from different files (%s, %s)",
			 compare_source(res, b->pts[0]), compare_source(res, c->pts[0]));
		return;
	}
	for (size_t i = 0; i < b->n; i++)
		if (b->pts[i]->n_rounds == 0 || c->pts[i]->n_rounds == 0) {
			snprintf(buf, size,
				 "%s has no per-round estimates (rarbench.round_estimates: not a "
				 "rarbench --manifest sweep, or one written before they were)",
				 compare_source(res, b->pts[i]));
			return;
		}
}

/* One fit of side s's estimates (y, sigma: n entries) into *line. */
static int compare_fit(const struct compare_side *s, const double *y, const double *sigma,
		       bool weighted, struct fit_line *line, struct errbuf *eb)
{
	if (fit_linear(s->x, y, weighted ? sigma : NULL, s->n, line, eb) != 0)
		return errbuf_prefix(eb, "%s %s", s->role, s->name);
	return 0;
}

/*
 * The point of (x, y) farthest from line relative to the line, when it is
 * more than COMPARE_MAX_RESIDUAL off and more than 3 standard errors
 * (sigma, NaN: ignored) off: a step or a curve that no line describes.
 * Returns its index, or n when every point is near the line.
 */
static size_t compare_off_line(const double *x, const double *y, const double *sigma, size_t n,
			       const struct fit_line *line, double *off)
{
	size_t worst = n;

	*off = 0;
	for (size_t i = 0; i < n; i++) {
		double fx = line->intercept + line->slope * x[i], d = y[i] - fx;

		if (!(fx > 0) || fabs(d) / fx <= COMPARE_MAX_RESIDUAL ||
		    (isfinite(sigma[i]) && fabs(d) <= 3 * sigma[i]) || fabs(d) / fx <= fabs(*off))
			continue;
		worst = i;
		*off = d / fx;
	}
	return worst;
}

/* Adds one note (dropped when the notes are full). */
__attribute__((format(printf, 2, 3))) static void compare_note(struct compare_outcome *out,
							       const char *fmt, ...)
{
	va_list ap;

	if (out->n_notes == COMPARE_NOTES_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(out->notes[out->n_notes++], COMPARE_NOTE_LEN, fmt, ap);
	va_end(ap);
}

/* Notes on what makes a figure unreliable: a poor fit, systematic residuals, a slope that is not
 * there, a sweep whose points mostly waited for a CPU. y: the four arrays of compare_compute. */
static void compare_notes(struct compare_outcome *out, const struct compare_side *b,
			  const struct compare_side *c, const double *y)
{
	const struct compare_side *side[2] = {b, c};
	const struct fit_line *line[2] = {&out->base, &out->cand};
	size_t contended = 0;

	for (size_t i = 0; i < b->n; i++)
		contended += b->pts[i]->contended || c->pts[i]->contended;
	if (2 * contended > b->n)
		compare_note(out,
			     "unreliable: %zu of %zu points had most of their runs contended (they "
			     "waited for a CPU): the host was busy throughout the sweep",
			     contended, b->n);
	for (int k = 0; k < 2; k++) {
		double t = fit_t95(line[k]->n > 2 ? line[k]->n - 2 : 0);

		double off;
		size_t at = compare_off_line(side[k]->x, y + 2 * k * b->n, y + (2 * k + 1) * b->n,
					     b->n, line[k], &off);

		if (at < b->n)
			compare_note(
			    out,
			    "unreliable: the %s's time at %g is %+.0f %% off its line (more "
			    "than %.0f %% and 3 standard errors): a step or a curve, not a "
			    "line",
			    side[k]->role, side[k]->x[at], 100 * off, 100 * COMPARE_MAX_RESIDUAL);

		if (line[k]->r2 < COMPARE_MIN_R2)
			compare_note(
			    out,
			    "unreliable: the %s's line fits poorly (R² %.3f < %.2f): its "
			    "times do not grow linearly, the intercept and slope mean little",
			    side[k]->role, line[k]->r2, COMPARE_MIN_R2);
		if (fabs(line[k]->slope) <= t * line[k]->slope_se)
			compare_note(
			    out,
			    "unreliable: the %s's slope is not distinguishable from 0: the "
			    "slope ratio means little",
			    side[k]->role);
	}
}

/* The paired comparison, once b and c match point for point and share their rounds. */
static int compare_paired(const struct compare_side *b, const struct compare_side *c,
			  const double *yb, const double *sb, const double *yc, const double *sc,
			  const struct compare_opts *o, const double *at, size_t n_at,
			  struct paired_result *pr, struct errbuf *eb)
{
	struct paired_point *pts = calloc(b->n, sizeof(*pts));
	size_t total = 0, used = 0;
	double *buf = NULL;
	struct paired_opts po = {o->resamples, PAIRED_DEFAULT_SEED, o->use_weights, at, n_at};
	int rc = -1;

	for (size_t i = 0; i < b->n; i++)
		total += b->pts[i]->n_rounds;
	buf = calloc(2 * (total ? total : 1), sizeof(*buf));
	if (pts == NULL || buf == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < b->n; i++) {
		pts[i] = (struct paired_point){
		    b->x[i], yb[i], yc[i], sb[i], sc[i], buf + used, buf + total + used, 0};
		pts[i].n_rounds =
		    compare_rounds(b->pts[i], c->pts[i], buf + used, buf + total + used);
		used += pts[i].n_rounds;
	}
	rc = paired_compare(pts, b->n, &po, pr, eb);
out:
	free(buf);
	free(pts);
	return rc;
}

/* Fills out->q from the paired (when paired) and unpaired results, with their verdicts. */
static void compare_quantities(struct compare_outcome *out, const struct compare_opts *o,
			       const struct paired_result *pr, const struct paired_result *ur,
			       const char *unit)
{
	out->n_q = 2 + ur->n_at;
	snprintf(out->q[0].name, COMPARE_NAME_MAX, "intercept");
	snprintf(out->q[1].name, COMPARE_NAME_MAX, "slope");
	out->q[0].unpaired = ur->intercept;
	out->q[1].unpaired = ur->slope;
	out->q[0].paired = pr->intercept;
	out->q[1].paired = pr->slope;
	for (size_t i = 0; i < ur->n_at; i++) {
		bool outside = out->at[i] < out->x_min || out->at[i] > out->x_max;

		/* A size beyond the sweep is the lines' extrapolation, never a measurement. */
		snprintf(out->q[2 + i].name, COMPARE_NAME_MAX, "time at %g %s%s%s", out->at[i],
			 unit, out->at[i] == 1 ? "" : "s", outside ? " (extrapolated)" : "");
		out->n_extrapolated += outside;
		out->q[2 + i].unpaired = ur->at[i];
		out->q[2 + i].paired = pr->at[i];
	}
	out->crossover = out->paired ? pr->crossover : ur->crossover;
	for (size_t i = 0; i < out->n_q; i++) {
		struct compare_quantity *q = &out->q[i];

		q->verdict = verdict_judge(out->paired ? &q->paired : &q->unpaired, o->noise);
		out->regressed |= q->verdict == VERDICT_REGRESSED;
		out->improved |= q->verdict == VERDICT_IMPROVED;
		out->inconclusive |=
		    q->verdict == VERDICT_INCONCLUSIVE || q->verdict == VERDICT_UNKNOWN;
	}
}

/* The unit of one step along axis, for the quantities' names. */
static const char *compare_unit(const char *axis)
{
	if (strcmp(axis, "nb_tasks") == 0)
		return "task";
	if (strcmp(axis, "nb_roles") == 0)
		return "role";
	if (strcmp(axis, "nb_users") == 0)
		return "user";
	if (strcmp(axis, "nb_commands") == 0)
		return "command";
	return axis;
}

/*
 * Every point's y and sigma into y (baseline y, baseline sigma, candidate y, candidate sigma,
 * b->n each): rarbench's estimate when every point of both has one (*est stays true), else the
 * median. *weighted stays true only when every point has a sigma.
 */
static void compare_fill_y(const struct compare_side *b, const struct compare_side *c, double *y,
			   bool *est, bool *weighted)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		*est = *est && isfinite(b->pts[i]->estimate_s) && isfinite(c->pts[i]->estimate_s);
	for (i = 0; i < b->n; i++) {
		compare_y(b->pts[i], *est, &y[i], &y[b->n + i]);
		compare_y(c->pts[i], *est, &y[2 * b->n + i], &y[3 * b->n + i]);
		*weighted = *weighted && isfinite(y[b->n + i]) && isfinite(y[3 * b->n + i]);
	}
}

/*
 * Both sides ran in the same rounds: the paired intervals into *pr and out. When no point has
 * two rounds both measured, out falls back to unpaired, refused without --allow-unpaired.
 * Returns 0 or -1.
 */
static int compare_pair_rounds(const struct compare_side *b, const struct compare_side *c,
			       const double *y, bool weighted, const struct compare_opts *o,
			       size_t n_at, struct compare_outcome *out, struct paired_result *pr,
			       struct errbuf *eb)
{
	struct compare_opts ow = *o;

	ow.use_weights = weighted;
	if (compare_paired(b, c, y, y + b->n, y + 2 * b->n, y + 3 * b->n, &ow, out->at, n_at, pr,
			   eb) != 0)
		return -1;
	out->paired_points = pr->paired_points;
	out->resamples = pr->resamples;
	if (pr->paired_points == 0) {
		out->paired = false;
		snprintf(out->why_unpaired, sizeof(out->why_unpaired),
			 "no point has two rounds that both subjects measured");
		if (!o->allow_unpaired)
			return errbuf_set(eb, "%s and %s are not paired: %s", o->baseline,
					  o->candidate, out->why_unpaired);
	}
	return 0;
}

int compare_compute(const struct results *res, const struct compare_opts *o,
		    struct compare_outcome *out, struct errbuf *eb)
{
	struct compare_side b = {o->baseline, "baseline", NULL, NULL, 0};
	struct compare_side c = {o->candidate, "candidate", NULL, NULL, 0};
	struct paired_result pr, ur;
	double *y = NULL;
	bool est = true, weighted = o->use_weights;
	size_t i, n_at;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	memset(&pr, 0, sizeof(pr));
	if (o->n_at > PAIRED_MAX_AT) {
		errbuf_set(eb, "--at: more than %d sizes", PAIRED_MAX_AT);
		goto out;
	}
	if (strcmp(o->baseline, o->candidate) == 0) {
		errbuf_set(eb, "baseline and candidate are the same subject %s", o->baseline);
		goto out;
	}
	if (compare_gather(res, o->axis, o->source, &b, eb) != 0 ||
	    compare_gather(res, o->axis, o->source, &c, eb) != 0 ||
	    compare_match(&b, &c, o->axis, eb) != 0)
		goto out;
	y = calloc(4 * b.n, sizeof(*y));
	if (y == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	compare_fill_y(&b, &c, y, &est, &weighted);
	interference_of(res, o->source, &out->host);
	out->stat = est ? "estimate" : "median";
	out->tools = results_different_tools(res, o->baseline, o->candidate);
	out->n_points = b.n;
	out->x_min = b.x[0];
	out->x_max = b.x[b.n - 1];
	n_at = o->n_at ? o->n_at : 1;
	for (i = 0; i < n_at; i++)
		out->at[i] = o->n_at ? o->at[i] : b.x[b.n - 1];
	if (compare_fit(&b, y, y + b.n, weighted, &out->base, eb) != 0 ||
	    compare_fit(&c, y + 2 * b.n, y + 3 * b.n, weighted, &out->cand, eb) != 0)
		goto out;
	paired_unpaired(&out->cand, &out->base, out->at, n_at, &ur);
	compare_why_unpaired(res, &b, &c, out->why_unpaired, sizeof(out->why_unpaired));
	out->paired = out->why_unpaired[0] == '\0';
	if (!out->paired && !o->allow_unpaired) {
		errbuf_set(eb,
			   "%s and %s are not paired: %s; --allow-unpaired compares them anyway",
			   o->baseline, o->candidate, out->why_unpaired);
		goto out;
	}
	if (out->paired && compare_pair_rounds(&b, &c, y, weighted, o, n_at, out, &pr, eb) != 0)
		goto out;
	compare_quantities(out, o, &pr, &ur, compare_unit(o->axis));
	compare_notes(out, &b, &c, y);
	if (out->n_extrapolated > 0)
		compare_note(out,
			     "extrapolated: %zu of the --at sizes lie outside the sizes measured "
			     "(%g to %g): their ratios are the fitted lines' extrapolation, not "
			     "measurements",
			     out->n_extrapolated, out->x_min, out->x_max);
	rc = 0;
out:
	free(y);
	compare_side_free(&b);
	compare_side_free(&c);
	return rc;
}

size_t compare_sizes(const struct results *res, const struct compare_opts *o, double *xs,
		     size_t cap)
{
	struct compare_side b = {o->baseline, "baseline", NULL, NULL, 0};
	struct errbuf ignored;
	size_t n = 0;

	memset(&ignored, 0, sizeof(ignored));
	if (compare_gather(res, o->axis, o->source, &b, &ignored) == 0)
		for (size_t i = 0; i < b.n && n < cap; i++)
			if (n == 0 || xs[n - 1] != b.x[i])
				xs[n++] = b.x[i]; /* sorted: a repeated size follows itself */
	compare_side_free(&b);
	return n;
}
