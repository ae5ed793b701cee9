/* policy_rar_cbor: writes a policy as RootAsRole's CBOR data file plus its settings file. */
#ifndef RARPERF_POLICY_RAR_CBOR_H
#define RARPERF_POLICY_RAR_CBOR_H

#include <stdio.h>

#include "policy.h"
#include "policy_txn.h"

/*
 * Writes the whole policy (version, options, roles) as one CBOR map, byte for
 * byte as RootAsRole 3.3.x saves it (indefinite maps, definite arrays, short
 * keys below the top level, SetBehavior as integers), to data_path (NULL
 * means settings_path with its extension replaced by ".bin", or ".bin"
 * appended), mode 0400; then the JSON settings file settings_path
 * (version, storage method cbor, settings.path = data_path made absolute),
 * mode 0644. Both atomically, owner root:root when running as root, with an
 * immutable target cleared first. Encoded with libcbor's streaming encoders.
 * rar_version (NULL for POLICY_RAR_VERSION; checked by the caller) is the
 * version both files claim; from 4.0 the settings file is CBOR too (the same
 * members as one indefinite map), as RootAsRole 4 built with RAR_CFG_TYPE=cbor
 * reads it (policy_rar_settings_follow_storage).
 * Both files only join txn (written, synced): they change together at
 * policy_txn_commit (policy_txn.h). Returns 0, or -1 with eb filled (the
 * caller then aborts txn and both paths stay untouched).
 */
int policy_stage_rar_cbor(struct policy_txn *txn, const struct policy *p, const char *settings_path,
			  const char *data_path, const char *rar_version, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * The data path policy_stage_rar_cbor uses when data_path is NULL, malloc'd
 * (the caller frees it), or NULL when out of memory.
 */
char *policy_rar_cbor_default_data_path(const char *settings_path);

/*
 * Streams p's RootAsRole side as the CBOR data file to out, claiming
 * rar_version (NULL for POLICY_RAR_VERSION). Returns 0, or -1 with eb filled
 * on a write error.
 */
int policy_rar_cbor_stream(const struct policy *p, FILE *out, const char *rar_version,
			   struct errbuf *eb);

#endif
