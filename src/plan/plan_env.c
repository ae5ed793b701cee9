/* plan_env: the manifest's limits and CPUs checked against this host, before any run. */
#include "plan_env.h"

#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "plan.h"

/* Each value of the swept limit within this host's hard limit; problems name the value. */
static int check_swept_limit(struct plan *p, struct errbuf *eb)
{
	const struct manifest_env *e = &p->m->env;
	const struct manifest_limit *l = &e->limits[e->limit_axis];
	char path[96];
	struct rlimit rl;

	if (e->nlimit_values == 0)
		return 0;
	if (getrlimit(l->resource, &rl) != 0)
		return errbuf_set_errno(eb, errno, "getrlimit %s", l->name);
	for (size_t k = 1; k < e->nlimit_values; k++) {
		if (rl.rlim_max == RLIM_INFINITY || e->limit_values[k] <= (uint64_t)rl.rlim_max)
			continue;
		snprintf(path, sizeof(path), "$.limits.%s[%zu]", l->name, k); /* lint: not a path */
		if (plan_problem(p, eb, path, "%" PRIu64 " is above this host's hard limit %ju",
				 e->limit_values[k], (uintmax_t)rl.rlim_max) < 0)
			return -1;
	}
	return 0;
}

/* Each limit within this host's hard limit: above it the runs would be measured in an
 * environment no user of this host gets. */
static int check_limits(struct plan *p, struct errbuf *eb)
{
	const struct manifest_env *e = &p->m->env;
	char path[64], what[160];

	for (size_t i = 0; i < e->nlimits; i++) {
		const struct manifest_limit *l = &e->limits[i];
		struct rlimit rl;
		uint64_t v = l->unlimited ? (uint64_t)RLIM_INFINITY : l->value;

		/* the manifest's JSON path of the limit: "[0]" when it is the swept one */
		snprintf(path, sizeof(path), "$.limits.%s%s", l->name, /* lint: not a path */
			 e->nlimit_values > 0 && i == e->limit_axis ? "[0]" : "");
		if (getrlimit(l->resource, &rl) != 0)
			return errbuf_set_errno(eb, errno, "getrlimit %s", l->name);
		if (rl.rlim_max == RLIM_INFINITY || (!l->unlimited && v <= (uint64_t)rl.rlim_max))
			continue;
		if (l->unlimited)
			snprintf(what, sizeof(what),
				 "unlimited is above this host's hard limit %ju",
				 (uintmax_t)rl.rlim_max);
		else
			snprintf(what, sizeof(what),
				 "%" PRIu64 " is above this host's hard limit %ju", v,
				 (uintmax_t)rl.rlim_max);
		if (plan_problem(p, eb, path, "%s", what) < 0)
			return -1;
	}
	return 0;
}

/* Each CPU one this process may run on. */
static int check_cpus(struct plan *p, struct errbuf *eb)
{
	const struct manifest_env *e = &p->m->env;
	char path[64], what[160];
	cpu_set_t online;

	if (e->ncpus == 0)
		return 0;
	if (sched_getaffinity(0, sizeof(online), &online) != 0)
		CPU_ZERO(&online);
	for (size_t i = 0; i < e->ncpus; i++) {
		if (CPU_ISSET(e->cpus[i], &online))
			continue;
		snprintf(path, sizeof(path), "$.cpus[%zu]", i); /* lint: not a path */
		snprintf(what, sizeof(what),
			 "CPU %u is not one this process may run on here (%ld online)", e->cpus[i],
			 sysconf(_SC_NPROCESSORS_ONLN));
		if (plan_problem(p, eb, path, "%s", what) < 0)
			return -1;
	}
	return 0;
}

int plan_env_check(struct plan *p, struct errbuf *eb)
{
	if (check_limits(p, eb) < 0 || check_cpus(p, eb) < 0 || check_swept_limit(p, eb) < 0)
		return -1;
	return plan_problems_verdict(p, "", eb);
}
