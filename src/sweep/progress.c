/* progress: the progress of a manifest run, as JSON events (doc/interfaces.md §5) or a
 * bar. */
#include "progress.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "events.h"
#include "sanitize.h"

#define BAR_WIDTH 30

static double elapsed_s(const struct progress *p)
{
	return (double)(clock_now_ns() - p->start_ns) / 1e9;
}

void progress_init(struct progress *p, enum progress_mode mode, size_t total, size_t done)
{
	memset(p, 0, sizeof(*p));
	p->mode = mode;
	p->out = mode == PROGRESS_JSONL ? stdout : stderr;
	p->start_ns = clock_now_ns();
	p->total = total;
	p->done = done;
	p->eta_s = -1;
}

/* Starts an event object with "event" and "t"; NULL when out of memory. */
static cJSON *event(const struct progress *p, const char *name)
{
	cJSON *o = cJSON_CreateObject();

	if (o == NULL)
		return NULL;
	/* o adopts both items; a failed add leaves a shorter event, never a crash. */
	cJSON_AddStringToObject(o, "event", name);
	cJSON_AddNumberToObject(o, "t", (double)(long long)(elapsed_s(p) * 1000) / 1000.0);
	return o;
}

/*
 * Adds s to o under key, made safe for a terminal first: cJSON escapes the C0
 * controls but passes a raw C1 byte (0x9b, the 8-bit CSI) or a bidi override
 * through, and these lines are read on terminals too.
 */
static void add_text(cJSON *o, const char *key, const char *s)
{
	size_t cap = strlen(s) * 4 + 1;
	char *safe = malloc(cap);

	if (safe == NULL)
		return;
	sanitize_str(safe, cap, s);
	cJSON_AddStringToObject(o, key, safe);
	free(safe);
}

/* Prints o as one line and frees it. */
static void emit(struct progress *p, cJSON *o)
{
	char *s = o ? cJSON_PrintUnformatted(o) : NULL;

	if (s != NULL) {
		fputs(s, p->out);
		fputc('\n', p->out);
		fflush(p->out);
	}
	free(s);
	cJSON_Delete(o);
}

static void fmt_duration(double s, char *buf, size_t len)
{
	long t = s < 0 ? -1 : (long)(s + 0.5);

	if (t < 0)
		snprintf(buf, len, "--:--");
	else if (t >= 3600)
		snprintf(buf, len, "%ldh%02ldm", t / 3600, (t / 60) % 60);
	else
		snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
}

static void draw_bar(struct progress *p, const char *what)
{
	char bar[BAR_WIDTH + 1], eta[32], el[32], shown[41];
	size_t fill = p->total ? p->done * BAR_WIDTH / p->total : 0, i;

	for (i = 0; i < BAR_WIDTH; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[BAR_WIDTH] = '\0';
	fmt_duration(p->eta_s, eta, sizeof(eta));
	fmt_duration(elapsed_s(p), el, sizeof(el));
	/* The bar's own escape (clear the line) is ours; what follows it is escaped. */
	sanitize_str(shown, sizeof(shown), what);
	fprintf(p->out, "\r\033[K[%s] %zu/%zu %3zu%% elapsed %s ETA %s %.40s", bar, p->done,
		p->total, p->total ? p->done * 100 / p->total : 100, el, eta, shown);
	fflush(p->out);
}

void progress_start(struct progress *p, const char *name, const char *const *subjects, size_t n,
		    const char *out)
{
	cJSON *o, *a;
	size_t i;

	if (p->mode == PROGRESS_BAR) {
		sanitize_fprintf(p->out, "rarbench: %s: %zu points (%zu done), output in %s\n",
				 name, p->total, p->done, out);
		return;
	}
	if (p->mode != PROGRESS_JSONL || (o = event(p, EVENTS_NAME_START)) == NULL)
		return;
	add_text(o, "name", name);
	cJSON_AddNumberToObject(o, "total", (double)p->total);
	cJSON_AddNumberToObject(o, "done", (double)p->done);
	a = cJSON_AddArrayToObject(o, "subjects");
	for (i = 0; a != NULL && i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(subjects[i]));
	add_text(o, "out", out);
	emit(p, o);
}

void progress_skip(struct progress *p, const char *subject, const char *reason)
{
	cJSON *o;

	if (p->mode != PROGRESS_JSONL || (o = event(p, EVENTS_NAME_SKIP_SUBJECT)) == NULL)
		return;
	cJSON_AddStringToObject(o, "subject", subject);
	add_text(o, "reason", reason);
	emit(p, o);
}

void progress_point_start(struct progress *p, size_t index, const char *const *names,
			  const char *const *values, size_t n)
{
	cJSON *o, *params;
	char what[256] = "";
	size_t i, len = 0;

	if (p->done_here == 0 && p->points_start_ns == 0)
		p->points_start_ns = clock_now_ns();
	if (p->mode == PROGRESS_BAR) {
		for (i = 0; i < n && len < sizeof(what); i++)
			len += (size_t)snprintf(what + len, sizeof(what) - len, "%s%s=%s",
						i ? " " : "", names[i], values[i]);
		draw_bar(p, what);
		return;
	}
	if (p->mode != PROGRESS_JSONL || (o = event(p, EVENTS_NAME_POINT_START)) == NULL)
		return;
	cJSON_AddNumberToObject(o, "index", (double)index);
	cJSON_AddNumberToObject(o, "total", (double)p->total);
	params = cJSON_AddObjectToObject(o, "params");
	for (i = 0; params != NULL && i < n; i++)
		cJSON_AddStringToObject(params, names[i], values[i]);
	emit(p, o);
}

void progress_point_done(struct progress *p, size_t index)
{
	double spent;
	cJSON *o;

	p->done++;
	p->done_here++;
	spent = (double)(clock_now_ns() - p->points_start_ns) / 1e9;
	p->eta_s = spent / (double)p->done_here * (double)(p->total - p->done);
	if (p->mode == PROGRESS_BAR) {
		draw_bar(p, "");
		return;
	}
	if (p->mode != PROGRESS_JSONL || (o = event(p, EVENTS_NAME_POINT_DONE)) == NULL)
		return;
	cJSON_AddNumberToObject(o, "index", (double)index);
	cJSON_AddNumberToObject(o, "done", (double)p->done);
	cJSON_AddNumberToObject(o, "total", (double)p->total);
	cJSON_AddNumberToObject(o, "eta_s", (double)(long long)(p->eta_s * 10) / 10.0);
	emit(p, o);
}

void progress_grow(struct progress *p, size_t more)
{
	p->total += more;
}

void progress_remeasure(struct progress *p, size_t index, const char *reason)
{
	cJSON *o;

	if (p->mode == PROGRESS_BAR) {
		draw_bar(p, "measuring again (contention)");
		return;
	}
	if (p->mode != PROGRESS_JSONL || (o = event(p, EVENTS_NAME_REMEASURE)) == NULL)
		return;
	cJSON_AddNumberToObject(o, "index", (double)index);
	cJSON_AddNumberToObject(o, "total", (double)p->total);
	cJSON_AddStringToObject(o, "reason", reason);
	emit(p, o);
}

void progress_error(struct progress *p, const char *message)
{
	cJSON *o;

	if (p->mode != PROGRESS_JSONL || (o = event(p, EVENTS_NAME_ERROR)) == NULL)
		return;
	add_text(o, "message", message);
	emit(p, o);
}

void progress_done(struct progress *p, bool ok, const char *const *names, const char *const *sha256,
		   size_t n)
{
	cJSON *o, *files;
	size_t i;

	if (p->mode == PROGRESS_BAR) {
		fputc('\n', p->out);
		fflush(p->out);
		return;
	}
	if (p->mode != PROGRESS_JSONL || (o = event(p, EVENTS_NAME_DONE)) == NULL)
		return;
	cJSON_AddNumberToObject(o, "status", ok ? 0 : 1);
	files = cJSON_AddObjectToObject(o, "files");
	for (i = 0; files != NULL && i < n; i++)
		cJSON_AddStringToObject(files, names[i], sha256[i]);
	emit(p, o);
}
