/* numarg: every command line's number parsers (counts, bounded numbers, seconds, percentages). */
#ifndef RARPERF_NUMARG_H
#define RARPERF_NUMARG_H

#include <stdint.h>

#include "errbuf.h"

/*
 * The parse_args contract shared by the programs' mains:
 *   int parse_args(int argc, char **argv, struct X *cfg, struct errbuf *eb)
 * sets cfg's defaults, parses argv and prints nothing. It returns 0 to go on;
 * NUMARG_HELP or NUMARG_VERSION when -h or -V came first (main prints the text
 * and exits 0); NUMARG_ERROR with eb holding the message (main prints
 * "prog: MSG" and exits 2); NUMARG_USAGE when main prints eb's message, if any
 * (getopt printed its own), then the usage text, and exits 2.
 */
#define NUMARG_HELP 1
#define NUMARG_VERSION 2
#define NUMARG_ERROR (-1)
#define NUMARG_USAGE (-2)

/* Why a value was refused: not a number at all, or a number outside the bounds. */
enum numarg_status {
	NUMARG_OK = 0,
	NUMARG_NOT_NUMBER = -1,
	NUMARG_OUT_OF_RANGE = -2,
};

/*
 * How a program words a refused value. Each program keeps the wording its
 * users, scripts and tests know; the parsing underneath is one.
 */
enum numarg_wording {
	NUMARG_WORDING_IS_NOT, /* OPT: 'ARG' is not WHAT                 (rarbench, rarlab) */
	NUMARG_WORDING_QUOTED, /* OPT: "ARG" is not WHAT, OPT: ARG is out of range (confgen) */
	NUMARG_WORDING_USE,    /* OPT ARG: WHAT                             (rarplot) */
};

/* The option a value belongs to, for the message: "--runs", "a non-negative integer". */
struct numarg_words {
	const char *opt;
	const char *what;
	enum numarg_wording wording;
};

/* Bounds of a double: [lo, hi], either end open when its flag says so. */
#define NUMARG_OPEN_LO 0x1u
#define NUMARG_OPEN_HI 0x2u
#define NUMARG_PERCENT_SIGN 0x4u /* a trailing '%' is allowed ("2%" as "2") */
struct numarg_bounds {
	double lo, hi;
	unsigned flags;
};

/*
 * A decimal unsigned integer: digits only (no sign, no blanks), in [min, max].
 * Returns NUMARG_OK with *out set, or why not (*out untouched).
 */
enum numarg_status numarg_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
    __attribute__((warn_unused_result));

/*
 * The readers of numbers inside files and tables, which keep the C library's
 * syntax (leading blanks, a sign, and for the integers a base: 0 takes "0x"
 * and a leading 0 as octal) and leave the rest of the text to the caller.
 * Each reads the number s starts with into *out and sets *end after it (to s
 * when there is none); errno is left as it was. They return NUMARG_OK,
 * NUMARG_NOT_NUMBER when nothing numeric starts s (*out is 0), or
 * NUMARG_OUT_OF_RANGE when it overflows (*out is clamped, as strtoll,
 * strtoull and strtod clamp; for a double also a result that underflows).
 * The double reader takes "nan" and "inf" as written: callers that need a
 * finite value say so. A caller may ignore the status when *end and the
 * value's bounds already say all it needs.
 */
enum numarg_status numarg_i64_prefix(const char *s, int base, int64_t *out, const char **end);
enum numarg_status numarg_u64_prefix(const char *s, int base, uint64_t *out, const char **end);
enum numarg_status numarg_any_double_prefix(const char *s, double *out, const char **end);

/* The number s starts with as numarg_any_double_prefix reads it, 0 when none: for a table's
 * columns this project wrote itself, where a field that is not a number reads as 0. */
double numarg_leading_double(const char *s);
uint64_t numarg_leading_u64(const char *s); /* likewise, base 10 */

/*
 * A finite decimal number (strtod's syntax: leading blanks skipped, as after a
 * list's comma) at the start of
 * s; *end is set after it. The list parsers build on it ("100,1000").
 * Returns NUMARG_OK, NUMARG_NOT_NUMBER (nothing numeric at s, or not finite)
 * or NUMARG_OUT_OF_RANGE (overflow, or outside b when b is not NULL).
 */
enum numarg_status numarg_double_prefix(const char *s, const struct numarg_bounds *b, double *out,
					const char **end) __attribute__((warn_unused_result));

/*
 * A whole string as a finite number within b (and its '%' when b allows it).
 * Returns NUMARG_OK with *out set, or why not.
 */
enum numarg_status numarg_double(const char *s, const struct numarg_bounds *b, double *out)
    __attribute__((warn_unused_result));

/*
 * Seconds, decimals allowed ("2.5"), above 0 and at most max_s, into
 * milliseconds rounded up (a timeout never shortens). Returns NUMARG_OK with
 * *out_ms set, or why not.
 */
enum numarg_status numarg_seconds_ms(const char *s, double max_s, long *out_ms)
    __attribute__((warn_unused_result));

/*
 * Sets eb to the message for arg refused with status st, worded as w says
 * (see enum numarg_wording). Returns -1.
 */
int numarg_error(struct errbuf *eb, const struct numarg_words *w, const char *arg,
		 enum numarg_status st);

/*
 * numarg_u64 with the message: 0 with *out set, or -1 with eb set (worded by w).
 */
int numarg_get_u64(const struct numarg_words *w, const char *arg, uint64_t min, uint64_t max,
		   uint64_t *out, struct errbuf *eb) __attribute__((warn_unused_result));

/*
 * numarg_double with the message: 0 with *out set, or -1 with eb set (worded by w).
 */
int numarg_get_double(const struct numarg_words *w, const char *arg, const struct numarg_bounds *b,
		      double *out, struct errbuf *eb) __attribute__((warn_unused_result));

#endif
