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
	const char *between; /* --between FILE; NULL: within-sweep intervals */
};

void compare_cli_defaults(struct compare_cli *c);

/*
 * One option: 'c' --compare, 'n' --noise, 'a' --at, 'b' --between, 'u' --allow-unpaired.
 * Returns 0, or -1 with eb "--opt ARG: what" (ARG as given: print it sanitized).
 */
int compare_cli_option(struct compare_cli *c, int which, const char *arg, struct errbuf *eb);

/*
 * Compares and prints the section on stdout; with out_dir (may be NULL)
 * also writes out_dir/comparison.md and comparison.tsv (over several sweeps:
 * out_dir/between.tsv, their between-sweep variation). With c->between, a
 * single sweep's paired intervals are widened (between_widen). Returns the exit
 * status: 0 nothing regressed, 1 something did (or an output failed), 2 bad
 * input (the message on stderr).
 */
int compare_cli_run(const struct compare_cli *c, const struct results *res, const char *axis,
		    bool use_weights, const char *out_dir);

#endif
