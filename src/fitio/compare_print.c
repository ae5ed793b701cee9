/* compare_print: the comparison section and its TSV (compare.h). */
#include <math.h>
#include <stdio.h>

#include "atomicfile.h"
#include "between.h"
#include "compare_print.h"
#include "sanitize.h"

const char *compare_overall(bool regressed, bool inconclusive, bool improved)
{
	if (regressed)
		return "regressed";
	if (inconclusive)
		return "inconclusive (nothing regressed, but some quantity could not be told from "
		       "the threshold)";
	return improved ? "improved" : "no change (every quantity within the threshold)";
}

const char *compare_overall_tools(bool regressed, bool inconclusive, bool improved, bool tools)
{
	if (!tools)
		return compare_overall(regressed, inconclusive, improved);
	/* One tool does not regress against another: it costs more or less. */
	if (regressed)
		return "higher (the candidate, another tool, costs more on some quantity)";
	if (inconclusive)
		return "inconclusive (nothing higher, but some quantity could not be told from the "
		       "threshold)";
	return improved ? "lower (the candidate, another tool, costs less)"
			: "no difference (every quantity within the threshold)";
}

void compare_print_rule(double noise, FILE *f)
{
	fprintf(
	    f,
	    "Verdict per quantity: regressed or improved when the whole interval lies beyond "
	    "±%g %%, no change when it lies within ±%g %%, else inconclusive (it reaches across "
	    "the threshold: a change beyond it cannot be told from one within it). "
	    "\"Detectable\": the smallest change the comparison could have detected, the "
	    "half-width of its 95 %% interval; above ±%g %% the comparison cannot say \"no "
	    "change\", and a change must exceed the threshold plus it to be called regressed "
	    "or improved.",
	    100 * noise, 100 * noise, 100 * noise);
}

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

/* The ratio a quantity's verdict was judged on. */
static const struct paired_ratio *compare_judged(const struct compare_outcome *out, size_t i)
{
	return out->paired ? &out->q[i].paired : &out->q[i].unpaired;
}

/* "Detectable (...): intercept ±1.2 %, slope ±330 %." */
static void compare_detectable_line(const struct compare_outcome *out, FILE *f)
{
	fputs("Detectable (the smallest change each could have detected: its 95 % interval's "
	      "half-width): ",
	      f);
	for (size_t i = 0; i < out->n_q; i++) {
		char d[32];

		verdict_format_detectable(compare_judged(out, i), d, sizeof(d));
		fprintf(f, "%s%s %s", i ? ", " : "", out->q[i].name, d);
	}
	fputs(".\n", f);
}

/*
 * What an inconclusive verdict needs: narrower intervals (more rounds, a quieter host), and
 * with --between, the sweeps between.tsv would need (or that none would do).
 */
static void compare_inconclusive_notes(const struct compare_outcome *out, double noise, FILE *f)
{
	bool any = false;

	for (size_t i = 0; i < out->n_q; i++) {
		const struct compare_quantity *q = &out->q[i];
		char d[32];

		if (q->verdict != VERDICT_INCONCLUSIVE)
			continue;
		verdict_format_detectable(compare_judged(out, i), d, sizeof(d));
		if (q->widened && verdict_detectable(&q->paired) > noise) {
			fprintf(
			    f,
			    "\nToo few sweeps for a gate at ±%g %%: the interval of the %s for the "
			    "next sweep (%s) comes from a between.tsv over %zu sweeps (t(%zu) = "
			    "%.2f). ",
			    100 * noise, q->name, d, q->between_k, q->between_k - 1,
			    fit_t95(q->between_k - 1));
			if (q->needed == BETWEEN_NEVER)
				fputs(
				    "No number of sweeps would bring it within the threshold: this "
				    "sweep's own interval and the between-sweep variation alone "
				    "are "
				    "wider. Measure more rounds per sweep on a quieter host, or "
				    "raise "
				    "--noise.\n",
				    f);
			else
				fprintf(
				    f,
				    "With the same variation, a between.tsv over %zu sweeps would "
				    "bring it within ±%g %% (rarplot --compare -o DIR over that "
				    "many sweeps).\n",
				    q->needed, 100 * noise);
			continue;
		}
		fprintf(f, "%s%s (detectable %s)", any ? ", " : "\nInconclusive: the intervals of ",
			q->name, d);
		any = true;
	}
	if (any && interference_named(&out->host))
		/* On a host that interferes, more rounds measure the host (issue 51). */
		fprintf(f,
			" reach across ±%g %%: one wider than the threshold cannot tell a change "
			"of that size from none. The host interfered (above): %s.\n",
			100 * noise, interference_remedy(&out->host));
	else if (any)
		fprintf(
		    f,
		    " reach across ±%g %%: one wider than the threshold cannot tell a change of "
		    "that size from none. A narrower interval needs more rounds per point (its "
		    "half-width falls about as 1/sqrt(rounds)), a quieter host, or, for a slope, "
		    "sizes spread wider; --noise sets the threshold.\n",
		    100 * noise);
}

/* The host's interference beside the verdicts, when the sweep measured its reference. */
static void compare_host_line(const struct compare_outcome *out, FILE *f)
{
	char s[1024];

	interference_sentence(&out->host, s, sizeof(s));
	if (s[0] != '\0')
		fprintf(f, "\n%s.\n", s);
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
		fprintf(f, "%s%s %s (%s)", i ? ", " : "", q->name, pct,
			verdict_name_tools(q->verdict, out->tools));
	}
	fputs(out->paired ? "\n" : " (unpaired)\n", f);
}

void compare_print(const struct compare_outcome *out, const struct compare_opts *o, FILE *f)
{
	const char *overall =
	    compare_overall_tools(out->regressed, out->inconclusive, out->improved, out->tools);

	fputs("## ", f);
	sanitize_fputs(o->candidate, SANITIZE_MARKDOWN, f);
	fputs(" against ", f);
	sanitize_fputs(o->baseline, SANITIZE_MARKDOWN, f);
	fputs("\n\n", f);
	compare_changelog(out, f);
	compare_detectable_line(out, f);
	compare_host_line(out, f);
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
	fputc(' ', f);
	compare_print_rule(o->noise, f);
	fputs("\n\n", f);
	if (out->widened > 0)
		fputs("| quantity | paired ratio, next sweep | paired, within sweep | unpaired "
		      "ratio | detectable | verdict |\n|---|---|---|---|---:|---|\n",
		      f);
	else
		fputs("| quantity | paired ratio | unpaired ratio | detectable | verdict "
		      "|\n|---|---|---|---:|---|\n",
		      f);
	for (size_t i = 0; i < out->n_q; i++) {
		const struct compare_quantity *q = &out->q[i];
		char a[96], b[96], w[96], d[32];

		compare_ratio(&q->paired, a, sizeof(a));
		compare_ratio(&q->unpaired, b, sizeof(b));
		compare_ratio(&q->within, w, sizeof(w));
		verdict_format_detectable(compare_judged(out, i), d, sizeof(d));
		if (out->widened > 0)
			fprintf(f, "| %s | %s | %s | %s | %s | %s |\n", q->name, a,
				q->widened ? w : "(not widened)", b, d,
				verdict_name_tools(q->verdict, out->tools));
		else
			fprintf(f, "| %s | %s | %s | %s | %s%s |\n", q->name,
				out->paired ? a : "n/a", b, d,
				verdict_name_tools(q->verdict, out->tools),
				out->paired ? "" : " (unpaired)");
	}
	if (isfinite(out->crossover.value) && out->crossover.value >= out->x_min &&
	    out->crossover.value <= out->x_max && out->crossover.lo >= out->x_min &&
	    out->crossover.hi <= out->x_max)
		fprintf(f, "\nThe lines meet at %s = %.4g [%.4g, %.4g].\n", o->axis,
			out->crossover.value, out->crossover.lo, out->crossover.hi);
	else if (isfinite(out->crossover.value) && out->crossover.value >= out->x_min &&
		 out->crossover.value <= out->x_max)
		/* An A/A's lines "met at 375.6 [-1.544e+04, 1.147e+04]": an interval beyond the
		 * sizes measured (or without ends) places no crossing anywhere in them. */
		fprintf(f,
			"\nCrossover (%s): the lines do not measurably cross in the range (%g to "
			"%g): the 95 %% interval of where they meet, [%.4g, %.4g], reaches beyond "
			"it.\n",
			o->axis, out->x_min, out->x_max, out->crossover.lo, out->crossover.hi);
	else
		/* Where lines would meet beyond the sweep is no measurement (report.md alike). */
		fprintf(f, "\nCrossover (%s): none in range (%g to %g).\n", o->axis, out->x_min,
			out->x_max);
	for (size_t i = 0; i < out->n_notes; i++)
		fprintf(f, "\n%s.\n", out->notes[i]);
	compare_inconclusive_notes(out, o->noise, f);
	fprintf(f, "\nVerdict: %s%s%s.\n", overall, out->paired ? "" : " (unpaired)",
		interference_named(&out->host)
		    ? ", on a host that interfered: these wall times are the host's, not the "
		      "tools' cost"
		    : "");
}

int compare_write_tsv(const struct compare_outcome *out, const char *path, struct errbuf *eb)
{
	struct atomicfile *af = atomicfile_open(path, 0644, eb);
	FILE *f;

	if (af == NULL)
		return -1;
	f = atomicfile_stream(af);
	fputs("quantity\tmethod\tratio\tlo\thi\tverdict\tdetectable\n", f);
	for (size_t i = 0; i < out->n_q; i++) {
		const struct compare_quantity *q = &out->q[i];
		const struct paired_ratio *r[2] = {&q->paired, &q->unpaired};
		const char *m[2] = {"paired", "unpaired"};

		for (int k = out->paired ? 0 : 1; k < 2; k++)
			fprintf(f, "%s\t%s\t%.6g\t%.6g\t%.6g\t%s\t%.6g\n", q->name, m[k],
				r[k]->value, r[k]->lo, r[k]->hi,
				(k == 0) == out->paired ? verdict_name(q->verdict) : "-",
				verdict_detectable(r[k]));
		/* The paired row is the next sweep's interval; the sweep's own follows. */
		if (q->widened)
			fprintf(f, "%s\twithin\t%.6g\t%.6g\t%.6g\t-\t%.6g\n", q->name,
				q->within.value, q->within.lo, q->within.hi,
				verdict_detectable(&q->within));
	}
	return atomicfile_commit(af, eb);
}
