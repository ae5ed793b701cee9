/* results_rounds: each round's estimate of a point, from rarbench.round_estimates (results.h). */
#include <cJSON.h>
#include <math.h>
#include <stdlib.h>

#include "jsonget.h"
#include "results.h"

/* The entry i of round_estimates into *out. 0 or -1. */
static int results_round_entry(const cJSON *e, size_t i, struct results_round *out,
			       struct errbuf *eb)
{
	const cJSON *round = jsonget_member(e, "round");
	const cJSON *est = jsonget_member(e, "estimate");

	if (!cJSON_IsObject(e))
		return errbuf_set(eb, "rarbench.round_estimates[%zu]: not an object", i);
	if (!cJSON_IsNumber(round) || !(round->valuedouble >= 1) || round->valuedouble > 1e9 ||
	    round->valuedouble != floor(round->valuedouble))
		return errbuf_set(eb, "rarbench.round_estimates[%zu].round: not a round number", i);
	out->round = (unsigned)round->valuedouble;
	if (cJSON_IsNull(est)) {
		out->estimate_s = NAN;
		return 0;
	}
	if (!cJSON_IsNumber(est) || !isfinite(est->valuedouble) || est->valuedouble < 0)
		return errbuf_set(eb, "rarbench.round_estimates[%zu].estimate: not seconds", i);
	out->estimate_s = est->valuedouble;
	return 0;
}

int results_rounds_parse(const void *rb_v, struct results_point *p, struct errbuf *eb)
{
	const cJSON *rb = rb_v;
	const cJSON *arr = jsonget_member(rb, "round_estimates"), *e;
	size_t n, i = 0;

	const cJSON *contended = jsonget_member(rb, "contended");

	p->rounds = NULL;
	p->n_rounds = 0;
	const cJSON *cruns = jsonget_member(rb, "contended_runs");

	p->contended = cJSON_IsTrue(contended);
	if (contended != NULL && !cJSON_IsBool(contended))
		return errbuf_set(eb, "rarbench.contended: not a boolean");
	p->contended_share = NAN;
	if (cruns != NULL && (!cJSON_IsNumber(cruns) || !(cruns->valuedouble >= 0) ||
			      cruns->valuedouble > (double)p->n_runs))
		return errbuf_set(eb, "rarbench.contended_runs: not a count of at most %zu runs",
				  p->n_runs);
	if (cruns != NULL && p->n_runs > 0)
		p->contended_share = cruns->valuedouble / (double)p->n_runs;
	if (arr == NULL)
		return 0;
	if (!cJSON_IsArray(arr))
		return errbuf_set(eb, "rarbench.round_estimates: not an array");
	n = (size_t)cJSON_GetArraySize(arr);
	if (n > RESULTS_MAX_ROUNDS)
		return errbuf_set(eb, "rarbench.round_estimates: more than %u rounds",
				  RESULTS_MAX_ROUNDS);
	if (n == 0)
		return 0;
	p->rounds = calloc(n, sizeof(*p->rounds));
	if (p->rounds == NULL)
		return errbuf_set(eb, "rarbench.round_estimates: out of memory");
	cJSON_ArrayForEach(e, arr)
	{
		if (results_round_entry(e, i, &p->rounds[i], eb) != 0)
			return -1; /* p->rounds is freed with the point */
		for (size_t j = 0; j < i; j++)
			if (p->rounds[j].round == p->rounds[i].round)
				return errbuf_set(eb,
						  "rarbench.round_estimates[%zu].round: %u twice",
						  i, p->rounds[i].round);
		i++;
	}
	p->n_rounds = n;
	return 0;
}
