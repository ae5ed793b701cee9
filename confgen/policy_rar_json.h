/* policy_rar_json: writes a policy as RootAsRole's single-file JSON (settings and policy together).
 */
#ifndef RARPERF_POLICY_RAR_JSON_H
#define RARPERF_POLICY_RAR_JSON_H

#include "policy.h"
#include "policy_txn.h"

/*
 * Writes p's RootAsRole side to path: version (rar_version, NULL
 * for POLICY_RAR_VERSION; checked by the caller), storage (method json,
 * settings.path = path made absolute), options (authentication skip)
 * and roles, mode 0644, owner root:root when running as root. Strings are
 * escaped by cJSON; the document is streamed, never held whole in memory.
 * An immutable target (chattr +i) is cleared first or the error says why
 * it cannot be. Refuses /etc/security/rootasrole.json.
 * The file only joins txn (written, synced): path changes at
 * policy_txn_commit (policy_txn.h). Returns 0, or -1 with eb filled (the
 * caller then aborts txn and path stays untouched).
 */
int policy_stage_rar_json(struct policy_txn *txn, const struct policy *p, const char *path,
			  const char *rar_version, struct errbuf *eb)
    __attribute__((warn_unused_result));

struct jsonw;

/*
 * Writes the members "version" (rar_version, NULL for POLICY_RAR_VERSION)
 * and "storage" (method, settings.immutable false, settings.path
 * data_abspath) of a RootAsRole settings file into the object w has open.
 * Shared with policy_rar_cbor.
 */
void policy_rar_json_settings_members(struct jsonw *w, const char *method, const char *data_abspath,
				      const char *rar_version);

/*
 * Writes the members "options" and "roles" of p's RootAsRole side into the
 * object w has open. Errors are sticky in w (jsonw_finish).
 */
void policy_rar_json_policy_members(const struct policy *p, struct jsonw *w);

#endif
