/* fitreport_table: fits.tsv and the comparison table (fitreport_write.h). */
#include "fitreport_write.h"
#include "reliability_print.h"
#include "verdict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atomicfile.h"
#include "sanitize.h"

/* Text from a file, as a TSV field. */
static void fitreport_tsv(FILE *f, const char *s)
{
	sanitize_fputs(s, SANITIZE_TEXT, f);
}

/*
 * The baseline's intercept (or slope, as its rise over the sweep), or 0 when it is rounding noise
 * next to the baseline's time at its largest size: an exact line through 0 fits to 1e-17, not 0.
 */
static double fitreport_base(const struct fitreport_row *b, bool slope)
{
	double top = fabs(b->fit.intercept + b->fit.slope * b->series->x_max);
	double v = slope ? b->fit.slope * b->series->x_max : b->fit.intercept;

	return fabs(v) <= 1e-9 * top ? 0.0 : slope ? b->fit.slope : b->fit.intercept;
}

/* One comparison as rarplot --compare prints it (verdict_format_change); what: "intercept";
 * tools: two different tools, in the words of costs (higher, lower), not of a regression. */
static void fitreport_format_change(const struct paired_ratio *r, double base, const char *what,
				    bool tools, char *buf, size_t size)
{
	verdict_format_change_tools(r, base, what, VERDICT_DEFAULT_NOISE, tools, buf, size);
}

int fitreport_write_tsv(const struct fitreport *rep, const char *path, struct errbuf *eb)
{
	struct atomicfile *af;
	FILE *f;
	size_t i;

	af = atomicfile_open(path, 0644, eb);
	if (af == NULL)
		return -1;
	f = atomicfile_stream(af);
	/* The first ten columns are the original ones; readers may pin them. */
	fprintf(
	    f,
	    "subject\tformat\thost\tx\tn\tintercept_ms\tintercept_se_ms\tslope_us\tslope_se_us\tr2"
	    "\tintercept_lo_ms\tintercept_hi_ms\tslope_lo_us\tslope_hi_us%s\n",
	    rep->counts != NULL
		? "\tinstr_per_call\tinstr_per_unit\tinstr_per_call_ratio\tinstr_per_unit_ratio"
		: "");
	for (i = 0; i < rep->n_rows; i++) {
		const struct fitreport_row *r = &rep->rows[i];
		double t = fit_t95(r->fit.n > 2 ? r->fit.n - 2 : 0);
		const struct fitreport_row *c = fitreport_counts_row(rep, r);

		fitreport_tsv(f, r->series->subject);
		fputc('\t', f);
		fitreport_tsv(f, r->series->format);
		fputc('\t', f);
		fitreport_tsv(f, r->series->host);
		fputc('\t', f);
		fitreport_tsv(f, rep->set->axis);
		fprintf(f, "\t%zu\t%.12g\t%.12g\t%.12g\t%.12g\t%.12g\t%.12g\t%.12g\t%.12g\t%.12g",
			r->fit.n, r->fit.intercept, r->fit.intercept_se, r->fit.slope * 1e3,
			r->fit.slope_se * 1e3, r->fit.r2,
			r->fit.intercept - t * r->fit.intercept_se,
			r->fit.intercept + t * r->fit.intercept_se,
			(r->fit.slope - t * r->fit.slope_se) * 1e3,
			(r->fit.slope + t * r->fit.slope_se) * 1e3);
		if (rep->counts != NULL && c == NULL)
			fputs("\tnan\tnan\tnan\tnan", f);
		else if (rep->counts != NULL)
			fprintf(f, "\t%.12g\t%.12g\t%.12g\t%.12g", c->fit.intercept, c->fit.slope,
				c->baseline != NULL ? c->fit.intercept / c->baseline->fit.intercept
						    : NAN,
				c->baseline != NULL ? c->fit.slope / c->baseline->fit.slope : NAN);
		fputc('\n', f);
	}
	if (ferror(f)) {
		atomicfile_abort(af);
		return errbuf_set(eb, "%s: write error", path);
	}
	return atomicfile_commit(af, eb);
}

static int fitreport_cmp_double(const void *a, const void *b)
{
	double da = *(const double *)a, db = *(const double *)b;

	return (da > db) - (da < db);
}

static void fitreport_print_hosts(const struct fitreport *rep, FILE *f, const char *unit)
{
	double *slopes = NULL, *ses = NULL, *sorted = NULL;
	size_t i, j, k, n;

	slopes = malloc(rep->n_rows * sizeof(*slopes));
	ses = malloc(rep->n_rows * sizeof(*ses));
	sorted = malloc(rep->n_rows * sizeof(*sorted));
	if (slopes == NULL || ses == NULL || sorted == NULL)
		goto out;
	fputs("\n| subject | format | hosts | slope min (µs/", f);
	fitreport_md(f, unit);
	fputs(") | median | max | spread | mean [95 % CI] | within-host σ | between-host σ |"
	      " between share |\n",
	      f);
	fputs("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n", f);
	for (i = 0; i < rep->n_rows; i++) {
		const struct plotseries *s = rep->rows[i].series;
		struct fitreport_hosts hs;

		for (j = 0; j < i; j++)
			if (strcmp(rep->rows[j].series->subject, s->subject) == 0 &&
			    strcmp(rep->rows[j].series->format, s->format) == 0)
				break;
		if (j < i)
			continue;
		n = 0;
		for (k = i; k < rep->n_rows; k++)
			if (strcmp(rep->rows[k].series->subject, s->subject) == 0 &&
			    strcmp(rep->rows[k].series->format, s->format) == 0) {
				slopes[n] = rep->rows[k].fit.slope * 1e3;
				ses[n++] = rep->rows[k].fit.slope_se * 1e3;
			}
		fitreport_hosts_split(slopes, ses, n, &hs);
		memcpy(sorted, slopes, n * sizeof(*sorted));
		qsort(sorted, n, sizeof(*sorted), fitreport_cmp_double);
		double med = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;

		fputs("| ", f);
		fitreport_md(f, s->subject);
		fputs(" | ", f);
		fitreport_md(f, s->format);
		fprintf(f, " | %zu | %.4g | %.4g | %.4g | %.1f%% |", n, sorted[0], med,
			sorted[n - 1],
			med != 0 ? 100.0 * (sorted[n - 1] - sorted[0]) / fabs(med) : 0.0);
		if (n < 2)
			fputs(" - | - | - | - |\n", f);
		else
			/* Rounding noise of exact fits shows as 0, as in the main table. */
			fprintf(f, " %.4g [%.4g, %.4g] | %.2g | %.2g | %.0f%% |\n", hs.mean, hs.lo,
				hs.hi, hs.within_sd <= 1e-12 * fabs(hs.mean) ? 0.0 : hs.within_sd,
				hs.between_sd, 100.0 * hs.between_share);
	}
out:
	free(slopes);
	free(ses);
	free(sorted);
}

/*
 * Whether r's crossover is placed within the sizes both lines were measured at: its whole 95 %
 * interval inside them. An A/A's "375.6 [-1.544e+04, 1.147e+04]" is no crossing in the range.
 */
static bool fitreport_crossover_measured(const struct fitreport_row *r)
{
	double lo = fmin(r->series->x_min, r->baseline->series->x_min);
	double hi = fmax(r->series->x_max, r->baseline->series->x_max);

	return r->cmp.crossover.lo >= lo && r->cmp.crossover.hi <= hi;
}

/* A standard error for display: rounding noise on an exact fit shows as 0. */
static double fitreport_shown_se(double se, double value)
{
	return se <= 1e-12 * fabs(value) ? 0.0 : se;
}

void fitreport_print_rows(const struct fitreport *rep, FILE *f)
{
	const char *unit = fitreport_unit(rep->set->axis);
	bool hosts = rep->set->n_hosts > 1;
	size_t i;

	const char *yu = rep->yunit != NULL ? rep->yunit : "ms";
	const char *ys = rep->yunit_small != NULL ? rep->yunit_small : "µs";

	fprintf(f, "| subject | format |%s points | intercept (%s) | slope (%s/",
		hosts ? " host |" : "", yu, ys);
	fitreport_md(f, unit);
	fputs(") | R² | raw vs ", f);
	fitreport_md(f, rep->baseline);
	fputs(" | slope vs ", f);
	fitreport_md(f, rep->baseline);
	fputs(" | crossover (", f);
	fitreport_md(f, rep->set->axis);
	fputs(") |\n", f);
	fprintf(f, "|---|---|%s---:|---:|---:|---:|---:|---:|---:|\n", hosts ? "---|" : "");
	for (i = 0; i < rep->n_rows; i++) {
		const struct fitreport_row *r = &rep->rows[i];
		char raw[96], slope[96], cross[96];
		double t, ase, bse;

		if (r->baseline == NULL) {
			snprintf(raw, sizeof(raw), "n/a");
			snprintf(slope, sizeof(slope), "n/a");
			snprintf(cross, sizeof(cross), "n/a");
		} else if (r->baseline == r) {
			snprintf(raw, sizeof(raw), "baseline");
			snprintf(slope, sizeof(slope), "baseline");
			snprintf(cross, sizeof(cross), "-");
		} else {
			bool tools = rep->res != NULL &&
				     results_different_tools(rep->res, r->series->subject,
							     r->baseline->series->subject);

			fitreport_format_change(&r->raw_ratio, fitreport_base(r->baseline, false),
						"intercept", tools, raw, sizeof(raw));
			fitreport_format_change(&r->slope_ratio, fitreport_base(r->baseline, true),
						"slope", tools, slope, sizeof(slope));
			if (r->has_crossover && fitreport_crossover_measured(r))
				snprintf(cross, sizeof(cross), "%.0f [%.0f, %.0f]", r->crossover_x,
					 r->cmp.crossover.lo, r->cmp.crossover.hi);
			else if (r->has_crossover)
				snprintf(cross, sizeof(cross), "not measurable [%.4g, %.4g]",
					 r->cmp.crossover.lo, r->cmp.crossover.hi);
			else
				snprintf(cross, sizeof(cross), "none in range");
			if (!r->paired && rep->n_paired > 0) {
				/* Mixed: say which rows are not paired. */
				size_t len = strlen(raw);

				snprintf(raw + len, sizeof(raw) - len, " †");
				len = strlen(slope);
				snprintf(slope + len, sizeof(slope) - len, " †");
			}
		}
		const char *tool =
		    rep->res != NULL ? results_tool(rep->res, r->series->subject) : NULL;

		fputs("| ", f);
		fitreport_md(f, r->series->subject);
		if (tool != NULL) {
			fputs(" (", f);
			fitreport_md(f, tool);
			fputc(')', f);
		}
		fputs(" | ", f);
		fitreport_md(f, r->series->format);
		fputs(" |", f);
		if (hosts) {
			fputc(' ', f);
			fitreport_md(f, r->series->host);
			fputs(" |", f);
		}
		t = fit_t95(r->fit.n > 2 ? r->fit.n - 2 : 0);
		ase = fitreport_shown_se(r->fit.intercept_se, r->fit.intercept);
		bse = fitreport_shown_se(r->fit.slope_se, r->fit.slope) * 1e3;
		fprintf(
		    f,
		    " %zu | %.4f ± %.4f [%.4f, %.4f] | %.4g ± %.2g [%.4g, %.4g] | %.5f | %s | %s |"
		    " %s |\n",
		    r->fit.n, r->fit.intercept, ase, r->fit.intercept - t * ase,
		    r->fit.intercept + t * ase, r->fit.slope * 1e3, bse,
		    r->fit.slope * 1e3 - t * bse, r->fit.slope * 1e3 + t * bse, r->fit.r2, raw,
		    slope, cross);
	}
	if (rep->n_paired > 0 && rep->n_paired + 1 < rep->n_rows)
		fputs("\n† not paired (another sweep or host, or no rounds): the delta method over "
		      "both fits.\n",
		      f);
}

void fitreport_print_spread(const struct fitreport *rep, FILE *f)
{
	if (rep->set->n_hosts > 1)
		fitreport_print_hosts(rep, f, fitreport_unit(rep->set->axis));
}

void fitreport_print_table(const struct fitreport *rep, FILE *f)
{
	fitreport_print_rows(rep, f);
	fitreport_print_spread(rep, f);
	reliability_print_shares(rep, f);
	reliability_print(rep, f);
}
