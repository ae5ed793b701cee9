/* fitrun: rarplot's default mode: the results fitted, the figures drawn, DIR/report.md,
 * DIR/fits.tsv and the rest written, the summary printed (and --history after them). */
#ifndef RARPLOT_FITRUN_H
#define RARPLOT_FITRUN_H

#include "errbuf.h"
#include "plotcli.h"
#include "results.h"

/* How a run ended; main maps it to the exit status (src/common/exitcode.h). */
enum fitrun_outcome {
	FITRUN_OK,
	FITRUN_BAD_INPUT,     /* refused before anything was written: eb says why */
	FITRUN_FAILED,        /* an output (or gnuplot, or --history) failed: eb says why */
	FITRUN_FIGURE_FAILED, /* everything written, but a figure was not drawn (its note printed)
			       */
};

/*
 * Fits res (read from cfg->inputs, its machines assigned) as cfg asks and writes everything under
 * cfg->out_dir: every input check first, then the figures, fits.tsv (and across-hosts.tsv, the
 * normalised and predicted figures), the profiles, claims.tsv, report.md, --history's files;
 * then the table, the claims and the notes on stdout and stderr. cfg->stat is settled here
 * (estimate when every result has one) and cfg->published found when not given.
 */
enum fitrun_outcome fitrun_run(struct plotcli *cfg, struct results *res, struct errbuf *eb);

#endif
