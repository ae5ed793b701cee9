/* sitesvg: a figure as inline SVG on linear and log axes, with its table (sitesvg.h). */
#include "sitesvg.h"

#include <math.h>
#include <string.h>

#include "plotstyle.h"
#include "sitehtml.h"

/* The drawing's box (viewBox units; the page scales it to its width). */
#define W 760.0
#define PLOT_H 346.0 /* the plot's own height; the figure's grows with its x labels */
#define LEFT 78.0
#define RIGHT 16.0
#define TOP 18.0
#define BOTTOM_PLAIN 56.0
#define BOTTOM_ROTATED_MAX 230.0
#define MAX_TICKS 40
#define LINE_SAMPLES 48

void sitesvg_style(struct sitesvg_series *series, const char *const *subjects,
		   const char *const *formats, size_t n, char (*hex)[8])
{
	struct plotstyle_entry e[256];

	if (n > 256)
		n = 256;
	for (size_t i = 0; i < n; i++) {
		e[i].subject = subjects[i];
		e[i].format = formats[i];
	}
	plotstyle_assign(e, n);
	for (size_t i = 0; i < n; i++) {
		memcpy(hex[i], e[i].style.color, sizeof(hex[i]));
		hex[i][7] = '\0';
		series[i].colour = hex[i];
		series[i].dashed = e[i].style.dash != PLOTSTYLE_DASH_SOLID;
	}
}

static const char *colour_of(const struct sitesvg_series *s)
{
	return s->colour != NULL ? s->colour : "#000000";
}

/* One axis on one scale: the data range mapped onto [p0, p1] of the drawing. */
struct axis {
	bool log, cat;
	double lo, hi, p0, p1;
};

static double axis_map(const struct axis *a, double v)
{
	double t;

	if (a->log)
		t = (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
	else
		t = (v - a->lo) / (a->hi - a->lo);
	return a->p0 + t * (a->p1 - a->p0);
}

static bool usable(const struct axis *a, double v)
{
	return isfinite(v) && (!a->log || v > 0);
}

/* Ticks of a: the values into t (at most MAX_TICKS); their count. */
static size_t axis_ticks(const struct axis *a, double *t)
{
	size_t n = 0;

	if (a->log) {
		/* Decades; within fewer than 3 of them, 2 and 5 too; within one, every multiple,
		 * then every half: an axis always has numbers (perf_roles_log's 2.8 to 3.6 ms had
		 * none). */
		static const double steps[4] = {0, 0, 1, 0.5};
		static const double sparse[3] = {1, 2, 5};
		double e0 = floor(log10(a->lo)), e1 = ceil(log10(a->hi));

		for (int s = 0; s < 4; s++) {
			n = 0;
			for (double e = e0; e <= e1 && n < MAX_TICKS; e++) {
				size_t count = s == 0   ? 1
					       : s == 1 ? 3
							: (size_t)(9 / steps[s]) - (s == 3);

				for (size_t m = 0; m < count && n < MAX_TICKS; m++) {
					double mult = s < 2 ? sparse[m] : 1 + steps[s] * (double)m;
					double v = mult * pow(10, e);

					if (v >= a->lo * (1 - 1e-9) && v <= a->hi * (1 + 1e-9))
						t[n++] = v;
				}
			}
			if (n >= 3)
				break;
		}
		return n;
	}
	{
		double span = a->hi - a->lo, raw = span / 6, mag = pow(10, floor(log10(raw))), step;

		step = raw / mag < 1.5   ? mag
		       : raw / mag < 3.5 ? 2 * mag
		       : raw / mag < 7.5 ? 5 * mag
					 : 10 * mag;
		for (double v = ceil(a->lo / step) * step;
		     v <= a->hi + step * 1e-9 && n < MAX_TICKS; v += step)
			t[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	}
	return n;
}

/* The x of point j of series k: with categories, set side by side around the category. */
static double point_x(const struct sitesvg_fig *fig, size_t k, double x)
{
	double w;

	if (fig->xcats == NULL || fig->n_series < 2)
		return x;
	w = fig->n_series > 4 ? 0.7 / (double)fig->n_series : 0.15;
	return x + ((double)k - (double)(fig->n_series - 1) / 2) * w;
}

/* The data's range on one scale: into *lo, *hi; false when nothing is usable. */
static bool range_of(const struct sitesvg_fig *fig, bool yaxis, bool log, double *lo, double *hi)
{
	struct axis probe = {.log = log};
	bool any = false;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t k = 0; k < fig->n_series; k++) {
		const struct sitesvg_series *s = &fig->series[k];

		for (size_t j = 0; j < s->n; j++) {
			const struct sitesvg_point *p = &s->pts[j];
			double v[3] = {yaxis ? p->y : point_x(fig, k, p->x), yaxis ? p->lo : NAN,
				       yaxis ? p->hi : NAN};

			for (int i = 0; i < 3; i++)
				if (usable(&probe, v[i])) {
					*lo = fmin(*lo, v[i]);
					*hi = fmax(*hi, v[i]);
					any = true;
				}
		}
		if (yaxis && s->line)
			for (int i = 0; i < 2; i++) {
				double v = s->intercept + s->slope * (i == 0 ? s->x_min : s->x_max);

				if (usable(&probe, v)) {
					*lo = fmin(*lo, v);
					*hi = fmax(*hi, v);
				}
			}
	}
	if (yaxis && usable(&probe, fig->yref)) {
		*lo = fmin(*lo, fig->yref);
		*hi = fmax(*hi, fig->yref);
	}
	if (!any)
		return false;
	if (log) {
		if (*hi <= *lo * 1.0001) {
			*lo /= 1.5;
			*hi *= 1.5;
		}
		*lo /= 1.12;
		*hi *= 1.12;
	} else {
		double pad = (*hi - *lo) * 0.06;

		if (pad <= 0)
			pad = fabs(*hi) > 0 ? fabs(*hi) * 0.1 : 1;
		*lo -= pad;
		*hi += pad;
	}
	return true;
}

/* Whether every value is positive: only then is a log scale offered. */
static bool log_possible(const struct sitesvg_fig *fig)
{
	for (size_t k = 0; k < fig->n_series; k++)
		for (size_t j = 0; j < fig->series[k].n; j++) {
			const struct sitesvg_point *p = &fig->series[k].pts[j];

			if (!(p->y > 0) || (fig->xcats == NULL && !(p->x > 0)))
				return false;
		}
	return fig->n_series > 0;
}

/* The category of x, or NULL when x is none of fig's. */
static const char *category(const struct sitesvg_fig *fig, double x)
{
	if (fig->xcats == NULL || !(x >= 0) || x >= (double)fig->n_xcats)
		return NULL;
	return fig->xcats[(size_t)x];
}

/* A tick's label: whole numbers written out (10000, not 1e+04). */
static void fmt_tick(char *buf, size_t size, double v)
{
	snprintf(buf, size, "%.6g", v); /* lint: not a path */
}

static void fmt_num(char *buf, size_t size, double v)
{
	if (isfinite(v))
		snprintf(buf, size, "%.4g", v); /* lint: not a path */
	else
		snprintf(buf, size, "-"); /* lint: not a path */
}

/* "sudo · 1000 tasks: 7.123 ms [7.05, 7.2]" into f, escaped. */
static void write_tip(FILE *f, const struct sitesvg_fig *fig, const struct sitesvg_series *s,
		      const struct sitesvg_point *p)
{
	char x[32], y[32], lo[32], hi[32], line[512];
	const char *cat = category(fig, p->x);

	fmt_num(x, sizeof(x), p->x);
	fmt_num(y, sizeof(y), p->y);
	fmt_num(lo, sizeof(lo), p->lo);
	fmt_num(hi, sizeof(hi), p->hi);
	if (cat != NULL)
		snprintf(line, sizeof(line), "%s · %s: %s%s%s", s->name, /* lint: not a path */
			 cat, y, fig->yunit[0] ? " " : "", fig->yunit);
	else
		snprintf(line, sizeof(line), "%s · %s = %s: %s%s%s", s->name, /* lint: not a path */
			 fig->xunit, x, y, fig->yunit[0] ? " " : "", fig->yunit);
	sitehtml_text(f, line);
	if (isfinite(p->lo) && isfinite(p->hi)) {
		fprintf(f, " [%s, %s]", lo, hi);
	}
}

static void draw_axes(FILE *f, const struct sitesvg_fig *fig, const struct axis *ax,
		      const struct axis *ay, bool rotated, double height)
{
	double t[MAX_TICKS];
	size_t n;
	char buf[32];

	fprintf(f,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		"stroke=\"#888\"/>\n",
		ax->p0, ay->p1, ax->p1 - ax->p0, ay->p0 - ay->p1);
	n = axis_ticks(ay, t);
	for (size_t i = 0; i < n; i++) {
		double y = axis_map(ay, t[i]);

		fmt_tick(buf, sizeof(buf), t[i]);
		fprintf(
		    f,
		    "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
		    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" class=\"tick\">%s</text>\n",
		    ax->p0, ax->p1, y, y, ax->p0 - 6, y + 4, buf);
	}
	if (ax->cat) {
		for (size_t i = 0; i < fig->n_xcats; i++) {
			double x = axis_map(ax, (double)i);

			if (rotated) {
				fprintf(f,
					"<text transform=\"translate(%.1f,%.1f) rotate(-60)\" "
					"text-anchor=\"end\" class=\"tick\">",
					x + 3, ay->p0 + 10);
			} else {
				fprintf(f,
					"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
					"class=\"tick\">",
					x, ay->p0 + 18);
			}
			sitehtml_text(f, fig->xcats[i]);
			fputs("</text>\n", f);
		}
	} else {
		n = axis_ticks(ax, t);
		for (size_t i = 0; i < n; i++) {
			double x = axis_map(ax, t[i]);

			fmt_tick(buf, sizeof(buf), t[i]);
			fprintf(f,
				"<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
				"stroke=\"#eee\"/><text x=\"%.1f\" y=\"%.1f\" "
				"text-anchor=\"middle\" class=\"tick\">%s</text>\n",
				x, x, ay->p0, ay->p1, x, ay->p0 + 18, buf);
		}
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"label\">",
		(ax->p0 + ax->p1) / 2, height - 8);
	sitehtml_text(f, fig->xlabel);
	fprintf(
	    f,
	    "</text>\n<text transform=\"translate(16,%.1f) rotate(-90)\" text-anchor=\"middle\" "
	    "class=\"label\">",
	    (ay->p0 + ay->p1) / 2);
	sitehtml_text(f, fig->ylabel);
	fputs("</text>\n", f);
}

/* The fitted line of s sampled on the scale (straight on linear axes, curved on log ones). */
static void draw_line(FILE *f, const struct sitesvg_series *s, const struct axis *ax,
		      const struct axis *ay, const char *colour)
{
	bool open = false;

	for (int i = 0; i <= LINE_SAMPLES; i++) {
		double t = (double)i / LINE_SAMPLES, x, y;

		if (ax->log && s->x_min > 0)
			x = s->x_min * pow(s->x_max / s->x_min, t);
		else
			x = s->x_min + (s->x_max - s->x_min) * t;
		y = s->intercept + s->slope * x;
		if (!usable(ax, x) || !usable(ay, y))
			continue;
		fprintf(f, "%s%.1f,%.1f",
			open ? " " : "<polyline fill=\"none\" stroke-width=\"1.5\" points=\"",
			axis_map(ax, x), axis_map(ay, y));
		open = true;
	}
	if (open)
		fprintf(f, "\" stroke=\"%s\"%s/>\n", colour,
			s->dashed ? " stroke-dasharray=\"6 3\"" : "");
}

static void draw_series(FILE *f, const struct sitesvg_fig *fig, size_t k, const struct axis *ax,
			const struct axis *ay)
{
	const struct sitesvg_series *s = &fig->series[k];
	const char *colour = colour_of(s);
	bool open = false;

	fprintf(f, "<g class=\"series\" data-series=\"%zu\">\n", k);
	if (s->line)
		draw_line(f, s, ax, ay, colour);
	for (size_t j = 0; s->connect && j < s->n; j++) {
		double x = point_x(fig, k, s->pts[j].x);

		if (!usable(ax, x) || !usable(ay, s->pts[j].y))
			continue;
		fprintf(f, "%s%.1f,%.1f", open ? " " : "<polyline fill=\"none\" points=\"",
			axis_map(ax, x), axis_map(ay, s->pts[j].y));
		open = true;
	}
	if (open)
		fprintf(f, "\" stroke=\"%s\" stroke-opacity=\"0.5\"/>\n", colour);
	for (size_t j = 0; j < s->n; j++) {
		const struct sitesvg_point *p = &s->pts[j];
		double x = point_x(fig, k, p->x), cx, cy;

		if (!usable(ax, x) || !usable(ay, p->y))
			continue;
		cx = axis_map(ax, x);
		cy = axis_map(ay, p->y);
		if (usable(ay, p->lo) && usable(ay, p->hi))
			fprintf(f,
				"<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
				"stroke=\"%s\"/>",
				cx, cx, axis_map(ay, p->lo), axis_map(ay, p->hi), colour);
		/* a variant (sudo-pam beside sudo) has its subject's colour, open */
		fprintf(f,
			"<circle class=\"pt\" tabindex=\"0\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" "
			"fill=\"%s\" stroke=\"%s\" stroke-width=\"1.5\" data-tip=\"",
			cx, cy, s->dashed ? "#ffffff" : colour, colour);
		write_tip(f, fig, s, p);
		fputs("\"><title>", f);
		write_tip(f, fig, s, p);
		fputs("</title></circle>\n", f);
	}
	fputs("</g>\n", f);
}

static void draw_scale(FILE *f, const struct sitesvg_fig *fig, bool log, bool rotated,
		       double height)
{
	struct axis ax = {.cat = fig->xcats != NULL, .p0 = LEFT, .p1 = W - RIGHT};
	struct axis ay = {.log = log, .p0 = TOP + PLOT_H, .p1 = TOP};

	ax.log = log && !ax.cat;
	if (ax.cat) {
		ax.lo = -0.5;
		ax.hi = (double)fig->n_xcats - 0.5;
	} else if (!range_of(fig, false, ax.log, &ax.lo, &ax.hi))
		return;
	if (!range_of(fig, true, ay.log, &ay.lo, &ay.hi))
		return;
	fprintf(f, "<g class=\"scale\" data-scale=\"%s\">\n", log ? "log" : "lin");
	draw_axes(f, fig, &ax, &ay, rotated, height);
	if (usable(&ay, fig->yref))
		fprintf(f,
			"<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#444\" "
			"stroke-dasharray=\"4 3\"/>\n",
			ax.p0, ax.p1, axis_map(&ay, fig->yref), axis_map(&ay, fig->yref));
	for (size_t i = 0; i < fig->n_marks; i++) {
		double x = axis_map(&ax, fig->marks[i].x);

		/* labels near the right edge end at their line; each mark on a row of its own */
		bool right = x + 6.0 * (double)strlen(fig->marks[i].label) > ax.p1;

		fprintf(f,
			"<g class=\"mark\"><line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#b00\" stroke-dasharray=\"6 3\"/><text x=\"%.1f\" y=\"%.1f\" "
			"text-anchor=\"%s\" class=\"marklabel\" fill=\"#b00\">",
			x, x, ay.p0, ay.p1, right ? x - 3 : x + 3,
			ay.p1 + 12 + 12.0 * (double)(i % 6), right ? "end" : "start");
		sitehtml_text(f, fig->marks[i].label);
		fputs("</text></g>\n", f);
	}
	fprintf(f,
		"<clipPath id=\"%s-%s-clip\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"%.1f\"/></clipPath>\n<g clip-path=\"url(#%s-%s-clip)\">\n",
		fig->id, log ? "log" : "lin", ax.p0, ay.p1, ax.p1 - ax.p0, ay.p0 - ay.p1, fig->id,
		log ? "log" : "lin");
	for (size_t k = 0; k < fig->n_series; k++)
		draw_series(f, fig, k, &ax, &ay);
	fputs("</g>\n</g>\n", f);
}

static void write_table(FILE *f, const struct sitesvg_fig *fig)
{
	char buf[32];

	fputs("<details class=\"figdata\"><summary>The figure's numbers</summary>\n"
	      "<div class=\"tablewrap\"><table class=\"numbers\"><thead><tr><th>series</th><th>",
	      f);
	sitehtml_text(f, fig->xlabel);
	fputs("</th><th>", f);
	sitehtml_text(f, fig->ylabel);
	fputs("</th><th>95 % interval</th></tr></thead>\n<tbody>\n", f);
	for (size_t k = 0; k < fig->n_series; k++)
		for (size_t j = 0; j < fig->series[k].n; j++) {
			const struct sitesvg_point *p = &fig->series[k].pts[j];
			const char *cat = category(fig, p->x);

			fprintf(f, "<tr data-series=\"%zu\"><td>", k);
			sitehtml_text(f, fig->series[k].name);
			fputs("</td><td>", f);
			if (cat != NULL)
				sitehtml_text(f, cat);
			else {
				fmt_num(buf, sizeof(buf), p->x);
				fputs(buf, f);
			}
			fmt_num(buf, sizeof(buf), p->y);
			fprintf(f, "</td><td class=\"n\">%s</td><td class=\"n\">", buf);
			if (isfinite(p->lo) && isfinite(p->hi)) {
				fmt_num(buf, sizeof(buf), p->lo);
				fprintf(f, "[%s, ", buf);
				fmt_num(buf, sizeof(buf), p->hi);
				fprintf(f, "%s]", buf);
			}
			fputs("</td></tr>\n", f);
		}
	fputs("</tbody></table></div></details>\n", f);
}

void sitesvg_write(FILE *f, const struct sitesvg_fig *fig)
{
	bool can_log = log_possible(fig), log = can_log && fig->log_first;
	bool rotated = fig->xcats != NULL && fig->n_xcats > 6;
	double height = TOP + PLOT_H + BOTTOM_PLAIN;
	size_t longest = 0;

	/* rotated labels (60 degrees) take about 0.87 x 6.5 px per character below the axis */
	for (size_t i = 0; rotated && i < fig->n_xcats; i++)
		if (strlen(fig->xcats[i]) > longest)
			longest = strlen(fig->xcats[i]);
	if (rotated)
		height = TOP + PLOT_H + fmin(BOTTOM_ROTATED_MAX, 40 + 5.7 * (double)longest);

	fprintf(f, "<figure class=\"fig\" id=\"%s\" data-scale=\"%s\">\n<figcaption>", fig->id,
		log ? "log" : "lin");
	sitehtml_text(f, fig->title);
	fputs("</figcaption>\n<div class=\"controls\" hidden>", f);
	for (size_t k = 0; k < fig->n_series; k++) {
		fprintf(f,
			"<label><input type=\"checkbox\" checked data-series=\"%zu\"><svg "
			"class=\"swatch\" viewBox=\"0 0 10 10\" aria-hidden=\"true\"><circle "
			"cx=\"5\" cy=\"5\" r=\"4\" fill=\"%s\" stroke=\"%s\" "
			"stroke-width=\"1.5\"/></svg>",
			k, fig->series[k].dashed ? "#ffffff" : colour_of(&fig->series[k]),
			colour_of(&fig->series[k]));
		sitehtml_text(f, fig->series[k].name);
		fputs("</label> ", f);
	}
	if (can_log)
		fprintf(f, "<button type=\"button\" class=\"scalebtn\">%s axes</button>",
			log ? "linear" : "log");
	fprintf(f,
		"</div>\n<svg class=\"plot\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
		"aria-label=\"",
		W, height);
	sitehtml_text(f, fig->title);
	fputs("\">\n", f);
	draw_scale(f, fig, false, rotated, height);
	if (can_log)
		draw_scale(f, fig, true, rotated, height);
	fputs("</svg>\n<div class=\"tip\" hidden></div>\n", f);
	write_table(f, fig);
	fputs("</figure>\n", f);
}
