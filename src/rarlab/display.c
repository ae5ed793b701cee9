/* display: format one status line per host; on a TTY move the cursor up and redraw them all. */
#include "display.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define LINE_BYTES 512

/*
 * What is printed comes from hosts: names are safe path components
 * (inventory.h) and every point and message was stored sanitised by
 * hostpool, so the only escape sequences written are the display's own.
 */

struct display {
	FILE *f;
	bool tty;
	struct hostpool *hp;
	const char *const *names;
	size_t n, drawn;
	unsigned *versions; /* last version printed per host (plain mode) */
	int width;          /* name column */
};

struct display *display_new(FILE *f, bool tty, struct hostpool *hp, const char *const *names)
{
	struct display *d = calloc(1, sizeof(*d));

	if (d == NULL)
		return NULL;
	d->n = hostpool_count(hp);
	d->versions = calloc(d->n ? d->n : 1, sizeof(*d->versions));
	if (d->versions == NULL) {
		free(d);
		return NULL;
	}
	d->f = f;
	d->tty = tty;
	d->hp = hp;
	d->names = names;
	d->width = 4;
	for (size_t i = 0; i < d->n; i++)
		if ((int)strlen(names[i]) > d->width)
			d->width = (int)strlen(names[i]);
	return d;
}

void display_free(struct display *d)
{
	if (d == NULL)
		return;
	free(d->versions);
	free(d);
}

static void format_line(const struct display *d, size_t i, const struct hostpool_status *s,
			char *line, size_t cap)
{
	char state[32], eta[24] = "";

	if (s->state == HOSTPOOL_FINISHED)
		hostpool_outcome_name(s->outcome, s->exit_code, state, sizeof(state));
	else
		snprintf(state, sizeof(state), "%s", hostpool_state_name(s->state));
	if (s->state == HOSTPOOL_RUNNING && s->eta_s >= 0)
		snprintf(eta, sizeof(eta), "ETA %.0fs", s->eta_s);
	snprintf(line, cap, "%-*s  %-11s %5u/%-5u %-10s %s", d->width, d->names[i], state, s->done,
		 s->total, eta,
		 s->state == HOSTPOOL_FINISHED || s->point[0] == '\0' ? s->message : s->point);
}

static int term_columns(FILE *f)
{
	struct winsize ws;

	if (ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 10)
		return ws.ws_col;
	return 80;
}

void display_update(struct display *d)
{
	char line[LINE_BYTES];
	struct hostpool_status s;

	if (d->tty) {
		int cols = term_columns(d->f);
		if (d->drawn > 0)
			fprintf(d->f, "\033[%zuA", d->drawn);
		for (size_t i = 0; i < d->n; i++) {
			hostpool_get(d->hp, i, &s);
			format_line(d, i, &s, line, sizeof(line));
			/* a wrapped line would break the redraw: cut at the terminal width,
			 * never inside a UTF-8 character (the texts are sanitised: no escapes) */
			if ((int)strlen(line) >= cols) {
				int cut = cols - 1;
				while (cut > 0 && ((unsigned char)line[cut] & 0xc0) == 0x80)
					cut--;
				line[cut] = '\0';
			}
			fprintf(d->f, "\r\033[K%s\n", line);
		}
		d->drawn = d->n;
	} else {
		for (size_t i = 0; i < d->n; i++) {
			hostpool_get(d->hp, i, &s);
			if (s.version == d->versions[i])
				continue;
			d->versions[i] = s.version;
			format_line(d, i, &s, line, sizeof(line));
			fprintf(d->f, "%s\n", line);
		}
	}
	fflush(d->f);
}
