/* jsonw: the one JSON writer, serde_json's pretty layout, to a stream or a capped buffer. */
#include "jsonw.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* One item's bytes at most (struct jsonw_piece): the deepest lead and a 180-byte key. */
#define JSONW_PIECE_MAX 256

void jsonw_init(struct jsonw *w, FILE *out)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
}

void jsonw_init_buf(struct jsonw *w, struct growbuf *buf)
{
	memset(w, 0, sizeof(*w));
	w->buf = buf;
}

/* Marks w failed (the first reason is kept). */
static void jsonw_fail(struct jsonw *w, const char *why)
{
	if (!w->failed)
		errbuf_set(&w->err, "%s", why);
	w->failed = true;
}

static void jsonw_put(struct jsonw *w, const char *s, size_t len)
{
	struct errbuf eb;

	if (len == 0 || w->failed)
		return;
	if (w->buf != NULL) {
		if (growbuf_append(w->buf, s, len, &eb) < 0)
			jsonw_fail(w, eb.msg);
	} else if (fwrite_unlocked(s, 1, len, w->out) != len) {
		jsonw_fail(w, "write error");
	}
}

/*
 * The bytes of one item assembled on the stack (separator, indentation, a
 * short key or value, its tail) and written with one jsonw_put: a 10 000-task
 * RootAsRole JSON is 400 000 such items, and a put per piece (a comma, an
 * indent, a quote) cost confgen a third of its time in stdio calls.
 */
struct jsonw_piece {
	size_t n;
	char b[JSONW_PIECE_MAX];
};

/*
 * Starts p (its bytes uninitialised) with the separator and the indentation
 * before a value or key at the current depth: at most 2 + 2 *
 * JSONW_DEPTH_MAX bytes, jsonw_open never going deeper.
 */
static void jsonw_lead(struct jsonw *w, struct jsonw_piece *p)
{
	size_t indent;

	p->n = 0;
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (w->depth == 0)
		return;
	if (w->has_items[w->depth - 1])
		p->b[p->n++] = ',';
	w->has_items[w->depth - 1] = true;
	p->b[p->n++] = '\n';
	indent = (size_t)w->depth * 2;
	memset(p->b + p->n, ' ', indent);
	p->n += indent;
}

/* Separator and indentation before a value or key at the current depth. */
static void jsonw_before_item(struct jsonw *w)
{
	struct jsonw_piece p;

	jsonw_lead(w, &p);
	jsonw_put(w, p.b, p.n);
}

/* Quotes s: directly when it needs no escape, through cJSON otherwise. */
static void jsonw_quoted(struct jsonw *w, const char *s, size_t len)
{
	bool plain = true;
	cJSON *item = NULL;
	char *copy = NULL, *printed = NULL;

	for (size_t i = 0; i < len && plain; i++) {
		unsigned char ch = (unsigned char)s[i];
		plain = ch >= 0x20 && ch < 0x7f && ch != '"' && ch != '\\';
	}
	if (plain) {
		jsonw_put(w, "\"", 1);
		jsonw_put(w, s, len);
		jsonw_put(w, "\"", 1);
		return;
	}
	copy = strndup(s, len);
	if (copy != NULL)
		item = cJSON_CreateString(copy); /* cJSON copies the string */
	if (item != NULL)
		printed = cJSON_PrintUnformatted(item);
	if (printed == NULL)
		jsonw_fail(w, "out of memory");
	else
		jsonw_put(w, printed, strlen(printed));
	cJSON_free(printed);
	cJSON_Delete(item);
	free(copy);
}

/*
 * An item that is a quoted string followed by tail (": " after a key):
 * one put when the string needs no escape and fits the piece, else the
 * lead, the string through jsonw_quoted and the tail one after the other.
 */
static void jsonw_quoted_item(struct jsonw *w, const char *s, size_t len, const char *tail,
			      size_t tail_len)
{
	struct jsonw_piece p;
	bool plain = len + 2 + tail_len <= sizeof(p.b) - 2 - 2 * JSONW_DEPTH_MAX;

	jsonw_lead(w, &p);
	for (size_t i = 0; i < len && plain; i++) {
		unsigned char ch = (unsigned char)s[i];
		plain = ch >= 0x20 && ch < 0x7f && ch != '"' && ch != '\\';
	}
	if (plain) {
		p.b[p.n++] = '"';
		memcpy(p.b + p.n, s, len);
		p.n += len;
		p.b[p.n++] = '"';
		memcpy(p.b + p.n, tail, tail_len);
		p.n += tail_len;
		jsonw_put(w, p.b, p.n);
		return;
	}
	jsonw_put(w, p.b, p.n);
	jsonw_quoted(w, s, len);
	jsonw_put(w, tail, tail_len);
}

size_t jsonw_quoted_len(const char *s, size_t len)
{
	size_t n = 2;

	for (size_t i = 0; i < len && s[i] != '\0'; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == '"' || ch == '\\' || ch == '\b' || ch == '\f' || ch == '\n' ||
		    ch == '\r' || ch == '\t')
			n += 2;
		else if (ch < 0x20)
			n += 6;
		else
			n += 1;
	}
	return n;
}

void jsonw_key(struct jsonw *w, const char *key)
{
	jsonw_quoted_item(w, key, strlen(key), ": ", 2);
	w->after_key = true;
}

static void jsonw_open(struct jsonw *w, const char *bracket)
{
	struct jsonw_piece p;

	jsonw_lead(w, &p);
	p.b[p.n++] = bracket[0];
	jsonw_put(w, p.b, p.n);
	if (w->depth >= JSONW_DEPTH_MAX) {
		jsonw_fail(w, "nested too deep");
		return;
	}
	w->has_items[w->depth++] = false;
}

static void jsonw_close(struct jsonw *w, const char *bracket)
{
	struct jsonw_piece p;

	if (w->depth == 0) {
		jsonw_fail(w, "a close without an open");
		return;
	}
	p.n = 0;
	if (w->has_items[--w->depth]) {
		p.b[p.n++] = '\n';
		memset(p.b + p.n, ' ', (size_t)w->depth * 2);
		p.n += (size_t)w->depth * 2;
	}
	p.b[p.n++] = bracket[0];
	jsonw_put(w, p.b, p.n);
}

void jsonw_object_begin(struct jsonw *w)
{
	jsonw_open(w, "{");
}

void jsonw_object_end(struct jsonw *w)
{
	jsonw_close(w, "}");
}

void jsonw_array_begin(struct jsonw *w)
{
	jsonw_open(w, "[");
}

void jsonw_array_end(struct jsonw *w)
{
	jsonw_close(w, "]");
}

void jsonw_string_len(struct jsonw *w, const char *s, size_t len)
{
	jsonw_quoted_item(w, s, len, "", 0);
}

void jsonw_string(struct jsonw *w, const char *s)
{
	jsonw_string_len(w, s, strlen(s));
}

void jsonw_uint(struct jsonw *w, uint64_t v)
{
	struct jsonw_piece p;
	char tmp[24];
	size_t n = sizeof(tmp);

	jsonw_lead(w, &p);
	do {
		tmp[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	memcpy(p.b + p.n, tmp + n, sizeof(tmp) - n); /* the lead leaves room for 20 digits */
	p.n += sizeof(tmp) - n;
	jsonw_put(w, p.b, p.n);
}

void jsonw_bool(struct jsonw *w, bool v)
{
	jsonw_before_item(w);
	jsonw_put(w, v ? "true" : "false", v ? 4 : 5);
}

void jsonw_cjson(struct jsonw *w, const cJSON *item)
{
	const cJSON *child;
	char *leaf;

	if (cJSON_IsString(item)) {
		jsonw_string(w, item->valuestring);
		return;
	}
	if (!cJSON_IsObject(item) && !cJSON_IsArray(item)) {
		/* numbers, booleans, null and raw text: cJSON's own bytes */
		jsonw_before_item(w);
		leaf = cJSON_PrintUnformatted(item);
		if (leaf == NULL)
			jsonw_fail(w, "out of memory");
		else
			jsonw_put(w, leaf, strlen(leaf));
		cJSON_free(leaf);
		return;
	}
	jsonw_open(w, cJSON_IsObject(item) ? "{" : "[");
	for (child = item->child; child != NULL && !w->failed; child = child->next) {
		if (cJSON_IsObject(item))
			jsonw_key(w, child->string != NULL ? child->string : "");
		jsonw_cjson(w, child);
	}
	jsonw_close(w, cJSON_IsObject(item) ? "}" : "]");
}

int jsonw_finish(struct jsonw *w)
{
	if (!w->failed && w->depth != 0)
		jsonw_fail(w, "a container left open");
	if (!w->failed && w->out != NULL && ferror(w->out))
		jsonw_fail(w, "write error");
	return w->failed ? -1 : 0;
}

const char *jsonw_error(const struct jsonw *w)
{
	return w->failed ? w->err.msg : "";
}
