/*
 * rarsite: the static site of every published run (doc/results/), and the Bencher export of a
 * results file. Uses src/common and src/fit (Makefile rarsite_USES); reads the published TSV
 * files, report.md and README.md, and results.json's meta with cJSON; writes only under its
 * output directory, each file whole (temporary file and rename).
 *
 * Modules, one line each:
 *   siteload    doc/results/'s run folders, their experiments, each results.json's meta
 *   sitetsv     a published TSV read by its header
 *   sitemd      published Markdown (report.md, README.md) as escaped HTML
 *   sitehtml    escaping, numbers, each page's frame, a TSV as a table
 *   sitesvg     one figure as inline SVG on linear and log axes, with its numbers' table
 *   siteout     the output directory: pages written whole, raw files copied
 *   sitepages   the pages: home, across machines, runs, history, counts
 *               (site_run.c: one page per run; site_history.c: RootAsRole's history)
 *   sitebmf     a results file's fits as Bencher Metric Format JSON (rarsite --bmf)
 */
#ifndef RARPERF_RARSITE_H
#define RARPERF_RARSITE_H

#include "siteload.h"
#include "sitetsv.h"

/* What every page is made from. */
struct site {
	const char *results_dir; /* doc/results */
	const char *doc_dir;     /* doc (rootasrole-history.md) */
	const char *readme;      /* the project's README.md (its headline), or NULL */
	const char *out_dir;
	struct siteload *load;
	struct sitetsv *across;        /* across-hosts.tsv, or NULL when absent */
	struct sitetsv *across_values; /* across-hosts-values.tsv, or NULL */
};

#endif
