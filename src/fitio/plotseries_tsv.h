/* plotseries_tsv: a series written as the TSV its figures plot (src/fit/plotseries.h builds it). */
#ifndef RARPERF_PLOTSERIES_TSV_H
#define RARPERF_PLOTSERIES_TSV_H

#include "errbuf.h"
#include "plotseries.h"

/*
 * Writes s to path as tab-separated columns, after a "#" line naming the
 * series (names through sanitize_text) and one "#" header line:
 * x y_ms ylow_ms yhigh_ms sigma_ms runs nb_roles nb_tasks ci_low_ms
 * ci_high_ms (NaN where unknown), numbers with 17 significant digits so a
 * reader gets the exact doubles rarplot fitted. Atomic. Returns 0 or -1.
 */
int plotseries_write_tsv(const struct plotseries *s, const char *path, struct errbuf *eb)
    __attribute__((warn_unused_result));

#endif
