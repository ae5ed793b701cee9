/* template: expands "{name}" placeholders, left to right, without re-expanding what it inserted. */
#ifndef RARPERF_TEMPLATE_H
#define RARPERF_TEMPLATE_H

#include <stddef.h>

#include "errbuf.h"

/* The longest expansion (STYLE 9): far beyond a command line, short of a runaway. */
#define TEMPLATE_MAX_BYTES (64u * 1024 * 1024)

/* One placeholder: "{name}" stands for value. */
struct template_var {
	const char *name;
	const char *value;
};

/*
 * Returns a new string (caller frees): tmpl with each "{name}" of vars[0..n)
 * replaced by its value, vars tried in their order at each position. A '{'
 * that opens no known name is copied as it is, unless unknown is not NULL:
 * then it stops the expansion, *unknown points at it, and the result is
 * NULL with eb "unknown placeholder". NULL with eb "out of memory ..." or
 * "larger than TEMPLATE_MAX_BYTES bytes" otherwise.
 */
char *template_expand(const char *tmpl, const struct template_var *vars, size_t n,
		      const char **unknown, struct errbuf *eb);

#endif
