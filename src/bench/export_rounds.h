/* export_rounds: each round's own estimate of one result, so that a comparison can pair the
 * subjects' runs of the same step (rarplot --compare). */
#ifndef RARPERF_EXPORT_ROUNDS_H
#define RARPERF_EXPORT_ROUNDS_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "errbuf.h"
#include "estimate.h"
#include "measure.h"

/*
 * The "run_rounds" array of a result: run_round[i] for each run i of r (the
 * round of the step the run was measured in). Returns a new array, or NULL
 * when out of memory.
 */
cJSON *export_rounds_runs(const struct measure_result *r, const uint32_t *run_round);

/*
 * The "round_estimates" array of a result's "rarbench" object: for each
 * distinct round of run_round, in order of first appearance, an object
 * {"round": N, "runs": n, "estimate": s}: the estimate of kind k over that
 * round's runs alone, contended runs treated as treat says against
 * baseline_ns (the point's, so a round is judged as the whole point is).
 * estimate is null when the round's estimate fell back (too few clean runs
 * when dropping). Returns a new array, or NULL with eb filled.
 */
cJSON *export_rounds_estimates(const struct measure_result *r, const uint32_t *run_round,
			       enum estimate_kind k, enum estimate_contended treat,
			       int64_t baseline_ns, struct errbuf *eb);

#endif
