/* policy_doas: writes a policy as an OpenDoas doas.conf (one permit rule per user and command). */
#ifndef RARPERF_POLICY_DOAS_H
#define RARPERF_POLICY_DOAS_H

#include "policy.h"
#include "policy_txn.h"

/* doas has no aliases: the file holds roles*users*tasks*commands rules, capped here. */
#define POLICY_DOAS_RULES_MAX 100000000ull

/*
 * Checks that shape expands to at most POLICY_DOAS_RULES_MAX rules. Returns 0,
 * or -1 with eb naming the counts.
 */
int policy_doas_validate(const struct policy_shape *shape, struct errbuf *eb);

/*
 * Writes p's sudo side to path atomically as "permit nopass <uid> as root
 * cmd <path>" rules, role by role, user by user, task by task, command by
 * command, mode 0644 (doas wants it root-owned and not writable by group
 * or others; readable lets the bench user run `doas -C`), owner root:root
 * when running as root. doas evaluates
 * every rule and the last match wins; the grant set is the same as the
 * sudoers file's. Refuses the machine's own /etc/doas.conf.
 * Returns 0, or -1 with eb filled and path untouched.
 */
int policy_write_doas(const struct policy *p, const char *path, struct errbuf *eb);

/* As policy_write_doas, the file joining txn (see policy_stage_sudoers). 0 or -1. */
int policy_stage_doas(struct policy_txn *txn, const struct policy *p, const char *path,
		      struct errbuf *eb) __attribute__((warn_unused_result));

#endif
