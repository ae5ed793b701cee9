/* atomicfile: write a file through a temporary sibling, fsync, and rename it into place. */
#ifndef RARPERF_ATOMICFILE_H
#define RARPERF_ATOMICFILE_H

#include <stdio.h>
#include <sys/types.h>

#include "errbuf.h"

struct atomicfile;

/*
 * Opens path's directory once and creates "<dir>/.<base>.XXXXXX" in it
 * (atomicfile_openat); returns a handle whose stream is written with
 * atomicfile_stream(). mode is applied with fchmod (not subject to umask).
 * Nothing at path changes until atomicfile_commit. Returns NULL and fills
 * eb on failure.
 */
struct atomicfile *atomicfile_open(const char *path, mode_t mode, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * As atomicfile_open, for a file that must be a regular one: a target that
 * exists as anything else (a FIFO, a device, a symbolic link, a directory)
 * is refused ("PATH: not a regular file (a FIFO): remove it") instead of
 * written in place, so that a FIFO another user left there cannot block the
 * writer (issue 45 finding 4: rarbench's output files). Returns NULL and
 * fills eb on failure.
 */
struct atomicfile *atomicfile_open_regular(const char *path, mode_t mode, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * As atomicfile_open for the entry name (one path component) of the
 * directory dirfd, which the handle duplicates (close-on-exec): the
 * temporary file, the rename and the directory fsync all go through that
 * descriptor, so a path that is re-pointed meanwhile (a swapped symbolic
 * link) cannot redirect the write. The temporary file is created with
 * O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC. shown names the file in messages.
 * The caller keeps dirfd. Returns NULL and fills eb on failure.
 */
struct atomicfile *atomicfile_openat(int dirfd, const char *name, const char *shown, mode_t mode,
				     struct errbuf *eb) __attribute__((warn_unused_result));

/*
 * As atomicfile_openat, and the temporary file gets the extended attribute
 * xattr (value "1") while it is still 0600 (a non-root writer of a 0400 file
 * could not add it later). A file system without extended attributes
 * (ENOTSUP) is not an error: the file is written without it.
 */
struct atomicfile *atomicfile_openat_marked(int dirfd, const char *name, const char *shown,
					    mode_t mode, const char *xattr, struct errbuf *eb)
    __attribute__((warn_unused_result));

/* The stdio stream of the temporary file; owned by the handle. NULL once synced. */
FILE *atomicfile_stream(struct atomicfile *af);

/* The directory descriptor (owned by af) and the target's name in it. */
int atomicfile_dirfd(const struct atomicfile *af);
const char *atomicfile_name(const struct atomicfile *af);

/*
 * Sets the owner the file will have (fchown before the rename). Only root
 * can give a file away; the call fails with a message otherwise.
 */
int atomicfile_set_owner(struct atomicfile *af, uid_t uid, gid_t gid, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * Flushes, checks for write errors, fsyncs and closes the temporary file;
 * af stays pending (the target untouched) until atomicfile_rename or
 * atomicfile_abort, which the caller still owes. Lets several files be
 * written whole before any is renamed. Returns 0 or -1.
 */
int atomicfile_sync(struct atomicfile *af, struct errbuf *eb) __attribute__((warn_unused_result));

/*
 * Renames the temporary file (synced first if it is not yet) over the
 * target and fsyncs the directory. Frees af whatever the outcome; on
 * failure the temporary file is removed and the target untouched. 0 or -1.
 */
int atomicfile_rename(struct atomicfile *af, struct errbuf *eb) __attribute__((warn_unused_result));

/*
 * atomicfile_sync then atomicfile_rename: flushes, fsyncs, renames the
 * temporary file over path and fsyncs the directory. Frees af whatever the
 * outcome; on failure the temporary file is removed and path is untouched.
 * Returns 0 or -1.
 */
int atomicfile_commit(struct atomicfile *af, struct errbuf *eb) __attribute__((warn_unused_result));

/* Removes the temporary file and frees af. NULL is a no-op. */
void atomicfile_abort(struct atomicfile *af);

/* Writes len bytes of data to path atomically with mode. Returns 0 or -1. */
int atomicfile_write(const char *path, const void *data, size_t len, mode_t mode, struct errbuf *eb)
    __attribute__((warn_unused_result));

/* A temporary file younger than this is never taken for a leftover (atomicfile_remove_stale). */
#define ATOMICFILE_STALE_MIN_AGE_S 60

/*
 * Removes from dir the temporary files a write killed midway left there
 * (SIGKILL, a crash, power lost between create and rename): regular files
 * named like this module's, ".NAME.XXXXXX" with six letters or digits,
 * owned by the caller's effective uid, last modified at least min_age_s
 * seconds ago, and open in no process (every /proc/PID/fd is looked at;
 * what cannot be looked at counts as open). Names are resolved through one
 * descriptor of dir, entries never followed. A missing dir is not an error.
 * *removed (may be NULL) counts them. 0, or -1 with eb filled.
 */
int atomicfile_remove_stale(const char *dir, unsigned min_age_s, size_t *removed, struct errbuf *eb)
    __attribute__((warn_unused_result));

#endif
