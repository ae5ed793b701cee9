/* sitemd: published Markdown as HTML (sitemd.h). */
#include "sitemd.h"

#include <stdlib.h>
#include <string.h>

#include "sitehtml.h"

#define LINK_MAX 512

enum block { B_NONE, B_PARA, B_LIST, B_TABLE, B_CODE };

struct md {
	FILE *f;
	enum block open;
	bool table_head;
	bool li_open; /* a list item goes on until the next one or the list's end */
	sitemd_link_fn link;
	void *ctx;
	bool wrote;
};

/* n bytes of s as escaped text. */
static void text_n(FILE *f, const char *s, size_t n)
{
	char *t = strndup(s, n);

	if (t == NULL)
		return;
	sitehtml_text(f, t);
	free(t);
}

static bool plain_target(const char *s, size_t n)
{
	if (n == 0 || n >= LINK_MAX || s[0] == '/' || s[0] == '#')
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '.' || c == '_' || c == '/' || c == '-' || c == '#'))
			return false;
		if (c == '.' && i + 1 < n && s[i + 1] == '.')
			return false;
	}
	return true;
}

static void inline_span(struct md *m, const char *s, size_t n);

/* [text](target) at s (n bytes): how many bytes it spans, 0 when it is none. */
static size_t try_link(struct md *m, const char *s, size_t n, bool image)
{
	const char *close = memchr(s, ']', n), *end;
	char target[LINK_MAX], href[LINK_MAX];
	size_t tlen;
	bool ok;

	if (close == NULL || (size_t)(close - s) + 1 >= n || close[1] != '(')
		return 0;
	end = memchr(close + 2, ')', n - (size_t)(close + 2 - s));
	if (end == NULL)
		return 0;
	tlen = (size_t)(end - close - 2);
	ok = plain_target(close + 2, tlen);
	if (ok) {
		memcpy(target, close + 2, tlen);
		target[tlen] = '\0';
		ok = m->link != NULL && m->link(target, href, sizeof(href), m->ctx) &&
		     plain_target(href, strlen(href));
	}
	if (ok) {
		fputs("<a href=\"", m->f);
		sitehtml_text(m->f, href);
		fputs("\">", m->f);
	}
	if (image)
		fputs("[figure: ", m->f);
	inline_span(m, s + 1, (size_t)(close - s) - 1);
	if (image)
		fputs("]", m->f);
	if (ok)
		fputs("</a>", m->f);
	return (size_t)(end - s) + 1;
}

static void inline_span(struct md *m, const char *s, size_t n)
{
	size_t i = 0, start = 0;

	while (i < n) {
		size_t used = 0;
		const char *close;

		if (s[i] == '\\' && i + 1 < n &&
		    strchr("\\`*_{}[]()#+-.!|<>&~", s[i + 1]) != NULL && s[i + 1] != '\0') {
			text_n(m->f, s + start, i - start);
			text_n(m->f, s + i + 1, 1);
			i += 2;
			start = i;
			continue;
		}
		if (s[i] == '`' && (close = memchr(s + i + 1, '`', n - i - 1)) != NULL) {
			text_n(m->f, s + start, i - start);
			fputs("<code>", m->f);
			text_n(m->f, s + i + 1, (size_t)(close - s - i - 1));
			fputs("</code>", m->f);
			i = (size_t)(close - s) + 1;
			start = i;
			continue;
		}
		if (s[i] == '*' && i + 1 < n && s[i + 1] == '*') {
			const char *p = s + i + 2;
			const char *e = NULL;

			for (; p + 1 < s + n; p++)
				if (p[0] == '*' && p[1] == '*') {
					e = p;
					break;
				}
			if (e != NULL && e > s + i + 2) {
				text_n(m->f, s + start, i - start);
				fputs("<strong>", m->f);
				inline_span(m, s + i + 2, (size_t)(e - s - i - 2));
				fputs("</strong>", m->f);
				i = (size_t)(e - s) + 2;
				start = i;
				continue;
			}
		}
		if (s[i] == '!' && i + 1 < n && s[i + 1] == '[') {
			text_n(m->f, s + start, i - start);
			used = try_link(m, s + i + 1, n - i - 1, true);
			if (used > 0) {
				i += used + 1;
				start = i;
				continue;
			}
			start = i;
		}
		if (s[i] == '[') {
			text_n(m->f, s + start, i - start);
			used = try_link(m, s + i, n - i, false);
			if (used > 0) {
				i += used;
				start = i;
				continue;
			}
			start = i;
		}
		i++;
	}
	text_n(m->f, s + start, n - start);
}

static void close_block(struct md *m)
{
	static const char *const ends[] = {"", "</p>\n", "</ul>\n", "</tbody></table></div>\n",
					   "</code></pre>\n"};

	if (m->li_open)
		fputs("</li>\n", m->f);
	m->li_open = false;
	fputs(ends[m->open], m->f);
	m->open = B_NONE;
}

static void open_block(struct md *m, enum block b)
{
	if (m->open == b)
		return;
	close_block(m);
	m->open = b;
	m->wrote = true;
	if (b == B_PARA)
		fputs("<p>", m->f);
	else if (b == B_LIST)
		fputs("<ul>\n", m->f);
	else if (b == B_TABLE) {
		fputs("<div class=\"tablewrap\"><table class=\"md\"><tbody>\n", m->f);
		m->table_head = true;
	} else if (b == B_CODE)
		fputs("<pre><code>", m->f);
}

/* A table's dashes row: only '|', '-', ':' and spaces. */
static bool dashes_row(const char *s, size_t n)
{
	bool dash = false;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '-')
			dash = true;
		else if (s[i] != '|' && s[i] != ':' && s[i] != ' ')
			return false;
	}
	return dash;
}

static void table_row(struct md *m, const char *s, size_t n)
{
	const char *tag = m->table_head ? "th" : "td";
	size_t i = 1, start = 1;

	if (dashes_row(s, n))
		return;
	if (n > 1 && s[n - 1] == '|')
		n--;
	fputs("<tr>", m->f);
	for (; i <= n; i++) {
		/* a '|' after a backslash is the cell's text */
		if (i < n && (s[i] != '|' || s[i - 1] == '\\'))
			continue;
		fprintf(m->f, "<%s>", tag);
		inline_span(m, s + start, i - start);
		fprintf(m->f, "</%s>", tag);
		start = i + 1;
	}
	fputs("</tr>\n", m->f);
	m->table_head = false;
}

static void line(struct md *m, const char *s, size_t n)
{
	size_t h = 0;

	if (m->open == B_CODE) {
		if (n >= 3 && memcmp(s, "```", 3) == 0) {
			close_block(m);
			return;
		}
		text_n(m->f, s, n);
		fputc('\n', m->f);
		return;
	}
	if (n >= 3 && memcmp(s, "```", 3) == 0) {
		open_block(m, B_CODE);
		return;
	}
	while (h < n && h < 7 && s[h] == '#')
		h++;
	if (h >= 1 && h <= 6 && h < n && s[h] == ' ') {
		size_t level = h + 1 > 6 ? 6 : h + 1;

		close_block(m);
		m->wrote = true;
		fprintf(m->f, "<h%zu>", level);
		inline_span(m, s + h + 1, n - h - 1);
		fprintf(m->f, "</h%zu>\n", level);
		return;
	}
	if (n == 0 || (n >= 4 && memcmp(s, "<!--", 4) == 0)) {
		close_block(m);
		return;
	}
	if (s[0] == '|') {
		open_block(m, B_TABLE);
		table_row(m, s, n);
		return;
	}
	if (n >= 2 && (s[0] == '-' || s[0] == '*') && s[1] == ' ') {
		open_block(m, B_LIST);
		if (m->li_open)
			fputs("</li>\n", m->f);
		fputs("<li>", m->f);
		m->li_open = true;
		inline_span(m, s + 2, n - 2);
		return;
	}
	if (m->li_open && n > 0 && s[0] == ' ') {
		/* the item's next line */
		fputc('\n', m->f);
		inline_span(m, s, n);
		return;
	}
	if (m->open == B_PARA)
		fputc('\n', m->f);
	open_block(m, B_PARA);
	inline_span(m, s, n);
}

/* Writes each line of text (without its newline or a '\r' before it): all, one section's, or
 * the first paragraph's. */
static void each_line(struct md *m, const char *text, size_t len, const char *section,
		      bool first_para)
{
	const char *p = text, *end = text + len;
	bool in = section == NULL, fence = false;
	size_t sec_len = section != NULL ? strlen(section) : 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl != NULL ? nl : end) - p);
		const char *s = p;

		p = nl != NULL ? nl + 1 : end;
		if (n > 0 && s[n - 1] == '\r')
			n--;
		if (section != NULL && n >= 3 && memcmp(s, "## ", 3) == 0) {
			if (in)
				break;
			in = n - 3 == sec_len && memcmp(s + 3, section, sec_len) == 0;
			continue;
		}
		if (!in)
			continue;
		if (first_para) {
			/* The first paragraph of prose: no heading, code, table or comment. */
			if (n >= 3 && memcmp(s, "```", 3) == 0) {
				fence = !fence;
				continue;
			}
			if (fence)
				continue;
			if (n == 0 || s[0] == '#' || s[0] == '|' || s[0] == '`' ||
			    (n >= 4 && memcmp(s, "<!--", 4) == 0)) {
				if (m->open != B_NONE)
					break;
				continue;
			}
		}
		line(m, s, n);
	}
	close_block(m);
}

bool sitemd_write(FILE *f, const char *text, size_t len, const char *section, sitemd_link_fn link,
		  void *ctx)
{
	struct md m = {.f = f, .link = link, .ctx = ctx};

	each_line(&m, text, len, section, false);
	return m.wrote;
}

bool sitemd_write_first_paragraph(FILE *f, const char *text, size_t len, sitemd_link_fn link,
				  void *ctx)
{
	struct md m = {.f = f, .link = link, .ctx = ctx};

	each_line(&m, text, len, NULL, true);
	return m.wrote;
}
