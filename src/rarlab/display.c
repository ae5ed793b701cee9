/* display: format one status line per host; on a TTY move the cursor up and redraw them all. */
#include "display.h"

#include "clock.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define LINE_BYTES 512
#define COMPACT_LISTED 10           /* failing or late hosts listed on a TTY, each */
#define COMPACT_PLAIN_EVERY_MS 5000 /* plain mode: the summary line at most this often */
#define LATE_ETA_FACTOR 1.5         /* late: ETA above this times the median ETA, plus... */
#define LATE_ETA_SLACK_S 5.0        /* ...this many seconds */

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
	unsigned *versions;  /* last version printed per host (plain mode) */
	int width;           /* name column */
	bool compact;        /* a summary line plus the hosts late or failing */
	unsigned char *told; /* compact plain mode: TOLD_LATE, TOLD_FAILED printed */
	double *etas;        /* compact: scratch for the median ETA */
	long last_summary_ms;
	char last_summary[LINE_BYTES];
};

struct display *display_new(FILE *f, bool tty, struct hostpool *hp, const char *const *names)
{
	struct display *d = calloc(1, sizeof(*d));

	if (d == NULL)
		return NULL;
	d->n = hostpool_count(hp);
	d->versions = calloc(d->n ? d->n : 1, sizeof(*d->versions));
	d->told = calloc(d->n ? d->n : 1, sizeof(*d->told));
	d->etas = calloc(d->n ? d->n : 1, sizeof(*d->etas));
	if (d->versions == NULL || d->told == NULL || d->etas == NULL) {
		display_free(d);
		return NULL;
	}
	d->compact = d->n > DISPLAY_COMPACT_HOSTS;
	d->last_summary_ms = -COMPACT_PLAIN_EVERY_MS;
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
	free(d->told);
	free(d->etas);
	free(d);
}

static void format_line(const struct display *d, size_t i, const struct hostpool_status *s,
			char *line, size_t cap)
{
	char state[32], eta[24] = "";

	if (s->state == HOSTPOOL_FINISHED)
		host_outcome_name(s->outcome, s->exit_code, state, sizeof(state));
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

/* A wrapped line would break the redraw: cut at the terminal width, never inside a UTF-8
 * character (the texts are sanitised: no escapes). */
static void cut_line(char *line, int cols)
{
	if ((int)strlen(line) >= cols) {
		int cut = cols - 1;
		while (cut > 0 && ((unsigned char)line[cut] & 0xc0) == 0x80)
			cut--;
		line[cut] = '\0';
	}
}

enum { TOLD_LATE = 1, TOLD_FAILED = 2 };

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static bool is_failed(const struct hostpool_status *s)
{
	return s->state == HOSTPOOL_FINISHED && s->outcome != HOST_OK;
}

/*
 * Late: not done and not fetching (nearly done), with an ETA well above the
 * median ETA (once a quarter of the running hosts have one: before, the
 * median is of the fastest few), or still at it when nine hosts in ten are
 * done.
 */
static bool is_late(const struct hostpool_status *s, double median_eta, bool known_etas,
		    bool most_done)
{
	if (s->state == HOSTPOOL_FINISHED || s->state == HOSTPOOL_WAITING ||
	    s->state == HOSTPOOL_FETCHING)
		return false;
	if (s->eta_s >= 0 && median_eta >= 0 && known_etas &&
	    s->eta_s > median_eta * LATE_ETA_FACTOR + LATE_ETA_SLACK_S)
		return true;
	return most_done;
}

/* The counts into line; the median ETA of the running hosts into *median (-1: none). */
static void compact_summary(struct display *d, char *line, size_t cap, double *median,
			    bool *known_etas, size_t *finished)
{
	size_t waiting = 0, running = 0, ok = 0, failed = 0, neta = 0;
	unsigned long long done = 0, total = 0;
	struct hostpool_status s;

	for (size_t i = 0; i < d->n; i++) {
		hostpool_get(d->hp, i, &s);
		done += s.done;
		total += s.total;
		if (s.state == HOSTPOOL_WAITING)
			waiting++;
		else if (s.state != HOSTPOOL_FINISHED)
			running++;
		else if (s.outcome == HOST_OK)
			ok++;
		else
			failed++;
		if (s.state == HOSTPOOL_RUNNING && s.eta_s >= 0)
			d->etas[neta++] = s.eta_s;
	}
	qsort(d->etas, neta, sizeof(*d->etas), cmp_double);
	*median = neta > 0 ? d->etas[neta / 2] : -1;
	*known_etas = neta * 4 >= running && neta > 0;
	*finished = ok + failed;
	snprintf(line, cap,
		 "%zu hosts: %zu running, %zu waiting, %zu ok, %zu failed; points %llu/%llu", d->n,
		 running, waiting, ok, failed, done, total);
}

/* Many hosts: a summary line, then the hosts failing and the hosts late (a few of each). */
static void compact_update(struct display *d)
{
	char line[LINE_BYTES], sum[LINE_BYTES];
	struct hostpool_status s;
	size_t finished, listed[2] = {0, 0}, more[2] = {0, 0};
	double median;
	long now = clock_now_ms();
	bool most_done, known;

	compact_summary(d, sum, sizeof(sum), &median, &known, &finished);
	most_done = finished * 10 >= d->n * 9;
	if (d->tty) {
		cut_line(sum, term_columns(d->f));
		if (d->drawn > 0)
			fprintf(d->f, "\033[%zuA", d->drawn);
		fprintf(d->f, "\r\033[K%s\n", sum);
		d->drawn = 1;
	} else if (strcmp(sum, d->last_summary) != 0 &&
		   (now - d->last_summary_ms >= COMPACT_PLAIN_EVERY_MS || finished == d->n)) {
		fprintf(d->f, "%s\n", sum);
		snprintf(d->last_summary, sizeof(d->last_summary), "%s", sum);
		d->last_summary_ms = now;
	}
	for (int kind = 0; kind < 2; kind++)
		for (size_t i = 0; i < d->n; i++) {
			hostpool_get(d->hp, i, &s);
			if (kind == 0 ? !is_failed(&s) : !is_late(&s, median, known, most_done))
				continue;
			format_line(d, i, &s, line, sizeof(line));
			if (!d->tty) {
				unsigned char bit = kind == 0 ? TOLD_FAILED : TOLD_LATE;
				if (!(d->told[i] & bit))
					fprintf(d->f, "%s %s\n",
						kind == 0 ? "failed:" : "late:  ", line);
				d->told[i] |= bit;
			} else if (listed[kind] < COMPACT_LISTED) {
				cut_line(line, term_columns(d->f) - 8);
				fprintf(d->f, "\r\033[K%s %s\n",
					kind == 0 ? "failed:" : "late:  ", line);
				listed[kind]++;
				d->drawn++;
			} else {
				more[kind]++;
			}
		}
	if (d->tty && (more[0] || more[1])) {
		fprintf(d->f, "\r\033[K(and %zu more failing, %zu more late)\n", more[0], more[1]);
		d->drawn++;
	}
	if (d->tty)
		fputs("\033[J", d->f); /* lines a longer list left below */
	fflush(d->f);
}

void display_update(struct display *d)
{
	char line[LINE_BYTES];
	struct hostpool_status s;

	if (d->compact) {
		compact_update(d);
		return;
	}
	if (d->tty) {
		int cols = term_columns(d->f);
		if (d->drawn > 0)
			fprintf(d->f, "\033[%zuA", d->drawn);
		for (size_t i = 0; i < d->n; i++) {
			hostpool_get(d->hp, i, &s);
			format_line(d, i, &s, line, sizeof(line));
			cut_line(line, cols);
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
