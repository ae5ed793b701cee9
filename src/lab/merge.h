/* merge: DIR/merged.json (hyperfine format, "host" in every result's parameters) and
 * DIR/summary.tsv. */
#ifndef RARPERF_RARLAB_MERGE_H
#define RARPERF_RARLAB_MERGE_H

#include <stddef.h>
#include <stdio.h>

#include "errbuf.h"
#include "hostpool.h"

/* One host's line of the summary. */
struct merge_host {
	const char *name;
	struct hostpool_status status;
	size_t results; /* filled by merge_results */
};

/*
 * Reads DIR/<name>/results.json of every host whose DIR/<name>/done.json
 * is complete (job_host_complete), adds parameters.host = name to each of
 * its results and writes them, hosts in the given order, to DIR/merged.json
 * with a top-level "meta" {"rarlab": {...}, "hosts": {name: that host's meta}}.
 * Sets hosts[i].results. Returns the number of results merged, or -1.
 */
long merge_results(const char *out_dir, const char *run_id, struct merge_host *hosts, size_t n,
		   struct errbuf *eb);

/*
 * Writes DIR/summary.tsv (host, outcome, points_done, points_total, results,
 * wall_s, message) and prints the same as an aligned table to f.
 * Returns 0 or -1.
 */
int merge_summary(const char *out_dir, const struct merge_host *hosts, size_t n, FILE *f,
		  struct errbuf *eb);

#endif
