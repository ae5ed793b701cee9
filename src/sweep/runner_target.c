/* runner_target: writes a step's policies, one file set per target (runner_target.h). */
#include "runner_target.h"

#include "policy_doas.h"
#include "policy_rar_cbor.h"
#include "policy_rar_json.h"
#include "policy_sudoers.h"

/*
 * Writes one policy per target for shape (confgen, in-process) as one
 * transaction: all written whole before any is renamed into place.
 */
int runner_write_targets(const struct policy_shape *shape, const struct runner_target *t, size_t n,
			 struct errbuf *eb)
{
	struct policy *p = NULL;
	struct policy_txn *txn = NULL;
	int rc = -1;
	size_t i;

	p = policy_build(shape, eb);
	if (p == NULL || (txn = policy_txn_new(eb)) == NULL)
		goto out;
	for (i = 0; i < n; i++) {
		int w = 0;

		switch (t[i].format) {
		case POLICY_FORMAT_SUDOERS:
			w = policy_stage_sudoers(txn, p, t[i].policy, t[i].layout, eb);
			break;
		case POLICY_FORMAT_DOAS:
			/* Its rule count was checked once for the whole sweep, at its largest
			 * point (manifest_check_sizes), not per point and doas subject. */
			w = policy_stage_doas(txn, p, t[i].policy, eb);
			break;
		case POLICY_FORMAT_RAR_JSON:
			w = policy_stage_rar_json(txn, p, t[i].policy, t[i].rar_version, eb);
			break;
		case POLICY_FORMAT_RAR_CBOR:
			w = policy_stage_rar_cbor(txn, p, t[i].policy, t[i].policy_data,
						  t[i].rar_version, eb);
			break;
		}
		if (w < 0) {
			errbuf_prefix(eb, "subject %s", t[i].id);
			goto out;
		}
	}
	rc = policy_txn_commit(txn, eb);
	txn = NULL; /* freed by the commit */
out:
	policy_txn_abort(txn);
	policy_free(p);
	return rc;
}
