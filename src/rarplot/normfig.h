/* normfig: rarplot's fits and figure in reference units, for results measured with rarbench's
 * calibration workload ("reference"). */
#ifndef RARPERF_NORMFIG_H
#define RARPERF_NORMFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "errbuf.h"
#include "plotfig.h"
#include "plotseries.h"

/* What the normalised pass is given: rarplot's inputs and choices. */
struct normfig_opts {
	const char *const *inputs;
	size_t n_inputs;
	const char *axis;
	enum plotseries_stat stat;
	const char *baseline;
	bool use_weights;
	enum results_machines_mode machines; /* which files are one host, as in the fits */
};

/*
 * Loads the inputs again, expresses every time in reference units
 * (results_normalise) and writes, in env->out_dir: fits-normalised.tsv
 * (fits.tsv's columns: "_ms" columns hold reference runs, "_us" ones
 * thousandths of one), normalised.md (the comparison table; with several
 * hosts, the split of the normalised slopes' variance into within- and
 * between-host parts) and the figure normalised_<axis> (perf_<axis>'s
 * script, y in reference runs). *wrote tells whether the inputs had a
 * reference (false: nothing written, 0 returned). Figures gnuplot could
 * not draw become notes in *drawn. 0, or -1 with eb.
 */
int normfig_write(const struct normfig_opts *o, const struct plotfig_env *env,
		  struct plotfig_out *drawn, bool *wrote, struct errbuf *eb);

#endif
