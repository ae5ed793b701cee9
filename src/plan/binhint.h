/* binhint: what to say about a subject's program missing from the prefix: its nearest name there.
 */
#ifndef RARPERF_BINHINT_H
#define RARPERF_BINHINT_H

#include <stddef.h>

/*
 * When program is DIR/NAME and DIR holds executables, writes into buf (len bytes, always
 * NUL-terminated) "did you mean DIR/NEAR? " when one name in DIR is a typo away from NAME
 * (suggest.h), else "DIR has A, B, ...; " (the first names in byte order, "..." after them).
 * Writes "" when DIR cannot be read or holds nothing executable: the caller's own advice
 * (make provision) stands alone then. Reads DIR only; never fails.
 */
void binhint_for(const char *program, char *buf, size_t len);

#endif
