/* jsonbudget: what a JSON text would cost as a cJSON tree, counted before one is built. */
#ifndef RARPERF_JSONBUDGET_H
#define RARPERF_JSONBUDGET_H

/*
 * cJSON makes one item per value: about 80 bytes with its allocator's header (glibc, x86-64),
 * whatever the value's text, so that "0," (2 bytes) costs 40 times its text: a 32 MiB
 * {"results":[0,0,...]} took rarplot to 1.35 GB (issue 52, finding 7). A reader of a file
 * from elsewhere (a results file, a journal, a lab host's reply, a manifest) first counts what
 * the tree would cost, in one pass that allocates nothing, and refuses a text whose tree would
 * pass JSONBUDGET_FACTOR times its size plus JSONBUDGET_FLOOR_BYTES, with one line naming the
 * file. The count is an upper bound: every string is counted as an item of its own and a
 * string's bytes as an allocation of their own (an object's keys are only the latter).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"

/* A cJSON item and its allocator's header; a string's allocation beyond its bytes. */
#define JSONBUDGET_ITEM_BYTES 80u
#define JSONBUDGET_STRING_BYTES 32u
/* What a reader may spend on a text of n bytes: JSONBUDGET_FACTOR * n + JSONBUDGET_FLOOR_BYTES,
 * the text itself included. */
#define JSONBUDGET_FACTOR 4u
#define JSONBUDGET_FLOOR_BYTES (32u * 1024 * 1024)
/* cJSON's own nesting limit (CJSON_NESTING_LIMIT): deeper is not JSON cJSON reads. */
#define JSONBUDGET_DEPTH_MAX 1000u

/* What jsonbudget_scan counted. */
struct jsonbudget {
	uint64_t cost;   /* the whole tree's bytes, at most */
	uint64_t values; /* the items counted (every value and every key) */
	/* The top-level object's first "results" member, when it is an array: */
	bool has_results;
	size_t results_open, results_close; /* offsets of its '[' and its ']' */
	size_t nresults;                    /* its elements */
	uint64_t results_cost;              /* all its elements' trees (part of cost) */
	uint64_t results_max_cost;          /* the dearest element's tree */
};

/*
 * Counts what cJSON would make of buf (len bytes) into *b, allocating nothing. Returns 0, or -1
 * when the text is not balanced JSON (brackets, strings) or nests deeper than
 * JSONBUDGET_DEPTH_MAX: b->cost then holds what was counted up to there, and the parser will
 * say why it is not JSON. Nothing else is validated.
 */
int jsonbudget_scan(const char *buf, size_t len, struct jsonbudget *b);

/* What a reader may spend on a text of len bytes (jsonbudget.h's rule), in bytes. */
uint64_t jsonbudget_allowed(size_t len);

/*
 * Whether a reader that holds the text of name (len bytes) and then spends need bytes more may
 * go on: 0, or -1 with eb "NAME: refused: reading it would take about N.N MiB, more than 4
 * times its N.N MiB and 32 MiB (V values in it; not a file rarperf writes)".
 */
int jsonbudget_refuse_over(const char *name, size_t len, uint64_t need, uint64_t values,
			   struct errbuf *eb) __attribute__((warn_unused_result));

/*
 * The check before parsing buf (len bytes, the text of name) whole with cJSON: the text and
 * its tree within jsonbudget_allowed(len). 0, or -1 with eb (jsonbudget_refuse_over).
 */
int jsonbudget_check(const char *buf, size_t len, const char *name, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * The end (offset one past it) of the JSON value that starts at buf[start], for a text
 * jsonbudget_scan accepted: after the closing quote of a string, the matching bracket of an
 * object or array, the last character of a number or literal.
 */
size_t jsonbudget_value_end(const char *buf, size_t len, size_t start);

#endif
