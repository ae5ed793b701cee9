/* policyset: one policy shape written in several formats as one transaction. */
#include "policyset.h"

#include "policy_doas.h"
#include "policy_please.h"
#include "policy_polkit.h"
#include "policy_rar_cbor.h"
#include "policy_rar_json.h"
#include "policy_split.h"
#include "policy_txn.h"

/* Stages target t of p into txn. 0 or -1 (eb). */
static int stage(struct policy_txn *txn, const struct policy *p, const struct policyset_target *t,
		 struct errbuf *eb)
{
	switch (t->format) {
	case POLICY_FORMAT_SUDOERS:
		return policy_stage_sudoers_split(txn, p, t->policy, t->layout,
						  t->files > 0 ? t->files : 1, eb);
	case POLICY_FORMAT_DOAS:
		return policy_stage_doas(txn, p, t->policy, eb);
	case POLICY_FORMAT_RAR_JSON:
		return policy_stage_rar_json(txn, p, t->policy, t->rar_version, eb);
	case POLICY_FORMAT_RAR_CBOR:
		return policy_stage_rar_cbor(txn, p, t->policy, t->policy_data, t->rar_version, eb);
	case POLICY_FORMAT_PLEASE:
		return policy_stage_please(txn, p, t->policy, eb);
	case POLICY_FORMAT_POLKIT:
		return policy_stage_polkit(txn, p, t->policy, eb);
	}
	return errbuf_set(eb, "%s: format %d unknown", t->policy, (int)t->format);
}

int policyset_write(const struct policy_shape *shape, const struct policyset_target *t, size_t n,
		    bool overwrite_foreign, size_t *failed, struct errbuf *eb)
{
	struct policy *p = NULL;
	struct policy_txn *txn = NULL;
	int rc = -1;
	size_t i;

	if (failed != NULL)
		*failed = n;
	p = policy_build(shape, eb);
	if (p == NULL || (txn = policy_txn_new(eb)) == NULL)
		goto out;
	if (overwrite_foreign)
		policy_txn_overwrite_foreign(txn);
	for (i = 0; i < n; i++)
		if (stage(txn, p, &t[i], eb) < 0) {
			if (failed != NULL)
				*failed = i;
			goto out;
		}
	rc = policy_txn_commit(txn, eb);
	txn = NULL; /* freed by the commit */
out:
	policy_txn_abort(txn);
	policy_free(p);
	return rc;
}
