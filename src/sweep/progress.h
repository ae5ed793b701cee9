/* progress: the progress of a manifest run, as JSON events (doc/interfaces.md §5) or a
 * bar. */
#ifndef RARPERF_PROGRESS_H
#define RARPERF_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum progress_mode {
	PROGRESS_NONE,
	PROGRESS_BAR,  /* a one-line bar with ETA, redrawn on stderr */
	PROGRESS_JSONL /* one JSON event per line on stdout */
};

struct progress {
	enum progress_mode mode;
	FILE *out;                /* stdout for jsonl, stderr for the bar */
	uint64_t start_ns;        /* CLOCK_MONOTONIC when the run started */
	uint64_t points_start_ns; /* when the first point of this invocation started */
	size_t total;
	size_t done;      /* points finished, in the journal included */
	size_t done_here; /* points finished by this invocation */
	double eta_s;     /* < 0: unknown yet */
};

/* Sets p up for mode (clock starts now). */
void progress_init(struct progress *p, enum progress_mode mode, size_t total, size_t done);

/* The "start" event: name, total, done, active subject ids, absolute output dir. */
void progress_start(struct progress *p, const char *name, const char *const *subjects, size_t n,
		    const char *out);

/* "skip_subject": a subject missing on this host. */
void progress_skip(struct progress *p, const char *subject, const char *reason);

/* "point_start": index is 1-based; params are n name/value pairs. */
void progress_point_start(struct progress *p, size_t index, const char *const *names,
			  const char *const *values, size_t n);

/* "point_done": updates the ETA over the points left. */
void progress_point_done(struct progress *p, size_t index);

/*
 * Precision mode: more steps were planned (the points short of the
 * precision get another round). total grows by more; the next events carry it.
 */
void progress_grow(struct progress *p, size_t more);

/*
 * "remeasure": the step index (1-based) is measured again because of
 * contention; reason is one line. No point_start follows for that step.
 */
void progress_remeasure(struct progress *p, size_t index, const char *reason);

/* "error": message is one line. */
void progress_error(struct progress *p, const char *message);

/*
 * "done", the last event: its status is 0 when ok (the run's results written),
 * else 1 (doc/interfaces.md section 5); files are n name/SHA-256 pairs (n may
 * be 0 when the run failed).
 */
void progress_done(struct progress *p, bool ok, const char *const *names, const char *const *sha256,
		   size_t n);

#endif
