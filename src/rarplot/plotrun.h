/* plotrun: find gnuplot and the gnuplot scripts of plots/, and run one script with -e parameters.
 */
#ifndef RARPERF_PLOTRUN_H
#define RARPERF_PLOTRUN_H

#include <stddef.h>

#include "errbuf.h"

/* The Debian package rarplot asks for when gnuplot is missing (it has pngcairo, pdfcairo, svg). */
#define PLOTRUN_GNUPLOT_PACKAGE "gnuplot-nox"
#define PLOTRUN_PATH_MAX 4096

/* One -e assignment: name='value' when quoted, name=value otherwise. */
struct plotrun_param {
	const char *name;
	const char *value;
	int quoted;
};

/*
 * Finds an executable gnuplot in $PATH and copies its path to out.
 * Returns 0, or -1 with a message naming the Debian package to install.
 */
int plotrun_find_gnuplot(char *out, size_t len, struct errbuf *eb);

/*
 * Finds the directory holding perf_tasks.gp: dir_override when not NULL,
 * else <bindir>/../share/rarperf/plots, <bindir>/../plots (the source tree)
 * and datadir/plots, in that order; bindir is where this executable lives.
 * Returns 0 with the directory in out, or -1 listing where it looked.
 */
int plotrun_find_scripts(const char *dir_override, const char *datadir, char *out, size_t len,
			 struct errbuf *eb);

/*
 * Runs `gnuplot -e "<params>" script` with stdin from /dev/null and stderr
 * inherited, and waits. Single quotes inside quoted values are doubled as
 * gnuplot wants. Returns 0 when gnuplot exits 0, else -1 with its status.
 */
int plotrun_run(const char *gnuplot, const char *script, const struct plotrun_param *params,
		size_t n_params, struct errbuf *eb);

#endif
