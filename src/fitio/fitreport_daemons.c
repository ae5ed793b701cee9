/* fitreport_daemons: report.md's "Where the wait goes": the CPU time of a daemon the runs asked
 * (pkexec's polkitd), per run and point, beside the subject's own median. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitreport.h"
#include "fitreport_write.h"
#include "lsq.h"

/* One point of a daemon's subject: its x on the report's axis, and the point. */
struct daemon_row {
	double x;
	const struct results_point *p;
};

static int daemon_row_cmp(const void *a, const void *b)
{
	double x = ((const struct daemon_row *)a)->x, y = ((const struct daemon_row *)b)->x;

	return (x > y) - (x < y);
}

/* Point p's value of axis (a number), or NaN when it has none. */
static double point_x(const struct results_point *p, const char *axis)
{
	for (size_t i = 0; i < p->n_params; i++)
		if (strcmp(p->params[i].key, axis) == 0) {
			char *end;
			double v = strtod(p->params[i].value, &end);

			return end != p->params[i].value && *end == '\0' ? v : NAN;
		}
	return NAN;
}

/* Whether a and b are one series (subject, format, host). */
static bool same_series(const struct results_point *a, const struct results_point *b)
{
	return strcmp(a->subject, b->subject) == 0 &&
	       strcmp(a->format ? a->format : "", b->format ? b->format : "") == 0 &&
	       strcmp(a->host ? a->host : "", b->host ? b->host : "") == 0;
}

/* The table and the fitted line of the series of res->points[first]. */
static void print_series(const struct results *res, size_t first, const char *axis,
			 const char *unit, FILE *f)
{
	const struct results_point *s = &res->points[first];
	struct daemon_row *rows = calloc(res->n_points, sizeof(*rows));
	double *x = calloc(res->n_points, sizeof(*x)), *y = calloc(res->n_points, sizeof(*y));
	struct lsq_sums fit;
	size_t n = 0;

	if (rows == NULL || x == NULL || y == NULL)
		goto out;
	for (size_t i = first; i < res->n_points; i++) {
		const struct results_point *p = &res->points[i];

		if (p->daemon_name[0] == '\0' || !same_series(p, s) || !isfinite(p->daemon_cpu_s))
			continue;
		rows[n] = (struct daemon_row){point_x(p, axis), p};
		if (isfinite(rows[n].x))
			n++;
	}
	if (n == 0)
		goto out;
	qsort(rows, n, sizeof(*rows), daemon_row_cmp);
	fputs("\n### ", f);
	fitreport_md(f, s->subject);
	fputs(" (", f);
	fitreport_md(f, s->format ? s->format : "");
	fprintf(f, "): %s\n\n", s->daemon_name);
	fprintf(
	    f, "| %s | median (ms) | %s CPU per run (ms) | share of the median | %s peak (MiB) |\n",
	    axis, s->daemon_name, s->daemon_name);
	fputs("|--:|--:|--:|--:|--:|\n", f);
	for (size_t i = 0; i < n; i++) {
		const struct results_point *p = rows[i].p;

		fprintf(f, "| %.0f | %.3f | %.3f | %.0f %% | %.1f |\n", rows[i].x,
			p->median_s * 1e3, p->daemon_cpu_s * 1e3,
			p->median_s > 0 ? 100.0 * p->daemon_cpu_s / p->median_s : NAN,
			p->daemon_maxrss_kib / 1024.0);
		x[i] = rows[i].x;
		y[i] = p->daemon_cpu_s;
	}
	if (n >= 2) {
		lsq_fit(x, y, NULL, n, &fit);
		fprintf(
		    f,
		    "\n%s's CPU per run, fitted over the %zu points (least squares, unweighted): "
		    "%.3f ms + %.3f µs per %s.\n",
		    s->daemon_name, n, (double)fit.intercept * 1e3, (double)fit.slope * 1e6, unit);
	}
out:
	free(rows);
	free(x);
	free(y);
}

void fitreport_print_daemons(const struct fitreport *rep, FILE *f)
{
	const struct results *res = rep->res;
	const char *axis = rep->set != NULL ? rep->set->axis : NULL;
	bool said = false;

	if (res == NULL || axis == NULL)
		return;
	for (size_t i = 0; i < res->n_points; i++) {
		const struct results_point *p = &res->points[i];
		bool seen = false;

		if (p->daemon_name[0] == '\0')
			continue;
		for (size_t k = 0; k < i && !seen; k++)
			seen = res->points[k].daemon_name[0] != '\0' &&
			       same_series(&res->points[k], p);
		if (seen)
			continue;
		if (!said) {
			fputs("\n## Where the wait goes: daemons\n\n", f);
			fputs(
			    "A subject whose tool asks a daemon (pkexec asks polkitd over a "
			    "private "
			    "system bus, started with each point) is timed from the tool's start "
			    "to "
			    "its exit, which includes the daemon's work; the daemon's own CPU time "
			    "over the point's runs (every thread, from its cgroup), per run, shows "
			    "which process the cost is in. The daemon's start-up and its reading "
			    "of "
			    "the rules happen before the timed runs.\n",
			    f);
			said = true;
		}
		print_series(res, i, axis, fitreport_unit(axis), f);
	}
}
