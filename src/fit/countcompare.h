/* countcompare: rarplot --compare on counted instructions: the candidate's instructions per call
 * and per unit against the baseline's, a verdict on each (pure over the results). */
#ifndef RARPERF_COUNTCOMPARE_H
#define RARPERF_COUNTCOMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "errbuf.h"
#include "results.h"
#include "verdict.h"

/*
 * The threshold of "no change" on counts: 0.25 %. A count's interval is its
 * ratio ± COUNTCOMPARE_SPREAD (0.1 %: the C tools' counts repeat within
 * 0.01 %, dosr CBOR's within 0.08 %, doc/counts.md), so an A/A of them is "no
 * change" and a change of 0.5 % is "regressed" (or "improved"). dosr JSON's
 * counts once moved 1.3 % between sweeps: a count verdict on it is not
 * reliable yet.
 */
#define COUNTCOMPARE_NOISE 0.0025
#define COUNTCOMPARE_SPREAD 0.001

/* One quantity compared on counts. */
struct countcompare_quantity {
	char name[64];             /* "instructions per call", "... per unit", "... at 10000 tasks" */
	double base, cand;         /* instructions */
	struct paired_ratio ratio; /* cand / base with the counts' own spread */
	enum verdict_kind verdict;
};

struct countcompare {
	bool available; /* every point of both subjects was counted */
	char why[160];  /* when not available: why */
	size_t n_base, n_cand;
	struct countcompare_quantity q[3];
	size_t n_q;
	double x_max;
	double spread; /* the largest recorded spread of a repeated count of either subject */
	bool regressed, improved;
};

/*
 * Compares the counted instructions of candidate with baseline's along axis
 * in res: each fitted (unweighted least squares over its points at the
 * other axes' smallest values), intercept, slope and the line at the largest
 * size compared. A subject some point of which was not counted leaves out
 * unavailable (why says which); 0 then too. -1 (eb) when the series cannot be
 * built (as rarplot's fits: too few sizes).
 */
int countcompare_compute(const struct results *res, const char *baseline, const char *candidate,
			 const char *axis, struct countcompare *out, struct errbuf *eb)
    __attribute__((warn_unused_result));

#endif
