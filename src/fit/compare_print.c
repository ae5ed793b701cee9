/* compare_print: the comparison section and its TSV (compare.h). */
#include <math.h>
#include <stdio.h>

#include "atomicfile.h"
#include "compare.h"
#include "sanitize.h"

/* "1.078 [1.069, 1.086]" or "n/a". */
static void compare_ratio(const struct paired_ratio *r, char *buf, size_t size)
{
	if (!isfinite(r->value))
		snprintf(buf, size, "n/a");
	else if (!isfinite(r->lo) || !isfinite(r->hi))
		snprintf(buf, size, "%.4f [no interval]", r->value);
	else
		snprintf(buf, size, "%.4f [%.4f, %.4f]", r->value, r->lo, r->hi);
}

/* The baseline's value under quantity i: its intercept, its slope, its time at a size. */
static double compare_base(const struct compare_outcome *out, size_t i)
{
	if (i == 0)
		return out->base.intercept;
	if (i == 1)
		return out->base.slope;
	return out->base.intercept + out->base.slope * out->at[i - 2];
}

/* The changelog line: "intercept −21 % [−25, −17] (improved), slope ...". */
static void compare_changelog(const struct compare_outcome *out, FILE *f)
{
	for (size_t i = 0; i < out->n_q; i++) {
		const struct compare_quantity *q = &out->q[i];
		double base = compare_base(out, i);
		char pct[96];

		if (base == 0 || !isfinite(base)) {
			/* A ratio over 0 is no number ("-nan%" said nothing). */
			fprintf(f, "%s%s undefined: %s 0", i ? ", " : "", q->name,
				i == 1   ? "slope"
				: i == 0 ? "intercept"
					 : "time");
			continue;
		}
		verdict_format_pct(out->paired ? &q->paired : &q->unpaired, pct, sizeof(pct));
		fprintf(f, "%s%s %s (%s)", i ? ", " : "", q->name, pct, verdict_name(q->verdict));
	}
	fputs(out->paired ? "\n" : " (unpaired)\n", f);
}

void compare_print(const struct compare_outcome *out, const struct compare_opts *o, FILE *f)
{
	const char *overall = out->regressed  ? "regressed"
			      : out->improved ? "improved"
					      : "no change beyond the noise";

	fputs("## ", f);
	sanitize_fputs(o->candidate, SANITIZE_MARKDOWN, f);
	fputs(" against ", f);
	sanitize_fputs(o->baseline, SANITIZE_MARKDOWN, f);
	fputs("\n\n", f);
	compare_changelog(out, f);
	fprintf(f, "\nCandidate / baseline, 95 %% intervals; %zu points, y = each point's %s. ",
		out->n_points, out->stat);
	if (out->paired)
		fprintf(f,
			"Paired: the candidate's time relative to the baseline's in the same step, "
			"on the baseline's line; interval from %zu bootstrap resamples of the "
			"rounds (%zu points with 2+ paired rounds).",
			out->resamples, out->paired_points);
	else {
		fputs("NOT paired (", f);
		sanitize_fputs(out->why_unpaired, SANITIZE_MARKDOWN, f);
		fputs("): the two fits compared as independent.", f);
	}
	if (out->paired && out->widened > 0)
		fprintf(f,
			" The paired intervals printed are for the **next sweep**: this sweep's "
			"bootstrap interval widened by the between-sweep variation measured over "
			"%zu sweeps (--between; doc/precision.md), t(%zu) sqrt(2 h^2 + 2 s_b^2) in "
			"logs; the within-sweep interval is in its own column.",
			out->widened, out->widened - 1);
	else if (out->paired)
		fputs(" The intervals are within this sweep: on a shared host the next sweep's "
		      "ratio can lie outside them (doc/precision.md); several sweeps' results "
		      "together give an interval across sweeps, and --between widens this one "
		      "with their variation.",
		      f);
	fprintf(f,
		" Verdict per quantity: regressed or improved when the whole interval is "
		"beyond ±%g %%, else no change.\n\n",
		100 * o->noise);
	if (out->widened > 0)
		fputs("| quantity | paired ratio, next sweep | paired, within sweep | unpaired "
		      "ratio | "
		      "verdict |\n|---|---|---|---|---|\n",
		      f);
	else
		fputs("| quantity | paired ratio | unpaired ratio | verdict |\n|---|---|---|---|\n",
		      f);
	for (size_t i = 0; i < out->n_q; i++) {
		const struct compare_quantity *q = &out->q[i];
		char a[96], b[96], w[96];

		compare_ratio(&q->paired, a, sizeof(a));
		compare_ratio(&q->unpaired, b, sizeof(b));
		compare_ratio(&q->within, w, sizeof(w));
		if (out->widened > 0)
			fprintf(f, "| %s | %s | %s | %s | %s |\n", q->name, a,
				q->widened ? w : "(not widened)", b, verdict_name(q->verdict));
		else
			fprintf(f, "| %s | %s | %s | %s%s |\n", q->name, out->paired ? a : "n/a", b,
				verdict_name(q->verdict), out->paired ? "" : " (unpaired)");
	}
	if (isfinite(out->crossover.value) && out->crossover.value >= out->x_min &&
	    out->crossover.value <= out->x_max)
		fprintf(f, "\nThe lines meet at %s = %.4g [%.4g, %.4g].\n", o->axis,
			out->crossover.value, out->crossover.lo, out->crossover.hi);
	else
		/* Where lines would meet beyond the sweep is no measurement (report.md alike). */
		fprintf(f, "\nCrossover (%s): none in range (%g to %g).\n", o->axis, out->x_min,
			out->x_max);
	for (size_t i = 0; i < out->n_notes; i++)
		fprintf(f, "\n%s.\n", out->notes[i]);
	fprintf(f, "\nVerdict: %s%s.\n", overall, out->paired ? "" : " (unpaired)");
}

int compare_write_tsv(const struct compare_outcome *out, const char *path, struct errbuf *eb)
{
	struct atomicfile *af = atomicfile_open(path, 0644, eb);
	FILE *f;

	if (af == NULL)
		return -1;
	f = atomicfile_stream(af);
	fputs("quantity\tmethod\tratio\tlo\thi\tverdict\n", f);
	for (size_t i = 0; i < out->n_q; i++) {
		const struct compare_quantity *q = &out->q[i];
		const struct paired_ratio *r[2] = {&q->paired, &q->unpaired};
		const char *m[2] = {"paired", "unpaired"};

		for (int k = out->paired ? 0 : 1; k < 2; k++)
			fprintf(f, "%s\t%s\t%.6g\t%.6g\t%.6g\t%s\n", q->name, m[k], r[k]->value,
				r[k]->lo, r[k]->hi,
				(k == 0) == out->paired ? verdict_name(q->verdict) : "-");
		/* The paired row is the next sweep's interval; the sweep's own follows. */
		if (q->widened)
			fprintf(f, "%s\twithin\t%.6g\t%.6g\t%.6g\t-\n", q->name, q->within.value,
				q->within.lo, q->within.hi);
	}
	return atomicfile_commit(af, eb);
}
