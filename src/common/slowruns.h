/* slowruns: how many of a calibration point's runs were slow against their own floor; pure. The
 * results reader counts them as it reads a reference point; src/fit/interference.h judges them. */
#ifndef RARPERF_SLOWRUNS_H
#define RARPERF_SLOWRUNS_H

#include <stddef.h>

/* A run slower than this many times its point's fastest tenth (the 10th percentile) is slow. */
#define SLOWRUNS_FACTOR 2.0

/*
 * Counts n runs of one reference point: *slow those slower than SLOWRUNS_FACTOR x the 10th
 * percentile of wall_s, *unseen those of them whose wall time less stall_s[i] (seconds; NULL:
 * unknown, then none is unseen) is still. scratch holds n doubles. Pure.
 */
void slowruns_count(const double *wall_s, const double *stall_s, size_t n, double *scratch,
		    size_t *slow, size_t *unseen);

#endif
