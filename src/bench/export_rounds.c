/* export_rounds: each round's own estimate of one result (export_rounds.h). */
#include "export_rounds.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contention.h"

#define EXPORT_ROUNDS_NS_PER_S 1e9

cJSON *export_rounds_runs(const struct measure_result *r, const uint32_t *run_round)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; a != NULL && i < r->n; i++) {
		cJSON *v = cJSON_CreateNumber(run_round[i]);

		if (v == NULL || !cJSON_AddItemToArray(a, v)) {
			cJSON_Delete(v);
			cJSON_Delete(a);
			return NULL;
		}
	}
	return a;
}

/* The runs of r in round, copied into sub (its arrays are the caller's, r->n entries each). */
static void export_rounds_select(const struct measure_result *r, const uint32_t *run_round,
				 uint32_t round, struct measure_result *sub)
{
	size_t n = 0;

	for (size_t i = 0; i < r->n; i++) {
		if (run_round[i] != round)
			continue;
		sub->wall_ns[n] = r->wall_ns[i];
		sub->user_ns[n] = r->user_ns[i];
		sub->system_ns[n] = r->system_ns[i];
		sub->exit_codes[n] = r->exit_codes[i];
		if (sub->nivcsw != NULL)
			sub->nivcsw[n] = r->nivcsw[i];
		if (sub->stall_ns != NULL)
			sub->stall_ns[n] = r->stall_ns[i];
		n++;
	}
	sub->n = n;
}

/* {"round": N, "runs": n, "estimate": s or null} of one round, or NULL when out of memory. */
static cJSON *export_rounds_one(const struct measure_result *sub, uint32_t round,
				enum estimate_kind k, enum estimate_contended treat,
				int64_t baseline_ns, double *scratch)
{
	struct estimate est;
	size_t contended;
	bool fell_back = contention_estimate(sub, k, treat, baseline_ns, scratch, &est, &contended);
	cJSON *o = cJSON_CreateObject();
	char buf[40];

	if (o == NULL)
		return NULL;
	if (fell_back || !isfinite(est.value))
		snprintf(buf, sizeof(buf), "null");
	else
		snprintf(buf, sizeof(buf), "%.9g", est.value / EXPORT_ROUNDS_NS_PER_S);
	if (cJSON_AddNumberToObject(o, "round", round) == NULL ||
	    cJSON_AddNumberToObject(o, "runs", (double)sub->n) == NULL ||
	    cJSON_AddRawToObject(o, "estimate", buf) == NULL) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

cJSON *export_rounds_estimates(const struct measure_result *r, const uint32_t *run_round,
			       enum estimate_kind k, enum estimate_contended treat,
			       int64_t baseline_ns, struct errbuf *eb)
{
	struct measure_result sub = {0};
	double *scratch = NULL;
	cJSON *a = cJSON_CreateArray(), *o;
	size_t n = r->n ? r->n : 1;

	sub.wall_ns = malloc(n * sizeof(*sub.wall_ns));
	sub.user_ns = malloc(n * sizeof(*sub.user_ns));
	sub.system_ns = malloc(n * sizeof(*sub.system_ns));
	sub.exit_codes = malloc(n * sizeof(*sub.exit_codes));
	sub.nivcsw = r->nivcsw != NULL ? malloc(n * sizeof(*sub.nivcsw)) : NULL;
	sub.stall_ns = r->stall_ns != NULL ? malloc(n * sizeof(*sub.stall_ns)) : NULL;
	scratch = malloc(2 * n * sizeof(*scratch));
	if (a == NULL || sub.wall_ns == NULL || sub.user_ns == NULL || sub.system_ns == NULL ||
	    sub.exit_codes == NULL || (r->nivcsw != NULL && sub.nivcsw == NULL) ||
	    (r->stall_ns != NULL && sub.stall_ns == NULL) || scratch == NULL)
		goto oom;
	for (size_t i = 0; i < r->n; i++) {
		size_t j;

		for (j = 0; j < i; j++)
			if (run_round[j] == run_round[i])
				break;
		if (j < i)
			continue; /* this round is done */
		export_rounds_select(r, run_round, run_round[i], &sub);
		o = export_rounds_one(&sub, run_round[i], k, treat, baseline_ns, scratch);
		if (o == NULL || !cJSON_AddItemToArray(a, o)) {
			cJSON_Delete(o);
			goto oom;
		}
	}
	goto out;
oom:
	cJSON_Delete(a);
	a = NULL;
	errbuf_set(eb, "out of memory building the rounds' estimates");
out:
	free(scratch);
	free(sub.wall_ns);
	free(sub.user_ns);
	free(sub.system_ns);
	free(sub.exit_codes);
	free(sub.nivcsw);
	free(sub.stall_ns);
	return a;
}
