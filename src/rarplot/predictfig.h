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
 * measured against predicted). With counts (each point's "counts", or
 * counts_from: a counted results file of the same machine, else -1) and
 * rarref's counts: "Time as counts × prices" in predicted.md and
 * counts-prices.tsv (each subject's time predicted from its counts and
 * profile at the host's prices, rarref's and the baseline's, beside the
 * measured; the tools' own price per instruction). *wrote: whether any input had prices (false:
 * nothing written, 0 returned). 0, or -1 with eb.
 */
struct predictfig_opts {
	const char *const *inputs;
	size_t n_inputs;
	const char *axis;
	const char *counts_from; /* a counted run of the inputs' machine, or NULL */
	const char *baseline;    /* the subject whose own prices predict the others, or NULL */
	const char *out_dir;
};

int predictfig_write(const struct predictfig_opts *o, bool *wrote, struct errbuf *eb);

#endif
