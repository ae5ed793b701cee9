/* atomicfile: write a file through a temporary sibling, fsync, and rename it into place. */
#ifndef RARPERF_ATOMICFILE_H
#define RARPERF_ATOMICFILE_H

#include <stdio.h>
#include <sys/types.h>

#include "errbuf.h"

struct atomicfile;

/*
 * Creates "<dir>/.<base>.XXXXXX" beside path and returns a handle whose
 * stream is written with atomicfile_stream(). mode is applied with fchmod
 * (not subject to umask). Nothing at path changes until atomicfile_commit.
 * Returns NULL and fills eb on failure.
 */
struct atomicfile *atomicfile_open(const char *path, mode_t mode, struct errbuf *eb);

/* The stdio stream of the temporary file; owned by the handle. */
FILE *atomicfile_stream(struct atomicfile *af);

/*
 * Sets the owner the file will have (fchown before the rename). Only root
 * can give a file away; the call fails with a message otherwise.
 */
int atomicfile_set_owner(struct atomicfile *af, uid_t uid, gid_t gid, struct errbuf *eb);

/*
 * Flushes, fsyncs, renames the temporary file over path and fsyncs the
 * directory. Frees af whatever the outcome; on failure the temporary file
 * is removed and path is untouched. Returns 0 or -1.
 */
int atomicfile_commit(struct atomicfile *af, struct errbuf *eb);

/* Removes the temporary file and frees af. NULL is a no-op. */
void atomicfile_abort(struct atomicfile *af);

/* Writes len bytes of data to path atomically with mode. Returns 0 or -1. */
int atomicfile_write(const char *path, const void *data, size_t len, mode_t mode,
		     struct errbuf *eb);

#endif
