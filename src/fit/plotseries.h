/* plotseries: turn results into per subject x format x host series along one axis, and write them
 * as TSV. */
#ifndef RARPERF_PLOTSERIES_H
#define RARPERF_PLOTSERIES_H

#include <stdbool.h>
#include <stddef.h>

#include "errbuf.h"
#include "results.h"

/* The x of perf_both: the product nb_roles x nb_tasks. */
#define PLOTSERIES_AXIS_BOTH "nb_roles*nb_tasks"

/*
 * The y of each point: its median, its mean, or rarbench's own estimate
 * (the "rarbench" object of each result: the manifest's estimator, its
 * contended runs corrected for their wait, with its 95 % interval).
 */
enum plotseries_stat {
	PLOTSERIES_MEDIAN,
	PLOTSERIES_MEAN,
	PLOTSERIES_ESTIMATE,
	/* y is the point's counted instructions (results_point.counted), not a time: "_ms"
	 * fields then hold instructions, no spread, no interval, no weight */
	PLOTSERIES_INSTRUCTIONS
};

/*
 * One measured point. y is the median, mean or estimate in ms; ylow/yhigh
 * are its spread (quartiles for the median and the estimate, mean -/+ stddev
 * for the mean, min and max when the file has neither); ci_lo/ci_hi the 95 %
 * interval of y (results.h; NaN when unknown), drawn as the error bars.
 * sigma_ms is the standard error of the point, NaN when unknown; it weights
 * the fits: stddev / sqrt(runs) for the median and the mean, the interval's
 * half-width / 1.96 for rarbench's estimate.
 */
struct plotseries_point {
	double x;
	double y_ms, ylow_ms, yhigh_ms, sigma_ms;
	double ci_lo_ms, ci_hi_ms;
	size_t runs;
	double nb_roles, nb_tasks; /* NaN when the result has no such parameter */
	/* The share of its runs rarbench found contended (NaN: not said), and whether rarbench
	 * flagged the point (more than the manifest's contention_limit, or the host's steal). */
	double contended_share;
	bool contended;
};

/*
 * The points of one subject x format x host, sorted by x. The strings are
 * borrowed from the results (or static: host "all" for an across-hosts
 * series). weighted is true when every point has a sigma. For an
 * across-hosts series y is the median over hosts and ylow/yhigh the min and
 * max over hosts (the band), and sigma is NaN.
 */
struct plotseries {
	const char *subject, *format, *host;
	struct plotseries_point *pts;
	size_t n;
	size_t source; /* the file its first point came from */
	double x_min, x_max;
	bool weighted;
};

struct plotseries_set {
	char *axis; /* the parameter on x, or PLOTSERIES_AXIS_BOTH */
	char *held; /* "nb_roles=1, nb_users=1" : the other axes held at their minimum */
	struct plotseries *series;
	size_t n_series;
	size_t n_hosts; /* distinct hosts ("-" counts as one) */
};

/*
 * Builds one series per subject x format x host of res along axis (a
 * parameter name such as "nb_tasks", or PLOTSERIES_AXIS_BOTH), in order of
 * first appearance. Every other "nb_*" parameter is held at its smallest
 * value within the series (the figure "time vs tasks at one role"). Fails
 * with a one-line message naming the file when no result has the axis, a
 * result lacks it or has a non-numeric value, or a series has fewer than
 * FIT_MIN_DISTINCT_X distinct x values. Returns 0 and *out (free with
 * plotseries_set_free), or -1.
 */
int plotseries_build(const struct results *res, const char *axis, enum plotseries_stat stat,
		     struct plotseries_set **out, struct errbuf *eb);

/* Whether every result of res carries counted instructions. */
bool plotseries_all_counted(const struct results *res);

/* Whether some result does (then rarplot fits the counted subjects' too). */
bool plotseries_any_counted(const struct results *res);

/* Whether every result of res carries rarbench's estimate (then it is rarplot's default y). */
bool plotseries_all_estimated(const struct results *res);

/*
 * The across-hosts view of set: one series per subject x format whose
 * points are, at each x, the median, min and max over every point of every
 * host. Returns 0 and *out, or -1 (out of memory).
 */
int plotseries_across_hosts(const struct plotseries_set *set, struct plotseries_set **out,
			    struct errbuf *eb);

void plotseries_set_free(struct plotseries_set *set);

/* Gathers x and y of s into fresh arrays for the fit; sigma NULL unless weighted. */
int plotseries_xy(const struct plotseries *s, bool use_weights, double **x, double **y,
		  double **sigma, struct errbuf *eb);

#endif
