/* prefixlock: one sweep at a time per prefix, and the record of what a sweep must undo. */
#ifndef RARPERF_PREFIXLOCK_H
#define RARPERF_PREFIXLOCK_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#include <cjson/cJSON.h>

#include "errbuf.h"

/*
 * Design. The prefix's policies (PREFIX/etc) are shared state with one
 * owner at a time (STYLE 20): whoever rewrites them holds an exclusive
 * flock(2) on PREFIX/run/lock for as long as it does. flock is released by
 * the kernel when its holder dies, so a lock is never stale; the holder's
 * description (PREFIX/run/holder: pid, start time, what it runs) is written
 * after the lock is taken and removed before it is released, so a holder
 * file found by the next owner names a process that died while holding it.
 *
 * Beside the lock, the owner keeps a record (PREFIX/run/state.json) of the
 * privileged state it makes — the policy files it manages, the private
 * mount namespaces' directories — written (and synced) before that state
 * exists and removed once it is undone. The next owner finds the record of
 * a crashed one and undoes what it lists (prefixlock_take_record) before
 * making its own.
 *
 * Whose record it is (issue 45 finding 8: a prefix copied with `cp -a`, its
 * run/ included, then bind-mounted over the original's path in a private
 * mount namespace, found the live original's record and killed its sweep).
 * The holder and the record name their owner: the prefix (its resolved path,
 * and the device and inode of its directory, which a copy does not keep even
 * where it is mounted at the same path), the boot (boot_id), the pid and the
 * pid's start time (/proc/PID/stat field 22). A record is acted on only when
 * it names this prefix, and its process, on this boot, is gone.
 *
 * Life cycle: prefixlock_acquire; prefixlock_take_record (the dead owner's
 * record, if any, and whose it is); prefixlock_save_record (as often as the
 * state grows); ... ; prefixlock_release (removes record and holder, then
 * unlocks).
 */
struct prefixlock;

/* What prefixlock_acquire came to: one value per outcome, none of them an exit status. */
enum prefixlock_outcome {
	PREFIXLOCK_TAKEN,  /* the lock is the caller's */
	PREFIXLOCK_FAILED, /* eb says why */
	PREFIXLOCK_BUSY    /* another live process holds it (eb names it) */
};

/*
 * Takes the lock of prefix (creating PREFIX/run, root-only, when missing;
 * an older PREFIX/run, its lock, holder and record are made root-only too,
 * and refused when another user owns them).
 * what describes the holder to whoever waits (a manifest path, "make
 * check"). With wait, blocks until the holder ends; the wait stops with -1
 * (PREFIXLOCK_FAILED, "interrupted") when a signal arrives while *stop is set (stop may be
 * NULL). Without wait, returns PREFIXLOCK_BUSY with eb naming the holder
 * ("/opt/rarperf is in use by pid 123 since ... (rarbench --manifest x)").
 * On success *out holds the lock, and *stale_holder (malloc'd, or NULL)
 * describes a holder that died holding it (none when the holder file names
 * another prefix: a copy's, whose holder may well be alive). PREFIXLOCK_TAKEN,
 * _BUSY or _FAILED.
 */
enum prefixlock_outcome prefixlock_acquire(const char *prefix, const char *what, bool wait,
					   const volatile sig_atomic_t *stop,
					   struct prefixlock **out, char **stale_holder,
					   struct errbuf *eb);

/* Whose a record left in PREFIX/run is, and so what its reader may do with it. */
enum prefixlock_record_owner {
	PREFIXLOCK_RECORD_NONE,     /* no record */
	PREFIXLOCK_RECORD_DEAD,     /* this prefix's, this boot's, its process gone: undo it all */
	PREFIXLOCK_RECORD_OLD_BOOT, /* this prefix's, an earlier boot's: its processes and cgroup
				       ended with that boot; its policies and directories remain */
	PREFIXLOCK_RECORD_FOREIGN,  /* another prefix's (copied with it), or one that names no
				       owner and whose pid lives: touch nothing it lists */
	PREFIXLOCK_RECORD_LIVE      /* this prefix's and its process alive: not ours to undo */
};

/*
 * Reads the record a dead owner left (NULL in *record when none), judges
 * whose it is (*owner), and hands it to the caller, who acts on it as
 * *owner says and then calls prefixlock_save_record or
 * prefixlock_clear_record. For FOREIGN and LIVE, why (why_size bytes) says
 * in one line whose record it is. A record without an owner (written by an
 * older rarbench) is DEAD when its "pid" is gone, FOREIGN when it lives.
 * 0, or -1 when the record cannot be read (a record that is not JSON is
 * returned as NULL with a warning in eb, -1).
 */
int prefixlock_take_record(struct prefixlock *lock, cJSON **record,
			   enum prefixlock_record_owner *owner, char *why, size_t why_size,
			   struct errbuf *eb);

/*
 * Writes record as PREFIX/run/state.json (temporary file, fsync, rename),
 * with its owner added ("owner": this prefix, boot, pid and start time).
 * Called before the state it lists exists. The caller keeps record. 0 or -1.
 */
int prefixlock_save_record(struct prefixlock *lock, const cJSON *record, struct errbuf *eb);

/* Removes the record: the state it listed is undone. 0 or -1. */
int prefixlock_clear_record(struct prefixlock *lock, struct errbuf *eb);

/*
 * Removes the holder file and releases the lock; the record stays when it
 * was not cleared (the next owner undoes it). NULL is a no-op.
 */
void prefixlock_release(struct prefixlock *lock);

#endif
