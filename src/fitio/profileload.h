/* profileload: the "profile" objects of a results file (rarbench's results.json, rarlab's
 * merged.json) into a profilefit, one source per host or file. */
#ifndef RARPERF_PROFILELOAD_H
#define RARPERF_PROFILELOAD_H

#include <stddef.h>

#include "errbuf.h"
#include "profilefit.h"

/* Longest counter name kept (a path after "open."). */
#define PROFILELOAD_COUNTER_MAX 4200

/*
 * Adds the counters of every profiled result of the results file input whose
 * parameters hold axis (a number) to pf: the totals, rusage, sys.NAME,
 * fail.NAME, open.PATH and exec.PROGRAM, at the point of the other axes'
 * values. Their source: source when not NULL, else "host H" for a result of
 * a lab's merged results (parameters.host), else input. Adds how many
 * results had a profile to *found. 0, or -1 with eb naming the file.
 */
int profileload_file(struct profilefit *pf, const char *input, const char *source, const char *axis,
		     size_t *found, struct errbuf *eb) __attribute__((warn_unused_result));

#endif
