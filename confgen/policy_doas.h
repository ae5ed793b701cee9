/* policy_doas: writes a policy as an OpenDoas doas.conf (one permit rule per user and command). */
#ifndef RARPERF_POLICY_DOAS_H
#define RARPERF_POLICY_DOAS_H

#include "policy.h"
#include "policy_txn.h"

/* doas has no aliases: the file holds roles*users*tasks*commands rules, capped here. */
#define POLICY_DOAS_RULES_MAX 100000000ull

/*
 * Checks that shape expands to at most POLICY_DOAS_RULES_MAX rules. Returns 0,
 * or -1 with eb naming the counts. Called once where a shape is decided
 * (confgen's validate, the manifest's size check for every point of a sweep,
 * policy_size): the writers below do not check it again, so a shape they
 * write MUST have passed it.
 */
int policy_doas_validate(const struct policy_shape *shape, struct errbuf *eb);

/*
 * Writes p's sudo side to path as "permit nopass <uid> as root
 * cmd <path>" rules, role by role, user by user, task by task, command by
 * command, mode 0644 (doas wants it root-owned and not writable by group
 * or others; readable lets the bench user run `doas -C`), owner root:root
 * when running as root. doas evaluates
 * every rule and the last match wins; the grant set is the same as the
 * sudoers file's. Refuses the machine's own /etc/doas.conf.
 * The file only joins txn (written, synced): path changes at
 * policy_txn_commit (policy_txn.h). Returns 0, or -1 with eb filled (the
 * caller then aborts txn and path stays untouched).
 */
int policy_stage_doas(struct policy_txn *txn, const struct policy *p, const char *path,
		      struct errbuf *eb) __attribute__((warn_unused_result));

#endif
