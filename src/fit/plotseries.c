/* plotseries: turn results into per subject x format x host series along one axis, and write them
 * as TSV. */
#include "plotseries.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "growbuf.h"
#include "numarg.h"
#include "fit.h"

/* The smallest value of one held axis within a group. */
struct plotseries_held {
	const char *key;
	double min;
};

struct plotseries_group {
	struct plotseries s;
	size_t cap;
	struct plotseries_held held[RESULTS_MAX_PARAMS];
	size_t n_held;
};

static const char *plotseries_source(const struct results *res, const struct results_point *p)
{
	return p->source < res->n_sources ? res->sources[p->source] : "(input)";
}

/* Parses a parameter value as a finite number >= 0. */
static int plotseries_number(const struct results *res, const struct results_point *p,
			     const char *key, double *out, struct errbuf *eb)
{
	const char *v = results_point_param(p, key);
	const char *end = NULL;

	if (v == NULL)
		return errbuf_set(eb, "%s: results[%zu]: no parameter %s",
				  plotseries_source(res, p), p->index, key);
	if (numarg_any_double_prefix(v, out, &end) != NUMARG_OK || *end != '\0' ||
	    !isfinite(*out) || *out < 0)
		return errbuf_set(eb, "%s: results[%zu].parameters.%s: \"%.40s\" is not a size",
				  plotseries_source(res, p), p->index, key, v);
	return 0;
}

static bool plotseries_on_axis(const char *axis, const char *key)
{
	if (strcmp(axis, PLOTSERIES_AXIS_BOTH) == 0)
		return strcmp(key, "nb_roles") == 0 || strcmp(key, "nb_tasks") == 0;
	return strcmp(axis, key) == 0;
}

static int plotseries_x(const struct results *res, const struct results_point *p, const char *axis,
			double *x, struct errbuf *eb)
{
	double r, t;

	if (strcmp(axis, PLOTSERIES_AXIS_BOTH) != 0)
		return plotseries_number(res, p, axis, x, eb);
	if (plotseries_number(res, p, "nb_roles", &r, eb) != 0 ||
	    plotseries_number(res, p, "nb_tasks", &t, eb) != 0)
		return -1;
	*x = r * t;
	return 0;
}

static bool plotseries_any_has(const struct results *res, const char *key)
{
	size_t i;

	for (i = 0; i < res->n_points; i++)
		if (results_point_param(&res->points[i], key) != NULL)
			return true;
	return false;
}

/* "a.json" or "a.json, b.json (and N more)" for messages about all inputs. */
static void plotseries_sources(const struct results *res, char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < res->n_sources && i < 2 && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
					 res->sources[i]);
	if (res->n_sources > 2 && used < len)
		snprintf(buf + used, len - used, " (and %zu more)", res->n_sources - 2);
}

static int plotseries_check_axis(const struct results *res, const char *axis, struct errbuf *eb)
{
	const char *need[2] = {axis, NULL};
	char files[256], have[256];
	size_t i, k, used = 0;

	if (strcmp(axis, PLOTSERIES_AXIS_BOTH) == 0) {
		need[0] = "nb_roles";
		need[1] = "nb_tasks";
	}
	for (k = 0; k < 2 && need[k] != NULL; k++) {
		if (plotseries_any_has(res, need[k]))
			continue;
		plotseries_sources(res, files, sizeof(files));
		have[0] = '\0';
		for (i = 0; res->n_points > 0 && i < res->points[0].n_params && used < sizeof(have);
		     i++)
			used += (size_t)snprintf(have + used, sizeof(have) - used, "%s%s",
						 i ? ", " : "", res->points[0].params[i].key);
		return errbuf_set(eb, "%s: no result has the parameter %s (parameters: %s)", files,
				  need[k], have[0] ? have : "none");
	}
	return 0;
}

/* The group of p's series in *groups (*n of them, room for *cap), added when new; NULL: no memory.
 */
static struct plotseries_group *plotseries_group_of(struct plotseries_group **groups, size_t *n,
						    size_t *cap, const struct results_point *p)
{
	struct plotseries_group *g;
	struct errbuf unused; /* the caller says "out of memory" */
	size_t i;

	for (i = 0; i < *n; i++) {
		g = &(*groups)[i];
		if (strcmp(g->s.subject, p->subject) == 0 && strcmp(g->s.format, p->format) == 0 &&
		    strcmp(g->s.host, p->host) == 0)
			return g;
	}
	/* a series has a point at least: the points bound them */
	if (growarray(groups, cap, *n + 1, sizeof(**groups), RESULTS_MAX_POINTS, &unused) < 0)
		return NULL;
	g = &(*groups)[(*n)++];
	memset(g, 0, sizeof(*g));
	g->s.subject = p->subject;
	g->s.format = p->format;
	g->s.host = p->host;
	g->s.source = p->source;
	return g;
}

/* Records the held axes of p in g (the minimum of each). */
static int plotseries_note_held(const struct results *res, struct plotseries_group *g,
				const struct results_point *p, const char *axis, struct errbuf *eb)
{
	size_t i, k;
	double v;

	for (i = 0; i < p->n_params; i++) {
		const char *key = p->params[i].key;

		if (strncmp(key, "nb_", 3) != 0 || plotseries_on_axis(axis, key))
			continue;
		if (plotseries_number(res, p, key, &v, eb) != 0)
			return -1;
		for (k = 0; k < g->n_held; k++)
			if (strcmp(g->held[k].key, key) == 0)
				break;
		if (k == g->n_held) {
			if (g->n_held == RESULTS_MAX_PARAMS)
				return errbuf_set(eb, "too many nb_* parameters");
			g->held[g->n_held].key = key;
			g->held[g->n_held++].min = v;
		} else if (v < g->held[k].min) {
			g->held[k].min = v;
		}
	}
	return 0;
}

/* Whether every held axis of p is at the group's minimum. */
static bool plotseries_at_held(const struct plotseries_group *g, const struct results_point *p)
{
	size_t k;

	for (k = 0; k < g->n_held; k++) {
		const char *v = results_point_param(p, g->held[k].key);

		if (v != NULL && numarg_leading_double(v) != g->held[k].min)
			return false;
	}
	return true;
}

static void plotseries_fill(struct plotseries_point *pt, const struct results_point *p,
			    enum plotseries_stat stat)
{
	const char *v;
	double sd = p->stddev_s;

	if (stat == PLOTSERIES_INSTRUCTIONS) {
		/* A count: exact, one run, nothing to weigh it by. */
		pt->y_ms = pt->ylow_ms = pt->yhigh_ms = p->instructions;
		pt->ci_lo_ms = pt->ci_hi_ms = pt->sigma_ms = NAN;
		pt->runs = 1;
		pt->contended_share = NAN;
		v = results_point_param(p, "nb_roles");
		pt->nb_roles = v != NULL ? numarg_leading_double(v) : NAN;
		v = results_point_param(p, "nb_tasks");
		pt->nb_tasks = v != NULL ? numarg_leading_double(v) : NAN;
		return;
	}
	if (stat == PLOTSERIES_MEAN) {
		pt->y_ms = p->mean_s * 1e3;
		pt->ylow_ms = (isnan(sd) ? p->min_s : p->mean_s - sd) * 1e3;
		pt->yhigh_ms = (isnan(sd) ? p->max_s : p->mean_s + sd) * 1e3;
		pt->ci_lo_ms = p->mean_lo_s * 1e3;
		pt->ci_hi_ms = p->mean_hi_s * 1e3;
	} else {
		pt->y_ms = (stat == PLOTSERIES_ESTIMATE && !isnan(p->estimate_s) ? p->estimate_s
										 : p->median_s) *
			   1e3;
		pt->ylow_ms = (isnan(p->q1_s) ? p->min_s : p->q1_s) * 1e3;
		pt->yhigh_ms = (isnan(p->q3_s) ? p->max_s : p->q3_s) * 1e3;
		pt->ci_lo_ms = p->median_lo_s * 1e3;
		pt->ci_hi_ms = p->median_hi_s * 1e3;
		if (stat == PLOTSERIES_ESTIMATE && !isnan(p->estimate_s)) {
			pt->ci_lo_ms = p->estimate_lo_s * 1e3;
			pt->ci_hi_ms = p->estimate_hi_s * 1e3;
		}
	}
	pt->runs = p->n_runs;
	pt->contended_share = p->contended_share;
	pt->contended = p->contended;
	pt->sigma_ms =
	    isfinite(sd) && sd > 0 && p->n_runs >= 2 ? sd * 1e3 / sqrt((double)p->n_runs) : NAN;
	if (stat == PLOTSERIES_ESTIMATE && !isnan(p->estimate_s)) {
		/* The interval's half-width in standard errors (normal: 1.96), clamped away from 0
		 * so a point whose runs are all equal still has a weight. */
		double half = (pt->ci_hi_ms - pt->ci_lo_ms) / 2.0;

		pt->sigma_ms = isfinite(half) ? fmax(half, 1e-9 * pt->y_ms) / 1.959964 : NAN;
	}
	v = results_point_param(p, "nb_roles");
	pt->nb_roles = v != NULL ? numarg_leading_double(v) : NAN;
	v = results_point_param(p, "nb_tasks");
	pt->nb_tasks = v != NULL ? numarg_leading_double(v) : NAN;
}

bool plotseries_all_counted(const struct results *res)
{
	for (size_t i = 0; i < res->n_points; i++)
		if (!res->points[i].counted)
			return false;
	return res->n_points > 0;
}

bool plotseries_any_counted(const struct results *res)
{
	for (size_t i = 0; i < res->n_points; i++)
		if (res->points[i].counted)
			return true;
	return false;
}

bool plotseries_all_estimated(const struct results *res)
{
	for (size_t i = 0; i < res->n_points; i++)
		if (isnan(res->points[i].estimate_s))
			return false;
	return res->n_points > 0;
}

static int plotseries_cmp_point(const void *a, const void *b)
{
	const struct plotseries_point *pa = a, *pb = b;

	return (pa->x > pb->x) - (pa->x < pb->x);
}

static size_t plotseries_distinct_x(const struct plotseries *s)
{
	size_t i, d = 0;

	for (i = 0; i < s->n; i++)
		if (i == 0 || s->pts[i].x != s->pts[i - 1].x)
			d++;
	return d;
}

static int plotseries_push(struct plotseries_group *g, const struct plotseries_point *pt)
{
	struct errbuf unused; /* the caller says "out of memory" */

	if (growarray(&g->s.pts, &g->cap, g->s.n + 1, sizeof(*g->s.pts), RESULTS_MAX_POINTS,
		      &unused) < 0)
		return -1;
	g->s.pts[g->s.n++] = *pt;
	return 0;
}

/* Sorts, sets the range and the weighted flag, and checks there is enough to fit. */
static int plotseries_finish(const struct results *res, struct plotseries *s, const char *axis,
			     struct errbuf *eb)
{
	size_t i, d;

	qsort(s->pts, s->n, sizeof(*s->pts), plotseries_cmp_point);
	d = plotseries_distinct_x(s);
	if (d < FIT_MIN_DISTINCT_X)
		return errbuf_set(eb,
				  "%s: subject %s format %s host %s: only %zu distinct %s value%s, "
				  "at least %d needed to fit a line",
				  s->source < res->n_sources ? res->sources[s->source] : "(input)",
				  s->subject, s->format, s->host, d, axis, d == 1 ? "" : "s",
				  FIT_MIN_DISTINCT_X);
	s->x_min = s->pts[0].x;
	s->x_max = s->pts[s->n - 1].x;
	s->weighted = true;
	for (i = 0; i < s->n; i++)
		if (isnan(s->pts[i].sigma_ms))
			s->weighted = false;
	return 0;
}

void plotseries_set_free(struct plotseries_set *set)
{
	size_t i;

	if (set == NULL)
		return;
	for (i = 0; i < set->n_series; i++)
		free(set->series[i].pts);
	free(set->series);
	free(set->axis);
	free(set->held);
	free(set);
}

static int plotseries_held_text(struct plotseries_set *set, const struct plotseries_group *g)
{
	size_t k, used = 0, len = 1024;

	set->held = calloc(1, len);
	if (set->held == NULL)
		return -1;
	for (k = 0; k < g->n_held && used < len; k++)
		used += (size_t)snprintf(set->held + used, len - used, "%s%s=%g", k ? ", " : "",
					 g->held[k].key, g->held[k].min);
	return 0;
}

int plotseries_build(const struct results *res, const char *axis, enum plotseries_stat stat,
		     struct plotseries_set **out, struct errbuf *eb)
{
	struct plotseries_group *groups = NULL, *g;
	struct plotseries_set *set = NULL;
	size_t n_groups = 0, cap_groups = 0, i, k;
	int rc = -1;

	*out = NULL;
	if (plotseries_check_axis(res, axis, eb) != 0)
		goto out;
	/* Pass 1: groups, and the minimum of every held axis in each. */
	for (i = 0; i < res->n_points; i++) {
		const struct results_point *p = &res->points[i];
		double x;

		g = plotseries_group_of(&groups, &n_groups, &cap_groups, p);
		if (g == NULL) {
			errbuf_set(eb, "out of memory");
			goto out;
		}
		if (plotseries_x(res, p, axis, &x, eb) != 0 ||
		    plotseries_note_held(res, g, p, axis, eb) != 0)
			goto out;
	}
	/* Pass 2: the points at the held minimum. */
	for (i = 0; i < res->n_points; i++) {
		const struct results_point *p = &res->points[i];
		struct plotseries_point pt;

		g = plotseries_group_of(&groups, &n_groups, &cap_groups, p);
		if (g == NULL || !plotseries_at_held(g, p) ||
		    (stat == PLOTSERIES_INSTRUCTIONS && !p->counted))
			continue;
		memset(&pt, 0, sizeof(pt));
		if (plotseries_x(res, p, axis, &pt.x, eb) != 0)
			goto out;
		plotseries_fill(&pt, p, stat);
		if (plotseries_push(g, &pt) != 0) {
			errbuf_set(eb, "out of memory");
			goto out;
		}
	}
	/* Counts: a subject none of whose points was counted has no series (it is not an error:
	 * its times still have theirs). */
	if (stat == PLOTSERIES_INSTRUCTIONS) {
		size_t kept = 0;

		for (k = 0; k < n_groups; k++) {
			if (groups[k].s.n == 0) {
				free(groups[k].s.pts);
				continue;
			}
			groups[kept++] = groups[k];
		}
		n_groups = kept;
	}
	if (n_groups == 0) {
		errbuf_set(eb, "no results to plot");
		goto out;
	}
	for (k = 0; k < n_groups; k++)
		if (plotseries_finish(res, &groups[k].s, axis, eb) != 0)
			goto out;

	set = calloc(1, sizeof(*set));
	if (set == NULL || (set->axis = strdup(axis)) == NULL ||
	    plotseries_held_text(set, &groups[0]) != 0 ||
	    (set->series = calloc(n_groups, sizeof(*set->series))) == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	for (k = 0; k < n_groups; k++) {
		set->series[k] = groups[k].s;
		groups[k].s.pts = NULL;
		for (i = 0; i < k; i++)
			if (strcmp(set->series[i].host, set->series[k].host) == 0)
				break;
		if (i == k)
			set->n_hosts++;
	}
	set->n_series = n_groups;
	*out = set;
	set = NULL;
	rc = 0;
out:
	for (k = 0; k < n_groups; k++)
		free(groups[k].s.pts);
	free(groups);
	plotseries_set_free(set);
	return rc;
}

static int plotseries_cmp_double(const void *a, const void *b)
{
	double da = *(const double *)a, db = *(const double *)b;

	return (da > db) - (da < db);
}

/* Appends the across-hosts points of subject x format (all hosts) to s. */
static int plotseries_merge_hosts(const struct plotseries_set *set, struct plotseries *s,
				  double *ys, size_t cap_ys)
{
	size_t i, j, k, n_ys;
	double x;

	for (;;) {
		/* The next x above the last one emitted, over every host. */
		bool found = false;

		x = 0;
		for (i = 0; i < set->n_series; i++) {
			const struct plotseries *h = &set->series[i];

			if (strcmp(h->subject, s->subject) != 0 ||
			    strcmp(h->format, s->format) != 0)
				continue;
			for (j = 0; j < h->n; j++) {
				if (s->n > 0 && h->pts[j].x <= s->pts[s->n - 1].x)
					continue;
				if (!found || h->pts[j].x < x)
					x = h->pts[j].x;
				found = true;
				break;
			}
		}
		if (!found)
			return 0;
		n_ys = 0;
		struct plotseries_point *pt = &s->pts[s->n];

		memset(pt, 0, sizeof(*pt));
		pt->x = x;
		pt->sigma_ms = NAN;
		pt->ci_lo_ms = pt->ci_hi_ms = NAN;
		pt->contended_share = NAN; /* per host: the hosts' own series say it */
		for (i = 0; i < set->n_series; i++) {
			const struct plotseries *h = &set->series[i];

			if (strcmp(h->subject, s->subject) != 0 ||
			    strcmp(h->format, s->format) != 0)
				continue;
			for (j = 0; j < h->n; j++)
				if (h->pts[j].x == x && n_ys < cap_ys) {
					ys[n_ys++] = h->pts[j].y_ms;
					pt->runs += h->pts[j].runs;
					pt->nb_roles = h->pts[j].nb_roles;
					pt->nb_tasks = h->pts[j].nb_tasks;
				}
		}
		qsort(ys, n_ys, sizeof(*ys), plotseries_cmp_double);
		k = n_ys / 2;
		pt->y_ms = n_ys % 2 ? ys[k] : (ys[k - 1] + ys[k]) / 2;
		pt->ylow_ms = ys[0];
		pt->yhigh_ms = ys[n_ys - 1];
		s->n++;
	}
}

int plotseries_across_hosts(const struct plotseries_set *set, struct plotseries_set **out,
			    struct errbuf *eb)
{
	struct plotseries_set *agg = NULL;
	double *ys = NULL;
	size_t i, j, total = 0;
	int rc = -1;

	*out = NULL;
	for (i = 0; i < set->n_series; i++)
		total += set->series[i].n;
	agg = calloc(1, sizeof(*agg));
	ys = malloc((total + 1) * sizeof(*ys));
	if (agg == NULL || ys == NULL || (agg->axis = strdup(set->axis)) == NULL ||
	    (agg->held = strdup(set->held ? set->held : "")) == NULL ||
	    (agg->series = calloc(set->n_series, sizeof(*agg->series))) == NULL)
		goto oom;
	agg->n_hosts = 1;
	for (i = 0; i < set->n_series; i++) {
		const struct plotseries *h = &set->series[i];
		struct plotseries *s;

		for (j = 0; j < agg->n_series; j++)
			if (strcmp(agg->series[j].subject, h->subject) == 0 &&
			    strcmp(agg->series[j].format, h->format) == 0)
				break;
		if (j < agg->n_series)
			continue;
		s = &agg->series[agg->n_series++];
		s->subject = h->subject;
		s->format = h->format;
		s->host = "all";
		s->source = h->source;
		s->pts = calloc(total + 1, sizeof(*s->pts));
		if (s->pts == NULL)
			goto oom;
		plotseries_merge_hosts(set, s, ys, total + 1);
		s->x_min = s->pts[0].x;
		s->x_max = s->pts[s->n - 1].x;
		s->weighted = false;
	}
	*out = agg;
	agg = NULL;
	rc = 0;
	goto out;
oom:
	errbuf_set(eb, "out of memory");
out:
	free(ys);
	plotseries_set_free(agg);
	return rc;
}

int plotseries_xy(const struct plotseries *s, bool use_weights, double **x, double **y,
		  double **sigma, struct errbuf *eb)
{
	size_t i;

	*x = malloc(s->n * sizeof(double));
	*y = malloc(s->n * sizeof(double));
	*sigma = use_weights && s->weighted ? malloc(s->n * sizeof(double)) : NULL;
	if (*x == NULL || *y == NULL || (use_weights && s->weighted && *sigma == NULL)) {
		free(*x);
		free(*y);
		free(*sigma);
		*x = *y = *sigma = NULL;
		return errbuf_set(eb, "out of memory");
	}
	for (i = 0; i < s->n; i++) {
		(*x)[i] = s->pts[i].x;
		(*y)[i] = s->pts[i].y_ms;
		if (*sigma != NULL)
			(*sigma)[i] = s->pts[i].sigma_ms;
	}
	return 0;
}
