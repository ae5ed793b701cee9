/* history: a tool's releases in version order, their fitted intercept and slope with intervals,
 * the steps between them (changepoint.h) and the profile counters that explain each step
 * (rarplot --history). */
#ifndef RARPERF_HISTORY_H
#define RARPERF_HISTORY_H

#include <stddef.h>

#include "errbuf.h"

struct diary;

/*
 * Design: history reads what rarplot has just written in out_dir, not rarplot's structures, so
 * that it depends on nothing but the files' documented columns: fits.tsv (one fit per subject),
 * profile-fits.tsv (when the results carried profiles) and profile-costs.tsv (rarbench writes
 * it beside results.json; the first input's that has one). A subject
 * "LINE-X.Y.Z" (sr-json-4.2.0) is release X.Y.Z of LINE; every LINE with two releases or more is
 * a history; the anchor subject (sudo) is drawn as a band. It writes history.tsv,
 * history-steps.tsv, data/history/LINE.tsv, history-diary.tsv (with a diary), a "Release history"
 * section appended to report.md and,
 * when gnuplot and the scripts are given, history.<fmt> for each format (plots/history.gp).
 */
struct history_opts {
	const char *out_dir;
	const char *const *inputs; /* the results files: a profile-costs.tsv beside one is read */
	size_t n_inputs;
	const char *axis;    /* the fits' x ("nb_tasks"), or NULL for the first in fits.tsv */
	const char *anchor;  /* the subject drawn as a band ("sudo"); absent: no band */
	const char *gnuplot; /* NULL or "": no figure */
	const char *scripts_dir;
	const char *const *formats; /* png, svg, pdf */
	size_t n_formats;
	double alpha;       /* family-wise error rate of the step tests */
	double min_rel_pct; /* the smallest change called a step */
	/* The diary's sentences to match with release pairs (diary.h), or NULL: report.md's table
	 * "The original README, sentence by sentence" and history-diary.tsv. */
	const struct diary *diary;
};

/*
 * Runs the history of out_dir (see above). Returns 0 (also when no subject has releases: the
 * report then says so), or -1 with eb filled (a file unreadable, a write failed, gnuplot failed).
 */
int history_run(const struct history_opts *o, struct errbuf *eb);

#endif
