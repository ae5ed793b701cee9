/* journal: the append-only, fsync'd record of finished sweep points (DIR/journal.jsonl) and its
 * reader. */
#ifndef RARPERF_JOURNAL_H
#define RARPERF_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "errbuf.h"
#include "measure.h"

#define JOURNAL_LINE_MAX_BYTES (64u * 1024 * 1024)
#define JOURNAL_FILE_MAX_BYTES (1024ull * 1024 * 1024)
#define JOURNAL_SUBJECTS_MAX 64

/*
 * File format, one JSON object per line:
 *   {"journal":1,"manifest_sha256":"<hex>","versions":{...},"started":"<UTC>"}
 *   {"point":"<sweep id>","index":N,"subjects":[{"subject":"sudo","format":"sudoers",
 *     "command":"...","wall_ns":[..],"user_ns":[..],"system_ns":[..],"exit_codes":[..],
 *     "nivcsw":[..],"stall_ns":[..]}, ...],
 *    "host":{"steal":F,"busy":F,"load1":F,"running":N},"remeasured":N,"discarded_runs":N}
 * "nivcsw", "stall_ns", "host", "remeasured" and "discarded_runs" are optional
 * (journals written before rarbench recorded contention, or, for stall_ns, the
 * CPU stall of every run, lack them; they read as unknown and 0).
 * Every line ends in '\n' and is fsync'd before the next point starts. A
 * last line without its '\n' or that does not parse (kill -9 mid-write) is
 * ignored; a bad line followed by good ones is an error.
 */

/* One subject's samples at one point. */
struct journal_subject {
	char *subject;
	char *format;
	char *command;
	struct measure_result result; /* arrays owned here (freed by journal_contents_clear) */
};

/* A subject that refused the step's policy (runstate.h, "Refusals"): journalled as the step's
 * "refused" so that --resume knows the refusal. Read back, each string is text (no control
 * character, bidi control or invalid UTF-8) and owned by the point. */
#define JOURNAL_REFUSAL_ERROR_MAX 1024
struct journal_refusal {
	char *subject;
	char *cls;   /* refusal_class_name: "limit", "parse", "crash", "timeout" */
	char *error; /* the tool's line, made safe (refusal_line); "" when none */
};

/* What a step saw of its host and how often it was measured again (contention.h). */
struct journal_step_info {
	bool has_host;
	double steal, busy, load1; /* over the step (fractions), load at its end */
	unsigned running;          /* runnable tasks at its end */
	uint32_t remeasured;       /* attempts thrown away before this one */
	uint64_t discarded_runs;   /* their runs, summed over subjects */
	/* The subjects that refused the step's policy; the writer's (read only) when appended,
	 * the point's own (freed with it) when read. */
	struct journal_refusal *refused;
	size_t nrefused;
	/* The daemons the step's subjects asked (pkexec's polkitd), journalled as "daemons"; the
	 * writer's (read only) when appended, the point's own when read. */
	struct journal_daemon *daemons;
	size_t ndaemons;
};

/* A daemon's cost over a step's runs of one subject: CPU time of all its threads, the
 * subject's runs it served (warm-up and timed), its peak resident size. */
struct journal_daemon {
	char *subject;
	char *name;
	uint64_t cpu_ns, runs, maxrss_kib;
};

struct journal_point {
	char *id;
	size_t index;
	struct journal_subject *subjects;
	size_t nsubjects;
	struct journal_step_info info;
};

/* What journal_parse found. */
struct journal_contents {
	cJSON *header; /* NULL when the file holds no complete line */
	struct journal_point *points;
	size_t npoints;
	size_t valid_len; /* bytes up to the end of the last good line */
	bool torn;        /* a partial last line was dropped */
};

/*
 * Parses a journal's text into *out (zeroed by this call; free with
 * journal_contents_clear). source names the input in messages. Bounded:
 * lines up to JOURNAL_LINE_MAX_BYTES, arrays of equal length >= 1. A
 * duplicate point id is an error. Returns 0, or -1 with eb naming the line.
 */
int journal_parse(const char *text, size_t len, const char *source, struct journal_contents *out,
		  struct errbuf *eb);

/* Reads path (at most JOURNAL_FILE_MAX_BYTES) and parses it as above. */
int journal_read(const char *path, struct journal_contents *out, struct errbuf *eb);

/* Frees what *c holds and zeroes it. */
void journal_contents_clear(struct journal_contents *c);

/*
 * Checks that c's header records manifest_sha256 and versions (compared
 * as JSON values). Returns 0, or -1 with eb saying what changed.
 */
int journal_check(const struct journal_contents *c, const char *manifest_sha256,
		  const cJSON *versions, struct errbuf *eb);

/* An open journal being appended to. */
struct journal;

/*
 * Creates path (which must not exist) and writes and fsyncs the header
 * line, then fsyncs the directory. versions is copied. NULL on error.
 */
struct journal *journal_create(const char *path, const char *manifest_sha256, const cJSON *versions,
			       const char *started, struct errbuf *eb);

/*
 * Opens an existing journal for appending after truncating it to
 * valid_len (dropping a torn last line). NULL on error.
 */
struct journal *journal_reopen(const char *path, size_t valid_len, struct errbuf *eb);

/*
 * Appends one point line (subjects[i].result must hold >= 1 run), with what
 * the step saw (info NULL: nothing beside the results), and fsyncs it.
 * Returns 0 or -1.
 */
int journal_append_step(struct journal *j, const char *point_id, size_t index,
			const struct journal_subject *subjects, size_t n,
			const struct journal_step_info *info, struct errbuf *eb);

/* Closes j. NULL is a no-op. */
void journal_close(struct journal *j);

#endif
