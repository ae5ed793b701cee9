/* fitreport_counts: the counted instructions' fits beside the times' (fits.tsv's last columns,
 * report.md's "Instructions counted"). */
#include "fitreport.h"
#include "fitreport_write.h"

#include <math.h>
#include <string.h>

const struct fitreport_row *fitreport_counts_row(const struct fitreport *rep,
						 const struct fitreport_row *row)
{
	const struct fitreport *c = rep->counts;

	if (c == NULL)
		return NULL;
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct plotseries *s = c->rows[i].series;

		if (strcmp(s->subject, row->series->subject) == 0 &&
		    strcmp(s->format, row->series->format) == 0 &&
		    strcmp(s->host, row->series->host) == 0)
			return &c->rows[i];
	}
	return NULL;
}

/* A count with thousands grouped by a thin space: 2 481 733. */
static void print_count(FILE *f, double v)
{
	char digits[32];
	int n, i;
	bool neg = v < 0;

	if (!isfinite(v)) {
		fputs("–", f);
		return;
	}
	n = snprintf(digits, sizeof(digits), "%.0f", fabs(v));
	if (n <= 0 || (size_t)n >= sizeof(digits)) {
		fprintf(f, "%.0f", v);
		return;
	}
	if (neg)
		fputs("−", f);
	for (i = 0; i < n; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			fputs(" ", f);
		fputc(digits[i], f);
	}
}

static void print_ratio(FILE *f, double num, double den)
{
	if (isfinite(num) && isfinite(den) && den != 0)
		fprintf(f, "%.4f", num / den);
	else
		fputs("–", f);
}

void fitreport_print_counts(const struct fitreport *rep, FILE *f)
{
	const struct fitreport *c = rep->counts;
	const char *unit;

	if (c == NULL || c->n_rows == 0)
		return;
	unit = fitreport_unit(c->set->axis);
	fputs("\n## Instructions counted\n\n", f);
	fprintf(f,
		"Each subject run once more per point after the timed runs, under valgrind's "
		"callgrind with the bench user's set-ID identity: the user-space instructions of "
		"the tool's processes up to the exec of the command, fitted like the time "
		"(instructions = per call + per %s × size). A count does not depend on the "
		"machine's load or its host, so it is exact where a time has an interval; it is not "
		"a time (the kernel's work is not in it). The verdicts above rest on the wall "
		"time; `rarplot --compare --counts` gives its exit status on these counts when "
		"both subjects have them.\n\n",
		unit);
	fprintf(f, "| subject | format | host | per call | per %s | per call / ", unit);
	fitreport_md(f, c->baseline != NULL ? c->baseline : "baseline");
	fprintf(f, " | per %s / ", unit);
	fitreport_md(f, c->baseline != NULL ? c->baseline : "baseline");
	fputs(" |\n", f);
	fputs("|---|---|---|--:|--:|--:|--:|\n", f);
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct fitreport_row *r = &c->rows[i];

		fputs("| ", f);
		fitreport_md(f, r->series->subject);
		fputs(" | ", f);
		fitreport_md(f, r->series->format);
		fputs(" | ", f);
		fitreport_md(f, r->series->host);
		fputs(" | ", f);
		print_count(f, r->fit.intercept);
		fputs(" | ", f);
		print_count(f, r->fit.slope);
		fputs(" | ", f);
		print_ratio(f, r->fit.intercept, r->baseline != NULL ? r->baseline->fit.intercept : NAN);
		fputs(" | ", f);
		print_ratio(f, r->fit.slope, r->baseline != NULL ? r->baseline->fit.slope : NAN);
		fputs(" |\n", f);
	}
}
