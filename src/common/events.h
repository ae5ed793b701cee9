/* events: the reader of rarbench's --progress jsonl event stream (doc/interfaces.md §5). */
/*
 * The reader lives in src/common, below both of its sides: rarbench's writer
 * (src/sweep/progress) and rarlab, which reads the stream of every host
 * (src/lab/hoststream) without needing the sweep.
 */
#ifndef RARPERF_EVENTS_H
#define RARPERF_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"

#define EVENTS_LINE_MAX_BYTES (64 * 1024) /* a longer line is an error */
#define EVENTS_FILES_MAX 8
#define EVENTS_TEXT_MAX 256

/* The events' names (each line's "event"): the writer and this reader spell them from here. */
#define EVENTS_NAME_START "start"
#define EVENTS_NAME_SKIP_SUBJECT "skip_subject"
#define EVENTS_NAME_POINT_START "point_start"
#define EVENTS_NAME_POINT_DONE "point_done"
#define EVENTS_NAME_REMEASURE "remeasure" /* written; read as EVENTS_UNKNOWN */
#define EVENTS_NAME_ERROR "error"
#define EVENTS_NAME_DONE "done"

enum events_kind {
	EVENTS_UNKNOWN, /* an event this reader does not know: ignore it */
	EVENTS_START,
	EVENTS_SKIP_SUBJECT,
	EVENTS_POINT_START,
	EVENTS_POINT_DONE,
	EVENTS_ERROR,
	EVENTS_DONE,
};

struct events_file {
	char name[64];
	char sha256[65]; /* lower-case hex */
};

/* One event; fields an event does not carry are zero. Strings are truncated to fit. */
struct events_event {
	enum events_kind kind;
	double t;
	uint32_t total, done, index; /* start, point_start, point_done (done: optional) */
	double eta_s;                /* point_done; -1 when absent */
	char text[EVENTS_TEXT_MAX];  /* start: name; skip_subject: "subject: reason";
					point_start: "k=v k=v" of params; error: message */
	int status;                  /* done */
	struct events_file files[EVENTS_FILES_MAX];
	size_t nfiles;
};

/*
 * Parses one line (without its newline; len bytes, need not be NUL-terminated)
 * into ev. Unknown events give kind EVENTS_UNKNOWN and return 0; unknown keys
 * are ignored. Returns -1 with eb filled when the line is not a JSON object
 * with a string "event" and a number "t", or a known event lacks a field.
 */
int events_parse_line(const char *line, size_t len, struct events_event *ev, struct errbuf *eb);

/* Called for each event; a non-zero return stops events_feed with that value. */
typedef int (*events_cb)(void *ctx, const struct events_event *ev);

struct events_reader;

/* A new reader (its line buffer grows on demand, up to EVENTS_LINE_MAX_BYTES). NULL when out
 * of memory. */
struct events_reader *events_reader_new(void);
void events_reader_free(struct events_reader *r);

/*
 * Feeds len bytes of the stream; calls cb for each complete line's event.
 * Empty lines are skipped. Returns 0, cb's non-zero value, or -1 with eb
 * filled ("line N: ...") on a bad line or a line over EVENTS_LINE_MAX_BYTES;
 * after -1 the reader stays failed.
 */
int events_feed(struct events_reader *r, const char *data, size_t len, events_cb cb, void *ctx,
		struct errbuf *eb);

/*
 * Ends the stream: a last line without newline is parsed. Returns like
 * events_feed. *saw_done tells whether a done event was read.
 */
int events_finish(struct events_reader *r, events_cb cb, void *ctx, bool *saw_done,
		  struct errbuf *eb);

/* Lines read so far. */
unsigned long events_lines(const struct events_reader *r);

#endif
