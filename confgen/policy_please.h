/* policy_please: writes a policy as please's please.ini (one section per task, regex rules). */
#ifndef RARPERF_POLICY_PLEASE_H
#define RARPERF_POLICY_PLEASE_H

#include <stddef.h>

#include "policy.h"
#include "policy_txn.h"

/*
 * Checks what only please needs of shape: the benchmark user's name
 * (shape->user) unless deny_all, and no seed_compat (the original generator
 * wrote no please.ini). Returns 0, or -1 with eb naming the option.
 */
int policy_please_validate(const struct policy_shape *shape, struct errbuf *eb);

/*
 * Writes s into buf as a regular expression that matches exactly s (please
 * compiles rules with Rust's regex crate): each of \.+*?()|[]{}^$ gets a
 * backslash. Escaping '{' also keeps please from expanding %{USER} or
 * %{HOSTNAME} inside a name. buf holds 2 * strlen(s) + 1 bytes at least.
 * Returns the length written (NUL not counted).
 */
size_t policy_please_escape(const char *s, char *buf, size_t len);

/* How many bytes policy_please_escape adds to s. */
size_t policy_please_escape_extra(const char *s);

/*
 * Writes p's sudo side to path as please.ini, one section per role and task
 * ("[R<r>T<t>]", as sudoers' Cmnd_Alias names): name, the role's users as
 * one anchored regular expression (the benchmark user by name, every filler
 * uid as "#<uid>", a name no account can have, as sudoers writes a uid);
 * target ^root$; rule, the task's commands as one anchored alternation;
 * require_pass = false (sudoers' NOPASSWD). Sections keep the writers'
 * order (role by role, task by task), so the match sits where shape->match
 * puts it; please reads every section and the last match wins (no "last"
 * key), as doas does. Mode 0644: please refuses a file group or others may
 * write; readable lets the bench user run `please -c`. Refuses the machine's
 * own /etc/please.ini. Deny-all: only the header (please denies what no
 * section permits). The file only joins txn (policy_txn.h). Returns 0, or -1
 * with eb filled (shape not policy_please_validate'd: the caller's bug,
 * still refused).
 */
int policy_stage_please(struct policy_txn *txn, const struct policy *p, const char *path,
			struct errbuf *eb) __attribute__((warn_unused_result));

#endif
