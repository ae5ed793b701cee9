/* compare_sweeps_print: --compare over several sweeps, as Markdown (compare_print.h). */
#include "compare_print.h"

#include <math.h>
#include <stdio.h>

#include "sanitize.h"

/*
 * Each quantity left inconclusive by an interval across the sweeps wider than the threshold: too
 * few sweeps for a gate, and how many the same spread would need. A quantity already judged
 * regressed or improved (its whole interval beyond the threshold, +13 % [+11, +16]) needs no
 * more sweeps: advice under it would contradict its verdict.
 */
static void compare_sweeps_too_few(const struct compare_across *a, double noise, FILE *f)
{
	for (size_t j = 0; j < a->n_q; j++) {
		char d[32];

		if (!(verdict_detectable(&a->ci[j]) > noise) ||
		    a->verdict[j] == VERDICT_REGRESSED || a->verdict[j] == VERDICT_IMPROVED)
			continue;
		verdict_format_detectable(&a->ci[j], d, sizeof(d));
		fprintf(f,
			"\nToo few sweeps for a gate at ±%g %%: the interval of the %s across %zu "
			"sweeps is %s (t(%zu) = %.2f)",
			100 * noise, a->names[j], a->k, d, a->k - 1, fit_t95(a->k - 1));
		if (a->needed[j] == SIZE_MAX)
			fputs(
			    "; with the same spread between sweeps, more than 1000 would be "
			    "needed: "
			    "measure more rounds per sweep on a quieter host, or raise --noise.\n",
			    f);
		else
			fprintf(f,
				"; with the same spread between sweeps, %zu sweeps would bring it "
				"within ±%g %%.\n",
				a->needed[j], 100 * noise);
	}
}

/* "1.0123 [1.0011, 1.0235]". */
static void compare_sweeps_ratio(const struct paired_ratio *r, char *buf, size_t size)
{
	snprintf(buf, size, "%.4f [%.4f, %.4f]", r->value, r->lo, r->hi);
}

void compare_sweeps_print(const struct compare_across *a, const struct compare_outcome *per,
			  const struct compare_opts *o, FILE *f)
{
	fputs("## ", f);
	sanitize_fputs(o->candidate, SANITIZE_MARKDOWN, f);
	fputs(" against ", f);
	sanitize_fputs(o->baseline, SANITIZE_MARKDOWN, f);
	fprintf(f, " over %zu sweeps\n\n", a->k);
	for (size_t i = 0; i < a->k; i++) {
		fprintf(f, "- sweep %zu: ", i + 1);
		for (size_t j = 0; j < per[i].n_q; j++) {
			const struct compare_quantity *q = &per[i].q[j];
			char pct[96];

			verdict_format_pct(per[i].paired ? &q->paired : &q->unpaired, pct,
					   sizeof(pct));
			fprintf(f, "%s%s %s", j ? ", " : "", q->name, pct);
		}
		fprintf(f, "%s%s%s\n", per[i].paired ? "" : " (unpaired)",
			per[i].n_notes > 0 ? " (unreliable)" : "",
			interference_named(&per[i].host) ? " (the host interfered: wall times "
							   "here are not the tools' cost)"
							 : "");
	}
	fputs("\nAcross sweeps: ", f);
	for (size_t j = 0; j < a->n_q; j++) {
		char pct[96];

		verdict_format_pct(&a->ci[j], pct, sizeof(pct));
		fprintf(f, "%s%s %s (%s)", j ? ", " : "", a->names[j], pct,
			verdict_name_tools(a->verdict[j], per[0].tools));
	}
	fprintf(f,
		"\n\nThe mean of the sweeps' ratios with its 95 %% interval (t(%zu) sd/sqrt(%zu)); "
		"the next sweep's ratio should fall in the prediction interval (t sd "
		"sqrt(1 + 1/%zu)); \"held\": the (sweep, other sweep) pairs where one sweep's "
		"own interval holds the other's ratio. ",
		a->k - 1, a->k, a->k);
	compare_print_rule(o->noise, f);
	fputs("\n\n| quantity | mean ratio [95 %] | CV across sweeps | next sweep [95 %] | held | "
	      "detectable | verdict |\n|---|---|---|---|---|---:|---|\n",
	      f);
	for (size_t j = 0; j < a->n_q; j++) {
		char ci[96], next[96], d[32];

		compare_sweeps_ratio(&a->ci[j], ci, sizeof(ci));
		compare_sweeps_ratio(&a->next[j], next, sizeof(next));
		verdict_format_detectable(&a->ci[j], d, sizeof(d));
		fprintf(f, "| %s | %s | %.2f %% | %s | %zu/%zu | %s | %s |\n", a->names[j], ci,
			100 * a->sd[j] / fabs(a->mean[j]), next, a->held[j], a->k * (a->k - 1), d,
			verdict_name_tools(a->verdict[j], per[0].tools));
	}
	compare_sweeps_too_few(a, o->noise, f);
	fprintf(f, "\nVerdict: %s.\n",
		compare_overall_tools(a->regressed, a->inconclusive, a->improved, per[0].tools));
}
