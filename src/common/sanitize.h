/* sanitize: bytes from a host or a file made safe to print on a terminal or write as a TSV field.
 */
#ifndef RARPERF_SANITIZE_H
#define RARPERF_SANITIZE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Copies len bytes of src (need not be NUL-terminated) into dst (cap bytes,
 * NUL-terminated when cap > 0) so that no byte of it can drive a terminal or
 * split a TSV line: tab, newline and carriage return become \t, \n, \r;
 * every other C0 control (ESC included), DEL, every C1 control (U+0080 to
 * U+009F in UTF-8, or a raw 0x80-0x9f byte), the Unicode controls that
 * reorder or break a line (U+200E, U+200F, U+2028, U+2029, U+202A-U+202E,
 * U+2066-U+2069) and every byte that is not part of valid UTF-8 become \xHH,
 * one per byte; other text, valid UTF-8 included, is copied. Backslashes are
 * kept, so the result of a second pass is the same (idempotent). When dst is
 * too small the output stops before the escape or character that does not
 * fit, never inside one. Returns the length written (without the NUL).
 */
size_t sanitize_text(char *dst, size_t cap, const char *src, size_t len);

/*
 * The length (1-4) of the valid UTF-8 sequence at s[0..len) (shortest form,
 * no surrogate, at most U+10FFFF), with its code point in *cp; 0 when s does
 * not start one (len must be at least 1).
 */
size_t sanitize_utf8_char(const char *s, size_t len, uint32_t *cp);

/* sanitize_text of the NUL-terminated string src. */
size_t sanitize_str(char *dst, size_t cap, const char *src);

#endif
