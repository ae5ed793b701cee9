/* hostresults: one host's results.json, checked and rewritten for the merge without a tree of it.
 */
#ifndef RARPERF_HOSTRESULTS_H
#define RARPERF_HOSTRESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "errbuf.h"

/*
 * The largest results.json rarlab fetches, checks or merges. The file is
 * mapped, never parsed into a tree, so memory stays near its size; a real
 * sweep writes a few MiB (seed-both: about 2).
 */
#define HOSTRESULTS_MAX_BYTES (64L << 20)
#define HOSTRESULTS_PARAMS_MAX_BYTES (64 * 1024) /* one result's "parameters" */

/* What a file held: results that can be merged, and results that cannot. */
struct hostresults_counts {
	size_t results;
	size_t rejected; /* not an object, several "parameters", parameters not a small object */
};

/*
 * Checks the host's results file at path: a regular file of at most
 * HOSTRESULTS_MAX_BYTES holding strict JSON (RFC 8259, UTF-8, nested at most
 * JSONSPAN_DEPTH_MAX deep): an object with one results array and at most
 * one meta (src/common/resultsfile.h). Each result must be an object with at most one "parameters"
 * member, itself an object of at most HOSTRESULTS_PARAMS_MAX_BYTES. Fills
 * *counts. Returns 0 when the file is usable and no result was rejected;
 * else -1 with eb naming the first problem (without the path: callers
 * prefix it as they name the file).
 */
int hostresults_check(const char *path, struct hostresults_counts *counts, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * Appends the results of the file at path to f, one compact result per
 * line, each but the first (*first, then cleared) after ",\n"; in each,
 * "parameters" loses every "host" key it had and gains "host": host. A
 * rejected result (see hostresults_check) is skipped and counted in
 * *counts. Call it on a file hostresults_check accepted: a failure (the
 * file changed or unreadable, f failing) returns -1 with eb filled, and
 * may leave part of the results in f.
 */
int hostresults_write(FILE *f, const char *path, const char *host, bool *first,
		      struct hostresults_counts *counts, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * The results of the top-level "reference" object of the file at path
 * (rarbench's calibration workload), written as hostresults_write writes
 * results (host added to each one's parameters), open written first when
 * *first is set and a result is written; nothing when the file has no
 * reference object with a results array. Returns 0 or -1.
 */
int hostresults_write_reference(FILE *f, const char *path, const char *host, const char *open,
				bool *first, struct errbuf *eb) __attribute__((warn_unused_result));

/*
 * Writes "host":<its top-level meta, compact> to f, after "," unless *first
 * (then cleared); nothing when the file has no meta. Returns 0 or -1.
 */
int hostresults_write_meta(FILE *f, const char *path, const char *host, bool *first,
			   struct errbuf *eb) __attribute__((warn_unused_result));

#endif
