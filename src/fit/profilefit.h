/* profilefit: fit every profile counter (profile.tsv) against the swept size, find counts that
 * differ between repetitions or hosts, and say in words what the counts mean. */
#ifndef RARPERF_PROFILEFIT_H
#define RARPERF_PROFILEFIT_H

#include <stdbool.h>
#include <stddef.h>

#include "errbuf.h"
#include "profileload.h"

/* Bounds on what profile files may hold. */
#define PROFILEFIT_FILE_MAX_BYTES PROFILELOAD_FILE_MAX_BYTES
/* The longest profile.tsv line (and written field) accepted. */
#define PROFILEFIT_FIELD_MAX 8192
#define PROFILEFIT_ROWS_MAX 4000000u
#define PROFILEFIT_SOURCES_MAX 1024 /* a lab of 1024 hosts (HOSTPOOL_FORKS_MAX) */
#define PROFILEFIT_COSTS_MAX 32
/* Differences kept (the first ones) for the report. */
#define PROFILEFIT_DIFFS_MAX 40

/* One counter of one subject against the axis: value = intercept + slope * x. */
struct profilefit_line {
	char *subject, *counter;
	double slope, intercept, r2;
	double min, max; /* of the values fitted */
	size_t n;        /* rows fitted */
	bool fitted;     /* false: fewer than two distinct x (slope 0, intercept = mean) */
};

/* A counter whose value at one point differs between repetitions or sources (hosts). */
struct profilefit_diff {
	char *subject, *counter, *point;
	double lo, hi;
	char *lo_source, *hi_source; /* where each was seen */
	/* the one source (a lab's host) whose samples all differ from the others', which all
	 * agree (on usual_value); NULL: none such (two sources, or no agreement) */
	char *odd_source;
	double odd_value, usual_value; /* the odd source's first value; the others' */
};

/* This host's price of a call (profile-costs.tsv). */
struct profilefit_cost {
	char name[32];
	double ns;
};

/* A subject the profile pass did not trace at some points (its budget): how many, from where. */
struct profilefit_untraced {
	char *subject;
	size_t points;
	double from_x; /* the smallest x not traced */
};

struct profilefit {
	char *axis;
	struct profilefit_line *lines; /* sorted by subject, then counter */
	size_t n_lines;
	struct profilefit_diff *diffs;
	size_t n_diffs, n_diffs_total;
	struct profilefit_cost costs[PROFILEFIT_COSTS_MAX];
	size_t n_costs;
	size_t n_sources;
	struct profilefit_untraced *untraced;
	size_t n_untraced, cap_untraced;
	/* internal: the rows loaded */
	struct profilefit_row *rows;
	size_t n_rows, cap_rows;
	char **sources;
};

/* A new empty set fitting against axis ("nb_tasks"); NULL when out of memory. */
struct profilefit *profilefit_new(const char *axis);

/* Frees pf. NULL is a no-op. */
void profilefit_free(struct profilefit *pf);

/*
 * Adds the rows of a profile.tsv (text, len bytes; source names the file
 * or host in messages and in differences). The header must name the axis.
 * Every row is checked: fields, a finite non-negative value; an error names
 * the source and the line. 0 or -1.
 */
int profilefit_add_tsv(struct profilefit *pf, const char *text, size_t len, const char *source,
		       struct errbuf *eb) __attribute__((warn_unused_result));

/*
 * The index of source name (an input file, or a host of a lab's merged
 * results) in *index, added when new. 0 or -1 past PROFILEFIT_SOURCES_MAX.
 */
int profilefit_add_source(struct profilefit *pf, const char *name, size_t *index, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * Adds one counter's value for subject at a point (point: every axis's
 * value as text, the repetition aside; x: the fitted axis's value) seen in
 * source. value must be finite and >= 0. 0 or -1.
 */
int profilefit_add_value(struct profilefit *pf, size_t source, const char *subject,
			 const char *point, double x, unsigned repetition, const char *counter,
			 double value, struct errbuf *eb) __attribute__((warn_unused_result));

/*
 * Notes that subject was not traced at a point of x (the profile pass's
 * budget): the report says where its counts stop. 0 or -1 (out of memory).
 */
int profilefit_add_untraced(struct profilefit *pf, const char *subject, double x, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * Fills sink so that src/results' profileload_file adds what it reads to pf (profilefit_add_source,
 * profilefit_add_value, profilefit_add_untraced). pf is borrowed: it outlives the sink's use.
 */
void profilefit_sink(struct profilefit *pf, struct profileload_sink *sink);

/* Adds the prices of a profile-costs.tsv (the first file's win). 0 or -1. */
int profilefit_add_costs(struct profilefit *pf, const char *text, size_t len, const char *source,
			 struct errbuf *eb) __attribute__((warn_unused_result));

/* Fits every (subject, counter) and finds the differences. 0 or -1 (out of memory). */
int profilefit_compute(struct profilefit *pf, struct errbuf *eb)
    __attribute__((warn_unused_result));

/* The line of subject's counter, or NULL. */
const struct profilefit_line *profilefit_find(const struct profilefit *pf, const char *subject,
					      const char *counter);

/*
 * After profilefit_compute: the mean of subject's counter at each distinct
 * x, ascending, into x and y (cap entries at most). How many.
 */
size_t profilefit_points(const struct profilefit *pf, const char *subject, const char *counter,
			 double *x, double *y, size_t cap);

/* The price of call name in ns (its own, else the floor "syscall"); 0 when none is known. */
double profilefit_cost(const struct profilefit *pf, const char *name, bool *own);

/* A subject's time slope (ms per axis unit, from the time fit), for the shares. */
struct profilefit_time {
	const char *subject;
	double slope_ms, intercept_ms;
};

struct claims_check;

#endif
