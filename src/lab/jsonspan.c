/* jsonspan: a strict JSON scanner over a buffer: each value is checked in place, never copied. */
#include "jsonspan.h"

#include <stdint.h>
#include <string.h>

#include "sanitize.h"

static bool is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void skip_ws(const char *t, size_t len, size_t *pos)
{
	while (*pos < len && is_ws(t[*pos]))
		(*pos)++;
}

struct jsonspan jsonspan_trim(const char *text, size_t len)
{
	struct jsonspan s = {text, len};

	while (s.len > 0 && is_ws(s.p[0])) {
		s.p++;
		s.len--;
	}
	while (s.len > 0 && is_ws(s.p[s.len - 1]))
		s.len--;
	return s;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A string at t[*pos] == '"': escapes, no raw control byte, valid UTF-8. */
static int scan_string(const char *t, size_t len, size_t *pos, struct errbuf *eb)
{
	size_t i = *pos + 1;

	while (i < len) {
		unsigned char c = (unsigned char)t[i];
		if (c == '"') {
			*pos = i + 1;
			return 0;
		}
		if (c == '\\') {
			if (i + 1 >= len)
				break;
			switch (t[i + 1]) {
			case '"':
			case '\\':
			case '/':
			case 'b':
			case 'f':
			case 'n':
			case 'r':
			case 't':
				i += 2;
				continue;
			case 'u':
				if (i + 5 >= len || hexval(t[i + 2]) < 0 || hexval(t[i + 3]) < 0 ||
				    hexval(t[i + 4]) < 0 || hexval(t[i + 5]) < 0)
					return errbuf_set(eb, "byte %zu: bad \\u escape", i);
				i += 6;
				continue;
			default:
				return errbuf_set(eb, "byte %zu: bad escape in a string", i);
			}
		}
		if (c < 0x20)
			return errbuf_set(eb, "byte %zu: control character in a string", i);
		if (c < 0x80) {
			i++;
			continue;
		}
		uint32_t cp;
		size_t n = sanitize_utf8_char(t + i, len - i, &cp);
		if (n == 0)
			return errbuf_set(eb, "byte %zu: invalid UTF-8", i);
		i += n;
	}
	return errbuf_set(eb, "byte %zu: unterminated string", *pos);
}

static size_t digits(const char *t, size_t len, size_t i)
{
	size_t n = 0;

	while (i + n < len && t[i + n] >= '0' && t[i + n] <= '9')
		n++;
	return n;
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static int scan_number(const char *t, size_t len, size_t *pos, struct errbuf *eb)
{
	size_t i = *pos, n;

	if (t[i] == '-')
		i++;
	n = digits(t, len, i);
	if (n == 0 || (n > 1 && t[i] == '0'))
		return errbuf_set(eb, "byte %zu: bad number", *pos);
	i += n;
	if (i < len && t[i] == '.') {
		n = digits(t, len, i + 1);
		if (n == 0)
			return errbuf_set(eb, "byte %zu: bad number", *pos);
		i += 1 + n;
	}
	if (i < len && (t[i] == 'e' || t[i] == 'E')) {
		i++;
		if (i < len && (t[i] == '+' || t[i] == '-'))
			i++;
		n = digits(t, len, i);
		if (n == 0)
			return errbuf_set(eb, "byte %zu: bad number", *pos);
		i += n;
	}
	*pos = i;
	return 0;
}

static int scan_value(const char *t, size_t len, size_t *pos, int depth, struct errbuf *eb);

/* An object or array at t[*pos]: its members, each checked. */
static int scan_container(const char *t, size_t len, size_t *pos, int depth, struct errbuf *eb)
{
	bool object = t[*pos] == '{';
	char close = object ? '}' : ']';
	size_t i = *pos + 1;

	if (depth >= JSONSPAN_DEPTH_MAX)
		return errbuf_set(eb, "byte %zu: nested deeper than %d", *pos, JSONSPAN_DEPTH_MAX);
	skip_ws(t, len, &i);
	if (i < len && t[i] == close) {
		*pos = i + 1;
		return 0;
	}
	for (;;) {
		if (object) {
			if (i >= len || t[i] != '"')
				return errbuf_set(eb, "byte %zu: expected a key", i);
			if (scan_string(t, len, &i, eb) < 0)
				return -1;
			skip_ws(t, len, &i);
			if (i >= len || t[i] != ':')
				return errbuf_set(eb, "byte %zu: expected ':'", i);
			i++;
		}
		if (scan_value(t, len, &i, depth + 1, eb) < 0)
			return -1;
		skip_ws(t, len, &i);
		if (i < len && t[i] == close) {
			*pos = i + 1;
			return 0;
		}
		if (i >= len || t[i] != ',')
			return errbuf_set(eb, "byte %zu: expected ',' or '%c'", i, close);
		i++;
		skip_ws(t, len, &i);
	}
}

/* The value at t[*pos] (leading whitespace skipped); *pos ends just after it. */
static int scan_value(const char *t, size_t len, size_t *pos, int depth, struct errbuf *eb)
{
	static const char *const words[] = {"true", "false", "null"};

	skip_ws(t, len, pos);
	if (*pos >= len)
		return errbuf_set(eb, "byte %zu: expected a value", *pos);
	switch (t[*pos]) {
	case '{':
	case '[':
		return scan_container(t, len, pos, depth, eb);
	case '"':
		return scan_string(t, len, pos, eb);
	case '-':
	case '0':
	case '1':
	case '2':
	case '3':
	case '4':
	case '5':
	case '6':
	case '7':
	case '8':
	case '9':
		return scan_number(t, len, pos, eb);
	default:
		break;
	}
	for (size_t k = 0; k < sizeof(words) / sizeof(words[0]); k++) {
		size_t wl = strlen(words[k]);
		if (len - *pos >= wl && memcmp(t + *pos, words[k], wl) == 0) {
			*pos += wl;
			return 0;
		}
	}
	return errbuf_set(eb, "byte %zu: expected a value", *pos);
}

int jsonspan_walk(struct jsonspan_iter *it, struct jsonspan c, int depth, struct errbuf *eb)
{
	memset(it, 0, sizeof(*it));
	if (c.len == 0 || (c.p[0] != '{' && c.p[0] != '['))
		return errbuf_set(eb, "byte 0: expected an object or an array");
	if (depth >= JSONSPAN_DEPTH_MAX)
		return errbuf_set(eb, "byte 0: nested deeper than %d", JSONSPAN_DEPTH_MAX);
	it->c = c;
	it->pos = 1;
	it->depth = depth + 1;
	it->object = c.p[0] == '{';
	it->first = true;
	return 0;
}

enum jsonspan_step jsonspan_next(struct jsonspan_iter *it, struct jsonspan *key,
				 struct jsonspan *val, struct errbuf *eb)
{
	const char *t = it->c.p;
	size_t len = it->c.len, i = it->pos, start;
	char close = it->object ? '}' : ']';

	key->p = NULL;
	key->len = 0;
	if (it->done)
		return JSONSPAN_END;
	skip_ws(t, len, &i);
	if (i < len && t[i] == close)
		goto end; /* the end, or an empty container */
	if (!it->first) {
		if (i >= len || t[i] != ',') {
			errbuf_set(eb, "byte %zu: expected ',' or '%c'", i, close);
			return JSONSPAN_BAD;
		}
		i++;
		skip_ws(t, len, &i);
	}
	if (it->object) {
		if (i >= len || t[i] != '"') {
			errbuf_set(eb, "byte %zu: expected a key", i);
			return JSONSPAN_BAD;
		}
		start = i;
		if (scan_string(t, len, &i, eb) < 0)
			return JSONSPAN_BAD;
		key->p = t + start;
		key->len = i - start;
		skip_ws(t, len, &i);
		if (i >= len || t[i] != ':') {
			errbuf_set(eb, "byte %zu: expected ':'", i);
			return JSONSPAN_BAD;
		}
		i++;
		skip_ws(t, len, &i);
	}
	start = i;
	if (scan_value(t, len, &i, it->depth, eb) < 0)
		return JSONSPAN_BAD;
	val->p = t + start;
	val->len = i - start;
	it->pos = i;
	it->first = false;
	return JSONSPAN_MEMBER;
end:
	if (i + 1 != len) {
		errbuf_set(eb, "byte %zu: bytes after the closing '%c'", i + 1, close);
		return JSONSPAN_BAD;
	}
	it->pos = len;
	it->done = true;
	return JSONSPAN_END;
}

int jsonspan_check(const char *text, size_t len, struct jsonspan *v, struct errbuf *eb)
{
	size_t pos = 0, start;

	skip_ws(text, len, &pos);
	start = pos;
	if (scan_value(text, len, &pos, 0, eb) < 0)
		return -1;
	v->p = text + start;
	v->len = pos - start;
	skip_ws(text, len, &pos);
	if (pos != len)
		return errbuf_set(eb, "byte %zu: bytes after the value", pos);
	return 0;
}

bool jsonspan_string_is(struct jsonspan s, const char *word)
{
	size_t i = 1, w = 0, wl = strlen(word);

	if (s.len < 2 || s.p[0] != '"')
		return false;
	while (i + 1 < s.len) {
		unsigned c = (unsigned char)s.p[i];
		if (c == '\\') {
			char e = s.p[i + 1];
			i += 2;
			switch (e) {
			case 'b':
				c = '\b';
				break;
			case 'f':
				c = '\f';
				break;
			case 'n':
				c = '\n';
				break;
			case 'r':
				c = '\r';
				break;
			case 't':
				c = '\t';
				break;
			case 'u':
				/* word is ASCII: a \u escape above 0x7f never matches */
				c = 0;
				for (int k = 0; k < 4; k++)
					c = c * 16 + (unsigned)hexval(s.p[i + k]);
				i += 4;
				if (c == 0 || c > 0x7f)
					return false;
				break;
			default:
				c = (unsigned char)e;
				break;
			}
		} else {
			i++;
		}
		if (w >= wl || (unsigned char)word[w] != c)
			return false;
		w++;
	}
	return w == wl;
}

int jsonspan_write_compact(FILE *f, struct jsonspan v)
{
	size_t i = 0, run = 0;
	bool in_string = false;

	while (i < v.len) {
		char c = v.p[i];
		if (in_string) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_string = false;
		} else if (c == '"') {
			in_string = true;
		} else if (is_ws(c)) {
			if (i > run && fwrite(v.p + run, 1, i - run, f) != i - run)
				return -1;
			while (i < v.len && is_ws(v.p[i]))
				i++;
			run = i;
			continue;
		}
		i++;
	}
	if (i > run && fwrite(v.p + run, 1, v.len - run, f) != v.len - run)
		return -1;
	return ferror(f) ? -1 : 0;
}
