/* reliability_print: report.md's and the table's lines on which fits should not be believed, and
 * why (src/fit/reliability.h judges). */
#ifndef RARPERF_RELIABILITY_PRINT_H
#define RARPERF_RELIABILITY_PRINT_H

#include <stdio.h>

#include "fitreport.h"

/*
 * The table "Contended runs per point": one row per series, one column per
 * x of the set, each cell the share of the point's runs rarbench found
 * contended, marked "!" when the point is shaky (above). Prints nothing when
 * no point says its share (files from hyperfine or an older rarbench).
 */
void reliability_print_shares(const struct fitreport *rep, FILE *f);

/*
 * Prints, after the report's table, one line per thing that makes a figure
 * unreliable, each "unreliable: ..." naming its reason and the remedy: a fit
 * with R² below RELIABILITY_MIN_R2 (shape), a slope whose 95 % interval
 * reaches 0 or below (slope), a fit resting mostly on contended points
 * (contention) or noisy ones (interval width), and
 * per subject x format with several hosts, hosts whose slopes disagree
 * beyond their intervals. Prints nothing when nothing is found (names
 * through sanitize's Markdown mode).
 */
void reliability_print(const struct fitreport *rep, FILE *f);

#endif
