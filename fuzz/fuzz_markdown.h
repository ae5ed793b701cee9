/* fuzz_markdown: what the fuzz targets of Markdown writers (claims, diary) require of their
 * output: inert, one line per row, nothing that drives a terminal, no HTML. */
#ifndef RARPERF_FUZZ_MARKDOWN_H
#define RARPERF_FUZZ_MARKDOWN_H

#include <stddef.h>
#include <stdint.h>

#include "sanitize.h"

/* Whether s (len bytes) holds no control, bidi control, invalid UTF-8 nor unescaped '<'. */
static inline int fuzz_markdown_inert(const char *s, size_t len)
{
	size_t i = 0, n;
	uint32_t cp;

	while (i < len) {
		n = sanitize_utf8_char(s + i, len - i, &cp);
		if (n == 0 || (cp < 0x20 && cp != '\n') || (cp >= 0x7f && cp <= 0x9f) ||
		    cp == 0x202e || cp == 0x2066 || cp == 0x061c)
			return 0;
		if (cp == '\\') {
			i += 2; /* the escaped character (ASCII, since every escape is) */
			continue;
		}
		if (cp == '<')
			return 0;
		i += n;
	}
	return 1;
}

#endif
