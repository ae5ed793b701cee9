/* policy_txn: several policy files written whole to temporary siblings, then renamed together. */
#ifndef RARPERF_POLICY_TXN_H
#define RARPERF_POLICY_TXN_H

#include <stdbool.h>

#include "atomicfile.h"
#include "errbuf.h"

/*
 * A policy write transaction. Life cycle: policy_txn_new; each file is
 * opened, written and synced (policy_file_open ... policy_file_finish, which
 * hands its atomicfile to the transaction with policy_txn_add); then
 * policy_txn_commit renames every file into place, or policy_txn_abort
 * removes every temporary file. Until the commit no target changes, so a
 * failure while writing any file (ENOSPC on the second of three) leaves
 * every target as it was and no temporary file behind.
 */
struct policy_txn;

/* A new, empty transaction. NULL (eb filled) when out of memory. */
struct policy_txn *policy_txn_new(struct errbuf *eb);

/*
 * Lets the files of txn replace existing files that confgen did not write
 * (confgen --force). Without it, policy_file_open refuses such a target
 * (policy_file.h).
 */
void policy_txn_overwrite_foreign(struct policy_txn *txn);

/* Whether policy_txn_overwrite_foreign was called on txn. */
bool policy_txn_may_overwrite_foreign(const struct policy_txn *txn);

/*
 * Adopts af, a synced atomicfile (atomicfile_sync) whose target is shown
 * as path in messages: it is renamed at the commit or removed at the
 * abort. On failure (out of memory) af is aborted at once. Returns 0 or -1.
 */
int policy_txn_add(struct policy_txn *txn, struct atomicfile *af, const char *path,
		   struct errbuf *eb) __attribute__((warn_unused_result));

/*
 * A step of the commit that is not one file's rename (policy_split: a
 * directory of files swapped into place). commit runs at its place among the
 * renames (the order of adding) and returns 0 or -1 with eb filled; abort
 * undoes what was prepared when the transaction is aborted or a step before
 * it failed. Each is called at most once, and free(ctx) follows either.
 */
struct policy_txn_step {
	int (*commit)(void *ctx, struct errbuf *eb);
	void (*abort)(void *ctx);
	void *ctx; /* malloc'd; the transaction frees it */
};

/*
 * Adopts step (and its ctx), shown as path in messages. On failure (out of
 * memory) step->abort runs at once and ctx is freed. Returns 0 or -1.
 */
int policy_txn_add_step(struct policy_txn *txn, const struct policy_txn_step *step,
			const char *path, struct errbuf *eb) __attribute__((warn_unused_result));

/*
 * Renames every adopted file into place (and runs every step), in the order they were added, and
 * frees txn. First clears FS_IMMUTABLE_FL/FS_APPEND_FL on every existing
 * target (they would make the rename fail; RootAsRole's installer sets
 * them), so a target that cannot be cleared (that needs
 * CAP_LINUX_IMMUTABLE, or it has other hard links, whose flags are not
 * ours to clear) fails the whole transaction before any rename. A
 * rename itself failing (an I/O error on the directory) leaves the files
 * renamed before it in place and removes the others' temporary files.
 * Returns 0 or -1 with eb filled.
 */
int policy_txn_commit(struct policy_txn *txn, struct errbuf *eb)
    __attribute__((warn_unused_result));

/* Removes every adopted temporary file and frees txn; no target changes. NULL is a no-op. */
void policy_txn_abort(struct policy_txn *txn);

#endif
