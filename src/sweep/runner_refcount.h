/* runner_refcount: rarref's instructions, counted once per counted pass, so that a host's price of
 * one user-space instruction is rarref's timed work over its counted work (doc/counts.md, "Time
 * as counts × prices"). */
#ifndef RARPERF_RUNNER_REFCOUNT_H
#define RARPERF_RUNNER_REFCOUNT_H

#include <cjson/cJSON.h>

#include "errbuf.h"
#include "runner_setup.h"

/* The file, under a run's counts folder, that holds rarref's counts. */
#define RUNNER_REFCOUNT_FILE "reference.json"

/*
 * With the manifest's "reference" and "counts": rarref's bare run (0 units) and its
 * calibration run (the manifest's units) counted under callgrind as the bench user, valgrind
 * writing into userdir (the bench user's, emptied before and after), into
 * OUT/counts/reference.json: {"instrument", "version", "units", "instructions",
 * "bare_instructions"}. Kept from an earlier invocation (--resume). 0, or -1 (eb).
 */
int runner_refcount_pass(struct runner *r, const char *userdir, struct errbuf *eb);

/* OUT/counts/reference.json parsed; NULL with eb->msg "" when there is none, NULL with a message
 * when the file is not one. */
cJSON *runner_refcount_read(const char *out, struct errbuf *eb);

#endif
