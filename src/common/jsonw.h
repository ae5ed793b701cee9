/*
 * jsonw: rarperf's one JSON writer, laid out like serde_json's pretty printer
 * (2-space indent, one element per line): confgen's RootAsRole policies and
 * hyperfine's export alike. It writes to a stream or into a growbuf, whose cap
 * bounds the text (STYLE 9).
 */
#ifndef RARPERF_JSONW_H
#define RARPERF_JSONW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "errbuf.h"
#include "growbuf.h"

#define JSONW_DEPTH_MAX 32

/*
 * A writer over a caller-owned stream or buffer. Values are written in
 * document order; inside an object each value is preceded by jsonw_key.
 * Strings are escaped by cJSON's printer unless they hold only printable
 * ASCII without '"' or '\\'. Errors (a write error, the buffer's cap,
 * nesting past JSONW_DEPTH_MAX, out of memory) are sticky: check jsonw_finish
 * once at the end.
 */
struct jsonw {
	FILE *out;           /* the stream written to, or NULL when buf is */
	struct growbuf *buf; /* the buffer written to, or NULL when out is */
	int depth;
	bool failed;
	struct errbuf err;               /* why it failed, once failed */
	bool has_items[JSONW_DEPTH_MAX]; /* per open container: something written already */
	bool after_key;                  /* a key was written, its value is next */
};

/* Starts a document on out. */
void jsonw_init(struct jsonw *w, FILE *out);

/* Starts a document appended to buf (the caller's, with its cap). */
void jsonw_init_buf(struct jsonw *w, struct growbuf *buf);

/* Object member name; the next call writes its value. */
void jsonw_key(struct jsonw *w, const char *key);
void jsonw_object_begin(struct jsonw *w);
void jsonw_object_end(struct jsonw *w);
void jsonw_array_begin(struct jsonw *w);
void jsonw_array_end(struct jsonw *w);
/* A string value of len bytes (not NUL-terminated necessarily). */
void jsonw_string_len(struct jsonw *w, const char *s, size_t len);
void jsonw_string(struct jsonw *w, const char *s);
void jsonw_uint(struct jsonw *w, uint64_t v);
void jsonw_bool(struct jsonw *w, bool v);

/*
 * Writes the value item (a whole cJSON tree, not its siblings) in the same
 * layout: each leaf as cJSON prints it, keys in the tree's order, empty
 * containers as {} and []. The tree is only read.
 */
void jsonw_cjson(struct jsonw *w, const cJSON *item);

/*
 * The bytes jsonw_string_len(w, s, len) writes for the string itself, quotes
 * included (not the separator or indentation before it): len + 2 when s
 * needs no escape, else what cJSON prints (2 bytes for '"', '\\' and
 * \b \f \n \r \t, 6 for another byte below 0x20, 1 for any other). s stops at
 * its first NUL, as the writer's copy does. Pure; never fails.
 */
size_t jsonw_quoted_len(const char *s, size_t len);

/*
 * Returns 0 when every write so far succeeded and every container is closed,
 * -1 otherwise (jsonw_error says why).
 */
int jsonw_finish(struct jsonw *w);

/* Why the writer failed ("larger than N bytes", "nested too deep", ...); "" when it did not. */
const char *jsonw_error(const struct jsonw *w);

#endif
