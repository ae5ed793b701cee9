/* sitehtml: the site's HTML: text escaped, numbers formatted, each page's frame and its tables. */
#ifndef RARPERF_SITEHTML_H
#define RARPERF_SITEHTML_H

#include <stdbool.h>
#include <stdio.h>

#include "sitetsv.h"

/*
 * Writes s as HTML text (also safe inside a double-quoted attribute): sanitize's rule first
 * (controls, bidi marks and invalid UTF-8 become \xHH, src/common/sanitize.h), then & < > " '
 * as entities. Bytes from any file go through here and nowhere else.
 */
void sitehtml_text(FILE *f, const char *s);

/* The number in the string s (a TSV cell) with 4 significant digits ("%.4g"), or s escaped when
 * it is not a finite number (e.g. "-", "n/a"). */
void sitehtml_num(FILE *f, const char *s);

/*
 * The start of a page: the doctype, a Content-Security-Policy that lets the page load only its
 * own site's files (no request leaves the site: no network, no inline script), the title, the
 * stylesheet and script at root (a relative prefix: "" or "../"), the navigation bar with
 * current marked. sitehtml_page_end closes it.
 */
void sitehtml_page_start(FILE *f, const char *root, const char *title, const char *current);
void sitehtml_page_end(FILE *f);

/*
 * A table of t's columns cols[0..n) (names as the header's; a column t lacks is left out), its
 * numbers with 4 significant digits. Each cell carries the file's own bytes (data-raw), its row
 * and column, and the table names its source (data-src, the path shown), so that a test can
 * compare the page with the published file. numeric[i] says column i is a number.
 */
void sitehtml_tsv_table(FILE *f, const struct sitetsv *t, const char *src, const char *const *cols,
			const bool *numeric, size_t n, const char *caption);

/* "ok" when name may become part of a file name on the site (fileio_name_is_plain). */
bool sitehtml_name_ok(const char *name);

#endif
