/* errbuf: the caller-owned error message every library function fills on failure. */
#ifndef RARPERF_ERRBUF_H
#define RARPERF_ERRBUF_H

#include <stddef.h>

#define ERRBUF_MSG_MAX 512

struct errbuf {
	char msg[ERRBUF_MSG_MAX];
};

/*
 * Formats a one-line message into eb (truncated to ERRBUF_MSG_MAX) and
 * returns -1, so callers can write `return errbuf_set(eb, "...")`.
 * eb may be NULL, in which case only -1 is returned.
 */
int errbuf_set(struct errbuf *eb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Like errbuf_set, with ": strerror(errnum)" appended.
 */
int errbuf_set_errno(struct errbuf *eb, int errnum, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Prepends "prefix: " to the message already in eb (for adding the file
 * or field name on the way up). Returns -1.
 */
int errbuf_prefix(struct errbuf *eb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
