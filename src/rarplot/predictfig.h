/* predictfig: each subject's intercept and slope split by its profile and the host's kernel-side
 * prices (results.json's "reference"."kernel"), and their change between hosts predicted. */
#ifndef RARPERF_PREDICTFIG_H
#define RARPERF_PREDICTFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "errbuf.h"

/*
 * For every input with kernel prices (fit/kernelcost.h): each subject's
 * points with a profile along axis, fitted (weighted by the measured times)
 * measured (the point's estimate) and part by part (kernelcost_predict: the
 * kernel parts, the user work its CPU time leaves), into out_dir's
 * predicted.tsv (one row per input and subject: measured intercept, the
 * accounted one and its parts, the residual, the user work in rarref work
 * runs; measured and accounted slope) and predicted.md (each host's prices
 * and their spread over the sweep's points, the table; with several inputs,
 * each subject's change of intercept from the first input to each other,
 * measured against predicted). *wrote: whether any input had prices (false:
 * nothing written, 0 returned). 0, or -1 with eb.
 */
int predictfig_write(const char *const *inputs, size_t n_inputs, const char *axis,
		     const char *out_dir, bool *wrote, struct errbuf *eb);

#endif
