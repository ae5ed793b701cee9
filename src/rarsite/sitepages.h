/* sitepages: the site's pages, each written whole under the output directory. */
#ifndef RARPERF_SITEPAGES_H
#define RARPERF_SITEPAGES_H

#include <stdbool.h>
#include <stdio.h>

#include "errbuf.h"
#include "rarsite.h"
#include "sitesvg.h"

/* Every page returns 0, or -1 with eb naming the file it could not read or write. */

/* index.html: the headline answer per tool, its across-machine interval, its machines. */
int sitepages_home(const struct site *s, struct errbuf *eb) __attribute__((warn_unused_result));

/* across.html: the table, each machine described, where a new machine is predicted to fall. */
int sitepages_across(const struct site *s, struct errbuf *eb) __attribute__((warn_unused_result));

/* counts.html: instruction counts where results carry them; says so where none does. */
int sitepages_counts(const struct site *s, struct errbuf *eb) __attribute__((warn_unused_result));

/* site_run.c. runs.html and runs/RUN/index.html for every run, its raw files copied beside. */
int sitepages_runs(const struct site *s, struct errbuf *eb) __attribute__((warn_unused_result));

/* site_history.c. history.html: RootAsRole's releases, their steps, the 3.3.4 -> 4.0.3 change. */
int sitepages_history(const struct site *s, struct errbuf *eb) __attribute__((warn_unused_result));

/* Shared by the pages. A link target of a Markdown file is kept when the file is in the site,
 * out_dir/base/rel (its "#fragment" dropped), and written as from_page + rel. */
struct sitepages_links {
	const char *out_dir;
	const char *base;      /* the Markdown file's folder in the site: "" or "runs/RUN/EXP" */
	const char *from_page; /* that folder from the page's: "" or "EXP/" */
};
bool sitepages_link_exists(const char *rel, char *href, size_t size, void *ctx);

/* The run page's path relative to the site's root for a run (a host of across-hosts.tsv):
 * "runs/NAME/index.html" when s has it, else NULL. */
bool sitepages_has_run(const struct site *s, const char *name);

/* Reads out_dir-independent file path (a Markdown file) and writes it through sitemd (section
 * as sitemd_write's, or first_para): false when the file is absent or unreadable. */
bool sitepages_markdown(FILE *f, const char *path, const char *section, bool first_para,
			const struct sitepages_links *links);

/* "sudo-rs", "sr-cbor-4.2.0": a series of a figure whose data are read here, the points owned. */
struct sitepages_series {
	char name[128];
	char format[64]; /* its policy format, "-" for any: its look (sitesvg_style) */
	struct sitesvg_point *pts;
	size_t n, cap;
};
int sitepages_series_add(struct sitepages_series *s, double x, double y, double lo, double hi,
			 struct errbuf *eb) __attribute__((warn_unused_result));
void sitepages_series_free(struct sitepages_series *s, size_t n);

/* The figure's series over ser[0..n) (at most 64) into out, each styled (colours into hex). */
void sitepages_to_svg(const struct sitepages_series *ser, size_t n, struct sitesvg_series *out,
		      char (*hex)[8]);

#endif
