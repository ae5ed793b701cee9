/* countrepeat: when a counted point is counted again, and which of its counts is kept (pure). */
#ifndef RARPERF_COUNTREPEAT_H
#define RARPERF_COUNTREPEAT_H

#include <stddef.h>
#include <stdint.h>

/*
 * Issue 51's rule, "a point is counted once unless its counts vary; then say why and repeat
 * it": every point is counted twice; when the two differ by more than COUNTREPEAT_AGREE
 * (0.01 %, of the smaller), COUNTREPEAT_MORE more times, and the median is kept, with the
 * least, the most and their spread recorded (doc/counts.md, "Deterministic, and proved so").
 */
#define COUNTREPEAT_AGREE 0.0001
#define COUNTREPEAT_MORE 3
#define COUNTREPEAT_MAX (2 + COUNTREPEAT_MORE)

struct countrepeat {
	uint64_t v[COUNTREPEAT_MAX]; /* the counts so far, in run order */
	size_t n;
};

/* How many runs the point takes in all, given the counts so far: 2, or COUNTREPEAT_MAX. */
size_t countrepeat_want(const struct countrepeat *c);

/* The index of the run whose count is the median (the lower one of an even number). n ≥ 1. */
size_t countrepeat_median(const struct countrepeat *c);

/* The least and the most count, and (most − least) / median: 0 for one count. n ≥ 1. */
void countrepeat_range(const struct countrepeat *c, uint64_t *min, uint64_t *max, double *spread);

#endif
