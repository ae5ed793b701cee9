/* sanitize: escape controls and invalid UTF-8 so host bytes cannot drive a terminal or a TSV. */
#include "sanitize.h"

#include <stdbool.h>
#include <string.h>

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

/* Code points printed as escapes: controls, and those that reorder or break a line. */
static bool unsafe_code_point(uint32_t c)
{
	return c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == 0x200e || c == 0x200f ||
	       c == 0x2028 || c == 0x2029 || (c >= 0x202a && c <= 0x202e) ||
	       (c >= 0x2066 && c <= 0x2069);
}

size_t sanitize_text(char *dst, size_t cap, const char *src, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)src;
	size_t out = 0, i = 0;

	if (cap == 0)
		return 0;
	while (i < len) {
		char esc[16];
		size_t n, elen = 0;
		uint32_t cp = 0;

		n = sanitize_utf8_char(src + i, len - i, &cp);
		if (n > 0 && !unsafe_code_point(cp)) {
			if (out + n >= cap)
				break;
			memcpy(dst + out, s + i, n);
			out += n;
			i += n;
			continue;
		}
		if (n == 0)
			n = 1; /* a byte outside valid UTF-8: escaped alone */
		if (n == 1 && (cp == '\t' || cp == '\n' || cp == '\r') && s[i] < 0x80) {
			esc[elen++] = '\\';
			esc[elen++] = cp == '\t' ? 't' : cp == '\n' ? 'n' : 'r';
		} else {
			for (size_t k = 0; k < n; k++) {
				esc[elen++] = '\\';
				esc[elen++] = 'x';
				esc[elen++] = hex[s[i + k] >> 4];
				esc[elen++] = hex[s[i + k] & 0xf];
			}
		}
		if (out + elen >= cap)
			break;
		memcpy(dst + out, esc, elen);
		out += elen;
		i += n;
	}
	dst[out] = '\0';
	return out;
}

size_t sanitize_str(char *dst, size_t cap, const char *src)
{
	return sanitize_text(dst, cap, src, strlen(src));
}
