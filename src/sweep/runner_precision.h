/* runner_precision: what each point of a manifest run has measured so far, and the verdict on
 * each attempt of a step (kept, or measured again) and on each point (another round or not). */
#ifndef RARPERF_RUNNER_PRECISION_H
#define RARPERF_RUNNER_PRECISION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"
#include "journal.h"
#include "manifest.h"
#include "points.h"

struct runner_precision;

/*
 * The accumulator of a sweep of npoints points that measures the active
 * subjects ids[0..nactive) (in that order) under m. m and ids are borrowed
 * and must outlive it. It keeps every point's runs in precision mode
 * (m->precision > 0) only; without it, it judges contention alone. NULL
 * when out of memory.
 */
struct runner_precision *runner_precision_new(const struct manifest *m, size_t npoints,
					      const char *const *ids, size_t nactive);

/* Adds the steps a resumed journal holds (done; its ids parsed against sw), then refreshes
 * (runner_precision_refresh). 0, or -1 with eb naming a step that does not fit. */
int runner_precision_load(struct runner_precision *p, const struct sweep *sw,
			  const struct journal_contents *done, struct errbuf *eb);

/* What one attempt of a step came to. */
enum runner_precision_verdict {
	RUNNER_PRECISION_KEPT,      /* added to the point's runs: journal it */
	RUNNER_PRECISION_REMEASURE, /* too many contended runs: thrown away, measure it again */
	RUNNER_PRECISION_FAILED     /* eb says why (out of memory, a step that does not fit) */
};

/*
 * One attempt (attempt: 0 first) of a step of point idx: js[0..n) its
 * benches' results in active order, the hung subjects left out, the reference
 * last when measured; nsub of them are subjects. When a subject has more
 * contended runs than the manifest's contention_limit (judged against the
 * best baseline the point has shown so far), attempt is below remeasure, the
 * host is not busy throughout (more than a quarter of at least 8 attempts
 * flagged) and, in precision mode, another attempt keeps the point within
 * max_runs: *discarded grows by the subjects' runs and the verdict is
 * REMEASURE. Otherwise the runs are kept (with *discarded, precision mode):
 * KEPT.
 */
enum runner_precision_verdict runner_precision_offer(struct runner_precision *p, size_t idx,
						     const struct journal_subject *js, size_t n,
						     size_t nsub, uint32_t attempt,
						     uint64_t *discarded, struct errbuf *eb);

/*
 * Whether point idx needs another round: some subject's estimate (the
 * manifest's estimator, contended runs left out when it says so) misses the
 * precision, and another round keeps the point within max_runs. Precision
 * mode only.
 */
bool runner_precision_needs_more(const struct runner_precision *p, size_t idx);

/* Recomputes every subject's reference baseline across the sweep (once per pass: it sorts
 * every point's baseline). A no-op outside precision mode. */
void runner_precision_refresh(struct runner_precision *p);

/* Frees p (NULL-safe). */
void runner_precision_free(struct runner_precision *p);

#endif
