/* history_report: the "Release history" section of report.md, each step explained by the system
 * calls that changed between the two releases and their price on this host. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "history_impl.h"
#include "sanitize.h"

/* The counters of an explanation, at most this many per step. */
#define HISTORY_EXPLAIN_MAX 6
/* A call whose price was not measured is ranked as if it cost this much (a cheap call). */
#define HISTORY_DEFAULT_NS 200.0

const char *history_param_name(int param)
{
	return param == HISTORY_INTERCEPT ? "intercept" : "slope";
}

const char *history_param_unit(int param)
{
	return param == HISTORY_INTERCEPT ? "ms" : "us";
}

struct delta {
	const char *name; /* "close", from "sys.close" */
	double a_run, b_run, a_task, b_task, ns;
};

static const struct history_counter *find_counter(const struct history *h, const char *subject,
						  const char *counter)
{
	for (size_t i = 0; i < h->n_counters; i++)
		if (strcmp(h->counters[i].subject, subject) == 0 &&
		    strcmp(h->counters[i].counter, counter) == 0)
			return &h->counters[i];
	return NULL;
}

static double price_ns(const struct history *h, const char *syscall)
{
	for (size_t i = 0; i < h->n_costs; i++)
		if (strcmp(h->costs[i].syscall, syscall) == 0)
			return h->costs[i].ns;
	return NAN;
}

static double weight(const struct delta *d, int param)
{
	double ns = isfinite(d->ns) ? d->ns : HISTORY_DEFAULT_NS;

	return param == HISTORY_INTERCEPT ? fabs(d->b_run - d->a_run) * ns
					  : fabs(d->b_task - d->a_task) * ns;
}

static int param_for_sort;

static int cmp_delta(const void *x, const void *y)
{
	double wx = weight(x, param_for_sort), wy = weight(y, param_for_sort);

	return wx < wy   ? 1
	       : wx > wy ? -1
			 : strcmp(((const struct delta *)x)->name, ((const struct delta *)y)->name);
}

/* Every sys.* counter of a or b with its counts in both (0 where a subject has none). */
static size_t collect(const struct history *h, const char *a, const char *b, struct delta **out)
{
	struct delta *d = NULL;
	size_t n = 0;

	for (size_t i = 0; i < h->n_counters; i++) {
		const struct history_counter *c = &h->counters[i], *ca, *cb;
		bool dup = false;
		struct delta *grown;

		if (strncmp(c->counter, "sys.", 4) != 0 ||
		    (strcmp(c->subject, a) != 0 && strcmp(c->subject, b) != 0))
			continue;
		for (size_t k = 0; k < n && !dup; k++)
			dup = strcmp(d[k].name, c->counter + 4) == 0;
		if (dup)
			continue;
		grown = realloc(d, (n + 1) * sizeof(*d));
		if (grown == NULL)
			break;
		d = grown;
		ca = find_counter(h, a, c->counter);
		cb = find_counter(h, b, c->counter);
		d[n].name = c->counter + 4;
		d[n].a_run = ca ? ca->intercept : 0;
		d[n].b_run = cb ? cb->intercept : 0;
		d[n].a_task = ca ? ca->slope : 0;
		d[n].b_task = cb ? cb->slope : 0;
		d[n].ns = price_ns(h, d[n].name);
		n++;
	}
	*out = d;
	return n;
}

static void explain(const struct history *h, const struct history_fit *a,
		    const struct history_fit *b, int param, double step, FILE *f)
{
	struct delta *d = NULL;
	size_t n = collect(h, a->subject, b->subject, &d), shown = 0;
	double priced = 0.0;

	if (n == 0) {
		fputs("  - No profile counters for these two releases (the results carry no "
		      "profiles: measure with `\"profile\": true`).\n",
		      f);
		free(d);
		return;
	}
	param_for_sort = param;
	qsort(d, n, sizeof(*d), cmp_delta);
	for (size_t i = 0; i < n && shown < HISTORY_EXPLAIN_MAX; i++) {
		double dr = d[i].b_run - d[i].a_run, dt = d[i].b_task - d[i].a_task;

		if (fabs(dr) < 0.5 && fabs(dt) < 0.01)
			continue;
		fputs("  - `", f);
		sanitize_fputs(d[i].name, SANITIZE_TEXT, f);
		fprintf(f, "(2)`: %.0f → %.0f calls per run (%+.0f), %.3g → %.3g per %s (%+.3g)",
			d[i].a_run, d[i].b_run, dr, d[i].a_task, d[i].b_task, h->axis, dt);
		if (isfinite(d[i].ns)) {
			double cost =
			    param == HISTORY_INTERCEPT ? dr * d[i].ns / 1e6 : dt * d[i].ns / 1e3;

			fprintf(f, "; at %.0f ns each here: %+.3g %s", d[i].ns, cost,
				param == HISTORY_INTERCEPT ? "ms per run" : "us per task");
			priced += cost;
		}
		fputs("\n", f);
		shown++;
	}
	if (shown == 0)
		fputs("  - No system call count changed between the two releases: the step is in "
		      "user time (or in calls' price, not their number).\n",
		      f);
	else if (priced != 0.0)
		fprintf(
		    f,
		    "  - The priced calls above add up to %+.3g %s of the %+.3g %s step; the rest "
		    "is user time or calls whose price was not measured.\n",
		    priced, param == HISTORY_INTERCEPT ? "ms" : "us", step,
		    history_param_unit(param));
	free(d);
}

static void line_table(const struct history *h, const struct history_line *l, FILE *f)
{
	fputs("\n### ", f);
	sanitize_fputs(l->name, SANITIZE_TEXT, f);
	fprintf(f,
		"\n\n| release | intercept (ms) [95 %%] | slope (us per %s) [95 %%] | n |\n"
		"|---|---|---|---|\n",
		h->axis);
	for (size_t r = 0; r < l->n; r++) {
		const struct history_fit *x = &l->rel[r].fit;

		fprintf(f, "| %s | %.3f [%.3f, %.3f] | %.4g [%.4g, %.4g] | %zu |\n",
			l->rel[r].version, x->v[0], x->lo[0], x->hi[0], x->v[1], x->lo[1], x->hi[1],
			x->n);
	}
}

void history_report_markdown(const struct history *h, const struct history_opts *o, FILE *f)
{
	size_t steps = 0;

	fputs("\n## Release history\n\n", f);
	if (h->n_lines == 0) {
		fputs("No subject is a release (an id ending in -X.Y.Z, as sr-json-4.2.0): no "
		      "history.\n",
		      f);
		return;
	}
	fprintf(
	    f,
	    "Each release's line is fitted as above (fits.tsv). Adjacent releases of a line, "
	    "in version order, are compared by Welch's t test of the difference of their fitted "
	    "intercepts, and of their slopes (standard errors and n - 2 degrees of freedom from "
	    "the fits); all %zu tests of this report form one family under Holm's procedure at "
	    "α = %.2g, so the chance of any false step is at most %.0f %%. A step is a "
	    "difference whose adjusted p is below α and that is at least %.3g %% of the earlier "
	    "release's value. Only adjacent releases are compared: a drift spread over many "
	    "releases, each part smaller than that, is no step. The false-alarm rate on A/A "
	    "data (one build entered as two releases) is measured by selfbench/history-aa.sh. "
	    "Tables: history.tsv, history-steps.tsv.\n",
	    h->n_tests, o->alpha, 100.0 * o->alpha, o->min_rel_pct);
	if (h->has_anchor)
		fprintf(f,
			"\nThe anchor, drawn as a band: %s, intercept %.3f ms [%.3f, %.3f], slope "
			"%.4g us [%.4g, %.4g] per %s.\n",
			o->anchor, h->anchor.v[0], h->anchor.lo[0], h->anchor.hi[0], h->anchor.v[1],
			h->anchor.lo[1], h->anchor.hi[1], h->axis);
	for (size_t l = 0; l < h->n_lines; l++)
		line_table(h, &h->lines[l], f);
	fputs("\n### Steps, and the system calls that explain them\n\n", f);
	for (size_t i = 0; i < h->n_tests; i++) {
		const struct changepoint_test *t = &h->tests[i];
		const struct history_line *l = &h->lines[t->series / HISTORY_PARAMS];
		int param = (int)(t->series % HISTORY_PARAMS);

		if (!t->step)
			continue;
		steps++;
		fputs("- **", f);
		sanitize_fputs(l->name, SANITIZE_TEXT, f);
		fprintf(f,
			" %s → %s, %s: %+.4g %s (%+.1f %%; t = %.1f, df %.1f, Holm-adjusted p = "
			"%.2g)**\n",
			l->rel[t->after].version, l->rel[t->after + 1].version,
			history_param_name(param), t->diff, history_param_unit(param), t->rel_pct,
			t->t, t->df, t->p_holm);
		explain(h, &l->rel[t->after].fit, &l->rel[t->after + 1].fit, param, t->diff, f);
	}
	if (steps == 0)
		fputs("No step: no adjacent pair of releases differs by both tests.\n", f);
	history_diary_markdown(h, o, f);
}
