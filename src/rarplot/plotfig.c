/* plotfig: render one figure (perf_tasks, perf_roles, perf_both) from a series set with gnuplot. */
#include "plotfig.h"
#include "interference.h"
#include "plotseries_tsv.h"
#include "reliability.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "fit.h"
#include "fitreport.h"
#include "fitreport_write.h"
#include "growbuf.h"
#include "plotrun.h"

#define PLOTFIG_LIST_MAX 8192
/* Files, captions or notes of one run: a few per subject and statistic, far below this. */
#define PLOTFIG_ITEMS_MAX (1u << 20)
#define PLOTFIG_NAME_MAX 160
#define PLOTFIG_CAPTION_MAX 1024

/* The -e lists of one figure: one word per drawn series in each. */
struct plotfig_lists {
	char *files, *titles, *weights, *colors, *points, *dashes;
	char *ends; /* per series: the size its tool refused (its line ends there), or 0 */
};

void plotfig_out_free(struct plotfig_out *out)
{
	size_t i;

	for (i = 0; i < out->n_files; i++) {
		free(out->files[i]);
		free(out->captions[i]);
	}
	for (i = 0; i < out->n_notes; i++)
		free(out->notes[i]);
	free(out->files);
	free(out->captions);
	free(out->notes);
	memset(out, 0, sizeof(*out));
}

/*
 * Room for one more string after the n of *list. struct plotfig_out keeps no
 * capacity (rarplot/main.c fills it positionally): growarray from the count,
 * a realloc per item as before, for the few dozen a run has.
 */
static int plotfig_out_grow(char ***list, size_t n)
{
	struct errbuf unused; /* the callers say "out of memory" */
	size_t cap = n;

	return growarray(list, &cap, n + 1, sizeof(**list), PLOTFIG_ITEMS_MAX, &unused);
}

int plotfig_out_note(struct plotfig_out *out, const char *fmt, ...)
{
	char buf[ERRBUF_MSG_MAX + 128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (plotfig_out_grow(&out->notes, out->n_notes) < 0)
		return -1;
	out->notes[out->n_notes] = strdup(buf);
	if (out->notes[out->n_notes] == NULL)
		return -1;
	out->n_notes++;
	return 0;
}

int plotfig_out_file(struct plotfig_out *out, const char *file, const char *caption)
{
	char **nf, **nc;

	if (plotfig_out_grow(&out->files, out->n_files) < 0 ||
	    plotfig_out_grow(&out->captions, out->n_files) < 0)
		return -1;
	nf = out->files;
	nc = out->captions;
	nf[out->n_files] = strdup(file);
	nc[out->n_files] = strdup(caption);
	if (nf[out->n_files] == NULL || nc[out->n_files] == NULL) {
		free(nf[out->n_files]);
		free(nc[out->n_files]);
		return -1;
	}
	out->n_files++;
	return 0;
}

struct plotfig plotfig_for_axis(const char *axis, char *name_buf, size_t len)
{
	struct plotfig f = {"perf_tasks", "perf_tasks.gp", axis};

	if (strcmp(axis, "nb_roles") == 0) {
		f.name = "perf_roles";
		f.script = "perf_roles.gp";
	} else if (strcmp(axis, PLOTSERIES_AXIS_BOTH) == 0) {
		f.name = "perf_both";
		f.script = "perf_both.gp";
	} else if (strcmp(axis, "nb_tasks") != 0) {
		snprintf(name_buf, len, "perf_%.40s",
			 strncmp(axis, "nb_", 3) == 0 ? axis + 3 : axis);
		f.name = name_buf;
	}
	return f;
}

/* Copies s to out keeping [A-Za-z0-9.+-], every other byte becoming '_'. */
static void plotfig_safe(const char *s, char *out, size_t len)
{
	size_t i;

	for (i = 0; s[i] != '\0' && i + 1 < len; i++) {
		char c = s[i];
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '.' || c == '+' || c == '-';

		out[i] = ok ? c : '_';
	}
	out[i] = '\0';
}

/* Appends "word " to a space-separated list; -1 when it would not fit. */
static int plotfig_list_add(char *list, const char *word)
{
	size_t used = strlen(list), n = strlen(word);

	if (used + n + 2 >= PLOTFIG_LIST_MAX)
		return -1;
	if (used > 0)
		list[used++] = ' ';
	memcpy(list + used, word, n + 1);
	return 0;
}

/* The number of words of a space-separated list. */
static size_t plotfig_words(const char *list)
{
	size_t n = list[0] != '\0';

	for (; *list != '\0'; list++)
		n += *list == ' ';
	return n;
}

static const char *plotfig_terminal(const char *format)
{
	if (strcmp(format, "svg") == 0)
		return "svg";
	if (strcmp(format, "pdf") == 0)
		return "pdfcairo";
	return "pngcairo";
}

/* Series i's legend name, from names already made safe: "RootAsRole 3.3.4 JSON". */
static void plotfig_name(const struct plotseries *s, const struct plotfig_env *env, char *buf,
			 size_t len)
{
	char subject[64], format[64];

	plotfig_safe(s->subject, subject, sizeof(subject));
	plotfig_safe(s->format, format, sizeof(format));
	plotstyle_legend_name(subject, strcmp(s->format, "-") == 0 ? "-" : format,
			      env->res != NULL ? results_tool(env->res, s->subject) : NULL, buf,
			      len);
}

/* Adds series k of set to the lists: its file, legend name, weight and look. */
static int plotfig_list_series(const struct plotseries_set *set, size_t k, const char *file,
			       bool use_weights, const struct plotfig_env *env,
			       struct plotfig_lists *l)
{
	const struct plotseries *s = &set->series[k];
	const struct plotstyle *st =
	    plotstyle_find(env->styles, env->n_styles, s->subject, s->format);
	char name[PLOTFIG_NAME_MAX], other[PLOTFIG_NAME_MAX], title[2 * PLOTFIG_NAME_MAX + 32];
	char number[16];
	size_t i, shaky;
	/* A fit resting mostly on contended or noisy points says so in the legend (report.md's
	 * "unreliable" line, reliability.h), where the reader of the figure looks. */
	const char *mark = reliability_series_unreliable(s, &shaky) ? " [unreliable]" : "";

	/* Two subjects that would read alike (a variant of the same tool build) are told apart
	 * by their ids. */
	plotfig_name(s, env, name, sizeof(name));
	for (i = 0; i < set->n_series; i++) {
		if (i == k)
			continue;
		plotfig_name(&set->series[i], env, other, sizeof(other));
		if (strcmp(name, other) == 0)
			break;
	}
	if (i < set->n_series) {
		plotfig_safe(s->subject, other, sizeof(other));
		snprintf(title, sizeof(title), "\"%s (%s)%s\"", name, other, mark);
	} else {
		snprintf(title, sizeof(title), "\"%s%s\"", name, mark);
	}
	/* A tool that refused a size: its line ends there with a mark (results_refused_at). */
	{
		double end = results_refused_at(env->res, s->subject, set->axis);

		snprintf(number, sizeof(number), "%.0f", isnan(end) ? 0.0 : end);
	}
	if (plotfig_list_add(l->files, file) != 0 || plotfig_list_add(l->titles, title) != 0 ||
	    plotfig_list_add(l->weights, use_weights && s->weighted ? "1" : "0") != 0 ||
	    plotfig_list_add(l->ends, number) != 0)
		return -1;
	if (st == NULL)
		return 0;
	if (plotfig_list_add(l->colors, st->color) != 0)
		return -1;
	snprintf(number, sizeof(number), "%d", st->point);
	if (plotfig_list_add(l->points, number) != 0)
		return -1;
	snprintf(number, sizeof(number), "%d", st->dash);
	return plotfig_list_add(l->dashes, number);
}

/* Writes the TSVs of set into dir, adding the series to the lists when draw. */
static int plotfig_write_set(const struct plotseries_set *set, const char *dir, bool draw,
			     bool use_weights, const struct plotfig_env *env,
			     struct plotfig_lists *l, struct errbuf *eb)
{
	char subject[64], format[64], host[64], name[256], path[PLOTRUN_PATH_MAX];
	size_t i;

	for (i = 0; i < set->n_series; i++) {
		const struct plotseries *s = &set->series[i];

		plotfig_safe(s->subject, subject, sizeof(subject));
		plotfig_safe(s->format, format, sizeof(format));
		plotfig_safe(s->host, host, sizeof(host));
		if (strcmp(s->host, "-") == 0)
			snprintf(name, sizeof(name), "%02zu_%s_%s.tsv", i + 1, subject, format);
		else
			snprintf(name, sizeof(name), "%02zu_%s_%s_%s.tsv", i + 1, subject, format,
				 host);
		if (fileio_join(path, sizeof(path), dir, name, eb) != 0)
			return -1;
		if (plotseries_write_tsv(s, path, eb) != 0)
			return -1;
		if (draw && plotfig_list_series(set, i, name, use_weights, env, l) != 0)
			return errbuf_set(eb, "too many series to draw in one figure");
	}
	return 0;
}

/*
 * The drawn series' slopes (as gnuplot fits them: weighted where the figure weighs them) and
 * how far apart they are (plotstyle_slope_span); *positive: every size and time above 0, so
 * log axes can show every point. Returns 0 or -1.
 */
static int plotfig_span(const struct plotseries_set *drawn, bool use_weights, double *span,
			double *slopes, size_t *steep, size_t *shallow, bool *positive,
			struct errbuf *eb)
{
	double *x = NULL, *y = NULL, *sigma = NULL;
	struct fit_line line;
	struct errbuf ignored;
	size_t i, j;

	*positive = true;
	memset(&ignored, 0, sizeof(ignored));
	for (i = 0; i < drawn->n_series; i++) {
		const struct plotseries *s = &drawn->series[i];

		if (plotseries_xy(s, use_weights, &x, &y, &sigma, eb) != 0)
			return -1;
		/* A series fit_linear refuses is drawn by gnuplot as its level: no slope here. */
		slopes[i] = fit_linear(x, y, sigma, s->n, &line, &ignored) == 0 ? line.slope : NAN;
		free(x);
		free(y);
		free(sigma);
		for (j = 0; j < s->n; j++)
			if (!(s->pts[j].x > 0) || !(s->pts[j].y_ms > 0))
				*positive = false;
	}
	*span = plotstyle_slope_span(slopes, drawn->n_series, steep, shallow);
	return 0;
}

/*
 * Whether the sizes of drawn crowd a linear axis: at least half of the distinct sizes (and at
 * least 3) lie in the leftmost fifth of [0, the largest], as log-spaced sizes do (1, 3, 10, 32,
 * 100, 316, 1000: 5 of 7; issue 46's perf_roles). *left and *n get those counts.
 */
static bool plotfig_crowded(const struct plotseries_set *drawn, size_t *left, size_t *n)
{
	size_t cap = 0, k = 0;
	double *xs, max = 0;

	*left = *n = 0;
	for (size_t i = 0; i < drawn->n_series; i++)
		cap += drawn->series[i].n;
	xs = malloc((cap ? cap : 1) * sizeof(*xs));
	if (xs == NULL)
		return false;
	for (size_t i = 0; i < drawn->n_series; i++)
		for (size_t j = 0; j < drawn->series[i].n; j++) {
			double x = drawn->series[i].pts[j].x;
			size_t m = 0;

			while (m < k && xs[m] != x)
				m++;
			if (m == k)
				xs[k++] = x;
			max = fmax(max, x);
		}
	for (size_t m = 0; m < k; m++)
		*left += xs[m] <= max / 5;
	*n = k;
	free(xs);
	return k >= 3 && 2 * *left >= k;
}

/* What a figure's script gets with -e, besides out and term (the header of plots/perf_tasks.gp). */
struct plotfig_args {
	const char *dir, *stat, *xlabel, *unit, *title, *caption;
	const struct plotfig_lists *lists;
	bool band, log_axes;
};

/* Runs the figure's script once per format into out_dir/<stem>.<format>. */
static int plotfig_draw(const char *script, const char *stem, const char *report_caption,
			const struct plotfig_env *env, const struct plotfig_args *a,
			struct plotfig_out *out, struct errbuf *eb)
{
	char tmp[PLOTRUN_PATH_MAX], final[PLOTRUN_PATH_MAX], leaf[160], host[320];
	struct interference h;
	struct plotrun_param params[] = {
	    {"dir", a->dir, 1},
	    {"files", a->lists->files, 1},
	    {"titles", a->lists->titles, 1},
	    {"weights", a->lists->weights, 1},
	    {"colors", a->lists->colors, 1},
	    {"points", a->lists->points, 1},
	    {"dashes", a->lists->dashes, 1},
	    {"ends", a->lists->ends, 1},
	    {"stat", a->stat, 1},
	    {"band", a->band ? "1" : "0", 0},
	    {"logscale", a->log_axes ? "1" : "0", 0},
	    {"xlabel", a->xlabel, 1},
	    {"unit", a->unit, 1},
	    {"yunit", env->yunit != NULL ? env->yunit : "ms", 1},
	    {"yunit_small", env->yunit_small != NULL ? env->yunit_small : "µs", 1},
	    {"figure_title", a->title, 1},
	    {"caption", a->caption, 1},
	    {"host", host, 1},
	    {"out", tmp, 1},
	    {"term", "pngcairo", 1},
	};
	size_t n_params = sizeof(params) / sizeof(params[0]), i;

	/* A host that interfered is named on the figure itself (issue 51), not only in report.md.
	 */
	interference_of(env->res, SIZE_MAX, &h);
	interference_figure_line(&h, host, sizeof(host));

	for (i = 0; i < env->n_formats; i++) {
		const char *format = env->formats[i];

		params[n_params - 1].value = plotfig_terminal(format);
		snprintf(leaf, sizeof(leaf), "%s.%s", stem, format);
		if ((size_t)snprintf(final, sizeof(final), "%s/%s", env->out_dir, leaf) >=
			sizeof(final) ||
		    (size_t)snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", env->out_dir, leaf) >=
			sizeof(tmp))
			return errbuf_set(eb, "%s: path too long", env->out_dir);
		if (plotrun_run(env->gnuplot, script, params, n_params, eb) != 0) {
			unlink(tmp);
			return -1;
		}
		if (rename(tmp, final) != 0) {
			errbuf_set_errno(eb, errno, "%s", final);
			unlink(tmp);
			return -1;
		}
		if (plotfig_out_file(out, leaf, report_caption) != 0)
			return errbuf_set(eb, "out of memory");
	}
	return 0;
}

/* Whether any / every drawn series is fitted with weights. */
static void plotfig_weighted(const struct plotseries_set *drawn, bool use_weights, bool *all,
			     bool *some)
{
	size_t i;

	*all = drawn->n_series > 0;
	*some = false;
	for (i = 0; i < drawn->n_series; i++) {
		bool w = use_weights && drawn->series[i].weighted;

		*all &= w;
		*some |= w;
	}
}

/* The x label and title of fig over set. */
static void plotfig_texts(const struct plotfig *fig, const struct plotseries_set *set, char *xlabel,
			  size_t xlabel_len, char *title, size_t title_len)
{
	const char *unit = fitreport_unit(fig->axis);

	if (strcmp(fig->axis, PLOTSERIES_AXIS_BOTH) == 0) {
		snprintf(xlabel, xlabel_len, "policy size: nb_roles × nb_tasks%s%s%s",
			 set->held[0] ? " (" : "", set->held, set->held[0] ? ")" : "");
		snprintf(title, title_len,
			 "Time to authorise one command vs. policy size (roles × tasks)");
	} else {
		snprintf(xlabel, xlabel_len, "number of %ss (%s%s%s)", unit, fig->axis,
			 set->held[0] ? "; " : "", set->held);
		snprintf(title, title_len, "Time to authorise one command vs. number of %ss", unit);
	}
}

/* Sizes that crowd a linear axis (plotfig_crowded): left of n in its leftmost fifth. */
struct plotfig_crowding {
	size_t left, n;
};

/*
 * The log-log view of a figure whose sizes are log-spaced (crowd, when crowd->n > 0) or whose
 * slopes span more than PLOTSTYLE_LOG_SPAN: drawn as <name>_log with the reason in its title
 * and caption, or a note when a size or a time is not above 0.
 */
static int plotfig_render_log(const struct plotfig *fig, const char *script,
			      const struct plotseries_set *drawn, const double *slopes, double span,
			      size_t steep, size_t shallow, bool positive,
			      const struct plotfig_crowding *crowd, const struct plotfig_env *env,
			      struct plotfig_args *a, struct plotfig_out *out, struct errbuf *eb)
{
	char stem[128], title[320], caption[PLOTFIG_CAPTION_MAX];
	char steep_name[PLOTFIG_NAME_MAX], shallow_name[PLOTFIG_NAME_MAX];

	snprintf(stem, sizeof(stem), "%s_log", fig->name);
	if (!(span > PLOTSTYLE_LOG_SPAN)) {
		/* Log-spaced sizes: on a linear axis most points sit against the y axis. */
		if (!positive) {
			if (plotfig_out_note(
				out,
				"%s not drawn: the sizes are log-spaced (%zu of %zu in "
				"the leftmost fifth of a linear axis), but log axes need "
				"every size and time above 0",
				stem, crowd->left, crowd->n) != 0)
				return errbuf_set(eb, "out of memory");
			return 0;
		}
		snprintf(title, sizeof(title), "%s — log–log axes: log-spaced sizes", a->title);
		snprintf(caption, sizeof(caption), /* lint: not a path */
			 "%s: log–log axes, drawn because the sizes are log-spaced (%zu of %zu "
			 "in the leftmost fifth of a linear axis, where they crowd against the y "
			 "axis). The same points, error bars and lines as %s.",
			 stem, crowd->left, crowd->n, fig->name);
		a->title = title;
		a->log_axes = true;
		return plotfig_draw(script, stem, caption, env, a, out, eb);
	}
	plotfig_name(&drawn->series[steep], env, steep_name, sizeof(steep_name));
	plotfig_name(&drawn->series[shallow], env, shallow_name, sizeof(shallow_name));
	if (!positive) {
		if (plotfig_out_note(
			out,
			"%s not drawn: the fitted slopes span %.0f× (%s %.4g µs/%s, %s "
			"%.4g µs/%s), but log axes need every size and time above 0",
			stem, span, steep_name, slopes[steep] * 1e3, a->unit, shallow_name,
			slopes[shallow] * 1e3, a->unit) != 0)
			return errbuf_set(eb, "out of memory");
		return 0;
	}
	snprintf(title, sizeof(title), "%s — log–log axes: the slopes span %.0f×", a->title, span);
	snprintf(caption, sizeof(caption), /* lint: not a path */
		 "%s: log–log axes, drawn because the fitted slopes span %.0f× (%s %.4g µs/%s "
		 "against %s %.4g µs/%s): on linear axes the steepest line squeezes the others "
		 "against the x axis. The same points, error bars and lines as %s.",
		 stem, span, steep_name, slopes[steep] * 1e3, a->unit, shallow_name,
		 slopes[shallow] * 1e3, a->unit, fig->name);
	a->title = title;
	a->log_axes = true;
	return plotfig_draw(script, stem, caption, env, a, out, eb);
}

/* The gnuplot word lists, each PLOTFIG_LIST_MAX bytes. Returns 0, or -1 out of memory. */
static int plotfig_lists_new(struct plotfig_lists *l, struct errbuf *eb)
{
	l->files = calloc(1, PLOTFIG_LIST_MAX);
	l->titles = calloc(1, PLOTFIG_LIST_MAX);
	l->weights = calloc(1, PLOTFIG_LIST_MAX);
	l->colors = calloc(1, PLOTFIG_LIST_MAX);
	l->points = calloc(1, PLOTFIG_LIST_MAX);
	l->dashes = calloc(1, PLOTFIG_LIST_MAX);
	l->ends = calloc(1, PLOTFIG_LIST_MAX);
	if (l->files == NULL || l->titles == NULL || l->weights == NULL || l->colors == NULL ||
	    l->points == NULL || l->dashes == NULL || l->ends == NULL)
		return errbuf_set(eb, "out of memory");
	return 0;
}

static void plotfig_lists_free(struct plotfig_lists *l)
{
	free(l->files);
	free(l->titles);
	free(l->weights);
	free(l->colors);
	free(l->points);
	free(l->dashes);
	free(l->ends);
}

/*
 * The method (fitreport_caption's words, the report's caption) and the caption of the figure on
 * linear axes, which points to the log-log one when there is one (log_note).
 */
static void plotfig_caption(const struct plotfig *fig, const struct plotfig_env *env,
			    const struct plotseries_set *drawn, bool band, bool use_weights,
			    bool log_note, char *method, size_t method_len, char *caption,
			    size_t caption_len)
{
	bool all_weighted, some_weighted;

	plotfig_weighted(drawn, use_weights, &all_weighted, &some_weighted);
	fitreport_caption(env->stat_kind, env->res, band, all_weighted, some_weighted, method,
			  method_len);
	snprintf(caption, caption_len, "%s: linear axes from 0%s%s%s. %c%s.", fig->name,
		 log_note ? " (as the seed drew it; " : "", log_note ? fig->name : "",
		 log_note ? "_log shows the same on log–log axes)" : "",
		 toupper((unsigned char)method[0]), method + 1);
}

int plotfig_render(const struct plotfig *fig, const struct plotseries_set *set,
		   const struct plotfig_env *env, struct plotfig_out *out, struct errbuf *eb)
{
	struct plotseries_set *agg = NULL;
	const struct plotseries_set *drawn = set;
	struct plotfig_lists l = {NULL, NULL, NULL, NULL, NULL, NULL, NULL};
	struct plotfig_args a;
	char dir[PLOTRUN_PATH_MAX], script[PLOTRUN_PATH_MAX], xlabel[512], title[256];
	char method[512], caption[PLOTFIG_CAPTION_MAX];
	double *slopes = NULL, span = NAN;
	size_t steep = 0, shallow = 0;
	struct plotfig_crowding crowd = {0, 0};
	bool band = set->n_hosts > 1, positive = true, log_axes;
	bool use_weights = env->use_weights && !band;
	int rc = -1;

	if (plotfig_lists_new(&l, eb) != 0)
		goto out;
	if ((size_t)snprintf(dir, sizeof(dir), "%s/data/%s", env->out_dir, fig->name) >=
		sizeof(dir) ||
	    (size_t)snprintf(script, sizeof(script), "%s/%s", env->scripts_dir, fig->script) >=
		sizeof(script)) {
		errbuf_set(eb, "%s: path too long", env->out_dir);
		goto out;
	}
	if (fileio_mkdirs(dir, eb) != 0)
		goto out;
	/* Per-host series are data for people; with several hosts the figure draws the band. */
	if (plotfig_write_set(set, dir, !band, env->use_weights, env, &l, eb) != 0)
		goto out;
	if (band) {
		if (plotseries_across_hosts(set, &agg, eb) != 0)
			goto out;
		if (plotfig_write_set(agg, dir, true, false, env, &l, eb) != 0)
			goto out;
		drawn = agg;
	}
	/* The looks go to gnuplot only when every drawn series has one: one word per file. */
	if (plotfig_words(l.colors) != plotfig_words(l.files))
		l.colors[0] = l.points[0] = l.dashes[0] = '\0';
	slopes = calloc(drawn->n_series + 1, sizeof(*slopes));
	if (slopes == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	if (plotfig_span(drawn, use_weights, &span, slopes, &steep, &shallow, &positive, eb) != 0)
		goto out;
	log_axes = !isnan(span) && span > PLOTSTYLE_LOG_SPAN;
	if (plotfig_crowded(drawn, &crowd.left, &crowd.n))
		log_axes = true;
	else
		crowd.n = 0;

	plotfig_texts(fig, set, xlabel, sizeof(xlabel), title, sizeof(title));
	plotfig_caption(fig, env, drawn, band, use_weights, log_axes && positive, method,
			sizeof(method), caption, sizeof(caption));
	memset(&a, 0, sizeof(a));
	a.dir = dir;
	a.stat = env->stat;
	a.xlabel = xlabel;
	a.unit = fitreport_unit(fig->axis);
	a.title = title;
	a.caption = method;
	a.lists = &l;
	a.band = band;
	if (plotfig_draw(script, fig->name, caption, env, &a, out, eb) != 0 ||
	    (log_axes && plotfig_render_log(fig, script, drawn, slopes, span, steep, shallow,
					    positive, &crowd, env, &a, out, eb) != 0))
		goto out;
	rc = 0;
out:
	plotseries_set_free(agg);
	free(slopes);
	plotfig_lists_free(&l);
	return rc;
}
