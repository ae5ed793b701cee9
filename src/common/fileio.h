/* fileio: whole-file reads with a hard cap, mkdir -p, and path formatting that refuses truncation.
 */
#ifndef RARPERF_FILEIO_H
#define RARPERF_FILEIO_H

#include <stdbool.h>
#include <stddef.h>

#include "errbuf.h"

/*
 * Reads the whole file at path (close-on-exec) into a new NUL-terminated
 * buffer: *text (caller frees) and *len (without the NUL). A file of more
 * than max_bytes is an error ("PATH: larger than N bytes"); so are a read
 * error and running out of memory. open_what words the message when path
 * cannot be opened: "PATH: OPEN_WHAT: strerror", or "PATH: strerror" when
 * NULL. Returns 0, or -1 with eb filled and *text NULL.
 */
int fileio_read(const char *path, size_t max_bytes, const char *open_what, char **text, size_t *len,
		struct errbuf *eb) __attribute__((warn_unused_result));

/*
 * As fileio_read, for a file that must be a regular one in a directory whose
 * other entries a reader does not control (an output directory): opened with
 * O_NOFOLLOW and O_NONBLOCK, so that neither a symbolic link nor a FIFO left
 * at path can redirect or block the reader; anything but a regular file is
 * refused ("PATH: not a regular file: remove it"). 0, or -1 with eb.
 */
int fileio_read_regular(const char *path, size_t max_bytes, const char *open_what, char **text,
			size_t *len, struct errbuf *eb) __attribute__((warn_unused_result));

/*
 * mkdir -p: creates path and each missing parent, mode 0755; an existing
 * directory is fine. Returns 0, or -1 with eb "DIR: cannot create: strerror"
 * (or "PATH: path too long" for an empty or over-long path).
 */
int fileio_mkdirs(const char *path, struct errbuf *eb) __attribute__((warn_unused_result));

/*
 * snprintf into buf of cap bytes: 0, or -1 when the result did not fit (buf
 * then cut). For paths, whose cut would name another file: the result must be
 * checked (tools/lint-paths.sh refuses a discarded one).
 */
int fileio_fmt(char *buf, size_t cap, const char *format, ...)
    __attribute__((format(printf, 3, 4), warn_unused_result));

/*
 * "DIR/NAME" into buf of cap bytes. Returns 0, or -1 with eb "DIR: path too
 * long" (buf then cut).
 */
int fileio_join(char *buf, size_t cap, const char *dir, const char *name, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * Whether name, read from a file someone else may have written (a results
 * file's subject), may become part of a file name: not empty, and no '/',
 * no "..", no control byte (below 0x20, or 0x7f). A program builds file
 * names only from names that pass (issue 45 finding 6: a subject
 * "../../../../var/tmp/x/pwn-1.0.0" made rarplot --history write outside -o).
 */
bool fileio_name_is_plain(const char *name);

#endif
