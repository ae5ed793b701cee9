/* mntns: a private mount namespace in which files show at paths fixed in a tool's source. */
#ifndef RARPERF_MNTNS_H
#define RARPERF_MNTNS_H

#include "errbuf.h"

/*
 * Some tools read their policy from a path compiled into them (sudo-rs:
 * /etc/sudoers-rs, else /etc/sudoers). To measure them on a generated policy
 * without writing the machine's own /etc, the runner builds a mount
 * namespace in which TARGET is a symbolic link to SOURCE, and only that
 * tool's runs join it (proc_opts.mntns_fd). Outside the namespace nothing
 * changes: no file is created or altered under TARGET's directory.
 *
 * How: as root, unshare(CLONE_NEWNS) with every mount private, then an
 * overlay on TARGET's directory whose upper layer (a fresh directory under
 * /tmp, root only) holds the link; the namespace is kept by a descriptor and
 * the caller's own namespace restored. The link (not a bind mount) follows
 * SOURCE across the atomic renames that rewrite it at every point. Lookups
 * in that directory go through overlayfs: selfbench/mntns.sh measures the cost
 * (C sudo, 2026-11-30: +64 us of 2.4 ms per run, +2.7 %, a constant: it moves
 * an intercept, not a slope).
 * The caller must be single-threaded (setns of a mount namespace).
 */
struct mntns;

/* One file of mntns_show_files_at: SOURCE shows at TARGET (both absolute). */
struct mntns_file {
	const char *target;
	const char *source;
};

/*
 * Builds the namespace in which each of the N files shows at its target (sudo-rs's policy at
 * /etc/sudoers-rs and PAM service files at /etc/pam.d/<service>). A target's directory must
 * exist and hold no ',' ':' or '\\' (overlay options). One overlay per run of consecutive
 * files that share a directory, in order (a directory's overlay after its parent's, so list
 * /etc's files before /etc/pam.d's). Every target's directory is checked before anything is
 * made. Returns the namespace (free with mntns_free), or NULL with eb filled (not root, no
 * overlayfs, ...).
 */
struct mntns *mntns_show_files_at(const struct mntns_file *files, size_t n, const char *dir,
				  struct errbuf *eb) __attribute__((warn_unused_result));

/*
 * Chooses the name of a namespace's directory (/tmp/rarbench-mntns-XXXXXX,
 * not existing now) into dir, without creating it: the caller records it
 * (PREFIX/run/state.json) before mntns_show_files_at makes it, so that a
 * crash in between leaves nothing unrecorded. 0 or -1.
 */
int mntns_reserve_dir(char *dir, size_t size, struct errbuf *eb);

/*
 * A namespace of its own for one run: a copy of base's (NULL: the caller's), every mount
 * private, in which the directory source shows at target (a bind mount, nosuid, nodev,
 * noexec). Outside it nothing changes; it ends with its last member once mntns_free closes
 * it. The counted pass (runner_counts.c) gives a tool that changes identity a directory its
 * every identity may write, reachable only from inside (source under a directory of root's
 * closed to others). Both paths absolute and existing directories. Returns the namespace
 * (mntns_dir ""), or NULL with eb filled. The caller must be single-threaded.
 */
struct mntns *mntns_bind_at(const struct mntns *base, const char *source, const char *target,
			    struct errbuf *eb) __attribute__((warn_unused_result));

/* The namespace's descriptor (O_CLOEXEC), for proc_opts.mntns_fd; owned by ns. */
int mntns_fd(const struct mntns *ns);

/* The directory under /tmp that holds the namespace's layers (owned by ns). */
const char *mntns_dir(const struct mntns *ns);

/*
 * Removes dir, the layers' directory of a namespace whose process died (its
 * namespace, and the overlay with it, ended then): only a path of the form
 * mntns_reserve_dir gives (/tmp/rarbench-mntns-XXXXXX), only a directory of
 * root's closed to others, walked through descriptors (openat with
 * O_NOFOLLOW, unlinkat): a symbolic link swapped in is removed as a link,
 * never followed. 0 (also when it is gone) or -1.
 */
int mntns_remove_leftover(const char *dir);

/* Closes the namespace (it ends with its last member) and removes the upper layer. NULL: no-op. */
void mntns_free(struct mntns *ns);

#endif
