/* policy_polkit: writes a policy as polkit JavaScript rules for pkexec (one rule per task). */
#ifndef RARPERF_POLICY_POLKIT_H
#define RARPERF_POLICY_POLKIT_H

#include <stddef.h>
#include <stdint.h>

#include "policy.h"
#include "policy_txn.h"

/* The action pkexec asks polkitd about; every rule tests it first. */
#define POLICY_POLKIT_ACTION "org.freedesktop.policykit.exec"
/* polkitd reads only files named *.rules; the header is a JavaScript comment. */
#define POLICY_POLKIT_HEADER "// rarperf confgen:"

/*
 * polkit's rules name users (subject.user), not uids: the name of uid as
 * this host's passwd database gives it, or its decimal digits when it has
 * none (every filler uid, 2^31 and above, is never looked up). Writes it
 * NUL-terminated into buf (len >= 64 always suffices for a decimal; a longer
 * name is cut, which no rule then matches) and returns its length. The
 * writer and policy_size call this one function, so the predicted size is
 * the written one on the same host.
 */
size_t policy_polkit_user_name(uint32_t uid, char *buf, size_t len);

/*
 * Checks what polkit rules cannot say: --seed-compat (the seed had no
 * polkit), a command holding '"' or '\\' (a JavaScript string literal).
 * 0, or -1 with eb.
 */
int policy_polkit_validate(const struct policy_shape *shape, struct errbuf *eb);

/*
 * Writes p to path as polkit rules, mode 0644, root:root when root. Each
 * role's tasks, in order, is one polkit.addRule whose function returns
 * polkit.Result.YES when the action is POLICY_POLKIT_ACTION, subject.user
 * is one of the role's users and action.lookup("program") (the absolute
 * program pkexec was asked to run) is one of the task's commands; polkitd
 * calls the rules in order and the first answer wins, so the matching rule
 * sits where match puts it. A last rule answers polkit.Result.NO for any
 * other pkexec request, so nothing else is granted, not even after
 * authentication. Deny-all: the header and that last rule only.
 * The file joins txn as the other writers' do (policy_txn.h). 0 or -1.
 */
int policy_stage_polkit(struct policy_txn *txn, const struct policy *p, const char *path,
			struct errbuf *eb) __attribute__((warn_unused_result));

#endif
