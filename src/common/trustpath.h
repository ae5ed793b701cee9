/* trustpath: whether a file a root process reads or runs can have been written by root alone. */
#ifndef RARPERF_TRUSTPATH_H
#define RARPERF_TRUSTPATH_H

#include <stdbool.h>
#include <sys/types.h>

#include "errbuf.h"

/* Symbolic links followed in one check before it gives up (the kernel's own limit). */
#define TRUSTPATH_LINKS_MAX 40
/* Entries of a directory checked by trustpath_check_dir before it gives up. */
#define TRUSTPATH_DIR_ENTRIES_MAX 256

/*
 * The rule (doc/security.md): a file is trusted when it and every directory
 * on its way from / are owned by root (uid 0) and writable by neither their
 * group nor others. Symbolic links are followed one component at a time and
 * the path they lead to is checked the same way (a link's own mode means
 * nothing; the directory holding it is checked). A sticky directory (/tmp)
 * counts as writable by others: anyone may create a name in it. POSIX ACLs
 * that let a named user or group write show in the group bits (the mask),
 * so they count as writable by the group. A file inside the prefix gets no
 * exception: the prefix, and every directory above it, passes the same rule.
 *
 * Returns 0 when path (absolute, or relative to the working directory) is
 * trusted, with its resolved path in resolved (PATH_MAX bytes) when resolved
 * is not NULL; -1 otherwise, eb saying why in words that name the deepest
 * component at fault (the user's directory under /tmp rather than /tmp):
 * "/tmp is writable by others (mode 1777)", "/tmp/p is owned by uid 1000",
 * "/srv/x is writable by group 27 (mode 0775)", "/x/y: No such file ...".
 */
int trustpath_check(const char *path, char *resolved, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * Whether path, followed as trustpath_check follows it, passes through a
 * proc file system (/proc/self/cwd, /dev/fd/N, /dev/stdin): a name that
 * means another file to each process, so no check made by one process
 * holds for the process that opens it. A manifest may name no program,
 * PAM directory or policy so, whatever its unsafe_* keys say.
 */
bool trustpath_is_per_process(const char *path);

/*
 * Makes dir (mkdir -p, 0755 under the umask) for a root process to write
 * its files in, or takes the one there, only when nobody but root can
 * change what it holds (issue 45 finding 4): every existing directory on
 * its way is checked as trustpath_check does, except that a sticky
 * directory owned by root (/tmp) passes when what the path names in it is
 * root's (a name in a sticky directory is its owner's alone). The deepest
 * existing part is checked before anything is made, the whole path again
 * after (a name raced into /tmp meanwhile is refused), and dir itself must
 * not be open to others, sticky or not. 0, or -1 with eb as trustpath_check's
 * ("/tmp/u is owned by uid 1000 (mode 0755)").
 */
int trustpath_make_dir(const char *dir, struct errbuf *eb) __attribute__((warn_unused_result));

/*
 * trustpath_make_dir's first check alone: the deepest existing part of dir
 * (dir itself when it exists) judged as there, nothing made. For refusing a
 * directory before any work, when making it must wait (rarbench makes --out
 * only once it holds the prefix's lock). 0 or -1 with eb.
 */
int trustpath_check_out_dir(const char *dir, struct errbuf *eb) __attribute__((warn_unused_result));

/*
 * trustpath_check of dir (which must be a directory), then of every entry
 * in it but "." and "..", hidden ones included (a file a tool is shown is
 * any of them): a directory whose contents are all root's. At most
 * TRUSTPATH_DIR_ENTRIES_MAX entries (more is an error). 0 or -1 with eb
 * as trustpath_check's.
 */
int trustpath_check_dir(const char *dir, struct errbuf *eb) __attribute__((warn_unused_result));

/*
 * Whether running the file at path (symbolic links followed) gains a
 * privilege: set-user-ID, set-group-ID, or file capabilities (the
 * security.capability attribute, as ping's). false when it cannot be stat'ed.
 */
bool trustpath_is_privileged(const char *path);

#endif
