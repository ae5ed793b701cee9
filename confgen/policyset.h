/* policyset: one policy shape written in several formats as one transaction. */
#ifndef RARPERF_POLICYSET_H
#define RARPERF_POLICYSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"
#include "policy.h"
#include "policy_format.h"
#include "policy_sudoers.h"

/* One file (or, for RootAsRole's CBOR, one pair of files) of a policy set. */
struct policyset_target {
	enum policy_format format;
	const char *policy;         /* the file written; for rar-cbor the settings file */
	const char *policy_data;    /* rar-cbor: the CBOR data file; NULL: policy's .bin sibling */
	const char *rar_version;    /* rar-json, rar-cbor: the RootAsRole version; NULL: 3.3.4 */
	enum sudoers_layout layout; /* sudoers only */
	/* sudoers only: the files the policy is split over (policy_split.h); 0 means 1. Every
	 * sudoers write, split or not, removes the parts directory an earlier split left. */
	uint32_t files;
};

/*
 * Builds the policy of shape once and writes it for each of the n targets,
 * in their order, as one policy_txn: every file is written whole to its
 * temporary sibling before any is renamed, so a failure (ENOSPC on the big
 * doas.conf) leaves every target as it was. overwrite_foreign lets the
 * files replace ones confgen did not write (policy_txn_overwrite_foreign).
 * A doas target's rule count is the caller's to check first
 * (policy_doas_validate). Returns 0, or -1 with eb filled and, when
 * failed is not NULL, *failed the index of the target whose file could
 * not be written (n when the failure was no one target's: building the
 * policy, the commit).
 */
int policyset_write(const struct policy_shape *shape, const struct policyset_target *t, size_t n,
		    bool overwrite_foreign, size_t *failed, struct errbuf *eb)
    __attribute__((warn_unused_result));

#endif
