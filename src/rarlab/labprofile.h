/* labprofile: after a profiled run, each host's deterministic counters against the others'. */
#ifndef RARPERF_LABPROFILE_H
#define RARPERF_LABPROFILE_H

#include <stddef.h>
#include <stdio.h>

#include "errbuf.h"
#include "manifest.h"
#include "merge.h"

/* Differences printed to the terminal at most (DIR/lab.json keeps PROFILEFIT_DIFFS_MAX). */
#define LABPROFILE_SHOWN 5

/* What labprofile_compare did. */
enum labprofile_result {
	LABPROFILE_FAILED = -1,     /* eb says why */
	LABPROFILE_COMPARED = 0,    /* the verdict printed and added to the lab's comparison */
	LABPROFILE_NOT_PROFILED = 1 /* the manifest has no profile pass: nothing done */
};

/*
 * When m asks for the profile pass: reads the profiles of DIR/<host>/results.json of every
 * host that ended ok (profileload, one source per host), compares them (profilefit: a counter
 * whose value at one point is not the same on every host and repetition), sets each host's
 * profile note ("same", or the first counter in which it alone differs: counter, point, its
 * value and the others'), prints a verdict to f, and adds "profile" to the lab's comparison
 * *lab_json (a JSON object; NULL: made). Hosts are named as in names. Returns what it did
 * (LABPROFILE_FAILED with eb: a results file that cannot be read, out of memory).
 */
enum labprofile_result labprofile_compare(const char *out_dir, const struct manifest *m,
					  struct merge_host *hosts, size_t n, char **lab_json,
					  FILE *f, struct errbuf *eb);

#endif
