/* plotfig: render one figure (perf_tasks, perf_roles, perf_both) from a series set with gnuplot. */
#ifndef RARPERF_PLOTFIG_H
#define RARPERF_PLOTFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "errbuf.h"
#include "plotseries.h"
#include "plotstyle.h"
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
	const char *out_dir;            /* figures go here, TSV under out_dir/data/<name>/ */
	const char *scripts_dir;        /* holds the .gp files */
	const char *gnuplot;            /* path of the gnuplot executable */
	const char *stat;               /* "median", "mean" or "median estimate", for the y label */
	const char *yunit;              /* y's unit for perf_tasks.gp ("ref"); NULL: ms */
	const char *yunit_small;        /* a thousandth of it ("mref"); NULL: µs */
	enum plotseries_stat stat_kind; /* what y is, for the caption */
	bool use_weights;
	const char *formats[PLOTFIG_MAX_FORMATS]; /* "png", "svg", "pdf" */
	size_t n_formats;
	const struct results *res; /* names each series' tool in the legend; may be NULL */
	/* Every subject's look (plotstyle_assign over all the run's series); a series missing
	 * from it is drawn in gnuplot's own colours. */
	const struct plotstyle_entry *styles;
	size_t n_styles;
};

/*
 * What the figures of a run drew and noted, for report.md: files[i] written (relative to
 * out_dir) with its figure's caption captions[i]; notes, the figures not drawn and why. Starts
 * zeroed; the caller frees it with plotfig_out_free.
 */
struct plotfig_out {
	char **files;
	char **captions;
	size_t n_files;
	char **notes;
	size_t n_notes;
};

/* Frees what out holds (not out itself) and zeroes it. */
void plotfig_out_free(struct plotfig_out *out);

/* Appends a note (printf format) to out. Returns 0, or -1 when out of memory. */
int plotfig_out_note(struct plotfig_out *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Appends a file written (relative to out_dir) and its figure's caption. 0, or -1 out of memory. */
int plotfig_out_file(struct plotfig_out *out, const char *file, const char *caption);

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
 * per format: linear axes from 0 (files <name>.<format>) and, when the sizes
 * are log-spaced (at least half of them, and 3, in the leftmost fifth of a
 * linear axis) or the drawn series' fitted slopes span more than
 * PLOTSTYLE_LOG_SPAN, the same on log-log axes (<name>_log.<format>, the
 * reason in its title and caption; a note instead when a size or a time is
 * not above 0). Each series is drawn in its env->styles look with one legend
 * entry. Each figure is written to a hidden temporary file and renamed into
 * place only when gnuplot succeeds, so a failure leaves no figure. Appends
 * the files written with their captions, and the notes, to *out. Returns 0
 * or -1.
 */
int plotfig_render(const struct plotfig *fig, const struct plotseries_set *set,
		   const struct plotfig_env *env, struct plotfig_out *out, struct errbuf *eb);

#endif
