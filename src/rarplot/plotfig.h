/* plotfig: render one figure (perf_tasks, perf_roles, perf_both) from a series set with gnuplot. */
#ifndef RARPERF_PLOTFIG_H
#define RARPERF_PLOTFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "errbuf.h"
#include "plotseries.h"
#include "results.h"

#define PLOTFIG_MAX_FORMATS 3

/* A figure: its file stem, its gnuplot script and the axis it plots. */
struct plotfig {
	const char *name;   /* "perf_tasks": files perf_tasks.png, ... */
	const char *script; /* "perf_tasks.gp", found in the scripts directory */
	const char *axis;   /* parameter on x, or PLOTSERIES_AXIS_BOTH */
};

/* Where and how figures are drawn; shared by every figure of a run. */
struct plotfig_env {
	const char *out_dir;     /* figures go here, TSV under out_dir/data/<name>/ */
	const char *scripts_dir; /* holds the .gp files */
	const char *gnuplot;     /* path of the gnuplot executable */
	const char *stat;        /* "median" or "mean", for the y label */
	bool use_weights;
	const char *formats[PLOTFIG_MAX_FORMATS]; /* "png", "svg", "pdf" */
	size_t n_formats;
	const struct results *res; /* names each series' tool in the legend; may be NULL */
};

/*
 * The figure drawing set along set->axis: perf_tasks, perf_roles and
 * perf_both for their axes, otherwise "perf_<axis without nb_>" drawn by
 * perf_tasks.gp. name_buf (at least 64 bytes) holds a built name.
 */
struct plotfig plotfig_for_axis(const char *axis, char *name_buf, size_t len);

/*
 * Writes the TSV of every series of set under env->out_dir/data/<name>/
 * (one file per subject x format x host; with several hosts, also the
 * across-hosts series drawn as a band), then runs the figure's script once
 * per format. Each figure is written to a hidden temporary file and renamed
 * into place only when gnuplot succeeds, so a failure leaves no figure.
 * Appends the file names written (relative to out_dir, caller frees each)
 * to *written / *n_written. Returns 0 or -1.
 */
int plotfig_render(const struct plotfig *fig, const struct plotseries_set *set,
		   const struct plotfig_env *env, char ***written, size_t *n_written,
		   struct errbuf *eb);

#endif
