/* sitesvg: one figure of the site as inline SVG, on linear and log axes, with its numbers as a
 * table under it (pure formatting: the figure's data come from the caller). */
#ifndef RARPERF_SITESVG_H
#define RARPERF_SITESVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* One point: y with its 95 % interval [lo, hi] (NAN for none). */
struct sitesvg_point {
	double x, y, lo, hi;
};

/* One series (a tool): its points, and optionally its fitted line y = intercept + slope x over
 * [x_min, x_max], or its points joined in order (connect). */
struct sitesvg_series {
	const char *name;
	const struct sitesvg_point *pts;
	size_t n;
	bool line;
	double intercept, slope, x_min, x_max;
	bool connect;
	const char *colour; /* "#RRGGBB", the subject's look in every figure (plotstyle) */
	bool dashed;        /* a variant's line (sudo-pam beside sudo) */
};

/* A vertical mark at x (a change point between two releases) with its label. */
struct sitesvg_mark {
	double x;
	const char *label;
};

/*
 * A figure. id: the HTML id (letters, digits, '-'), unique in the page. With xcats, x is
 * categorical: point x = i sits at category xcats[i], and the series are set side by side.
 * yunit, xunit name the values in the tooltips and the table ("ms", "tasks"). yref: a horizontal
 * line (1 for a ratio), NAN for none. log_first: the figure opens on log axes (where every
 * value is positive; else log is not offered).
 */
struct sitesvg_fig {
	const char *id, *title, *xlabel, *ylabel, *yunit, *xunit;
	const char *const *xcats;
	size_t n_xcats;
	const struct sitesvg_series *series;
	size_t n_series;
	const struct sitesvg_mark *marks;
	size_t n_marks;
	double yref;
	bool log_first;
};

/*
 * Writes the figure to f: a <figure> holding the controls (one switch per series, the axes'
 * scale; shown by site.js), one SVG with a group per scale (linear, log), every point a circle
 * whose tooltip (title and data-tip) gives its value and interval, and a table of every point's
 * numbers, so that the page reads without a mouse or script. Every axis has numbers: a log axis
 * within one decade gets ticks at 2 and 5 or every integer multiple.
 */
void sitesvg_write(FILE *f, const struct sitesvg_fig *fig);

/*
 * Each series' look as rarplot's figures draw it (src/fit/plotstyle.h: one table of looks, so a
 * subject has the same colour on every page and in every gnuplot figure): series[i] is subject
 * subjects[i] in format formats[i] ("-" for any); the colours are written into hex[i], which
 * the series borrow. n at most 256.
 */
void sitesvg_style(struct sitesvg_series *series, const char *const *subjects,
		   const char *const *formats, size_t n, char (*hex)[8]);

#endif
