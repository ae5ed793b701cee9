/* plotcli: rarplot's command line: its options into one struct plotcli, the usage text, and the
 * one way rarplot prints a message. */
#ifndef RARPLOT_PLOTCLI_H
#define RARPLOT_PLOTCLI_H

#include <stdbool.h>
#include <stdio.h>

#include "compare_cli.h"
#include "errbuf.h"
#include "plotfig.h"
#include "plotrun.h"
#include "plotseries.h"
#include "results.h"

/* What the command line asks for: plotcli_parse fills it, defaults first. */
struct plotcli {
	const char *out_dir;
	enum plotseries_stat stat;
	bool stat_auto; /* estimate when every result carries rarbench's, else median */
	const char *axis;
	bool axis_given; /* --x; else nb_tasks, or nb_files for a files sweep (axishint_default) */
	const char *baseline;
	bool baseline_given; /* an explicit --baseline must name a subject of the inputs */
	const char *formats[PLOTFIG_MAX_FORMATS];
	size_t n_formats;
	char formats_buf[64];
	bool use_weights;
	bool delta; /* --comparisons delta: every comparison by the delta method */
	const char *plots_dir;
	const char *claims; /* a claims file to check (claims.h) */
	char **inputs;
	size_t n_inputs;
	bool out_given;
	bool history;      /* --history: releases in version order, their steps (history.h) */
	const char *diary; /* --diary: a diary's sentences matched with release pairs (diary.h) */
	struct compare_cli compare;          /* --compare and its options (compare_cli.h) */
	enum results_machines_mode machines; /* --machines: files without a machine identity */
	bool published_given;
	const char *published; /* --published: the across-machine spread a one-host report quotes */
	char published_buf[PLOTRUN_PATH_MAX];
	const char *counts_from; /* --counts-from: a counted run of the inputs' machine */
};

/* The usage text to f. */
void plotcli_usage(FILE *f);

/*
 * The programs' parse_args contract (numarg.h): sets cfg's defaults and fills
 * it from argv; NUMARG_USAGE when the usage text follows the message (or
 * getopt's own). Prints nothing.
 */
int plotcli_parse(int argc, char **argv, struct plotcli *cfg, struct errbuf *eb);

/* "rarplot: MSG" on stderr, sanitised: a message may hold bytes of a results or claims file. */
void plotcli_message(const char *msg);

#endif
