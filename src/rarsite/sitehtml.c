/* sitehtml: the site's HTML frame, escaping and tables (sitehtml.h). */
#include "sitehtml.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "sanitize.h"

void sitehtml_text(FILE *f, const char *s)
{
	size_t len = strlen(s), cap = 4 * len + 1; /* every byte at worst \xHH */
	char *clean = malloc(cap);

	if (clean == NULL)
		return;
	sanitize_text(clean, cap, s, len);
	for (const char *p = clean; *p != '\0'; p++) {
		switch (*p) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			fputc(*p, f);
		}
	}
	free(clean);
}

void sitehtml_num(FILE *f, const char *s)
{
	char *end = NULL;
	double v = strtod(s, &end);

	if (s[0] == '\0' || end == NULL || *end != '\0' || !isfinite(v))
		sitehtml_text(f, s);
	else
		fprintf(f, "%.4g", v);
}

static const char *const nav[][2] = {
    {"index.html", "Home"},    {"across.html", "Across machines"},
    {"runs.html", "Runs"},     {"history.html", "RootAsRole's history"},
    {"counts.html", "Counts"},
};

void sitehtml_page_start(FILE *f, const char *root, const char *title, const char *current)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n", f);
	/* Everything the page may load is the site's own: file:// and any static host alike. */
	/* file: beside 'self': a file:// page's origin is opaque, so 'self' alone may not match its
	 * own folder; a page on a web host gets nothing more from it. */
	fputs("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "script-src 'self' file:; style-src 'self' file:; img-src 'self' file: data:; "
	      "base-uri 'none'; form-action 'none'\">\n",
	      f);
	fputs("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
	      f);
	sitehtml_text(f, title);
	fprintf(f, " · rarperf</title>\n<link rel=\"stylesheet\" href=\"%ssite.css\">\n", root);
	fprintf(f, "<script src=\"%ssite.js\" defer></script>\n</head>\n<body>\n", root);
	fputs("<nav><span class=\"brand\">rarperf</span>", f);
	for (size_t i = 0; i < sizeof(nav) / sizeof(nav[0]); i++)
		fprintf(f, " <a href=\"%s%s\"%s>%s</a>", root, nav[i][0],
			strcmp(nav[i][0], current) == 0 ? " aria-current=\"page\"" : "", nav[i][1]);
	fputs("</nav>\n<main>\n<h1>", f);
	sitehtml_text(f, title);
	fputs("</h1>\n", f);
}

void sitehtml_page_end(FILE *f)
{
	fputs("</main>\n<footer>Built by <code>rarsite</code> from the published runs in "
	      "<code>doc/results/</code>; every number links back to its file.</footer>\n"
	      "</body>\n</html>\n",
	      f);
}

void sitehtml_tsv_table(FILE *f, const struct sitetsv *t, const char *src, const char *const *cols,
			const bool *numeric, size_t n, const char *caption)
{
	int idx[SITETSV_COLS_MAX];
	size_t k = 0;

	for (size_t i = 0; i < n && k < SITETSV_COLS_MAX; i++) {
		int c = sitetsv_col(t, cols[i]);

		if (c >= 0)
			idx[k++] = c;
	}
	fputs("<div class=\"tablewrap\"><table class=\"numbers\" data-src=\"", f);
	sitehtml_text(f, src);
	fputs("\">\n", f);
	if (caption != NULL) {
		fputs("<caption>", f);
		sitehtml_text(f, caption);
		fputs("</caption>\n", f);
	}
	fputs("<thead><tr>", f);
	for (size_t i = 0; i < k; i++) {
		fputs("<th>", f);
		sitehtml_text(f, t->cols[idx[i]]);
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
	for (size_t r = 0; r < t->n_rows; r++) {
		fputs("<tr>", f);
		for (size_t i = 0; i < k; i++) {
			const char *cell = sitetsv_cell(t, r, idx[i]);
			bool num = false;

			for (size_t j = 0; j < n; j++)
				if (strcmp(cols[j], t->cols[idx[i]]) == 0)
					num = numeric[j];
			fprintf(f, "<td data-row=\"%zu\" data-col=\"", r);
			sitehtml_text(f, t->cols[idx[i]]);
			fputs("\" data-raw=\"", f);
			sitehtml_text(f, cell);
			fputs(num ? "\" class=\"n\">" : "\">", f);
			if (num)
				sitehtml_num(f, cell);
			else
				sitehtml_text(f, cell);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

bool sitehtml_name_ok(const char *name)
{
	return fileio_name_is_plain(name);
}
