/* jsonspan: strict JSON (RFC 8259, UTF-8) checked where it lies — walks and compact copies, no
 * tree.
 */
#ifndef RARPERF_JSONSPAN_H
#define RARPERF_JSONSPAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "errbuf.h"

#define JSONSPAN_DEPTH_MAX 64 /* deeper nesting is an error */

/*
 * The bytes of one JSON value inside a larger text, without surrounding
 * whitespace. A span never owns its bytes: the text must outlive it.
 */
struct jsonspan {
	const char *p;
	size_t len;
};

/* A walk over the members of an object or the elements of an array (jsonspan_walk). */
struct jsonspan_iter {
	struct jsonspan c; /* the container, brackets included */
	size_t pos;        /* the next byte of c to read */
	int depth;         /* nesting of c's members */
	bool object, first, done;
};

/* text[0..len) without the JSON whitespace (space, tab, CR, LF) around it. */
struct jsonspan jsonspan_trim(const char *text, size_t len);

/*
 * Starts a walk over c, which must begin with '{' or '[' (-1 with eb filled
 * otherwise). depth is c's own nesting (0 for a whole document); members
 * may nest JSONSPAN_DEPTH_MAX - depth - 1 levels further.
 */
int jsonspan_walk(struct jsonspan_iter *it, struct jsonspan c, int depth, struct errbuf *eb);

/* What one step of a walk read (jsonspan_next). */
enum jsonspan_step {
	JSONSPAN_BAD = -1,  /* not valid JSON: eb says where */
	JSONSPAN_END = 0,   /* the closing bracket, the container's last byte: the walk is over */
	JSONSPAN_MEMBER = 1 /* a member (or an element) in *key and *val */
};

/*
 * The next member, checked as it is read: for an object, *key is the key
 * (a string, quotes included) and *val its value; for an array, key->p is
 * NULL. Returns JSONSPAN_MEMBER, JSONSPAN_END once the closing bracket was
 * read and was the last byte of the container (again on every later call),
 * or JSONSPAN_BAD with eb filled ("byte N: ...", N counted from the
 * container's first byte) when the container is not valid JSON.
 */
enum jsonspan_step jsonspan_next(struct jsonspan_iter *it, struct jsonspan *key,
				 struct jsonspan *val, struct errbuf *eb);

/*
 * Checks that text[0..len) is exactly one valid JSON value (whitespace
 * around allowed) and fills *v. Returns 0 or -1 with eb filled.
 */
int jsonspan_check(const char *text, size_t len, struct jsonspan *v, struct errbuf *eb);

/* True when the checked string s (quotes included) decodes to exactly word. */
bool jsonspan_string_is(struct jsonspan s, const char *word);

/* Writes the checked value v to f without insignificant whitespace. Returns 0, or -1 when f failed.
 */
int jsonspan_write_compact(FILE *f, struct jsonspan v);

#endif
