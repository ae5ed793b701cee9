/* profileload: the "profile" objects of a results file (rarbench's results.json, rarlab's
 * merged.json) read, one source per host or file, and handed to a sink: src/fit's profilefit_sink
 * makes the one that fills a profilefit (the reader depends on no statistics). */
#ifndef RARPERF_PROFILELOAD_H
#define RARPERF_PROFILELOAD_H

#include <stddef.h>

#include "errbuf.h"

/* The largest results file read for its profiles (src/fit's PROFILEFIT_FILE_MAX_BYTES too). */
#define PROFILELOAD_FILE_MAX_BYTES (256u << 20)

/* Longest counter name kept (a path after "open."). */
#define PROFILELOAD_COUNTER_MAX 4200

/*
 * Where what is read goes, each call 0 or -1 with eb: a source's name and its index (source), one
 * counter's value of a subject at a point (value; point: every axis's value as text, x the
 * fitted axis's, the repetition aside), a subject not traced at x (untraced).
 */
struct profileload_sink {
	void *arg;
	int (*source)(void *arg, const char *name, size_t *index, struct errbuf *eb);
	int (*value)(void *arg, size_t source, const char *subject, const char *point, double x,
		     unsigned repetition, const char *counter, double value, struct errbuf *eb);
	int (*untraced)(void *arg, const char *subject, double x, struct errbuf *eb);
};

/*
 * Hands the counters of every profiled result of the results file input whose
 * parameters hold axis (a number) to sink: the totals, rusage, sys.NAME,
 * fail.NAME, open.PATH and exec.PROGRAM, at the point of the other axes'
 * values. Their source: source when not NULL, else "host H" for a result of
 * a lab's merged results (parameters.host), else input. Adds how many
 * results had a profile to *found. 0, or -1 with eb naming the file.
 */
int profileload_file(const struct profileload_sink *sink, const char *input, const char *source,
		     const char *axis, size_t *found, struct errbuf *eb)
    __attribute__((warn_unused_result));

#endif
