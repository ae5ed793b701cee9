/* phaselog: when each host entered each state, for finding where a lab's time goes. */
#ifndef RARPERF_PHASELOG_H
#define RARPERF_PHASELOG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hostpool.h"

/*
 * Opens the file RARLAB_PHASE_LOG names (its header written), or returns NULL when the
 * variable is unset or empty or the file cannot be made (a debugging aid: never an error). As
 * root, only an absolute path in a directory nobody but root can change (trustpath), opened
 * without following a link and only when it is a regular file (doc/security.md R37).
 */
FILE *phaselog_open(void);

/*
 * Appends one row per host of hp: pass ("identify", "run"), host name, then the milliseconds
 * from t0_ns at which it entered connecting, uploading, running, fetching and finished (-1:
 * never). f NULL is a no-op.
 */
void phaselog_write(FILE *f, const char *pass, struct hostpool *hp, const char *const *names,
		    uint64_t t0_ns);

/* Appends a row for a step of the whole lab (pass, "-", finished at now). f NULL: no-op. */
void phaselog_mark(FILE *f, const char *pass, uint64_t t0_ns);

#endif
