/* cli: rarbench's hyperfine-compatible command line (options, validation, --help text). */
#ifndef RARPERF_RARBENCH_CLI_H
#define RARPERF_RARBENCH_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "errbuf.h"
#include "estimate.h"
#include "export.h"
#include "measure.h"
#include "numarg.h"
#include "params.h"
#include "report.h"

/*
 * The parsed command line. Strings point into argv (not owned); prepare,
 * names and params are owned and released by cli_config_clear.
 */
struct config {
	uint64_t warmup;
	uint64_t min_runs, max_runs, runs;
	bool have_min, have_max, have_runs;
	const char *setup, *cleanup;
	const char **prepare;
	size_t n_prepare;
	struct params params;
	const char *scan[3];
	const char *scan_step;
	bool have_list;
	const char *shell; /* NULL: -N */
	bool ignore_failure;
	enum report_style style;
	bool have_style;
	const char *export_json, *export_csv, *export_markdown;
	bool show_output;
	const char *output;
	enum export_time_unit unit;
	bool have_unit;
	const char **names;
	size_t n_names;
	const char *as_user;
	bool profile; /* --profile: each command traced once after its runs (plain_profile) */
	enum measure_order order;
	uint64_t seed;
	bool have_seed;
	double precision; /* --precision PCT / 100; 0: hyperfine's fixed count */
	enum estimate_kind estimator;
	char **commands;
	size_t n_commands;
};

/*
 * Sets cfg to its defaults, then parses argv (getopt_long, hyperfine 1.15's
 * options plus rarbench's extras) and validates the result: run bounds,
 * parameter scan or lists, and a seed drawn from the clock for --order random
 * without --seed. cfg->commands points into argv. Prints nothing.
 * The programs' parse_args contract (numarg.h): returns 0 to run the
 * benchmarks; NUMARG_HELP or NUMARG_VERSION when -h or -V is met before any
 * error (the caller prints and exits 0); NUMARG_ERROR with eb set on a usage
 * error (exit 2). On every return cfg is initialised: call cli_config_clear.
 */
int cli_parse(int argc, char **argv, struct config *cfg, struct errbuf *eb);

/* Frees what cli_parse allocated in cfg; the strings in argv stay. */
void cli_config_clear(struct config *cfg);

/* Writes the --help text to f. */
void cli_usage(FILE *f);

#endif
