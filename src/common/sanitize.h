/* sanitize: the one filter for bytes from a host or a file on their way to a terminal, a TSV
 * field or a Markdown report. */
#ifndef RARPERF_SANITIZE_H
#define RARPERF_SANITIZE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * What is unsafe is decided once, here, for every mode: the C0 controls
 * (ESC included) and DEL; the C1 controls, as UTF-8 (U+0080 to U+009F) or as
 * a raw byte 0x80-0x9f (the 8-bit CSI 0x9b among them); the Unicode
 * controls that reorder or break a line (the bidi marks, embeddings,
 * overrides and isolates U+061C, U+200E, U+200F, U+202A-U+202E,
 * U+2066-U+2069, and the separators U+2028, U+2029); and every byte that is
 * not part of valid UTF-8 (shortest form, no surrogate, at most U+10FFFF).
 * Tab, newline and carriage return become \t, \n, \r; every other unsafe
 * character becomes \xHH, one per byte. Other text, valid UTF-8 included,
 * is kept.
 *
 * SANITIZE_TEXT is for a terminal, a TSV field, a one-line message or a
 * JSON string: the rule above and nothing else. Backslashes are kept, so a
 * second pass changes nothing (idempotent).
 *
 * SANITIZE_MARKDOWN is for inline text of a Markdown report (a paragraph, a
 * list item, a table cell), which is also shown on a terminal: the rule
 * above, then every ASCII character that Markdown or HTML reads as markup,
 * \ ` * _ [ ] < > & | ~, gets a backslash before it (CommonMark renders an
 * escaped punctuation character as itself), except '_' between two ASCII
 * letters or digits, which cannot open or close emphasis ("nb_tasks" stays).
 * So "<img src=x onerror=alert(1)>" renders as text, a '|' cannot end a table
 * cell nor a newline its row, '[' cannot start a link. The escapes of the
 * rule above ("\x1b") render as written: a backslash before a letter is
 * literal. Not for inside a code span (backslashes are literal there) nor
 * for the start of a line ('#', '-', "1." there are the caller's to write).
 * Not idempotent (a second pass escapes the backslashes of the first).
 */
enum sanitize_mode { SANITIZE_TEXT, SANITIZE_MARKDOWN };

/*
 * Copies len bytes of src (need not be NUL-terminated) into dst (cap bytes,
 * NUL-terminated when cap > 0), made safe for mode. When dst is too small
 * the output stops before the escape or character that does not fit, never
 * inside one. Returns the length written (without the NUL).
 */
size_t sanitize_escape(char *dst, size_t cap, const char *src, size_t len, enum sanitize_mode mode);

/* sanitize_escape in SANITIZE_TEXT mode (terminal, TSV). */
size_t sanitize_text(char *dst, size_t cap, const char *src, size_t len);

/* sanitize_text of the NUL-terminated string src. */
size_t sanitize_str(char *dst, size_t cap, const char *src);

/* sanitize_escape in SANITIZE_MARKDOWN mode of the NUL-terminated string src. */
size_t sanitize_markdown(char *dst, size_t cap, const char *src);

/*
 * Writes the NUL-terminated string s to f made safe for mode, whole (no
 * length cap: for report writers). Returns 0, or EOF on a write error.
 */
int sanitize_fputs(const char *s, enum sanitize_mode mode, FILE *f);

/*
 * Writes len bytes of text to f for a terminal: each line made safe as by
 * SANITIZE_TEXT, the newlines between them kept (a plan, a list of
 * problems). Returns 0, or EOF on a write error.
 */
int sanitize_write_lines(const char *s, size_t len, FILE *f);

/*
 * fprintf through sanitize_write_lines: what a manifest, facts.json or a
 * host put in the arguments (ESC, a bidi override) reaches the terminal
 * escaped; the format's own newlines are kept. Any length. 0 or EOF.
 */
int sanitize_fprintf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * The offset of the first byte of s[0..len) that SANITIZE_TEXT would
 * escape (a control, a bidi control, a byte outside valid UTF-8), or len
 * when there is none: for readers that refuse such text instead of
 * escaping it.
 */
size_t sanitize_unsafe_at(const char *s, size_t len);

/*
 * The length (1-4) of the valid UTF-8 sequence at s[0..len) (shortest form,
 * no surrogate, at most U+10FFFF), with its code point in *cp; 0 when s does
 * not start one (len must be at least 1).
 */
size_t sanitize_utf8_char(const char *s, size_t len, uint32_t *cp);

#endif
