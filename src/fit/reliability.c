/* reliability: which fits of a report should not be believed, and why (reliability.h). */
#include "reliability.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sanitize.h"

bool reliability_hosts_disagree(const double *b, const double *s, size_t h, double *q)
{
	double sw = 0, swb = 0, m, df = (double)h - 1, z = 2.326, a;

	*q = 0;
	if (h < 2)
		return false;
	for (size_t i = 0; i < h; i++) {
		if (!(s[i] > 0))
			return false;
		sw += 1 / (s[i] * s[i]);
		swb += b[i] / (s[i] * s[i]);
	}
	m = swb / sw;
	for (size_t i = 0; i < h; i++)
		*q += (b[i] - m) * (b[i] - m) / (s[i] * s[i]);
	a = 1 - 2 / (9 * df) + z * sqrt(2 / (9 * df));
	return *q > df * a * a * a;
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

void reliability_print(const struct fitreport *rep, FILE *f)
{
	bool hosts = rep->set->n_hosts > 1, printed = false;
	double *b = malloc((rep->n_rows ? rep->n_rows : 1) * sizeof(*b));
	double *s = malloc((rep->n_rows ? rep->n_rows : 1) * sizeof(*s));

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
			fprintf(f, ": R² %.2f, the points do not lie on a line", l->r2);
		if (flat)
			fprintf(f, "%s the slope's 95 %% interval reaches 0 or below",
				poor ? ";" : ":");
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
