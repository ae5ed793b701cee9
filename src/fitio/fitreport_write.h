/* fitreport_write: the fit report's writers: fits.tsv and the comparison table (fitreport_table.c),
 * report.md (fitreport_markdown.c), its counted instructions (fitreport_counts.c) and the Markdown
 * text they share (fitreport_md.c). Over src/fit's fitreport (fitreport.h), which computes. */
#ifndef RARPERF_FITREPORT_WRITE_H
#define RARPERF_FITREPORT_WRITE_H

#include <stdbool.h>
#include <stdio.h>

#include "errbuf.h"
#include "fitreport.h"
#include "plotstyle.h"

/*
 * Writes fits.tsv (names through sanitize_text): a header line then one row
 * per fit, columns
 * subject format host x n intercept_ms intercept_se_ms slope_us slope_se_us r2
 * intercept_lo_ms intercept_hi_ms slope_lo_us slope_hi_us
 * (the last four: 95 % intervals, value -/+ t95(n - 2) x standard error),
 * and with rep->counts four more: instr_per_call instr_per_unit (the counted
 * instructions' intercept and slope) instr_per_call_ratio instr_per_unit_ratio
 * (each over the baseline's; "nan" where a row has no counted series).
 * Atomic. Returns 0 or -1.
 */
int fitreport_write_tsv(const struct fitreport *rep, const char *path, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * Prints the comparison table (Markdown, names through sanitize's Markdown
 * mode: safe on a terminal too) to f: per subject x format (x
 * host): points, intercept (ms) +/- SE [95 % interval], slope (us per unit)
 * +/- SE [95 % interval], R2, % raw cost and % slope against the baseline,
 * crossover size. With several hosts, a second table of min / median / max
 * slope across hosts and the split of the slope's variance (fitreport_hosts).
 */
void fitreport_print_table(const struct fitreport *rep, FILE *f);

/* What report.md says about how it was made. */
struct fitreport_context {
	const char *const *inputs;
	size_t n_inputs;
	const char *stat;               /* its name: "median", "mean", "median estimate" */
	enum plotseries_stat stat_kind; /* what y is: the error bars and weights follow */
	bool use_weights;
	const char *const *figures; /* file names relative to the report, may be 0 */
	size_t n_figures;
	/* captions[i]: what figure file i shows and why it was drawn; NULL, or an entry NULL, for
	 * none. Written once above the first file of each run of equal captions. */
	const char *const *captions;
	/* Each subject's look in the figures (plotstyle_assign), listed when figures were drawn;
	 * may be NULL. */
	const struct plotstyle_entry *styles;
	size_t n_styles;
	const char *const *notes; /* extra lines, e.g. figures skipped and why */
	size_t n_notes;
	/* Write more sections (called with more_arg; each may be NULL): verdict_sections after
	 * the verdicts (e.g. the claims checked), more_sections after the fits (e.g. the
	 * profiles). */
	void (*verdict_sections)(FILE *f, const void *arg);
	/* first_sections: right after the question, before anything else (several hosts: what
	 * holds across machines reads first). */
	void (*first_sections)(FILE *f, const void *arg);
	void (*more_sections)(FILE *f, const void *arg);
	const void *more_arg;
};

/*
 * Writes report.md in the reader's order: the title; the question (the axis,
 * its sizes, the subjects with their tools, the baseline, the inputs); the
 * figures with their captions; the verdicts (the table, its reliability,
 * ctx's verdict_sections); what was skipped (res's skipped subjects with their
 * reasons, ctx's notes); the fits (and the slopes across hosts,
 * more_sections); the method; each subject's look. The method names rarbench's estimator and
 * treatment of contended runs (rep->res, results.h: "unknown" when the files do not say) and what
 * the error bars, the weights, the ± and the brackets are. Every string from a file or the command
 * line goes through sanitize (Markdown mode, or a code span of sanitised text). Atomic.
 */
int fitreport_write_markdown(const struct fitreport *rep, const struct fitreport_context *ctx,
			     const char *path, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * The line under a figure's title, in report.md's words (fitreport_write_markdown's method):
 * what each point is (kind; for rarbench's estimate, res's estimator and what it did with
 * contended runs), what the error bars are or, with several hosts (band), the band, and how the
 * lines were fitted: weighted when all_weighted, partly when only some series were
 * (some_weighted). Into buf (size bytes, truncated). res may be NULL.
 */
void fitreport_caption(enum plotseries_stat kind, const struct results *res, bool band,
		       bool all_weighted, bool some_weighted, char *buf, size_t size);

/*
 * fitreport_counts.c. The counted row of the same subject, format and host as row (in
 * rep->counts), or NULL.
 */
const struct fitreport_row *fitreport_counts_row(const struct fitreport *rep,
						 const struct fitreport_row *row);

/*
 * report.md's "Instructions counted" section: per subject, instructions per call (the
 * intercept) and per unit of the axis (the slope), each with its ratio to the baseline's;
 * what a count is and that verdicts on time rest on time. Nothing without rep->counts.
 */
void fitreport_print_counts(const struct fitreport *rep, FILE *f);

/*
 * report.md's "Where the wait goes: daemons" (fitreport_daemons.c): for each subject whose
 * points carry a daemon's cost (pkexec's polkitd), per size its median, the daemon's CPU per run,
 * its share and peak, and the daemon's CPU per run fitted over size. Nothing when none does.
 */
void fitreport_print_daemons(const struct fitreport *rep, FILE *f);

/* Text from a file or the command line, as inline Markdown (report.md and the console). */
void fitreport_md(FILE *f, const char *s);

/*
 * A name (a path, a subject) as a Markdown code span, where nothing is
 * markup and only the text sanitiser applies; as escaped text when it holds
 * a backtick, which would end the span.
 */
void fitreport_md_code(FILE *f, const char *s);

/* A link target: the bytes of a plain file name kept, every other byte percent-encoded. */
void fitreport_md_target(FILE *f, const char *s);

/* The comparison table of fitreport_print_table alone (its rows, and the † note when some are not
 * paired). */
void fitreport_print_rows(const struct fitreport *rep, FILE *f);

/* With several hosts, fitreport_print_table's table of the slopes across hosts; else nothing. */
void fitreport_print_spread(const struct fitreport *rep, FILE *f);

#endif
