/* runner_counts: the counted pass of a manifest run, after its profile pass: each active subject
 * run at every point (twice; five times, the median kept, when they differ) under valgrind's
 * callgrind with the bench user's set-ID identity (runner_counts.c's design note;
 * doc/counts.md). */
#ifndef RARPERF_RUNNER_COUNTS_H
#define RARPERF_RUNNER_COUNTS_H

#include <cjson/cJSON.h>

#include "errbuf.h"
#include "runner_setup.h"

/* The counted pass's folder under a run's output directory. */
#define RUNNER_COUNTS_DIR "counts"

/*
 * With the manifest's "counts" (or --counts), after the timed steps and the
 * profile pass: every point not yet counted (OUT/counts/point-N.json
 * missing) gets its policies, the grant check and one counted run of each
 * active subject, then deny-all policies and point-N.json. With "profile"
 * as well, each subject's counted launch is also run without valgrind
 * under strace, and its system calls compared with the profile's. 0, or -1
 * (eb; "interrupted").
 */
int runner_counts_pass(struct runner *r, struct errbuf *eb);

/*
 * The counts of point index (0-based) under out, parsed; NULL with
 * eb->msg "" when the point has none, NULL with a message when the file is
 * not one.
 */
cJSON *runner_counts_read(const char *out, size_t index, struct errbuf *eb);

#endif
