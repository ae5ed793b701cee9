/* fitreport_markdown: report.md in the reader's order — the question, the figures, the verdicts,
 * what was skipped, the fits, then the method in words and each subject's look. */
#include "fitreport.h"
#include "fitreport_write.h"
#include "interference.h"
#include "reliability_print.h"
#include "verdict.h"

#include <string.h>

#include "atomicfile.h"

/* What rarbench's estimator and contended treatment names mean, for the report. */
static const char *fitreport_method_words(const char *name)
{
	static const struct {
		const char *name, *words;
	} words[] = {
	    {"median", "the median of the runs"},
	    {"mean", "the mean of the runs"},
	    {"trimmed", "the 20 % trimmed mean of the runs"},
	    {"min", "the fastest run"},
	    {"cpu-median", "the median of the runs' CPU time, user + system of the program and the"
			   " children it reaped: not the wall time a user waits; no wait is in it,"
			   " so load moves every tool alike, doc/precision.md"},
	    {"correct", "each counted as its CPU time plus the baseline off-CPU time, i.e. its wall"
			" time without the wait; not neutral between tools: a tool that forks or"
			" waits is corrected more, doc/precision.md"},
	    {"drop", "left out of the estimate, or every run used when fewer than 6 are clean"},
	    {"keep", "taken at their wall time as measured"},
	    {"evict", "every measured program taken out of the cache before the sweep and read back"
		      " from disk by its first run"},
	    {"as_found", "each program however it came into the cache, rarperf 0.6's method: a"
			 " program copied or built later than the others can start 4-5 % apart"},
	    {RESULTS_MIXED, "the input files differ"},
	    {RESULTS_UNKNOWN, "the results do not say"},
	};
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcmp(name, words[i].name) == 0)
			return words[i].words;
	return NULL;
}

/* "`name` (what it means)", or "unknown (the results do not say)". */
static void fitreport_print_method_name(FILE *f, const char *name)
{
	const char *words;

	if (name == NULL || name[0] == '\0')
		name = RESULTS_UNKNOWN;
	words = fitreport_method_words(name);
	if (strcmp(name, RESULTS_UNKNOWN) == 0 || strcmp(name, RESULTS_MIXED) == 0)
		fitreport_md(f, name);
	else
		fitreport_md_code(f, name);
	if (words != NULL)
		fprintf(f, " (%s)", words);
}

/* What rarbench did with contended runs, in a caption's few words. */
static const char *fitreport_contended_short(const char *name)
{
	if (strcmp(name, "correct") == 0)
		return "contended runs without their wait";
	if (strcmp(name, "drop") == 0)
		return "contended runs left out";
	if (strcmp(name, "keep") == 0)
		return "contended runs as measured";
	if (strcmp(name, RESULTS_MIXED) == 0)
		return "contended runs: mixed";
	return "contended runs: unknown";
}

void fitreport_caption(enum plotseries_stat kind, const struct results *res, bool band,
		       bool all_weighted, bool some_weighted, char *buf, size_t size)
{
	const char *est =
	    res != NULL && res->estimator[0] != '\0' ? res->estimator : RESULTS_UNKNOWN;
	const char *cont =
	    res != NULL && res->contended[0] != '\0' ? res->contended : RESULTS_UNKNOWN;
	const char *lines = all_weighted    ? "weighted least squares"
			    : some_weighted ? "least squares, weighted where every point has a σ"
					    : "least squares";
	char point[160];
	bool named = strcmp(est, RESULTS_UNKNOWN) != 0 && strcmp(est, RESULTS_MIXED) != 0;

	if (kind == PLOTSERIES_ESTIMATE)
		snprintf(point, sizeof(point), "rarbench's %s%sestimate (%s)", named ? est : "",
			 named ? " " : "", fitreport_contended_short(cont));
	else
		snprintf(point, sizeof(point), "%s of its runs",
			 kind == PLOTSERIES_MEAN ? "mean" : "median");
	if (band)
		snprintf(buf, size,
			 "points: median over hosts of each host's %s, band: min–max over hosts;"
			 " lines: least squares on the medians",
			 point);
	else
		snprintf(buf, size, "points: %s, error bars: its 95 %% interval%s; lines: %s",
			 point,
			 kind == PLOTSERIES_ESTIMATE ? ""
			 : kind == PLOTSERIES_MEAN   ? " (Student's t)"
						     : " (order statistics)",
			 lines);
}

/* How each point was measured, what the error bars, the weights, the ± and the brackets are. */
static void fitreport_print_method(const struct fitreport *rep, const struct fitreport_context *ctx,
				   FILE *f)
{
	const char *est = rep->res != NULL ? rep->res->estimator : NULL;
	const char *cont = rep->res != NULL ? rep->res->contended : NULL;

	fputs("- **Each point** is ", f);
	if (ctx->stat_kind == PLOTSERIES_ESTIMATE)
		fprintf(f, "rarbench's estimate of its %s, with its 95 %% interval.\n",
			est != NULL && strcmp(est, "cpu-median") == 0 ? "CPU time (user + system)"
								      : "time");
	else
		fprintf(f,
			"the %s of the wall times of all its runs, as measured (contended runs"
			" with their wait): rarbench's estimator and treatment of contended runs"
			" below do not enter it.\n",
			ctx->stat_kind == PLOTSERIES_MEAN ? "mean" : "median");
	fputs("- **rarbench's estimator** (from the results' meta): ", f);
	fitreport_print_method_name(f, est);
	fputs("; **contended runs** (runs that waited for a CPU another task held): ", f);
	fitreport_print_method_name(f, cont);
	if (rep->res != NULL && rep->res->page_cache[0] != '\0') {
		fputs("; **page cache**: ", f);
		fitreport_print_method_name(f, rep->res->page_cache);
	}
	fputs(".\n", f);
	fputs("- **Error bars** in the figures: each point's 95 % interval, ", f);
	if (ctx->stat_kind == PLOTSERIES_ESTIMATE)
		fputs("rarbench's interval of its estimate", f);
	else if (ctx->stat_kind == PLOTSERIES_MEAN)
		fputs("Student's t interval of the mean", f);
	else
		fputs("the distribution-free interval of the median from the order statistics of"
		      " its times (none below 6 runs)",
		      f);
	fputs(". With several hosts a figure draws instead the median over hosts as points and"
	      " the min–max over hosts as a band.\n",
	      f);
	if (ctx->use_weights)
		fprintf(
		    f,
		    "- **Weights**: each point weighs 1/σ², σ its standard error: %s, when every"
		    " point of the series has one; otherwise the series is unweighted.\n",
		    ctx->stat_kind == PLOTSERIES_ESTIMATE
			? "the half-width of its 95 % interval ÷ 1.96"
			: "stddev/√runs");
	else
		fputs("- **Weights**: every point has the same weight.\n", f);
	fputs("- **±** in the tables: the standard error of the intercept or the slope, asymptotic"
	      " as gnuplot's `fit` reports it (scaled by sqrt(WSSR/(n-2))). **Brackets**: 95 %"
	      " intervals, value ± t(n-2) × standard error.\n",
	      f);
	if (rep->n_paired > 0)
		fprintf(f,
			"- **Comparisons** (raw vs, slope vs, crossover, and the claims): %zu of"
			" %zu paired per round, as `rarplot --compare` computes them — each point"
			" of the row taken relative to the baseline's in the same round and step,"
			" the interval from %d bootstrap resamples of the rounds — so `rarplot"
			" --compare` prints the same interval for the same pair%s.",
			rep->n_paired, rep->n_rows > 0 ? rep->n_rows - 1 : 0,
			PAIRED_DEFAULT_RESAMPLES,
			rep->n_paired + 1 < rep->n_rows
			    ? "; the others (marked †) by the delta method over both fits' standard"
			      " errors"
			    : "");
	else
		fputs("- **Comparisons** (raw vs, slope vs, crossover, and the claims): the delta"
		      " method over both fits' standard errors (no pair of subjects here has"
		      " per-round estimates of one sweep, or --comparisons delta).",
		      f);
	fprintf(f,
		" Verdict: regressed (higher) or improved (lower) when the whole interval lies"
		" beyond ±%g %%, no change when it lies within ±%g %%, else inconclusive; between"
		" two different tools (the inputs' facts name different tools) higher, lower or no"
		" difference, for one tool does not regress against another; the"
		" smallest change a comparison could have detected is its interval's half-width;"
		" a ratio over a baseline of 0 is undefined.\n",
		100 * VERDICT_DEFAULT_NOISE, 100 * VERDICT_DEFAULT_NOISE);
	fputs("- Raw cost compares intercepts and slope compares slopes with the same host's ", f);
	fitreport_md_code(f, rep->baseline);
	fputs("; negative is cheaper. The crossover is the ", f);
	fitreport_md(f, rep->set->axis);
	fputs(" where the two fitted lines meet when it lies within the measured range, else"
	      " \"none in range\" (where lines would meet beyond the sweep is no measurement);"
	      " \"not measurable\", with the interval, when it lies within the range but its 95 %"
	      " interval reaches beyond it (nearly parallel lines: no crossing is placed).\n\n",
	      f);
}

/* Each subject's look in the figures, once per subject x format (hosts share it). */
static void fitreport_print_looks(const struct fitreport *rep, const struct fitreport_context *ctx,
				  FILE *f)
{
	size_t i, j;
	char name[200];

	fputs(
	    "\n## Looks\n\nEach subject keeps one look in every figure and format, and in every"
	    " run: src/fit/plotstyle.c gives each subject id of the shipped manifests an Okabe–Ito"
	    " colour (colour-blind safe), a filled point and a solid line; a variant (an id ending"
	    " in -pam) has its subject's colour, the open point and a dashed line; other subjects"
	    " take the colours left, with open points.\n\n",
	    f);
	fputs("| subject | format | drawn as | colour | points | line |\n", f);
	fputs("|---|---|---|---|---|---|\n", f);
	for (i = 0; i < ctx->n_styles; i++) {
		const struct plotstyle_entry *e = &ctx->styles[i];

		for (j = 0; j < i; j++)
			if (strcmp(ctx->styles[j].subject, e->subject) == 0 &&
			    strcmp(ctx->styles[j].format, e->format) == 0)
				break;
		if (j < i)
			continue;
		plotstyle_legend_name(e->subject, e->format,
				      rep->res != NULL ? results_tool(rep->res, e->subject) : NULL,
				      name, sizeof(name));
		fputs("| ", f);
		fitreport_md(f, e->subject);
		fputs(" | ", f);
		fitreport_md(f, e->format);
		fputs(" | ", f);
		fitreport_md(f, name);
		fprintf(f, " | %s `%s` | %s | %s |\n", e->style.color_name, e->style.color,
			plotstyle_point_name(e->style.point), plotstyle_dash_name(e->style.dash));
	}
}

/* The distinct x values of every series: how many, the smallest and the largest. */
static size_t fitreport_sizes(const struct plotseries_set *set, double *lo, double *hi)
{
	size_t i, j, k, l, n = 0;

	*lo = *hi = 0;
	for (i = 0; i < set->n_series; i++)
		for (j = 0; j < set->series[i].n; j++) {
			double x = set->series[i].pts[j].x;
			bool seen = false;

			/* Earlier points of this series and the earlier series: seen already? */
			for (k = 0; k <= i && !seen; k++)
				for (l = 0; l < (k == i ? j : set->series[k].n) && !seen; l++)
					seen = set->series[k].pts[l].x == x;
			if (seen)
				continue;
			*lo = n == 0 || x < *lo ? x : *lo;
			*hi = n == 0 || x > *hi ? x : *hi;
			n++;
		}
	return n;
}

/* A host that took the CPU from the sweep, named at the top (issue 51); nothing on a quiet one. */
static void fitreport_print_host(const struct fitreport *rep, FILE *f)
{
	struct interference host;
	char s[1024];

	interference_of(rep->res, SIZE_MAX, &host);
	if (!interference_named(&host))
		return;
	interference_sentence(&host, s, sizeof(s));
	/* Our own words (numbers and fixed text): no outside bytes to sanitise. */
	fprintf(f, "\n**%s.**\n", s);
}

/* The title, then the question the report answers: what was compared, along which sizes, against
 * which baseline, from which inputs; a warning about emulated hosts. */
static void fitreport_print_head(const struct fitreport *rep, const struct fitreport_context *ctx,
				 FILE *f)
{
	const struct plotseries_set *set = rep->set;
	double lo, hi;
	size_t i, j, n_subjects = 0, n_sizes = fitreport_sizes(set, &lo, &hi);

	fputs("# rarplot report: time against ", f);
	fitreport_md(f, set->axis);
	fputs("\n\n## The question\n\nHow does the time to authorise one command grow with ", f);
	fitreport_md(f, set->axis);
	fprintf(f, ", from %g to %g (%zu sizes", lo, hi, n_sizes);
	if (set->held != NULL && set->held[0] != '\0') {
		fputs("; the other axes held at ", f);
		fitreport_md(f, set->held);
	}
	fputs(")", f);
	for (i = 0; i < set->n_series; i++) {
		for (j = 0; j < i; j++)
			if (strcmp(set->series[j].subject, set->series[i].subject) == 0)
				break;
		n_subjects += j == i;
	}
	fprintf(f, ", for %zu subject%s against the baseline ", n_subjects,
		n_subjects == 1 ? "" : "s");
	fitreport_md_code(f, rep->baseline);
	if (set->n_hosts > 1)
		fprintf(f, " on the same host (%zu hosts)", set->n_hosts);
	fputs("?\n\n", f);
	for (i = 0; i < set->n_series; i++) {
		const char *tool;

		for (j = 0; j < i; j++)
			if (strcmp(set->series[j].subject, set->series[i].subject) == 0)
				break;
		if (j < i)
			continue;
		tool = rep->res != NULL ? results_tool(rep->res, set->series[i].subject) : NULL;
		fputs("- ", f);
		fitreport_md(f, set->series[i].subject);
		if (tool != NULL) {
			fputs(": ", f);
			fitreport_md(f, tool);
		}
		fputs(", ", f);
		fitreport_md(f, set->series[i].format);
		fputs(" policy", f);
		if (strcmp(set->series[i].subject, rep->baseline) == 0)
			fputs(" (the baseline)", f);
		fputc('\n', f);
	}
	fputs("\nInputs:", f);
	for (i = 0; i < ctx->n_inputs; i++) {
		fputs(i ? ", " : " ", f);
		fitreport_md_code(f, ctx->inputs[i]);
	}
	fputs(".\n", f);
	if (rep->res != NULL && rep->res->n_emulated > 0) {
		fputs("\n**Not comparable: emulated hosts.** ", f);
		fitreport_md(f, rep->res->emulated);
		fprintf(
		    f,
		    " (%zu) ran in VMs without KVM (TCG, qemu's emulator; their facts.json says "
		    "`\"virtualisation\": \"tcg\"`): their times compare with each other only, "
		    "never with a host that runs natively or under KVM.\n",
		    rep->res->n_emulated);
	}
	fitreport_print_host(rep, f);
}

/* How the table's verdicts are read, above it. */
static void fitreport_print_verdicts(const struct fitreport *rep, FILE *f)
{
	fputs("\n## Verdicts\n\nEach subject against ", f);
	fitreport_md_code(f, rep->baseline);
	fprintf(f,
		" on the same host: *raw vs* compares the intercepts (the cost of one call),"
		" *slope vs* the slopes (the cost of one more %s), as ratios subject ÷ baseline"
		" with their 95 %% interval; regressed (higher) or improved (lower) when the whole"
		" interval lies beyond ±%g %%, no change when it lies within ±%g %%, else"
		" inconclusive (the interval reaches across the threshold: its half-width, the"
		" smallest change it could have detected, is too wide to tell). Between two"
		" different tools (the inputs' facts name different tools: sudo-rs and sudo, not"
		" sudo-pam and sudo) the words are higher, lower and no difference. The fits they"
		" come from are in the same rows (section Fits), and how they were computed under"
		" Method.\n\n",
		fitreport_unit(rep->set->axis), 100 * VERDICT_DEFAULT_NOISE,
		100 * VERDICT_DEFAULT_NOISE);
	fitreport_print_rows(rep, f);
	reliability_print_shares(rep, f);
	reliability_print(rep, f);
}

/* The subjects the inputs say were skipped and why, the figures not drawn; or that nothing was. */
static void fitreport_print_skipped(const struct fitreport *rep,
				    const struct fitreport_context *ctx, FILE *f)
{
	size_t i, n_skipped = rep->res != NULL ? rep->res->n_skipped : 0;

	fputs("\n## Skipped\n\n", f);
	if (n_skipped == 0)
		fprintf(f, "No subject the inputs record as skipped%s\n",
			ctx->n_notes == 0 ? "; every figure drawn." : ".\n");
	for (i = 0; i < n_skipped; i++) {
		const struct results_skipped *k = &rep->res->skipped[i];

		fputs("- subject ", f);
		fitreport_md(f, k->id);
		/* A refusal's reason says the size it cannot hold, the tool's words and the fit. */
		fputs(k->refused ? " measured below its limit only: " : " not measured: ", f);
		fitreport_md(f, k->reason[0] != '\0' ? k->reason : "no reason given");
		if (k->source < rep->res->n_sources) {
			fputs(" (", f);
			fitreport_md_code(f, rep->res->sources[k->source]);
			fputs(")", f);
		}
		fputc('\n', f);
	}
	for (i = 0; i < ctx->n_notes; i++) {
		fputs("- ", f);
		fitreport_md(f, ctx->notes[i]);
		fputc('\n', f);
	}
}

/* What each line is, fits.tsv, and the slopes across hosts. */
static void fitreport_print_fits(const struct fitreport *rep, const struct fitreport_context *ctx,
				 FILE *f)
{
	fputs("\n## Fits\n\nEach line is time = intercept + slope × ", f);
	fitreport_md(f, rep->set->axis);
	fputs(", fitted by rarplot's own least squares to the ", f);
	fitreport_md(f, ctx->stat);
	fputs(ctx->stat_kind == PLOTSERIES_ESTIMATE && rep->res != NULL &&
		      strcmp(rep->res->estimator, "cpu-median") == 0
		  ? " CPU time of each point"
		  : " wall time of each point",
	      f);
	if (rep->set->held != NULL && rep->set->held[0] != '\0') {
		fputs(", with the other axes held at ", f);
		fitreport_md(f, rep->set->held);
	}
	fputs(": the points, intercept, slope and R² columns of the table under Verdicts;"
	      " fits.tsv has every fit with its 95 % intervals.\n",
	      f);
	fitreport_print_spread(rep, f);
	fputc('\n', f);
}

/* The figures, each under its caption when the caption changes; PNGs inline, others linked. */
static void fitreport_print_figures(const struct fitreport_context *ctx, FILE *f)
{
	size_t i;

	fputs("\n## Figures\n\n", f);
	for (i = 0; i < ctx->n_figures; i++) {
		const char *name = ctx->figures[i];
		const char *cap = ctx->captions != NULL ? ctx->captions[i] : NULL;
		const char *prev = i > 0 && ctx->captions != NULL ? ctx->captions[i - 1] : NULL;
		size_t len = strlen(name);
		bool image = len > 4 && strcmp(name + len - 4, ".png") == 0;

		if (cap != NULL && (prev == NULL || strcmp(cap, prev) != 0)) {
			fputs(i > 0 ? "\n" : "", f);
			fitreport_md(f, cap);
			fputs("\n\n", f);
		}
		fputs(image ? "![" : "- [", f);
		fitreport_md(f, name);
		fputs("](", f);
		fitreport_md_target(f, name);
		fputs(image ? ")\n\n" : ")\n", f);
	}
}

int fitreport_write_markdown(const struct fitreport *rep, const struct fitreport_context *ctx,
			     const char *path, struct errbuf *eb)
{
	struct atomicfile *af;
	FILE *f;

	af = atomicfile_open(path, 0644, eb);
	if (af == NULL)
		return -1;
	f = atomicfile_stream(af);
	/* The reader's order: the question, the figures, the verdicts, what was skipped; then
	 * the fits, the extra sections (the claims, the profiles), and how it was all made. */
	fitreport_print_head(rep, ctx, f);
	if (ctx->first_sections != NULL)
		ctx->first_sections(f, ctx->more_arg);
	if (ctx->n_figures > 0)
		fitreport_print_figures(ctx, f);
	fitreport_print_verdicts(rep, f);
	fitreport_print_counts(rep, f);
	fitreport_print_daemons(rep, f);
	if (ctx->verdict_sections != NULL)
		ctx->verdict_sections(f, ctx->more_arg);
	fitreport_print_skipped(rep, ctx, f);
	fitreport_print_fits(rep, ctx, f);
	if (ctx->more_sections != NULL)
		ctx->more_sections(f, ctx->more_arg);
	fputs("\n## Method\n\n", f);
	fitreport_print_method(rep, ctx, f);
	if (ctx->n_figures > 0 && ctx->n_styles > 0)
		fitreport_print_looks(rep, ctx, f);
	if (ferror(f)) {
		atomicfile_abort(af);
		return errbuf_set(eb, "%s: write error", path);
	}
	return atomicfile_commit(af, eb);
}
