/* sanitize: escape controls, bidi controls, invalid UTF-8 and (for Markdown) markup, so bytes
 * from a host or a file cannot drive a terminal, split a TSV or inject into a report. */
#include "sanitize.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The longest output of one input character: four bytes, each as \xHH. */
#define SANITIZE_UNIT_MAX 16

size_t sanitize_utf8_char(const char *str, size_t len, uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;
	uint32_t c, min;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		c = s[0] & 0x1fu;
		min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		c = s[0] & 0x0fu;
		min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		c = s[0] & 0x07u;
		min = 0x10000;
	} else {
		return 0;
	}
	if (len < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3fu);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

/* Code points printed as escapes: controls, bidi controls, and those that break a line. */
static bool unsafe_code_point(uint32_t c)
{
	return c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == 0x061c || c == 0x200e ||
	       c == 0x200f || c == 0x2028 || c == 0x2029 || (c >= 0x202a && c <= 0x202e) ||
	       (c >= 0x2066 && c <= 0x2069);
}

static bool ascii_alnum(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Whether the ASCII character s[i] is Markdown or HTML markup (sanitize.h). */
static bool markdown_markup(const unsigned char *s, size_t i, size_t len)
{
	switch (s[i]) {
	case '_':
		/* Intraword: cannot open or close emphasis (CommonMark's flanking rules). */
		return !(i > 0 && i + 1 < len && ascii_alnum(s[i - 1]) && ascii_alnum(s[i + 1]));
	case '\\':
	case '`':
	case '*':
	case '[':
	case ']':
	case '<':
	case '>':
	case '&':
	case '|':
	case '~':
		return true;
	default:
		return false;
	}
}

/*
 * The output for the character at s[i] (i < len): its bytes or its escape in out (at least
 * SANITIZE_UNIT_MAX bytes), the output length in *olen; returns how many input bytes it took.
 */
static size_t sanitize_unit(const unsigned char *s, size_t i, size_t len, enum sanitize_mode mode,
			    char *out, size_t *olen)
{
	static const char hex[] = "0123456789abcdef";
	uint32_t cp = 0;
	size_t n = sanitize_utf8_char((const char *)s + i, len - i, &cp), k = 0;

	if (n > 0 && !unsafe_code_point(cp)) {
		if (mode == SANITIZE_MARKDOWN && n == 1 && markdown_markup(s, i, len))
			out[k++] = '\\';
		memcpy(out + k, s + i, n);
		*olen = k + n;
		return n;
	}
	if (n == 0)
		n = 1; /* a byte outside valid UTF-8: escaped alone */
	if (n == 1 && (s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) {
		out[k++] = '\\';
		out[k++] = s[i] == '\t' ? 't' : s[i] == '\n' ? 'n' : 'r';
	} else {
		for (size_t j = 0; j < n; j++) {
			out[k++] = '\\';
			out[k++] = 'x';
			out[k++] = hex[s[i + j] >> 4];
			out[k++] = hex[s[i + j] & 0xf];
		}
	}
	*olen = k;
	return n;
}

size_t sanitize_escape(char *dst, size_t cap, const char *src, size_t len, enum sanitize_mode mode)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t out = 0, i = 0;

	if (cap == 0)
		return 0;
	while (i < len) {
		char unit[SANITIZE_UNIT_MAX];
		size_t ulen, n = sanitize_unit(s, i, len, mode, unit, &ulen);

		if (out + ulen >= cap)
			break;
		memcpy(dst + out, unit, ulen);
		out += ulen;
		i += n;
	}
	dst[out] = '\0';
	return out;
}

size_t sanitize_text(char *dst, size_t cap, const char *src, size_t len)
{
	return sanitize_escape(dst, cap, src, len, SANITIZE_TEXT);
}

size_t sanitize_str(char *dst, size_t cap, const char *src)
{
	return sanitize_escape(dst, cap, src, strlen(src), SANITIZE_TEXT);
}

size_t sanitize_markdown(char *dst, size_t cap, const char *src)
{
	return sanitize_escape(dst, cap, src, strlen(src), SANITIZE_MARKDOWN);
}

int sanitize_fputs(const char *s, enum sanitize_mode mode, FILE *f)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len = strlen(s), i = 0;

	while (i < len) {
		char unit[SANITIZE_UNIT_MAX];
		size_t ulen, n = sanitize_unit(u, i, len, mode, unit, &ulen);

		if (fwrite(unit, 1, ulen, f) != ulen)
			return EOF;
		i += n;
	}
	return 0;
}

int sanitize_write_lines(const char *s, size_t len, FILE *f)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		char unit[SANITIZE_UNIT_MAX];
		size_t ulen, n;

		if (u[i] == '\n') {
			if (fputc('\n', f) == EOF)
				return EOF;
			i++;
			continue;
		}
		n = sanitize_unit(u, i, len, SANITIZE_TEXT, unit, &ulen);
		if (fwrite(unit, 1, ulen, f) != ulen)
			return EOF;
		i += n;
	}
	return 0;
}

int sanitize_fprintf(FILE *f, const char *fmt, ...)
{
	char small[1024], *big = NULL;
	const char *text = small;
	va_list ap;
	int n, rc;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return EOF;
	if ((size_t)n >= sizeof(small)) {
		big = malloc((size_t)n + 1);
		if (big == NULL)
			return EOF;
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		text = big;
	}
	rc = sanitize_write_lines(text, (size_t)n, f);
	free(big);
	return rc;
}

size_t sanitize_unsafe_at(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		char unit[SANITIZE_UNIT_MAX];
		size_t ulen, n = sanitize_unit(u, i, len, SANITIZE_TEXT, unit, &ulen);

		/* Kept text comes out as itself, byte for byte; anything else was escaped. */
		if (ulen != n || memcmp(unit, s + i, n) != 0)
			return i;
		i += n;
	}
	return len;
}
