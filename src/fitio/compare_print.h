/* compare_print: --compare's section, its TSV and the sweeps' table (compare_print.c,
 * compare_sweeps_print.c); src/fit/compare.h computes. */
#ifndef RARPERF_COMPARE_PRINT_H
#define RARPERF_COMPARE_PRINT_H

#include <stdio.h>

#include "compare.h"
#include "errbuf.h"

/* The sentence saying the verdict rule with threshold noise and what "detectable" is. */
void compare_print_rule(double noise, FILE *f);

/*
 * Prints the comparison section (Markdown, subject names through sanitize):
 * the changelog line ("intercept −21 % [−25, −17] (improved), slope ..."),
 * a table with the paired and the unpaired figures, the notes and the
 * overall verdict.
 */
void compare_print(const struct compare_outcome *out, const struct compare_opts *o, FILE *f);

/*
 * Writes the comparison as TSV to path (atomic): quantity, method (paired
 * or unpaired), ratio, lo, hi, verdict, detectable (verdict_detectable, a
 * fraction); one row per quantity and method.
 */
int compare_write_tsv(const struct compare_outcome *out, const char *path, struct errbuf *eb)
    __attribute__((warn_unused_result));

/* Prints each sweep's changelog line, then the across-sweeps table and verdict. */
void compare_sweeps_print(const struct compare_across *a, const struct compare_outcome *per,
			  const struct compare_opts *o, FILE *f);

#endif
