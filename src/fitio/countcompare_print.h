/* countcompare_print: the counted instructions compared, as Markdown (src/fit/countcompare.h
 * compares). */
#ifndef RARPERF_COUNTCOMPARE_PRINT_H
#define RARPERF_COUNTCOMPARE_PRINT_H

#include <stdio.h>

#include "countcompare.h"

/*
 * The section: "## Counted instructions (the exit status rests on them)", a
 * table of both subjects' counts, the ratios and verdicts, and the overall
 * verdict on counts. Names through sanitize (Markdown).
 */
void countcompare_print(const struct countcompare *c, const char *baseline, const char *candidate,
			const char *axis, FILE *f);

#endif
