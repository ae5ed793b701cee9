/* compare_cli: rarplot --compare BASELINE:CANDIDATE, its options, its output and exit status. */
#ifndef RARPLOT_COMPARE_CLI_H
#define RARPLOT_COMPARE_CLI_H

#include <stdbool.h>

#include "compare.h"
#include "results.h"

struct compare_cli {
	const char *pair; /* "BASELINE:CANDIDATE"; NULL: no comparison asked */
	char baseline[COMPARE_NAME_MAX], candidate[COMPARE_NAME_MAX];
	double noise; /* fraction */
	double at[PAIRED_MAX_AT];
	size_t n_at;
	bool allow_unpaired;
	/* --counts: the exit status rests on the counted instructions (a shared runner's gate);
	 * without it on wall time, the counts printed beside when the results carry them. */
	bool on_counts;
	const char *between; /* --between FILE; NULL: within-sweep intervals */
	/* The ratio figure's formats ("png", ...; 0: none drawn) and --plots-dir (NULL: found
	 * as rarplot's figures are), set by main from its own options. */
	const char *const *formats;
	size_t n_formats;
	const char *plots_dir;
};

void compare_cli_defaults(struct compare_cli *c);

/*
 * One option: 'c' --compare, 'n' --noise, 'a' --at, 'b' --between, 'u' --allow-unpaired,
 * 'k' --counts.
 * Returns 0, or -1 with eb "--opt ARG: what" (ARG as given: print it sanitized).
 */
int compare_cli_option(struct compare_cli *c, int which, const char *arg, struct errbuf *eb);

/*
 * Compares and prints the section on stdout; with out_dir (may be NULL)
 * also writes out_dir/comparison.md and comparison.tsv (over several sweeps:
 * out_dir/comparison.md and out_dir/between.tsv, their between-sweep
 * variation); both also write comparison-ratio.tsv and its figure,
 * comparison-ratio.<format> (compare_ratio.gp: the ratio of the lines
 * against size with its 95 % band, one sweep's or the mean over the sweeps';
 * a figure gnuplot cannot draw is a warning on stderr, not a failure). With
 * c->between, a single sweep's paired intervals are widened (between_widen).
 * Returns the exit status: 0 every quantity no change or improved, 1
 * something regressed (or an output failed), 2 bad input (the message on
 * stderr), 3 nothing regressed but some quantity inconclusive.
 */
int compare_cli_run(const struct compare_cli *c, const struct results *res, const char *axis,
		    bool use_weights, const char *out_dir);

#endif
