/* profilebudget: which traced runs the profile pass can afford, predicted from the ones it made. */
#ifndef RARPERF_PROFILEBUDGET_H
#define RARPERF_PROFILEBUDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"

/*
 * A traced run costs about the same per system call whatever the call
 * (strace stops at each), and a subject's call count is an exact, affine
 * function of its policy's size: so the next point's cost is predicted from
 * the last two traced points' counts and the last one's time per call.
 */
struct profilebudget_history {
	uint64_t bytes[2], calls[2]; /* the last two traced points, oldest first */
	double ns_per_call;          /* the last traced point's profile time per call */
	unsigned seen;               /* traced points recorded (2 at most count) */
};

struct profilebudget {
	double limit_ns; /* 0: no budget */
	double spent_ns; /* everything the pass cost: traces, untraced runs, policy writes */
	double point_overhead_ns; /* the last point's cost beyond its runs (policies, grants) */
	struct profilebudget_history *subjects;
	size_t nsubjects;
};

/*
 * The one rule of the budget: the profile pass may cost pct percent of the
 * timed runs' time (timed, in any unit; the cap in the same). pct 0: no
 * budget (the caller's to say: the cap is then 0). The dry run's estimate
 * and the pass itself both use it.
 */
double profilebudget_cap(uint32_t pct, double timed);

/*
 * A budget of profilebudget_cap(pct, timed_ns) (pct 0: none) for nsubjects
 * subjects, nothing spent. 0, or -1 (out of memory).
 */
int profilebudget_init(struct profilebudget *b, size_t nsubjects, uint32_t pct, uint64_t timed_ns,
		       struct errbuf *eb) __attribute__((warn_unused_result));

/* Frees what b holds and zeroes it. A zeroed b is a no-op. */
void profilebudget_clear(struct profilebudget *b);

/*
 * The predicted profile time of subject i at a point whose policy holds
 * bytes: 0 before it was traced once; after one point its count scaled by
 * the policy's growth (never less than it was); after two, the affine
 * extrapolation of its counts.
 */
double profilebudget_predict(const struct profilebudget *b, size_t i, uint64_t bytes);

/*
 * Whether subject i may be traced at that point: its first, no budget, or
 * its prediction (into *predicted_ns when not NULL) fits what is left.
 */
bool profilebudget_allows(const struct profilebudget *b, size_t i, uint64_t bytes,
			  double *predicted_ns);

/* Records a traced point of subject i (calls made, ns its profile took) and spends ns. */
void profilebudget_record(struct profilebudget *b, size_t i, uint64_t bytes, uint64_t calls,
			  uint64_t ns);

/* Spends ns that no subject's history explains (an untraced subject's rusage run). */
void profilebudget_spend(struct profilebudget *b, uint64_t ns);

/*
 * Records what a whole point cost (point_ns, wall clock from its policies'
 * writing to their denial) of which runs_ns were already spent by
 * record/spend: the rest, the point's overhead, is spent too and predicts
 * the next point's.
 */
void profilebudget_point_done(struct profilebudget *b, uint64_t point_ns, uint64_t runs_ns);

/*
 * Whether a point can be started at all: no budget, or the last point's
 * overhead still fits what is left (the caller starts it anyway while a
 * subject has not been traced once). A point refused costs nothing: no
 * policy is written and no run is made.
 */
bool profilebudget_point_allowed(const struct profilebudget *b);

/*
 * Why a point or a subject was not profiled, into why (size bytes):
 * "profile budget spent: X s of Y s (P % of Z s of timed runs)".
 */
void profilebudget_explain(const struct profilebudget *b, uint32_t pct, char *why, size_t size);

#endif
