/* sitemd: the published Markdown (report.md, README.md) as HTML: the few constructs rarplot and
 * the run READMEs write, every byte escaped, links kept only to files of the site. */
#ifndef RARPERF_SITEMD_H
#define RARPERF_SITEMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Whether the relative link target rel (as written in the Markdown file) is a file of the site;
 * when it is, its address from the page into href (size bytes). ctx is the caller's. */
typedef bool (*sitemd_link_fn)(const char *rel, char *href, size_t size, void *ctx);

/*
 * Writes text (len bytes, need not be NUL-terminated) as HTML to f. Blocks: ATX headings (their
 * level raised by one, at most h6: the page has the h1), fenced code, tables ('|' rows; the
 * dashes row dropped, the first row a header), "- " and "* " lists, paragraphs. Inline: `code`,
 * **strong**, a backslash before ASCII punctuation, [text](target) (a link when target is a
 * plain relative path, [A-Za-z0-9._/#-] with no "..", and link says it exists; else the text),
 * ![alt](image) (an image's alt as text, with a link as above). Everything else is text through
 * sitehtml_text. section: only the part under the heading "## SECTION" to the next "## " (NULL:
 * all). Returns whether anything was written.
 */
bool sitemd_write(FILE *f, const char *text, size_t len, const char *section, sitemd_link_fn link,
		  void *ctx);

/* The first paragraph of text (after the first heading, skipping code fences): as sitemd_write. */
bool sitemd_write_first_paragraph(FILE *f, const char *text, size_t len, sitemd_link_fn link,
				  void *ctx);

#endif
