/* display: rarlab's live view, one line per host — redrawn in place on a TTY, plain lines
 * otherwise. */
#ifndef RARPERF_RARLAB_DISPLAY_H
#define RARPERF_RARLAB_DISPLAY_H

#include <stdbool.h>
#include <stdio.h>

#include "hostpool.h"

/* More hosts than this: a summary line plus the hosts failing or late, not a line per host. */
#define DISPLAY_COMPACT_HOSTS 24

struct display;

/*
 * A display of the hosts of hp named names[i], written to f; tty selects
 * in-place redraws. Up to DISPLAY_COMPACT_HOSTS hosts, one line each; more:
 * a summary line (counts, points) and the hosts failing or late (running
 * with an ETA well above the median), a few of each on a TTY, each once as
 * it happens otherwise.
 */
struct display *display_new(FILE *f, bool tty, struct hostpool *hp, const char *const *names);

/* Shows what changed since the last call (TTY: redraws every line). */
void display_update(struct display *d);

/* Frees d; NULL is a no-op. */
void display_free(struct display *d);

#endif
