/* display: rarlab's live view, one line per host — redrawn in place on a TTY, plain lines
 * otherwise. */
#ifndef RARPERF_RARLAB_DISPLAY_H
#define RARPERF_RARLAB_DISPLAY_H

#include <stdbool.h>
#include <stdio.h>

#include "hostpool.h"

struct display;

/* A display of the hosts of hp named names[i], written to f; tty selects in-place redraws. */
struct display *display_new(FILE *f, bool tty, struct hostpool *hp, const char *const *names);

/* Shows what changed since the last call (TTY: redraws every line). */
void display_update(struct display *d);

/* Frees d; NULL is a no-op. */
void display_free(struct display *d);

#endif
