/*
 * growbuf: the one way rarperf grows memory. A byte buffer that doubles up to a
 * cap its owner chooses (STYLE 9: nothing outside grows without one), always
 * NUL-terminated so that text can be read in place; and growarray for arrays
 * of any element type, with the same doubling, cap and overflow checks.
 */
#ifndef RARPERF_GROWBUF_H
#define RARPERF_GROWBUF_H

#include <stdarg.h>
#include <stddef.h>

#include "errbuf.h"

struct growbuf {
	char *data; /* NULL until the first byte; then len bytes and a NUL */
	size_t len;
	size_t cap; /* bytes allocated, the NUL's included */
	size_t max; /* most bytes it may hold, the NUL not counted */
};

/* An empty buffer that will refuse to hold more than max bytes. */
void growbuf_init(struct growbuf *b, size_t max);

/*
 * Makes room for extra more bytes (and the NUL) without changing len. Fails,
 * with "larger than MAX bytes" or "out of memory", past the cap.
 */
int growbuf_reserve(struct growbuf *b, size_t extra, struct errbuf *eb)
    __attribute__((warn_unused_result));

int growbuf_append(struct growbuf *b, const void *bytes, size_t n, struct errbuf *eb)
    __attribute__((warn_unused_result));
int growbuf_puts(struct growbuf *b, const char *s, struct errbuf *eb)
    __attribute__((warn_unused_result));
int growbuf_printf(struct growbuf *b, struct errbuf *eb, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), warn_unused_result));
int growbuf_vprintf(struct growbuf *b, struct errbuf *eb, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0), warn_unused_result));

/* Hands the bytes (NUL-terminated, never NULL: "" when empty) to the caller; b is empty again. */
char *growbuf_release(struct growbuf *b, size_t *len);

void growbuf_free(struct growbuf *b);

/*
 * Makes *array (of *cap elements of elem bytes each) hold at least need
 * elements, doubling from 8, never past max elements. The new elements are
 * uninitialised. On failure *array and *cap are unchanged.
 */
int growarray(void *array, size_t *cap, size_t need, size_t elem, size_t max, struct errbuf *eb)
    __attribute__((warn_unused_result));

#endif
