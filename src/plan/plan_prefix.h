/* plan_prefix: a provisioned prefix's paths resolved (the prefix, PREFIX/etc where policies may be
 * written, the directory's identity), read only: what the plan and the run's guard both need;
 * and the prefix a program takes when told none. */
#ifndef RARPERF_PLAN_PREFIX_H
#define RARPERF_PLAN_PREFIX_H

#include <stdint.h>
#include <limits.h>

#include "errbuf.h"

/* Where `make provision` puts the prefix when RARPERF_PREFIX names none. */
#define PLAN_PREFIX_DEFAULT "/opt/rarperf"

/*
 * The prefix a program uses when its command line names none: RARPERF_PREFIX
 * when set and not empty (as `make provision RARPERF_PREFIX=DIR` made it),
 * else PLAN_PREFIX_DEFAULT. The environment's string, not a copy.
 */
const char *plan_prefix_default(void);

struct plan_prefix {
	const char *given; /* as given (borrowed: messages) */
	char real[PATH_MAX];
	char etc[PATH_MAX]; /* PREFIX/etc resolved: where policies may be written */
	/* The prefix directory's identity: hosts in mount namespaces (tests/lib/nshosts.sh) each
	 * see their own prefix at the same path. */
	uint64_t dev, ino;
};

/*
 * Resolves prefix (borrowed: it must outlive p) and PREFIX/etc into p; touches nothing.
 * 0, or -1 with eb filled (a missing prefix or etc, a path too long).
 */
int plan_prefix_locate(struct plan_prefix *p, const char *prefix, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * Whether path (a policy or policy_data, expanded) lies in etc_real (PREFIX/etc resolved) once
 * its directory is resolved. 0, or -1 with eb saying where it points.
 */
int plan_prefix_confine(const char *etc_real, const char *path, struct errbuf *eb);

#endif
