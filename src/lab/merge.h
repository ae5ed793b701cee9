/* merge: DIR/merged.json (hyperfine format, "host" in every result's parameters) and
 * DIR/summary.tsv. */
#ifndef RARPERF_MERGE_H
#define RARPERF_MERGE_H

#include <stddef.h>
#include <stdio.h>

#include "errbuf.h"
#include "hostpool.h"

/* One host's line of the summary. */
struct merge_host {
	const char *name; /* inventory name (a safe path component) */
	struct hostpool_status status;
	size_t results;  /* filled by merge_results: results merged */
	size_t rejected; /* filled by merge_results: results left out (not objects, ...) */
	bool failed;     /* set by merge_results: the host's results could not be merged */
	unsigned
	    group; /* a mixed lab's group of hosts equal in every compared key (g1, ...); 0: none */
	/* the profile counters against the other hosts' (labprofile): "" not compared, "same",
	 * else the first counter that differs */
	char profile[HOSTPOOL_TEXT_MAX];
};

/*
 * Streams DIR/<name>/results.json of every host whose DIR/<name>/done.json
 * is complete (hoststream_host_complete) into DIR/merged.json, one host's
 * file at a time (mapped, never parsed into a tree: memory stays near the
 * largest file), hosts in the given order, with parameters.host = name in
 * every result (hostresults_write), then, when some host's file has
 * rarbench's calibration workload, a top-level reference object whose results
 * are every such host's reference results, with their host (hostresults_write_reference),
 * then a top-level "meta" {"rarlab":
 * {...}, "hosts": {name: that host's meta}, "lab": lab_json} (lab_json: the
 * lab's comparison, labident_cmp_json; NULL: no "lab"). Sets hosts[i].results and
 * .rejected. A host whose file cannot be merged, or of which some results
 * were rejected, gets failed set, and its status turned into
 * HOST_RESULTS with the reason as message; the other hosts are merged
 * all the same. Returns the number of results merged, or -1 when
 * merged.json cannot be written.
 */
long merge_results(const char *out_dir, const char *run_id, const char *lab_json,
		   struct merge_host *hosts, size_t n, struct errbuf *eb);

/*
 * Writes DIR/summary.tsv (host, outcome, points_done, points_total, results,
 * wall_s, message, group: "g1"... or "-", profile: the host's profile note or "-") and prints the
 * same as an aligned table to f (NULL: not printed). Names and messages go through sanitize_str: no
 * byte of them can drive the terminal or split a TSV line. Returns 0 or -1.
 */
int merge_summary(const char *out_dir, const struct merge_host *hosts, size_t n, FILE *f,
		  struct errbuf *eb);

#endif
