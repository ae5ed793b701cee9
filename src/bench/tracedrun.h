/* tracedrun: one run of a command under strace, judged (ok, exit_differs, untraceable) and counted.
 */
#ifndef RARPERF_TRACEDRUN_H
#define RARPERF_TRACEDRUN_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "errbuf.h"
#include "proc.h"
#include "straceprof.h"

/* Bytes of a message at most: the reader's error or the first line the run wrote to stderr. */
#define TRACEDRUN_MESSAGE_MAX 160

enum tracedrun_status {
	TRACEDRUN_OK,           /* traced, exited 0 as the timed runs did */
	TRACEDRUN_EXIT_DIFFERS, /* traced, exited otherwise than the timed runs (all 0) */
	TRACEDRUN_UNTRACEABLE   /* strace could not run it, its trace is unreadable, or it
				   passed its timeout: no counts */
};

/* One traced run. Filled by tracedrun_run, freed by tracedrun_clear. */
struct tracedrun {
	enum tracedrun_status status;
	char message[TRACEDRUN_MESSAGE_MAX + 1]; /* why, sanitised (sanitize_text); "": none */
	struct proc_sample sample;               /* the traced run's (strace's wall time too) */
	struct straceprof prof;                  /* its counts, unless untraceable */
};

/*
 * Runs traced (a command from straceprof_cmd that writes its trace to
 * trace) once and reads the trace back into t. stderr_fd is the file the
 * command's stderr goes to (PROC_OUTPUT_STDERR_FD), emptied before the run,
 * or -1 when it is not kept. timeout_ms is the command's timeout (for the
 * message; 0: none). The message of a run strace could not trace is the
 * reader's error, else the first non-empty line of stderr, else "strace
 * could not run it"; a run that exits otherwise gets that first line of
 * stderr, when kept. The trace file stays the caller's to remove. Returns 0
 * (t filled, even for an untraceable run), or -1 with eb: stderr_fd could
 * not be emptied, the spawn failed, or the run was stopped (its
 * proc_opts.stop: "interrupted"). t needs tracedrun_clear either way.
 */
int tracedrun_run(struct tracedrun *t, struct proc_cmd *traced, const char *trace, int stderr_fd,
		  uint32_t timeout_ms, struct errbuf *eb) __attribute__((warn_unused_result));

/* "ok", "exit_differs" or "untraceable". */
const char *tracedrun_status_name(enum tracedrun_status s);

/* Adds t's "status", its "message" when it has one, and "traced_exit_code" to o (o adopts them). */
void tracedrun_json_status(const struct tracedrun *t, cJSON *o);

/* Adds t's counts (straceprof_json) to o unless t is untraceable. Sorts t's tables. */
void tracedrun_json_counts(struct tracedrun *t, cJSON *o);

/*
 * The first non-empty line of what the file at fd holds from its start (of
 * its first len - 1 bytes, 512 at most), a trailing CR dropped, sanitised
 * into buf (len bytes, NUL-terminated): a tool's stderr, shown on a terminal
 * and in JSON. "" when the file holds none.
 */
void tracedrun_stderr_line(int fd, char *buf, size_t len);

/* Frees what t holds. A zeroed t is a no-op. */
void tracedrun_clear(struct tracedrun *t);

#endif
