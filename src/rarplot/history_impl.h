/* history_impl: what history.c (load, tests, tables, figure) and history_report.c (report.md)
 * share. */
#ifndef RARPERF_HISTORY_IMPL_H
#define RARPERF_HISTORY_IMPL_H

#include <stdbool.h>
#include <stdio.h>

#include "changepoint.h"
#include "diary.h"
#include "history.h"

#define HISTORY_RELEASES_MAX 64
#define HISTORY_LINES_MAX 8
#define HISTORY_NAME_MAX 96
#define HISTORY_COSTS_MAX 64
#define HISTORY_FILE_MAX_BYTES (64u * 1024 * 1024)
/* Parameters of a line's fit: the series of the tests are line * HISTORY_PARAMS + param. */
#define HISTORY_PARAMS 2
#define HISTORY_INTERCEPT 0
#define HISTORY_SLOPE 1

/* One subject's line from fits.tsv: intercept in ms, slope in us per unit of the axis. */
struct history_fit {
	char subject[HISTORY_NAME_MAX];
	double v[HISTORY_PARAMS], se[HISTORY_PARAMS], lo[HISTORY_PARAMS], hi[HISTORY_PARAMS];
	size_t n;
};

struct history_release {
	unsigned ver[3];
	char version[24];
	struct history_fit fit;
};

/* A tool's line of releases ("sr-json"), in version order once loaded. */
struct history_line {
	char name[HISTORY_NAME_MAX];
	struct history_release rel[HISTORY_RELEASES_MAX];
	size_t n;
};

/* A profile counter's fit (profile-fits.tsv): per run at size 0, and per unit of the axis. */
struct history_counter {
	char subject[HISTORY_NAME_MAX];
	char counter[64];
	double intercept, slope;
};

struct history_cost {
	char syscall[48];
	double ns;
};

struct history {
	char axis[64];
	struct history_line lines[HISTORY_LINES_MAX];
	size_t n_lines;
	struct history_fit anchor;
	bool has_anchor;
	struct history_counter *counters;
	size_t n_counters, cap_counters;
	struct history_cost costs[HISTORY_COSTS_MAX];
	size_t n_costs;
	struct changepoint_test *tests;
	size_t n_tests;
	/* The diary's sentences matched (history_diary_match): n_diary of them, against the
	 * builds of every line. */
	struct diary_build *diary_builds;
	struct diary_match *diary;
	size_t n_diary;
};

/* The parameter's name and unit for tables and the report (history_report.c). */
const char *history_param_name(int param);
const char *history_param_unit(int param);

/*
 * Appends the "Release history" section to f: the method, every line's releases and steps, each
 * step explained by the profile counters that changed and their price here.
 */
void history_report_markdown(const struct history *h, const struct history_opts *o, FILE *f);

/* Matches o->diary's sentences (none: nothing) against h's releases into h->diary. 0, or -1. */
int history_diary_match(struct history *h, const struct history_opts *o, struct errbuf *eb);
/* The table "The original README, sentence by sentence" (nothing without a diary). */
void history_diary_markdown(const struct history *h, const struct history_opts *o, FILE *f);
/* history-diary.tsv's text: one row per sentence, its best pair, measured value and verdict. */
void history_diary_tsv(const struct history *h, const struct history_opts *o, FILE *f);

#endif
