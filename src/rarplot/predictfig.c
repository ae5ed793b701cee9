/*
 * predictfig: each subject's line split by its profile and the host's kernel-side prices, and
 * predicted on another host (predictfig.h). A point's parts are kernelcost_predict's: the kernel
 * work its counts cost at the host's prices, the rest of its CPU time as user work; each part is
 * fitted along the axis like the measured estimates, so that the parts' intercepts add up to the
 * accounted intercept and their slopes to its slope. What the CPU time does not hold (waits) is
 * the residual. On one host the user part is what the CPU time leaves, so the split is not a
 * prediction; from one host to another it is: the kernel parts at the other's prices, the user
 * work in rarref's work runs at the other's rarref.
 */
#include "predictfig.h"
#include "jsonbudget.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "atomicfile.h"
#include "countprice.h"
#include "fileio.h"
#include "fit.h"
#include "jsonget.h"
#include "kernelcost.h"
#include "results.h"
#include "resultsfile.h"
#include "sanitize.h"
#include "runfiles.h"

/* The parts, in the TSV's order: exec, faults, the six priced calls, other calls, user, total. */
enum { P_EXEC, P_FAULTS, P_CALL0, P_OTHER = P_CALL0 + 6, P_USER, P_TOTAL, P_COUNT };
static const char *const part_names[P_COUNT] = {"exec",        "faults", "getppid",    "close",
						"read",        "openat", "newfstatat", "mmap",
						"other_calls", "user",   "accounted"};

#define SUBJECT_MAX 96

/* One subject's profiled points at one host, then its fitted lines. */
struct subject_points {
	char subject[SUBJECT_MAX];
	double *x, *measured, *part[P_COUNT];
	/* counts × prices (countprice.h): each point's counted instructions (NaN: none) and the
	 * time they predict, the kernel parts plus the instructions at rarref's price */
	double *ins, *pred;
	size_t n, cap, ncounted;
	bool fitted, counted;
	struct fit_line meas, fit[P_COUNT], ifit, pfit;
};

struct host {
	const char *input;
	struct kernelcost_prices prices;
	/* rarref's work in instructions (its own file's counts, or --counts-from's; NaN: not
	 * counted), and where the subjects' counts come from when the file has none */
	double ref_instructions;
	const struct countprice_source *counts;
	struct subject_points *subs;
	size_t nsubs;
};

static void host_clear(struct host *h)
{
	for (size_t i = 0; i < h->nsubs; i++) {
		free(h->subs[i].x);
		free(h->subs[i].measured);
		free(h->subs[i].ins);
		free(h->subs[i].pred);
		for (int k = 0; k < P_COUNT; k++)
			free(h->subs[i].part[k]);
	}
	free(h->subs);
	h->subs = NULL;
	h->nsubs = 0;
}

/* The subject's points at h, made when new; NULL when out of memory. */
static struct subject_points *subject_of(struct host *h, const char *subject, size_t cap)
{
	struct subject_points *grown;

	for (size_t i = 0; i < h->nsubs; i++)
		if (strcmp(h->subs[i].subject, subject) == 0)
			return &h->subs[i];
	grown = realloc(h->subs, (h->nsubs + 1) * sizeof(*grown));
	if (grown == NULL)
		return NULL;
	h->subs = grown;
	grown = &h->subs[h->nsubs++];
	memset(grown, 0, sizeof(*grown));
	snprintf(grown->subject, sizeof(grown->subject), "%s", subject);
	grown->cap = cap;
	grown->x = calloc(cap, sizeof(double));
	grown->measured = calloc(cap, sizeof(double));
	grown->ins = calloc(cap, sizeof(double));
	grown->pred = calloc(cap, sizeof(double));
	for (int k = 0; k < P_COUNT; k++)
		grown->part[k] = calloc(cap, sizeof(double));
	for (int k = 0; k < P_COUNT; k++)
		if (grown->part[k] == NULL)
			return NULL;
	return grown->x != NULL && grown->measured != NULL && grown->ins != NULL &&
		       grown->pred != NULL
		   ? grown
		   : NULL;
}

/* A result's point: x along axis, the measured estimate (ns), the parts; a result without a
 * profile or an x is skipped. 0, or -1 (eb). */
static int add_result(struct host *h, const cJSON *e, const char *axis, size_t cap,
		      struct errbuf *eb)
{
	const cJSON *params = jsonget_member(e, "parameters");
	const cJSON *sj = jsonget_member(params, "subject"), *xv = jsonget_member(params, axis);
	const cJSON *prof = jsonget_member(e, "profile"), *st = jsonget_member(prof, "status");
	const cJSON *est = jsonget_member(jsonget_member(e, "rarbench"), "estimate");
	const cJSON *med = jsonget_member(e, "median"), *user = jsonget_member(e, "user");
	const cJSON *sys = jsonget_member(e, "system");
	const cJSON *cnt = jsonget_member(e, "counts"), *cst = jsonget_member(cnt, "status");
	const cJSON *cins = jsonget_member(cnt, "instructions");
	struct kernelcost_parts parts;
	struct subject_points *sp;
	char *end = NULL;
	double x;

	if (!cJSON_IsString(sj) || !cJSON_IsString(xv) || !cJSON_IsString(st) ||
	    strcmp(st->valuestring, "ok") != 0 || !cJSON_IsNumber(user) || !cJSON_IsNumber(sys))
		return 0;
	x = strtod(xv->valuestring, &end);
	if (end == xv->valuestring || *end != '\0' || !isfinite(x))
		return 0;
	/* The run's CPU time, user + system: exact in total, its split sampled (kernelcost.h). */
	if (kernelcost_predict(&h->prices, prof, (user->valuedouble + sys->valuedouble) * 1e9,
			       &parts, eb) < 0)
		return errbuf_prefix(eb, "%s: subject %s", h->input, sj->valuestring);
	if ((sp = subject_of(h, sj->valuestring, cap)) == NULL)
		return errbuf_set(eb, "out of memory");
	sp->x[sp->n] = x;
	sp->measured[sp->n] = 1e9 * (cJSON_IsNumber(est)   ? est->valuedouble
				     : cJSON_IsNumber(med) ? med->valuedouble
							   : NAN);
	sp->part[P_EXEC][sp->n] = parts.exec;
	sp->part[P_FAULTS][sp->n] = parts.faults;
	for (int k = 0; k < 6; k++)
		sp->part[P_CALL0 + k][sp->n] = parts.calls[KERNELCOST_GETPPID + k];
	sp->part[P_OTHER][sp->n] = parts.other_calls;
	sp->part[P_USER][sp->n] = parts.user;
	sp->part[P_TOTAL][sp->n] = parts.kernel + parts.user;
	/* the point's own count, else the counted run's of the same machine (--counts-from) */
	sp->ins[sp->n] = cJSON_IsString(cst) && strcmp(cst->valuestring, "ok") == 0 &&
				 cJSON_IsNumber(cins) && cins->valuedouble > 0
			     ? cins->valuedouble
			 : h->counts != NULL ? countprice_find(h->counts, sj->valuestring, x)
					     : NAN;
	sp->ncounted += isfinite(sp->ins[sp->n]);
	sp->n++;
	return 0;
}

/* rarref's price of one instruction at h, ns (its work's time over its work's count), or NaN. */
static double instruction_ns(const struct host *h)
{
	return kernelcost_ref_work_ns(&h->prices) / h->ref_instructions;
}

/*
 * Counts × prices, when every profiled point of sp is counted and rarref was: the instructions
 * and the time they predict (the kernel parts at the host's prices plus the instructions at
 * rarref's price) fitted with the weights of the measured times.
 */
static void fit_counts(const struct host *h, struct subject_points *sp, const double *sigma)
{
	double price = instruction_ns(h);
	struct errbuf fe = {{0}};

	sp->counted = false;
	if (!sp->fitted || sp->ncounted != sp->n || !isfinite(price) || price <= 0)
		return;
	for (size_t j = 0; j < sp->n; j++)
		sp->pred[j] = sp->part[P_TOTAL][j] - sp->part[P_USER][j] + sp->ins[j] * price;
	sp->counted = fit_linear(sp->x, sp->ins, sigma, sp->n, &sp->ifit, &fe) == 0 &&
		      fit_linear(sp->x, sp->pred, sigma, sp->n, &sp->pfit, &fe) == 0;
}

/* Reads input into h: its prices and its subjects' profiled points; KERNELCOST_NONE (nothing
 * read) when it has no prices, KERNELCOST_MALFORMED with eb when it cannot be read. */
static enum kernelcost_found load_host(struct host *h, const char *input, const char *axis,
				       const struct countprice_source *counts, struct errbuf *eb)
{
	struct countprice_source own = {0};
	char *text = NULL;
	size_t len = 0, cap;
	cJSON *root = NULL;
	const cJSON *e;
	enum kernelcost_found rc = KERNELCOST_MALFORMED, got;
	struct jsonbudget b;
	const cJSON *whole;

	h->input = input;
	h->ref_instructions = NAN;
	if (fileio_read(input, RESULTS_FILE_MAX_BYTES, NULL, &text, &len, eb) < 0)
		return KERNELCOST_MALFORMED;
	/* within 4 times its size and 32 MiB, the results read one at a time (jsonbudget.h;
	 * issue 52, finding 7) */
	if ((root = resultsfile_parse_bounded(text, len, input, sizeof(struct subject_points), &b,
					      eb)) == NULL)
		goto out;
	got = kernelcost_read(root, &h->prices, eb);
	if (got != KERNELCOST_PRICED) {
		if (got == KERNELCOST_MALFORMED)
			errbuf_prefix(eb, "%s", input);
		rc = got;
		goto out;
	}
	/* rarref's counts and the machine: the file's own, else a counted run of the same machine */
	own.ref_instructions = NAN;
	if (countprice_add_file(&own, root, axis, eb) < 0)
		goto out;
	h->ref_instructions = own.ref_instructions;
	if (counts != NULL) {
		if (countprice_same_machine(counts, input, own.machine, eb) < 0)
			goto out;
		h->counts = counts;
		if (!isfinite(h->ref_instructions))
			h->ref_instructions = counts->ref_instructions;
	}
	cap = b.has_results ? b.nresults : (size_t)cJSON_GetArraySize(resultsfile_results(root));
	for (size_t k = 0, pos = 0; b.has_results; k++) {
		cJSON *one = resultsfile_next_result(text, &b, k, &pos, input, eb);
		int added;

		if (one == NULL) {
			if (k == b.nresults && eb->msg[0] == '\0')
				break;
			goto out;
		}
		added = add_result(h, one, axis, cap ? cap : 1, eb);
		cJSON_Delete(one);
		if (added < 0)
			goto out;
	}
	whole = b.has_results ? NULL : resultsfile_results(root); /* read whole: from the tree */
	cJSON_ArrayForEach(e, whole)
	{
		if (add_result(h, e, axis, cap ? cap : 1, eb) < 0)
			goto out;
	}
	for (size_t i = 0; i < h->nsubs; i++) {
		struct subject_points *sp = &h->subs[i];
		struct errbuf fe = {{0}};
		double *sigma = calloc(sp->n ? sp->n : 1, sizeof(*sigma));

		if (sigma == NULL) {
			errbuf_set(eb, "out of memory");
			goto out;
		}
		/* Relative weights from the measured times, the same for every part: the small
		 * sizes set the intercept as in fits.tsv, and the parts' lines still add up. */
		for (size_t j = 0; j < sp->n; j++)
			sigma[j] = sp->measured[j] > 0 ? sp->measured[j] : NAN;
		sp->fitted = fit_linear(sp->x, sp->measured, sigma, sp->n, &sp->meas, &fe) == 0;
		for (int k = 0; k < P_COUNT && sp->fitted; k++)
			sp->fitted =
			    fit_linear(sp->x, sp->part[k], sigma, sp->n, &sp->fit[k], &fe) == 0;
		fit_counts(h, sp, sigma);
		free(sigma);
	}
	rc = KERNELCOST_PRICED;
out:
	countprice_clear(&own);
	cJSON_Delete(root);
	free(text);
	return rc;
}

/* The subject's user work at its host in rarref's work runs (its user part / rarref's work). */
static double user_runs(const struct host *h, const struct subject_points *sp)
{
	return sp->fit[P_USER].intercept / kernelcost_ref_work_ns(&h->prices);
}

/* predicted.tsv: one row per host and fitted subject. */
static void print_tsv(FILE *f, const struct host *hosts, size_t n)
{
	fputs("input\tsubject\tn\tintercept_ms\taccounted_ms\tresidual_ms\tresidual_pct", f);
	for (int k = 0; k < P_TOTAL; k++)
		fprintf(f, "\t%s_ms", part_names[k]);
	fputs("\tuser_rarref_runs\tslope_us\taccounted_slope_us\n", f);
	for (size_t h = 0; h < n; h++)
		for (size_t i = 0; i < hosts[h].nsubs; i++) {
			const struct subject_points *sp = &hosts[h].subs[i];
			char in[512], sj[SUBJECT_MAX * 4];
			double mi = sp->meas.intercept, pi = sp->fit[P_TOTAL].intercept;

			if (!sp->fitted)
				continue;
			sanitize_str(in, sizeof(in), hosts[h].input);
			sanitize_str(sj, sizeof(sj), sp->subject);
			fprintf(f, "%s\t%s\t%zu\t%.4f\t%.4f\t%.4f\t%.1f", in, sj, sp->n, mi / 1e6,
				pi / 1e6, (mi - pi) / 1e6, 100 * (mi - pi) / mi);
			for (int k = 0; k < P_TOTAL; k++)
				fprintf(f, "\t%.4f", sp->fit[k].intercept / 1e6);
			fprintf(f, "\t%.3f\t%.4f\t%.4f\n", user_runs(&hosts[h], sp),
				sp->meas.slope / 1e3, sp->fit[P_TOTAL].slope / 1e3);
		}
}

/* The prices of each host, ns per unit, with their CV over the sweep's points. */
static void print_prices(FILE *f, const struct host *hosts, size_t n)
{
	fputs("| input | rarref ms (its work) |", f);
	for (int k = 0; k < KERNELCOST_KINDS; k++)
		fprintf(f, " %s ns |", kernelcost_kind_name((enum kernelcost_kind)k));
	fputs("\n|---|---:|", f);
	for (int k = 0; k < KERNELCOST_KINDS; k++)
		fputs("---:|", f);
	fputc('\n', f);
	for (size_t h = 0; h < n; h++) {
		char in[512];

		sanitize_markdown(in, sizeof(in), hosts[h].input);
		fprintf(f, "| %s | %.3f (%.3f) |", in, hosts[h].prices.ref_wall_ns / 1e6,
			kernelcost_ref_work_ns(&hosts[h].prices) / 1e6);
		for (int k = 0; k < KERNELCOST_KINDS; k++)
			fprintf(f, " %.0f (CV %.1f %%) |", hosts[h].prices.ns[k],
				100 * hosts[h].prices.cv[k]);
		fputc('\n', f);
	}
}

/* The table: measured intercept, its parts, what they leave. */
static void print_table(FILE *f, const struct host *hosts, size_t n)
{
	fputs("\n| input | subject | intercept ms | exec+reap | faults | calls (priced) | other "
	      "calls | kernel, all | user CPU (rarref runs) | residual (waits) | slope µs | "
	      "accounted µs |\n"
	      "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
	      f);
	for (size_t h = 0; h < n; h++)
		for (size_t i = 0; i < hosts[h].nsubs; i++) {
			const struct subject_points *sp = &hosts[h].subs[i];
			char in[512], sj[SUBJECT_MAX * 4];
			double mi, calls = 0, kernel;

			if (!sp->fitted) {
				sanitize_markdown(in, sizeof(in), hosts[h].input);
				sanitize_markdown(sj, sizeof(sj), sp->subject);
				fprintf(f,
					"| %s | %s | not split: %zu profiled points, or a part the "
					"file does not price (a kind rarkref added later) |"
					"||||||||||\n",
					in, sj, sp->n);
				continue;
			}
			mi = sp->meas.intercept;
			for (int k = P_CALL0; k < P_OTHER; k++)
				calls += sp->fit[k].intercept;
			kernel = sp->fit[P_TOTAL].intercept - sp->fit[P_USER].intercept;
			sanitize_markdown(in, sizeof(in), hosts[h].input);
			sanitize_markdown(sj, sizeof(sj), sp->subject);
			fprintf(
			    f,
			    "| %s | %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f (%.0f %%) | %.3f "
			    "(%.2f) | %+.3f (%+.1f %%) | %.3f | %.3f |\n",
			    in, sj, mi / 1e6, sp->fit[P_EXEC].intercept / 1e6,
			    sp->fit[P_FAULTS].intercept / 1e6, calls / 1e6,
			    sp->fit[P_OTHER].intercept / 1e6, kernel / 1e6, 100 * kernel / mi,
			    sp->fit[P_USER].intercept / 1e6, user_runs(&hosts[h], sp),
			    (mi - sp->fit[P_TOTAL].intercept) / 1e6,
			    100 * (mi - sp->fit[P_TOTAL].intercept) / mi, sp->meas.slope / 1e3,
			    sp->fit[P_TOTAL].slope / 1e3);
		}
}

/* A subject's points at host h, or NULL. */
static const struct subject_points *find(const struct host *h, const char *subject)
{
	for (size_t i = 0; i < h->nsubs; i++)
		if (strcmp(h->subs[i].subject, subject) == 0 && h->subs[i].fitted)
			return &h->subs[i];
	return NULL;
}

/*
 * From the first host to each other: each subject's change of intercept, measured against the
 * change its parts predict: the kernel parts at each host's prices and counts, the user work
 * (in rarref's work runs at the first host) at the other's rarref, the waits as they were.
 */
static void print_changes(FILE *f, const struct host *hosts, size_t n)
{
	if (n < 2)
		return;
	fputs(
	    "\n## From one host to another\n\n"
	    "Each subject's change of intercept from the first input to each other: measured, and "
	    "predicted by the change of the kernel parts (each host's prices at its own counts) "
	    "and of the user part (the first host's user work in rarref work runs, at the other "
	    "host's rarref); the waits are held. \"left\" is the measured change the prediction "
	    "does not explain, in % of the first host's intercept; \"waits\" how much the "
	    "residual (what the CPU time does not hold) moved between the two, in the same unit: "
	    "a left that the waits match is contention, not the machine.\n\n"
	    "| from | to | subject | measured change ms | predicted ms | left | waits |\n"
	    "|---|---|---|---:|---:|---:|---:|\n",
	    f);
	for (size_t h = 1; h < n; h++)
		for (size_t i = 0; i < hosts[0].nsubs; i++) {
			const struct subject_points *a = &hosts[0].subs[i], *b;
			double ratio = kernelcost_ref_work_ns(&hosts[h].prices) /
				       kernelcost_ref_work_ns(&hosts[0].prices);
			double dm, dp, ka, kb;
			char from[512], to[512], sj[SUBJECT_MAX * 4];

			if (!a->fitted || (b = find(&hosts[h], a->subject)) == NULL)
				continue;
			ka = a->fit[P_TOTAL].intercept - a->fit[P_USER].intercept;
			kb = b->fit[P_TOTAL].intercept - b->fit[P_USER].intercept;
			dm = b->meas.intercept - a->meas.intercept;
			dp = (kb - ka) + a->fit[P_USER].intercept * (ratio - 1);
			sanitize_markdown(from, sizeof(from), hosts[0].input);
			sanitize_markdown(to, sizeof(to), hosts[h].input);
			sanitize_markdown(sj, sizeof(sj), a->subject);
			fprintf(f, "| %s | %s | %s | %+.3f | %+.3f | %+.1f %% | %+.1f %% |\n", from,
				to, sj, dm / 1e6, dp / 1e6, 100 * (dm - dp) / a->meas.intercept,
				100 *
				    ((b->meas.intercept - b->fit[P_TOTAL].intercept) -
				     (a->meas.intercept - a->fit[P_TOTAL].intercept)) /
				    a->meas.intercept);
		}
}

/* The tool's own price of one instruction: what its CPU time leaves for user work over its
 * instructions (intercept: per call; slope: per unit of the axis), ns. */
static double own_ns(double user, double instructions)
{
	return instructions > 0 ? user / instructions : NAN;
}

/* The baseline's own prices at h: its user work over its instructions, per call and per unit
 * (ns); NaN when the baseline is not counted there. */
static void baseline_prices(const struct host *h, const char *baseline, double *call,
			    double *unit)
{
	*call = *unit = NAN;
	for (size_t i = 0; baseline != NULL && i < h->nsubs; i++) {
		const struct subject_points *b = &h->subs[i];

		if (b->counted && strcmp(b->subject, baseline) == 0) {
			*call = own_ns(b->fit[P_USER].intercept, b->ifit.intercept);
			*unit = own_ns(b->fit[P_USER].slope, b->ifit.slope);
		}
	}
}

/* One counted subject's predictions: at rarref's price (pfit) and at the baseline's prices. */
struct counted_row {
	double ri, rs;   /* at rarref's price: intercept, slope (ns) */
	double bi, bs;   /* at the baseline's (NaN: none) */
	double oc, ou;   /* own prices (ns per instruction) */
	double price;    /* rarref's */
};

static struct counted_row counted_row_of(const struct host *h, const struct subject_points *sp,
					 const char *baseline)
{
	struct counted_row r;
	double kernel_i = sp->fit[P_TOTAL].intercept - sp->fit[P_USER].intercept;
	double kernel_s = sp->fit[P_TOTAL].slope - sp->fit[P_USER].slope;
	double pc, pu;

	baseline_prices(h, baseline, &pc, &pu);
	r.price = instruction_ns(h);
	r.ri = sp->pfit.intercept;
	r.rs = sp->pfit.slope;
	r.bi = kernel_i + sp->ifit.intercept * pc;
	r.bs = kernel_s + sp->ifit.slope * pu;
	r.oc = own_ns(sp->fit[P_USER].intercept, sp->ifit.intercept);
	r.ou = own_ns(sp->fit[P_USER].slope, sp->ifit.slope);
	return r;
}

static double pct(double predicted, double measured)
{
	return 100 * (predicted - measured) / measured;
}

/* counts-prices.tsv: one row per host and counted subject. */
static void print_counts_tsv(FILE *f, const struct host *hosts, size_t n, const char *baseline)
{
	fputs("input\tsubject\tinstr_per_call\tinstr_per_unit\tintercept_ms\tslope_us\t"
	      "rarref_ns_per_instr\trarref_intercept_ms\trarref_intercept_error_pct\t"
	      "rarref_slope_us\trarref_slope_error_pct\tbaseline_intercept_ms\t"
	      "baseline_intercept_error_pct\tbaseline_slope_us\tbaseline_slope_error_pct\t"
	      "own_ns_per_call_instr\town_ns_per_unit_instr\n",
	      f);
	for (size_t h = 0; h < n; h++)
		for (size_t i = 0; i < hosts[h].nsubs; i++) {
			const struct subject_points *sp = &hosts[h].subs[i];
			struct counted_row r;
			char in[512], sj[SUBJECT_MAX * 4];
			double mi = sp->meas.intercept, ms = sp->meas.slope;

			if (!sp->counted)
				continue;
			r = counted_row_of(&hosts[h], sp, baseline);
			sanitize_str(in, sizeof(in), hosts[h].input);
			sanitize_str(sj, sizeof(sj), sp->subject);
			fprintf(f,
				"%s\t%s\t%.0f\t%.1f\t%.4f\t%.4f\t%.4f\t%.4f\t%.1f\t%.4f\t%.1f\t"
				"%.4f\t%.1f\t%.4f\t%.1f\t%.4f\t%.4f\n",
				in, sj, sp->ifit.intercept, sp->ifit.slope, mi / 1e6, ms / 1e3,
				r.price, r.ri / 1e6, pct(r.ri, mi), r.rs / 1e3, pct(r.rs, ms),
				r.bi / 1e6, pct(r.bi, mi), r.bs / 1e3, pct(r.bs, ms), r.oc, r.ou);
		}
}

/* The header of "Time as counts × prices" and its table of rarref's prices. */
static void print_counts_intro(FILE *f, const struct host *hosts, size_t n, const char *bl)
{
	fprintf(f,
		"\n## Time as counts × prices\n\n"
		"Each host's price of one user-space instruction is rarref's: its work's time "
		"(rarref's wall time less the bare run's) over its work's count (callgrind: the "
		"calibration run's instructions less the bare run's, `reference.counts`). A "
		"subject's time is **predicted** from what it does alone: its profile's kernel work "
		"at the host's kernel prices plus its counted instructions at a price. Two prices "
		"are tried: rarref's, one for every instruction; and the baseline's (%s): its own "
		"price of an instruction of its start (its user work per call over its instructions "
		"per call) for the intercepts, of its per-unit work for the slopes, so that one "
		"subject calibrates the host and predicts the others. The tool's own price is what "
		"its CPU time leaves for user work over its instructions, in ns and in rarref's "
		"price (×): far from 1×, an instruction costs more than rarref's scan (a process's "
		"start: loading, relocating, first touches) or less (a hot loop).\n\n"
		"| input | rarref work ms | rarref work instructions | ns per instruction |\n"
		"|---|---:|---:|---:|\n",
		bl);
	for (size_t h = 0; h < n; h++) {
		char in[512];

		if (!isfinite(instruction_ns(&hosts[h])))
			continue;
		sanitize_markdown(in, sizeof(in), hosts[h].input);
		fprintf(f, "| %s | %.3f | %.0f | %.4f |\n", in,
			kernelcost_ref_work_ns(&hosts[h].prices) / 1e6, hosts[h].ref_instructions,
			instruction_ns(&hosts[h]));
	}
}

/* The section "Time as counts × prices" of predicted.md, when any subject is counted. */
static void print_counts(FILE *f, const struct host *hosts, size_t n, const char *baseline)
{
	size_t counted = 0, others = 0, ri = 0, rs = 0, bi = 0, bs = 0;
	char bl[SUBJECT_MAX * 4];

	for (size_t h = 0; h < n; h++)
		for (size_t i = 0; i < hosts[h].nsubs; i++)
			counted += hosts[h].subs[i].counted;
	if (counted == 0)
		return;
	sanitize_markdown(bl, sizeof(bl), baseline != NULL ? baseline : "none");
	print_counts_intro(f, hosts, n, bl);
	fputs("\n| input | subject | instructions per call | per unit | intercept ms | at rarref's "
	      "price | at the baseline's | slope µs | at rarref's price | at the baseline's | own "
	      "ns per instruction, call (× rarref's) | per unit (× rarref's) |\n"
	      "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
	      f);
	for (size_t h = 0; h < n; h++)
		for (size_t i = 0; i < hosts[h].nsubs; i++) {
			const struct subject_points *sp = &hosts[h].subs[i];
			double mi = sp->meas.intercept, ms = sp->meas.slope;
			bool is_base = baseline != NULL && strcmp(sp->subject, baseline) == 0;
			struct counted_row r;
			char in[512], sj[SUBJECT_MAX * 4], bic[64], bsc[64];

			if (!sp->counted)
				continue;
			r = counted_row_of(&hosts[h], sp, baseline);
			ri += fabs(pct(r.ri, mi)) <= 5;
			rs += fabs(pct(r.rs, ms)) <= 5;
			if (is_base) {
				snprintf(bic, sizeof(bic), "(its price)");
				snprintf(bsc, sizeof(bsc), "(its price)");
			} else if (isfinite(r.bi)) {
				others++;
				bi += fabs(pct(r.bi, mi)) <= 5;
				bs += fabs(pct(r.bs, ms)) <= 5;
				snprintf(bic, sizeof(bic), "%.3f (%+.1f %%)", r.bi / 1e6, pct(r.bi, mi));
				snprintf(bsc, sizeof(bsc), "%.3f (%+.1f %%)", r.bs / 1e3, pct(r.bs, ms));
			} else {
				snprintf(bic, sizeof(bic), "n/a");
				snprintf(bsc, sizeof(bsc), "n/a");
			}
			sanitize_markdown(in, sizeof(in), hosts[h].input);
			sanitize_markdown(sj, sizeof(sj), sp->subject);
			fprintf(f,
				"| %s | %s | %.0f | %.0f | %.3f | %.3f (%+.1f %%) | %s | %.3f | %.3f "
				"(%+.1f %%) | %s | %.3f (%.2f×) | %.4f (%.2f×) |\n",
				in, sj, sp->ifit.intercept, sp->ifit.slope, mi / 1e6, r.ri / 1e6,
				pct(r.ri, mi), bic, ms / 1e3, r.rs / 1e3, pct(r.rs, ms), bsc, r.oc,
				r.oc / r.price, r.ou, r.ou / r.price);
		}
	fprintf(f,
		"\nWithin 5 %% of the measured line, at rarref's price: %zu of %zu intercepts, %zu "
		"of %zu slopes; at the baseline's prices: %zu of %zu intercepts, %zu of %zu slopes "
		"(the baseline itself left out). The counts are the work and hold on every machine; "
		"a price holds as far as the tools' own prices stay the one it gives.\n",
		ri, counted, rs, counted, bi, others, bs, others);
}

/* predicted.md: what the numbers are, the prices, the table, the changes. */
static void print_markdown(FILE *f, const struct host *hosts, size_t n, const char *axis,
			   const char *baseline)
{
	char ax[128];

	sanitize_markdown(ax, sizeof(ax), axis);
	fprintf(
	    f,
	    "# Each subject's time split by the kernel's prices\n\n"
	    "Each host's prices come from rarkref, measured in every step beside the subjects "
	    "(results.json's `reference.kernel`): a static program's exec and reap, an execve, "
	    "one minor fault (a fresh anonymous page), one call of each priced kind; each the "
	    "median over the sweep's points, its CV over them in brackets. A subject's point is "
	    "split into its profile's counts at those prices (its processes, its further execs, "
	    "minor faults, the priced calls, every other call at getppid's price: the kernel "
	    "parts) and what its CPU time (user + system) leaves, its user work, also given in "
	    "rarref work runs (rarref's time less the bare run's); the residual is what the CPU "
	    "time does not hold (waits), or, when negative, what the kernel parts overprice. "
	    "Parts and measured estimates are fitted along %s on the points with a profile. "
	    "**On one host the user part is inferred, so this table splits the intercept; it "
	    "does not predict it.** The prediction is from one host to another (below, with "
	    "several inputs).\n\n",
	    ax);
	print_prices(f, hosts, n);
	print_table(f, hosts, n);
	print_counts(f, hosts, n, baseline);
	print_changes(f, hosts, n);
}

int predictfig_write(const struct predictfig_opts *o, bool *wrote, struct errbuf *eb)
{
	struct countprice_source counts = {0};
	bool any_counted = false;
	struct host *hosts = calloc(o->n_inputs ? o->n_inputs : 1, sizeof(*hosts));
	struct atomicfile *af;
	char path[4096];
	size_t n = 0;
	int rc = -1;

	*wrote = false;
	if (hosts == NULL)
		return errbuf_set(eb, "out of memory");
	if (o->counts_from != NULL && countprice_load(&counts, o->counts_from, o->axis, eb) < 0)
		goto out;
	for (size_t i = 0; i < o->n_inputs; i++) {
		enum kernelcost_found got =
		    load_host(&hosts[n], o->inputs[i], o->axis, o->counts_from ? &counts : NULL, eb);

		if (got == KERNELCOST_MALFORMED) {
			host_clear(&hosts[n]);
			goto out;
		}
		if (got == KERNELCOST_PRICED)
			n++;
		else
			host_clear(&hosts[n]);
	}
	if (n == 0) {
		rc = 0;
		goto out;
	}
	if (fileio_join(path, sizeof(path), o->out_dir, RUNFILES_PREDICTED, eb) != 0 ||
	    (af = atomicfile_open(path, 0644, eb)) == NULL)
		goto out;
	print_tsv(atomicfile_stream(af), hosts, n);
	if (atomicfile_commit(af, eb) != 0)
		goto out;
	if (fileio_join(path, sizeof(path), o->out_dir, RUNFILES_PREDICTED_REPORT, eb) != 0 ||
	    (af = atomicfile_open(path, 0644, eb)) == NULL)
		goto out;
	print_markdown(atomicfile_stream(af), hosts, n, o->axis, o->baseline);
	if (atomicfile_commit(af, eb) != 0)
		goto out;
	for (size_t h = 0; h < n; h++)
		for (size_t i = 0; i < hosts[h].nsubs; i++)
			any_counted = any_counted || hosts[h].subs[i].counted;
	if (any_counted) {
		if (fileio_join(path, sizeof(path), o->out_dir, RUNFILES_COUNTS_PRICES, eb) != 0 ||
		    (af = atomicfile_open(path, 0644, eb)) == NULL)
			goto out;
		print_counts_tsv(atomicfile_stream(af), hosts, n, o->baseline);
		if (atomicfile_commit(af, eb) != 0)
			goto out;
	}
	*wrote = true;
	rc = 0;
out:
	for (size_t i = 0; i < n; i++)
		host_clear(&hosts[i]);
	free(hosts);
	countprice_clear(&counts);
	return rc;
}
