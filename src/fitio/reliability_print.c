/* reliability_print: the report's lines on which fits should not be believed (reliability_print.h).
 */
#include "reliability_print.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "interference.h"
#include "reliability.h"
#include "sanitize.h"

static void reliability_name(const struct plotseries *s, bool hosts, FILE *f);

/* The distinct x of every series of rep, sorted, into xs (at most cap); their count. */
static size_t reliability_xs(const struct fitreport *rep, double *xs, size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i < rep->n_rows; i++)
		for (size_t j = 0; j < rep->rows[i].series->n; j++) {
			double x = rep->rows[i].series->pts[j].x;
			size_t k = 0;

			while (k < n && xs[k] < x)
				k++;
			if ((k < n && xs[k] == x) || n == cap)
				continue;
			memmove(xs + k + 1, xs + k, (n - k) * sizeof(*xs));
			xs[k] = x;
			n++;
		}
	return n;
}

/* Whether some point of rep says its contended share. */
static bool reliability_any_share(const struct fitreport *rep)
{
	for (size_t i = 0; i < rep->n_rows; i++)
		for (size_t j = 0; j < rep->rows[i].series->n; j++)
			if (isfinite(rep->rows[i].series->pts[j].contended_share))
				return true;
	return false;
}

/* One cell: the share at x in s, "!" when the point is shaky, "-" when s has no such point. */
static void reliability_cell(const struct plotseries *s, double x, FILE *f)
{
	for (size_t j = 0; j < s->n; j++) {
		const struct plotseries_point *p = &s->pts[j];

		if (p->x != x)
			continue;
		if (isfinite(p->contended_share))
			fprintf(f, " %.0f %%%s |", 100 * p->contended_share,
				reliability_point_shaky(p) ? " !" : "");
		else
			fprintf(f, " ?%s |", reliability_point_shaky(p) ? " !" : "");
		return;
	}
	fputs(" - |", f);
}

/*
 * What "contended" meant for the runs of these files: each judge's rule as rarbench applied it
 * (src/bench/contention.h holds the thresholds; they are repeated here because a report may
 * describe files an older rarbench wrote, whose judge was another).
 */
static const char *reliability_judge(const char *source)
{
	if (strcmp(source, "schedstat") == 0)
		return "that waited for a CPU (the run delay of /proc/PID/schedstat, exact "
		       "whatever the"
		       " run's length) more than max(200 µs, 1 % of the wall time)";
	if (strcmp(source, "psi") == 0)
		return "whose CPU stall, as the pressure (PSI) of rarlaunch's cgroup counted it,"
		       " marked them contended (a count that misses waits shorter than a scheduler"
		       " tick: doc/precision.md)";
	if (strcmp(source, "off-cpu") == 0)
		return "whose off-CPU time exceeded the subject's best by more than max(50 µs, 1 % "
		       "of"
		       " the wall time)";
	return "that rarbench marked contended (the input files differ in how, or do not say:"
	       " meta.environment.contention_source)";
}

void reliability_print_shares(const struct fitreport *rep, FILE *f)
{
	bool hosts = rep->set->n_hosts > 1;
	size_t cap = 0, n;
	double *xs;

	if (!reliability_any_share(rep))
		return;
	for (size_t i = 0; i < rep->n_rows; i++)
		cap += rep->rows[i].series->n;
	xs = malloc((cap ? cap : 1) * sizeof(*xs));
	if (xs == NULL)
		return;
	n = reliability_xs(rep, xs, cap);
	fprintf(
	    f,
	    "\n**Contended runs per point** (the share of each point's runs %s; **!**:"
	    " a point the fit should not rest on: flagged contended by rarbench (more of its"
	    " runs contended than the manifest's contention_limit, or the hypervisor took over"
	    " 5 %% of the CPU while it ran: steal), more than half of its runs contended, or its"
	    " 95 %% interval wider than ±",
	    reliability_judge(rep->res != NULL ? rep->res->contention_source : ""));
	fprintf(f, "%.0f %%):\n\n| subject | format |", 100 * RELIABILITY_NOISY_REL);
	for (size_t k = 0; k < n; k++)
		fprintf(f, " %g |", xs[k]);
	fputs("\n|---|---|", f);
	for (size_t k = 0; k < n; k++)
		fputs("---:|", f);
	fputc('\n', f);
	for (size_t i = 0; i < rep->n_rows; i++) {
		const struct plotseries *s = rep->rows[i].series;

		fputs("| ", f);
		sanitize_fputs(s->subject, SANITIZE_MARKDOWN, f);
		if (hosts) {
			fputs(" on ", f);
			sanitize_fputs(s->host, SANITIZE_MARKDOWN, f);
		}
		fputs(" | ", f);
		sanitize_fputs(s->format, SANITIZE_MARKDOWN, f);
		fputs(" |", f);
		for (size_t k = 0; k < n; k++)
			reliability_cell(s, xs[k], f);
		fputc('\n', f);
	}
	free(xs);
}

/* "sudo (lab3)" or "sudo" into f. */
static void reliability_name(const struct plotseries *s, bool hosts, FILE *f)
{
	sanitize_fputs(s->subject, SANITIZE_MARKDOWN, f);
	fputc(' ', f);
	sanitize_fputs(s->format, SANITIZE_MARKDOWN, f);
	if (hosts) {
		fputs(" on ", f);
		sanitize_fputs(s->host, SANITIZE_MARKDOWN, f);
	}
}

/* Hosts of one subject x format (rows from first on) that disagree beyond their intervals. */
static bool reliability_hosts(const struct fitreport *rep, size_t first, double *b, double *s,
			      FILE *f, bool printed)
{
	const struct plotseries *ser = rep->rows[first].series;
	size_t n = 0;
	double q;

	for (size_t k = first; k < rep->n_rows; k++)
		if (strcmp(rep->rows[k].series->subject, ser->subject) == 0 &&
		    strcmp(rep->rows[k].series->format, ser->format) == 0) {
			b[n] = rep->rows[k].fit.slope;
			s[n++] = rep->rows[k].fit.slope_se;
		}
	if (!reliability_hosts_disagree(b, s, n, &q))
		return printed;
	fputs(printed ? "" : "\n", f);
	fputs("unreliable: ", f);
	reliability_name(ser, false, f);
	fprintf(f,
		": its %zu hosts' slopes disagree beyond their intervals (Cochran's Q %.1f, "
		"%zu degrees of freedom, p < 0.01): one slope does not describe them\n",
		n, q, n - 1);
	return true;
}

/*
 * The wide intervals of ser's noisy points (noisy of them, not flagged contended) and their
 * remedy, with the share of their runs that did contend as the table above shows it: "few of
 * their runs contended" stood beside a table of 22-39 % (issue 55).
 */
static void reliability_print_noisy(const struct plotseries *ser, size_t noisy, FILE *f)
{
	double lo = INFINITY, hi = -INFINITY;

	for (size_t j = 0; j < ser->n; j++) {
		const struct plotseries_point *p = &ser->pts[j];

		if (reliability_point_contended(p) || !reliability_point_noisy(p) ||
		    !isfinite(p->contended_share))
			continue;
		lo = fmin(lo, p->contended_share);
		hi = fmax(hi, p->contended_share);
	}
	fprintf(f, " interval width: %zu with a 95 %% interval wider than ±%.0f %% (", noisy,
		100 * RELIABILITY_NOISY_REL);
	if (!isfinite(hi))
		fputs("not flagged contended", f);
	else if (round(100 * hi) == 0)
		fputs("none of their runs contended", f);
	else if (round(100 * lo) == round(100 * hi))
		fprintf(f, "%.0f %% of their runs contended, under the half that flags a point",
			100 * hi);
	else
		fprintf(f,
			"%.0f–%.0f %% of their runs contended, under the half that flags a point",
			100 * lo, 100 * hi);
	/* Waits on a fifth or more of the runs widen an interval too: a quieter host helps. */
	fprintf(f,
		"): %smore runs per point (min_runs, rounds) or precision mode (\"precision\": "
		"0.02 in the manifest)",
		isfinite(hi) && hi >= 0.2 ? "a quieter host, " : "");
}

void reliability_print(const struct fitreport *rep, FILE *f)
{
	bool hosts = rep->set->n_hosts > 1, printed = false;
	struct interference host;
	double *b = malloc((rep->n_rows ? rep->n_rows : 1) * sizeof(*b));
	double *s = malloc((rep->n_rows ? rep->n_rows : 1) * sizeof(*s));

	interference_of(rep->res, SIZE_MAX, &host);
	for (size_t i = 0; i < rep->n_rows; i++) {
		const struct fit_line *l = &rep->rows[i].fit;
		double t = fit_t95(l->n > 2 ? l->n - 2 : 0);
		bool poor = l->r2 < RELIABILITY_MIN_R2, flat = l->slope - t * l->slope_se <= 0;

		if (!poor && !flat)
			continue;
		fputs(printed ? "" : "\n", f);
		printed = true;
		fputs("unreliable: ", f);
		reliability_name(rep->rows[i].series, hosts, f);
		if (poor)
			fprintf(
			    f,
			    ": shape: R² %.2f, the points do not lie on a line (look at the "
			    "figure; compare times at sizes, rarplot --compare --at, rather than "
			    "an intercept and a slope)",
			    l->r2);
		if (flat)
			fprintf(
			    f,
			    "%s slope: its 95 %% interval reaches 0 or below (the sizes add too "
			    "little cost to measure it: larger sizes, or more runs per point)",
			    poor ? ";" : ":");
		fputc('\n', f);
	}
	for (size_t i = 0; i < rep->n_rows; i++) {
		const struct plotseries *ser = rep->rows[i].series;
		size_t shaky, contended = 0, noisy = 0;

		if (!reliability_series_unreliable(ser, &shaky))
			continue;
		for (size_t j = 0; j < ser->n; j++) {
			contended += reliability_point_contended(&ser->pts[j]);
			noisy += !reliability_point_contended(&ser->pts[j]) &&
				 reliability_point_noisy(&ser->pts[j]);
		}
		fputs(printed ? "" : "\n", f);
		printed = true;
		fputs("unreliable: ", f);
		reliability_name(ser, hosts, f);
		fprintf(f, ": the fit rests mostly on shaky points (%zu of %zu):", shaky, ser->n);
		/* Each reason with its own remedy: a busy host and a wide interval are cured
		 * differently (issue 46: "measure on a quiet host" for intervals on a quiet one).
		 */
		if (contended > 0)
			fprintf(
			    f,
			    " contention: %zu contended (most of their runs waited for a CPU, or "
			    "rarbench flagged them): measure again on a quieter host "
			    "(doc/precision.md)%s",
			    contended, noisy > 0 ? ";" : "");
		/* More runs narrow an interval on a quiet host; on one that interferes they
		 * measure the host (issue 51): then the remedy is counts or another machine. */
		if (noisy > 0 && interference_named(&host))
			fprintf(f,
				" interval width: %zu with a 95 %% interval wider than ±%.0f %%, "
				"on a host that interfered (The question, above): %s",
				noisy, 100 * RELIABILITY_NOISY_REL, interference_remedy(&host));
		else if (noisy > 0)
			reliability_print_noisy(ser, noisy, f);
		fputc('\n', f);
	}
	for (size_t i = 0; hosts && b != NULL && s != NULL && i < rep->n_rows; i++) {
		size_t j;

		for (j = 0; j < i; j++)
			if (strcmp(rep->rows[j].series->subject, rep->rows[i].series->subject) ==
				0 &&
			    strcmp(rep->rows[j].series->format, rep->rows[i].series->format) == 0)
				break;
		if (j == i)
			printed = reliability_hosts(rep, i, b, s, f, printed);
	}
	free(b);
	free(s);
}
