/* stdfigs: rarplot's standard figures, along the chosen axis and the other axes that vary. */
#ifndef RARPERF_STDFIGS_H
#define RARPERF_STDFIGS_H

#include <stdbool.h>

#include "errbuf.h"
#include "plotfig.h"
#include "plotseries.h"

/*
 * The standard figures of set (drawn along axis, each point's y the stat): the one along axis, then
 * the others when the results vary along them. A figure gnuplot cannot draw costs that figure only
 * (a note in drawn, *failed set): the fits and the report are still written. With --format none
 * every figure's TSV is still written and no gnuplot runs. Returns 0, or -1 when out of memory.
 */
int stdfigs_draw(const char *axis, enum plotseries_stat stat, const struct plotseries_set *set,
		 const struct plotfig_env *env, struct plotfig_out *drawn, bool *failed,
		 struct errbuf *eb);

#endif
