/* compare_sweeps: one comparison repeated over several sweeps, and what varies between them
 * (compare.h). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "compare.h"
#include "sanitize.h"

/* Whether file source holds a point of subject. */
static bool compare_sweeps_holds(const struct results *res, size_t source, const char *subject)
{
	for (size_t i = 0; i < res->n_points; i++)
		if (res->points[i].source == source && strcmp(res->points[i].subject, subject) == 0)
			return true;
	return false;
}

size_t compare_sweeps_find(const struct results *res, const struct compare_opts *o, size_t *source)
{
	size_t k = 0;

	for (size_t s = 0; s < res->n_sources; s++) {
		bool b = compare_sweeps_holds(res, s, o->baseline);
		bool c = compare_sweeps_holds(res, s, o->candidate);

		if (b != c)
			return 0;
		if (!b)
			continue;
		if (k == COMPARE_MAX_SWEEPS)
			return 0;
		source[k++] = s;
	}
	return k;
}

/*
 * The sweeps an interval of the mean, t(K-1) sd / sqrt(K), needs to fit within ±noise with the
 * same spread sd: the smallest K >= 2, or SIZE_MAX when more than COMPARE_MAX_NEEDED would.
 */
#define COMPARE_MAX_NEEDED 1000
static size_t compare_sweeps_needed(double sd, double noise)
{
	for (size_t k = 2; k <= COMPARE_MAX_NEEDED; k++)
		if (fit_t95(k - 1) * sd / sqrt((double)k) <= noise)
			return k;
	return SIZE_MAX;
}

/* Mean, sd, intervals and coverage of quantity j over the k sweeps' ratios. */
static void compare_sweeps_one(struct compare_across *a, size_t j,
			       const struct compare_outcome *per, size_t k, double noise)
{
	double sum = 0, var = 0, t = fit_t95(k - 1), m, half;

	for (size_t i = 0; i < k; i++)
		sum += per[i].paired ? per[i].q[j].paired.value : per[i].q[j].unpaired.value;
	m = sum / (double)k;
	for (size_t i = 0; i < k; i++) {
		const struct paired_ratio *r =
		    per[i].paired ? &per[i].q[j].paired : &per[i].q[j].unpaired;

		var += (r->value - m) * (r->value - m);
		for (size_t o = 0; o < k; o++) {
			const struct paired_ratio *other =
			    per[o].paired ? &per[o].q[j].paired : &per[o].q[j].unpaired;

			a->held[j] += o != i && other->value >= r->lo && other->value <= r->hi;
		}
	}
	a->mean[j] = m;
	a->sd[j] = sqrt(var / (double)(k - 1));
	half = t * a->sd[j] / sqrt((double)k);
	a->ci[j] = (struct paired_ratio){m, m - half, m + half};
	half = t * a->sd[j] * sqrt(1 + 1 / (double)k);
	a->next[j] = (struct paired_ratio){m, m - half, m + half};
	a->verdict[j] = verdict_judge(&a->ci[j], noise);
	a->needed[j] = compare_sweeps_needed(a->sd[j], noise);
	a->regressed |= a->verdict[j] == VERDICT_REGRESSED;
	a->improved |= a->verdict[j] == VERDICT_IMPROVED;
	a->inconclusive |=
	    a->verdict[j] == VERDICT_INCONCLUSIVE || a->verdict[j] == VERDICT_UNKNOWN;
}

int compare_sweeps(const struct results *res, const struct compare_opts *o, const size_t *source,
		   size_t k, struct compare_outcome *per, struct compare_across *a,
		   struct errbuf *eb)
{
	memset(a, 0, sizeof(*a));
	if (k < 2)
		return errbuf_set(eb, "comparing across sweeps needs 2 or more");
	for (size_t i = 0; i < k; i++) {
		struct compare_opts one = *o;

		one.source = source[i];
		if (compare_compute(res, &one, &per[i], eb) != 0)
			return -1;
		if (per[i].n_q != per[0].n_q)
			return errbuf_set(eb, "%s: not the same sizes as %s",
					  res->sources[source[i]], res->sources[source[0]]);
	}
	a->k = k;
	a->n_q = per[0].n_q;
	for (size_t j = 0; j < a->n_q; j++) {
		memcpy(a->names[j], per[0].q[j].name, COMPARE_NAME_MAX);
		compare_sweeps_one(a, j, per, k, o->noise);
	}
	return 0;
}

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
