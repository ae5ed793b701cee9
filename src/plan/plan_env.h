/* plan_env: a plan's pinned environment (limits, CPUs) checked against this host. */
#ifndef RARPERF_PLAN_ENV_H
#define RARPERF_PLAN_ENV_H

#include "errbuf.h"

struct plan;

/*
 * Each of the manifest's limits (each value of a swept one) within this
 * host's hard limit, each of its CPUs one this process may run on: else a
 * problem (p->problems, exit 2). Touches nothing. 0, or -1 with
 * p->bad_input set or eb filled.
 */
int plan_env_check(struct plan *p, struct errbuf *eb);

#endif
