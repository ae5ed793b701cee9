/* report: rarbench's console output — progress bar (TTY only), hyperfine's summaries, warnings,
 * comparison. */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "stats.h"

#define REPORT_REDRAW_NS 50000000ULL
#define REPORT_BAR_WIDTH 30

#define C_BOLD "\033[1m"
#define C_GREEN "\033[32m"
#define C_BLUE "\033[34m"
#define C_CYAN "\033[36m"
#define C_MAGENTA "\033[35m"
#define C_YELLOW "\033[33m"
#define C_DIM "\033[2m"
#define C_RESET "\033[0m"

struct report {
	FILE *out, *err;
	enum report_style style;
	bool color;
	bool bar;
	bool have_unit;
	enum export_time_unit unit;
	bool bar_drawn;
	uint64_t last_draw_ns;
	uint64_t phase_start_ns;
	int phase; /* MEASURE_EV_WARMUP or MEASURE_EV_RUN, for the ETA */
	size_t phase_group;
	unsigned spin;
	const struct export_extras *extras; /* NULL: no estimate line */
};

int report_style_parse(const char *s, enum report_style *style)
{
	static const struct {
		const char *name;
		enum report_style style;
	} styles[] = {{"full", REPORT_STYLE_FULL},
		      {"nocolor", REPORT_STYLE_NOCOLOR},
		      {"basic", REPORT_STYLE_BASIC},
		      {"color", REPORT_STYLE_COLOR},
		      {"none", REPORT_STYLE_NONE}};

	for (size_t i = 0; i < sizeof(styles) / sizeof(styles[0]); i++)
		if (strcmp(s, styles[i].name) == 0) {
			*style = styles[i].style;
			return 0;
		}
	return -1;
}

struct report *report_new(FILE *out, FILE *err, enum report_style style,
			  const enum export_time_unit *unit)
{
	struct report *rep = calloc(1, sizeof(*rep));

	if (rep == NULL)
		return NULL;
	rep->out = out;
	rep->err = err;
	rep->style = style;
	rep->color = style == REPORT_STYLE_FULL || style == REPORT_STYLE_COLOR;
	rep->bar =
	    (style == REPORT_STYLE_FULL || style == REPORT_STYLE_NOCOLOR) && isatty(fileno(err));
	if (unit != NULL) {
		rep->have_unit = true;
		rep->unit = *unit;
	}
	rep->phase = -1;
	return rep;
}

void report_free(struct report *rep)
{
	if (rep == NULL)
		return;
	report_clear(rep);
	free(rep);
}

static const char *report_c(const struct report *rep, const char *code)
{
	return rep->color ? code : "";
}

/* hyperfine's format_duration_value: "%.1f ms" below 1 s (or forced), else "%.3f s". */
static void report_fmt(const struct report *rep, double s, enum export_time_unit *used, char *buf,
		       size_t len)
{
	enum export_time_unit u;

	if (rep->have_unit)
		u = rep->unit;
	else if (used != NULL && *used != (enum export_time_unit) - 1)
		u = *used;
	else
		u = s < 1.0 ? EXPORT_UNIT_MILLISECOND : EXPORT_UNIT_SECOND;
	if (used != NULL)
		*used = u;
	if (u == EXPORT_UNIT_MILLISECOND)
		snprintf(buf, len, "%.1f ms", s * 1e3);
	else
		snprintf(buf, len, "%.3f s", s);
}

void report_clear(struct report *rep)
{
	if (rep == NULL || !rep->bar_drawn)
		return;
	fputs("\r\033[K", rep->err);
	fflush(rep->err);
	rep->bar_drawn = false;
}

static void report_draw(struct report *rep, const char *msg, uint64_t done, uint64_t total,
			bool force)
{
	static const char *ticks[] = {"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"};
	uint64_t now = clock_now_ns();
	char bar[REPORT_BAR_WIDTH * 3 + 1];
	size_t filled = total ? (size_t)(done * REPORT_BAR_WIDTH / total) : 0, bl = 0;
	unsigned long long eta = 0;

	if (!rep->bar || (!force && now - rep->last_draw_ns < REPORT_REDRAW_NS))
		return;
	rep->last_draw_ns = now;
	for (size_t i = 0; i < REPORT_BAR_WIDTH; i++) {
		/* "█" and "░" are 3 bytes each in UTF-8. */
		memcpy(bar + bl, i < filled ? "█" : "░", 3);
		bl += 3;
	}
	bar[bl] = '\0';
	if (done > 0 && total > done)
		eta = (unsigned long long)((double)(now - rep->phase_start_ns) / (double)done *
					   (double)(total - done) / 1e9);
	fprintf(rep->err, "\r\033[K %s %-30s %s ETA %02llu:%02llu:%02llu", ticks[rep->spin++ % 10],
		msg, bar, eta / 3600, eta / 60 % 60, eta % 60);
	fflush(rep->err);
	rep->bar_drawn = true;
}

void report_progress(struct report *rep, const char *label, unsigned long long done,
		     unsigned long long total)
{
	if (done <= 1 || rep->phase != -2) {
		rep->phase = -2;
		rep->phase_start_ns = clock_now_ns();
	}
	report_draw(rep, label, done, total, false);
}

static double report_mean_s(const uint64_t *x, size_t n)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += (double)x[i];
	return n ? sum / (double)n / 1e9 : 0.0;
}

void report_set_extras(struct report *rep, const struct export_extras *x)
{
	rep->extras = x;
}

/*
 * "  Estimate (median, contended runs: correct, 95 % CI):  1.234 ms [1.230, 1.240], ±0.4 %
 * (target 1 %: met), 3 of 40 runs contended".
 */
static void report_estimate(struct report *rep, const struct measure_result *r)
{
	const struct export_extras *x = rep->extras;
	struct export_summary sum;
	struct errbuf eb = {{0}};
	double scale;
	const char *u;

	if (x == NULL || r->n < 2 || export_summarize(r, x, &sum, &eb) != 0)
		return;
	scale = sum.est.value < 1e9 ? 1e6 : 1e9;
	u = scale == 1e6 ? "ms" : "s";
	fprintf(rep->out, "  Estimate (%s, contended runs: %s, 95 %% CI):  %.4g %s",
		estimate_kind_name(x->estimator), estimate_contended_name(x->contended),
		sum.est.value / scale, u);
	if (isfinite(sum.est.lo))
		fprintf(rep->out, " [%.4g, %.4g], ±%.2g %%", sum.est.lo / scale, sum.est.hi / scale,
			100.0 * sum.reached);
	if (x->precision > 0)
		fprintf(rep->out, " (target %.2g %%: %s)", 100.0 * x->precision,
			sum.met ? "met" : "not met");
	fprintf(rep->out, ", %zu of %zu runs contended\n", sum.contended, r->n);
}

/* hyperfine's warnings about r, in its order, on stderr; x: r->n seconds and room for 2 r->n
 * more (the outlier scores). fast: a run was under REPORT_MIN_EXECUTION_NS. */
static void report_warnings(struct report *rep, const struct measure_result *r, double *x,
			    bool fast)
{
	const char *w[3] = {NULL, NULL, NULL};
	char slow[512];
	size_t nw = 0;

	stats_modified_zscores(x, r->n, x + r->n, x + 2 * r->n);
	if (fast)
		w[nw++] = "Command took less than 5 ms to complete. Note that the results "
			  "might be inaccurate because rarbench can not calibrate the shell "
			  "startup time much more precise than this limit. You can try to use "
			  "the `-N`/`--shell=none` option to disable the shell completely.";
	if (!r->all_succeeded)
		w[nw++] = "Ignoring non-zero exit code.";
	if (r->n > 0 && x[2 * r->n] > STATS_OUTLIER_THRESHOLD) {
		char first[32];

		report_fmt(rep, x[0], NULL, first, sizeof(first));
		snprintf(slow, sizeof(slow),
			 "The first benchmarking run for this command was significantly "
			 "slower than the rest (%s). This could be caused by (filesystem) "
			 "caches that were not filled until after the first run. You should "
			 "consider using the '--warmup' option to fill those caches before the "
			 "actual benchmark. Alternatively, use the '--prepare' option to clear "
			 "the caches before each timing run.",
			 first);
		w[nw++] = slow;
	} else {
		for (size_t i = 0; i < r->n; i++)
			if (fabs(x[2 * r->n + i]) > STATS_OUTLIER_THRESHOLD) {
				w[nw++] = "Statistical outliers were detected. Consider "
					  "re-running this benchmark on a quiet PC without any "
					  "interferences from other programs. It might help to "
					  "use the '--warmup' or '--prepare' options.";
				break;
			}
	}
	if (nw > 0) {
		fputs(" \n", rep->err);
		for (size_t i = 0; i < nw; i++)
			fprintf(rep->err, "  %sWarning%s: %s\n", report_c(rep, C_YELLOW),
				report_c(rep, C_RESET), w[i]);
		fflush(rep->err);
	}
}

static void report_summary(struct report *rep, const struct measure_result *r, bool shell)
{
	double *x = malloc(r->n * 3 * sizeof(double) + 1);
	struct stats_summary s;
	enum export_time_unit unit = (enum export_time_unit) - 1;
	char mean[32], sd[32], mn[32], mx[32], us[32], sy[32];
	bool fast = false;

	if (x == NULL)
		return;
	for (size_t i = 0; i < r->n; i++) {
		x[i] = (double)r->wall_ns[i] / 1e9;
		if (shell && r->wall_ns[i] < REPORT_MIN_EXECUTION_NS)
			fast = true;
	}
	stats_summarize(x, r->n, x + r->n, &s);
	report_fmt(rep, s.mean, &unit, mean, sizeof(mean));
	report_fmt(rep, s.min, &unit, mn, sizeof(mn));
	report_fmt(rep, s.max, &unit, mx, sizeof(mx));
	report_fmt(rep, report_mean_s(r->user_ns, r->n), &unit, us, sizeof(us));
	report_fmt(rep, report_mean_s(r->system_ns, r->n), &unit, sy, sizeof(sy));
	if (rep->style != REPORT_STYLE_NONE) {
		if (r->n == 1) {
			fprintf(rep->out,
				"  Time (%s%sabs%s ≡):        %s%s%8s%s  %8s     [User: %s%s%s, "
				"System: %s%s%s]\n",
				report_c(rep, C_GREEN), report_c(rep, C_BOLD),
				report_c(rep, C_RESET), report_c(rep, C_GREEN),
				report_c(rep, C_BOLD), mean, report_c(rep, C_RESET), "",
				report_c(rep, C_BLUE), us, report_c(rep, C_RESET),
				report_c(rep, C_BLUE), sy, report_c(rep, C_RESET));
		} else {
			report_fmt(rep, s.stddev, &unit, sd, sizeof(sd));
			fprintf(rep->out,
				"  Time (%s%smean%s ± %sσ%s):     %s%s%8s%s ± %s%8s%s    [User: "
				"%s%s%s, "
				"System: %s%s%s]\n",
				report_c(rep, C_GREEN), report_c(rep, C_BOLD),
				report_c(rep, C_RESET), report_c(rep, C_GREEN),
				report_c(rep, C_RESET), report_c(rep, C_GREEN),
				report_c(rep, C_BOLD), mean, report_c(rep, C_RESET),
				report_c(rep, C_GREEN), sd, report_c(rep, C_RESET),
				report_c(rep, C_BLUE), us, report_c(rep, C_RESET),
				report_c(rep, C_BLUE), sy, report_c(rep, C_RESET));
			fprintf(
			    rep->out,
			    "  Range (%smin%s … %smax%s):   %s%8s%s … %s%8s%s    %s%zu runs%s\n",
			    report_c(rep, C_CYAN), report_c(rep, C_RESET), report_c(rep, C_MAGENTA),
			    report_c(rep, C_RESET), report_c(rep, C_CYAN), mn,
			    report_c(rep, C_RESET), report_c(rep, C_MAGENTA), mx,
			    report_c(rep, C_RESET), report_c(rep, C_DIM), r->n,
			    report_c(rep, C_RESET));
			report_estimate(rep, r);
		}
	}
	fflush(rep->out);
	report_warnings(rep, r, x, fast);
	if (rep->style != REPORT_STYLE_NONE)
		fputs(" \n", rep->out);
	fflush(rep->out);
	free(x);
}

void report_event(struct report *rep, const struct measure_event *ev, const char *const *names,
		  bool shell)
{
	char msg[64];

	switch (ev->kind) {
	case MEASURE_EV_START:
		report_clear(rep);
		if (rep->style != REPORT_STYLE_NONE) {
			fprintf(rep->out, "%sBenchmark %zu%s: %s\n", report_c(rep, C_BOLD),
				ev->bench + 1, report_c(rep, C_RESET), names[ev->bench]);
			fflush(rep->out);
		}
		rep->phase = -1;
		break;
	case MEASURE_EV_WARMUP:
	case MEASURE_EV_RUN:
		if (!rep->bar)
			break; /* nothing to draw: keep the gap between runs minimal */
		if ((int)ev->kind != rep->phase || ev->group_first != rep->phase_group ||
		    ev->done <= 1) {
			rep->phase = (int)ev->kind;
			rep->phase_group = ev->group_first;
			rep->phase_start_ns = clock_now_ns();
		}
		if (ev->kind == MEASURE_EV_WARMUP) {
			report_draw(rep, "Performing warmup runs", ev->done, ev->total, false);
		} else if (ev->total == 0) {
			report_draw(rep, "Initial time measurement", ev->done, 1, false);
		} else if (clock_now_ns() - rep->last_draw_ns >= REPORT_REDRAW_NS) {
			char est[32];

			report_fmt(rep, report_mean_s(ev->result->wall_ns, ev->result->n), NULL,
				   est, sizeof(est));
			snprintf(msg, sizeof(msg), "Current estimate: %s", est);
			report_draw(rep, msg, ev->done, ev->total, false);
		}
		break;
	case MEASURE_EV_DONE:
		report_clear(rep);
		/* Interleaved runs print every header first; repeat it above each summary. */
		if (ev->group_count > 1 && rep->style != REPORT_STYLE_NONE)
			fprintf(rep->out, "%sBenchmark %zu%s: %s\n", report_c(rep, C_BOLD),
				ev->bench + 1, report_c(rep, C_RESET), names[ev->bench]);
		report_summary(rep, ev->result, shell);
		break;
	}
}

void report_comparison(struct report *rep, const char *const *names,
		       const struct measure_result *results, size_t n)
{
	double *mean = NULL, *sd = NULL;
	size_t *order = NULL, m = 0;

	if (rep->style == REPORT_STYLE_NONE || n < 2)
		return;
	mean = calloc(n, sizeof(*mean));
	sd = calloc(n, sizeof(*sd));
	order = calloc(n, sizeof(*order));
	if (mean == NULL || sd == NULL || order == NULL)
		goto out;
	for (size_t i = 0; i < n; i++) {
		const struct measure_result *r = &results[i];

		if (!r->complete || r->n == 0)
			continue;
		mean[i] = report_mean_s(r->wall_ns, r->n);
		sd[i] = NAN;
		if (r->n > 1) {
			double acc = 0;

			for (size_t j = 0; j < r->n; j++) {
				double d = (double)r->wall_ns[j] / 1e9 - mean[i];

				acc += d * d;
			}
			sd[i] = sqrt(acc / (double)(r->n - 1));
		}
		/* Insertion sort by mean (stable, like hyperfine's sort_by). */
		size_t k = m++;
		while (k > 0 && mean[order[k - 1]] > mean[i]) {
			order[k] = order[k - 1];
			k--;
		}
		order[k] = i;
	}
	if (m < 2)
		goto out;
	if (mean[order[0]] == 0.0) {
		fprintf(
		    rep->err,
		    "%sNote%s: The benchmark comparison could not be computed as some benchmark "
		    "times are zero.\n",
		    report_c(rep, C_BOLD), report_c(rep, C_RESET));
		goto out;
	}
	fprintf(rep->out, "%sSummary%s\n", report_c(rep, C_BOLD), report_c(rep, C_RESET));
	fprintf(rep->out, "  '%s%s%s' ran\n", report_c(rep, C_CYAN), names[order[0]],
		report_c(rep, C_RESET));
	for (size_t j = 1; j < m; j++) {
		size_t i = order[j], f = order[0];
		double ratio = mean[i] / mean[f];

		fprintf(rep->out, "%s%s%8.2f%s", report_c(rep, C_BOLD), report_c(rep, C_GREEN),
			ratio, report_c(rep, C_RESET));
		if (!isnan(sd[i]) && !isnan(sd[f]))
			fprintf(rep->out, " ± %s%.2f%s", report_c(rep, C_GREEN),
				ratio * sqrt(pow(sd[i] / mean[i], 2) + pow(sd[f] / mean[f], 2)),
				report_c(rep, C_RESET));
		fprintf(rep->out, " times faster than '%s%s%s'\n", report_c(rep, C_MAGENTA),
			names[i], report_c(rep, C_RESET));
	}
	fflush(rep->out);
out:
	free(mean);
	free(sd);
	free(order);
}
