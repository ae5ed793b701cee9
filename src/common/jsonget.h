/*
 * jsonget: the checked reader rarperf's JSON parsers share (manifest, journal,
 * events, results), over a cJSON tree they parsed. Each getter is told where the value sits (the
 * JSON path of the object, "$.subjects[2]", and the key) and its bounds, and on failure fills the
 * caller's errbuf with ONE wording, "PATH: message": missing (an integer is required)       a
 * required key is absent expected an integer, got a string      wrong type (a string, a number,
 * ...) expected an integer, got 1.5           a number that is not whole 7 is out of range (1 to 5)
 * integers in %.0f, other numbers in %g (inf, cJSON's 1e999, is out of any range) must not be empty
 * / longer than N bytes An absent optional key leaves *out alone (the caller's default).
 */
#ifndef RARPERF_JSONGET_H
#define RARPERF_JSONGET_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"

#define JSONGET_PATH_MAX_CHARS 128 /* a JSON path in a message ("$.subjects[2].args[0]") */

/* The largest integer a double holds exactly (2^53; above it they lose precision): the top of any
 * count read from JSON. */
#define JSONGET_INT_MAX 9007199254740992.0

enum jsonget_need { JSONGET_OPTIONAL, JSONGET_REQUIRED };

/* "a string", "a number", "a boolean", "null", "an array", "an object" (or "invalid"). */
const char *jsonget_type_name(const cJSON *j);

/*
 * Writes "PARENT.KEY" (jsonget_child) or "PARENT[I]" (jsonget_index) into out,
 * which holds JSONGET_PATH_MAX_CHARS. An empty parent gives "KEY". A longer
 * path is cut: it only names the place in a message.
 */
void jsonget_child(char *out, const char *parent, const char *key);
void jsonget_index(char *out, const char *parent, size_t i);

/*
 * The member key of obj (keys compared exactly, the first of duplicates), or
 * NULL when obj is NULL or has no such member: every reader's one way to look
 * a key up; the checked getters below read the value found.
 */
cJSON *jsonget_member(const cJSON *obj, const char *key);

/* Fills eb with "PATH: message" and returns -1: the one wording's line. */
int jsonget_fail(struct errbuf *eb, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The value j (found at path) as a whole number in [lo, hi]. 0, or -1 with eb filled. */
int jsonget_as_uint(const cJSON *j, const char *path, double lo, double hi, uint64_t *out,
		    struct errbuf *eb) __attribute__((warn_unused_result));

/* The value j (at path) as a finite number in [lo, hi]. 0, or -1 with eb filled. */
int jsonget_as_double(const cJSON *j, const char *path, double lo, double hi, double *out,
		      struct errbuf *eb) __attribute__((warn_unused_result));

/*
 * The value j (at path) as a non-empty string of at most max bytes; *out
 * points into the cJSON tree (valid while the tree lives). 0, or -1.
 */
int jsonget_as_string(const cJSON *j, const char *path, size_t max, const char **out,
		      struct errbuf *eb) __attribute__((warn_unused_result));

/*
 * As the jsonget_as_* above, for the member key of obj (obj's own path is
 * path). Absent: -1 with "missing (... is required)" when need is
 * JSONGET_REQUIRED, else 0 with *out unchanged.
 */
int jsonget_uint(const cJSON *obj, const char *path, const char *key, enum jsonget_need need,
		 double lo, double hi, uint64_t *out, struct errbuf *eb)
    __attribute__((warn_unused_result));
int jsonget_u32(const cJSON *obj, const char *path, const char *key, enum jsonget_need need,
		uint32_t *out, struct errbuf *eb) __attribute__((warn_unused_result));
int jsonget_double(const cJSON *obj, const char *path, const char *key, enum jsonget_need need,
		   double lo, double hi, double *out, struct errbuf *eb)
    __attribute__((warn_unused_result));
int jsonget_string(const cJSON *obj, const char *path, const char *key, enum jsonget_need need,
		   size_t max, const char **out, struct errbuf *eb)
    __attribute__((warn_unused_result));

#endif
