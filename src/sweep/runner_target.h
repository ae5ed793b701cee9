/* runner_target: the policy files of one subject as a write target, and their writer. */
#ifndef RARPERF_RUNNER_TARGET_H
#define RARPERF_RUNNER_TARGET_H

#include <stddef.h>

#include "errbuf.h"
#include "policy.h"

/* One policy file set to write (a subject's, or a dead run's from its record). */
struct runner_target {
	const char *id; /* names it in messages */
	enum policy_format format;
	const char *policy, *policy_data, *rar_version;
	enum sudoers_layout layout;
	uint32_t files; /* sudoers: the files the policy is split over; 0: one */
};

/* Writes shape once per target (one transaction). 0 or -1. */
int runner_write_targets(const struct policy_shape *shape, const struct runner_target *t, size_t n,
			 struct errbuf *eb);

#endif
