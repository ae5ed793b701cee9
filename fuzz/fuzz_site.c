/* fuzz_site: libFuzzer target feeding arbitrary bytes to rarsite's readers of published files:
 * the TSV reader (sitetsv), the Markdown renderer (sitemd) and results.json's meta reader
 * (siteload). The HTML written must hold only the renderer's own tags, links only to plain
 * relative paths, and no control or invalid UTF-8. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sanitize.h"
#include "siteload.h"
#include "sitehtml.h"
#include "sitemd.h"
#include "sitetsv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every target exists, written from a folder of the page: the renderer must still refuse what
 * is not a plain relative path. */
static bool any_link(const char *rel, char *href, size_t size, void *ctx)
{
	(void)ctx;
	return (size_t)snprintf(href, size, "exp/%s", rel) < size; /* lint: not a path */
}

/* Whether the tag at s (after '<', n bytes left) is one sitemd and sitehtml write. */
static int allowed_tag(const char *s, size_t n)
{
	static const char *const tags[] = {"/",     "h2",     "h3", "h4",       "h5",  "h6",
					   "p>",    "p ",     "ul", "li",       "div", "table",
					   "tbody", "thead",  "tr", "th",       "td",  "pre",
					   "code",  "strong", "a>", "a href=\""};
	const char *p = s;

	if (n > 0 && p[0] == '/') {
		p++;
		n--;
	}
	for (size_t i = 1; i < sizeof(tags) / sizeof(tags[0]); i++) {
		size_t l = strlen(tags[i]);

		if (n >= l && memcmp(p, tags[i], l) == 0) {
			if (i == sizeof(tags) / sizeof(tags[0]) - 1) {
				/* a link's target: plain relative, no scheme, no quote */
				const char *end = memchr(p + l, '"', n - l);

				if (end == NULL ||
				    memchr(p + l, ':', (size_t)(end - p - l)) != NULL ||
				    p[l] == '/')
					return 0;
			}
			return 1;
		}
	}
	return 0;
}

static int html_inert(const char *s, size_t len)
{
	size_t i = 0, n;
	uint32_t cp;

	while (i < len) {
		n = sanitize_utf8_char(s + i, len - i, &cp);
		if (n == 0 || (cp < 0x20 && cp != '\n') || (cp >= 0x7f && cp <= 0x9f) ||
		    cp == 0x202e || cp == 0x2066 || cp == 0x061c)
			return 0;
		if (cp == '<' && !allowed_tag(s + i + 1, len - i - 1))
			return 0;
		i += n;
	}
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct errbuf eb = {{0}};
	const char *text = (const char *)data + 1;
	char *out = NULL;
	size_t out_len = 0, len;
	FILE *f;

	if (size == 0)
		return 0;
	len = size - 1;
	switch (data[0] % 3) {
	case 0: {
		struct sitetsv *t = sitetsv_parse(text, len, "fuzz", &eb);

		if (t == NULL) {
			if (eb.msg[0] == '\0' || strchr(eb.msg, '\n') != NULL)
				__builtin_trap();
			return 0;
		}
		for (size_t r = 0; r < t->n_rows; r++)
			for (size_t c = 0; c < t->n_cols; c++)
				if (sitetsv_cell(t, r, (int)c) == NULL)
					__builtin_trap();
		f = open_memstream(&out, &out_len);
		if (f != NULL) {
			const char *cols[SITETSV_COLS_MAX];
			bool nums[SITETSV_COLS_MAX];

			for (size_t c = 0; c < t->n_cols; c++) {
				cols[c] = t->cols[c];
				nums[c] = c % 2 == 0;
			}
			sitehtml_tsv_table(f, t, "fuzz.tsv", cols, nums, t->n_cols, NULL);
			fclose(f);
			/* every byte of a cell is escaped: no '<' but the table's own */
			for (size_t i = 0; i + 7 < out_len; i++)
				if (out[i] == '<' && memcmp(out + i, "<script", 7) == 0)
					__builtin_trap();
			free(out);
		}
		sitetsv_free(t);
		return 0;
	}
	case 1:
		f = open_memstream(&out, &out_len);
		if (f == NULL)
			return 0;
		sitemd_write(f, text, len, (data[0] & 4) ? "Verdicts" : NULL, any_link, NULL);
		sitemd_write_first_paragraph(f, text, len, any_link, NULL);
		fclose(f);
		if (!html_inert(out, out_len))
			__builtin_trap();
		free(out);
		return 0;
	default: {
		struct siteload_meta m;

		if (siteload_meta_parse(text, len, "fuzz", &m, &eb) != 0) {
			if (eb.msg[0] == '\0' || strchr(eb.msg, '\n') != NULL)
				__builtin_trap();
			return 0;
		}
		siteload_meta_clear(&m);
		return 0;
	}
	}
}
