/* report: rarbench's console output — progress bar (TTY only), hyperfine's summaries, warnings,
 * comparison. */
#ifndef RARPERF_REPORT_H
#define RARPERF_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "errbuf.h"
#include "export.h"
#include "measure.h"

/* hyperfine's --style values. */
enum report_style {
	REPORT_STYLE_FULL,    /* colours and a progress bar */
	REPORT_STYLE_NOCOLOR, /* progress bar, no colours */
	REPORT_STYLE_BASIC,   /* neither */
	REPORT_STYLE_COLOR,   /* colours, no progress bar */
	REPORT_STYLE_NONE     /* no output on stdout (warnings and errors still go to stderr) */
};

/* hyperfine's MIN_EXECUTION_TIME: with a shell, faster runs trigger a warning. */
#define REPORT_MIN_EXECUTION_NS 5000000ULL

struct report;

/*
 * Creates a reporter writing results to out and warnings / the progress bar
 * to err (both borrowed). The progress bar is drawn only when the style has
 * one and err is a terminal. unit NULL: hyperfine's automatic choice (ms
 * below one second). Returns NULL on out-of-memory.
 */
struct report *report_new(FILE *out, FILE *err, enum report_style style,
			  const enum export_time_unit *unit);
void report_free(struct report *rep);

/*
 * After each summary, also show the estimate with its 95 % interval, the
 * precision reached and the contended runs, as the export's "rarbench"
 * object says them. x is borrowed; NULL: hyperfine's summary only.
 */
void report_set_extras(struct report *rep, const struct export_extras *x);

/* Parses a --style value; -1 when unknown. */
int report_style_parse(const char *s, enum report_style *style);

/*
 * Shows a measure event: "Benchmark N: name" at START, the progress bar on
 * WARMUP/RUN (redrawn at most every 50 ms), the summary at DONE (Time/Range
 * lines, then warnings: non-zero exits, outliers, slow first run, and with
 * shell the fast-command warning). names[i] is benchmark i's name.
 */
void report_event(struct report *rep, const struct measure_event *ev, const char *const *names,
		  bool shell);

/* A transient progress line ("Measuring shell spawning time"), TTY only; done/total runs. */
void report_progress(struct report *rep, const char *label, unsigned long long done,
		     unsigned long long total);

/* Clears the progress bar line if one is drawn. */
void report_clear(struct report *rep);

/*
 * hyperfine's final comparison ("Summary / 'a' ran / x ± y times faster
 * than 'b'") over the complete results; nothing with fewer than two.
 */
void report_comparison(struct report *rep, const char *const *names,
		       const struct measure_result *results, size_t n);

#endif
