/* history: releases in version order from rarplot's tables, their steps, tables and figure. */
#include "history.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomicfile.h"
#include "fileio.h"
#include "history_impl.h"
#include "numarg.h"
#include "plotrun.h"
#include "runfiles.h"

#define HISTORY_FIELDS_MAX 24

/* Splits line (modified in place) at tabs into at most max fields; returns how many. */
static size_t split_tabs(char *line, char **f, size_t max)
{
	size_t n = 0;

	while (n < max) {
		char *tab = strchr(line, '\t');

		f[n++] = line;
		if (tab == NULL)
			break;
		*tab = '\0';
		line = tab + 1;
	}
	return n;
}

static int column(char **head, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(head[i], name) == 0)
			return (int)i;
	return -1;
}

/* "LINE-X.Y.Z": the version's three numbers and where LINE ends; -1 when subject is not one. */
static int split_release(const char *subject, unsigned ver[3], size_t *line_len)
{
	const char *dash = strrchr(subject, '-');
	const char *c;

	if (dash == NULL || dash == subject)
		return -1;
	c = dash + 1;
	for (int k = 0; k < 3; k++) {
		unsigned long v = 0;
		const char *start = c;

		while (*c >= '0' && *c <= '9' && v < 100000)
			v = v * 10 + (unsigned long)(*c++ - '0');
		if (c == start || v >= 100000 || (k < 2 && *c++ != '.'))
			return -1;
		ver[k] = (unsigned)v;
	}
	if (*c != '\0')
		return -1;
	*line_len = (size_t)(dash - subject);
	return 0;
}

static int ver_cmp(const unsigned *a, const unsigned *b)
{
	for (int k = 0; k < 3; k++)
		if (a[k] != b[k])
			return a[k] < b[k] ? -1 : 1;
	return 0;
}

/* Reads the whole file dir/name into *text; a missing file is *text NULL and 0 when optional. */
static int read_table(const char *dir, const char *name, bool optional, char **text,
		      struct errbuf *eb)
{
	char path[PLOTRUN_PATH_MAX];
	size_t len;

	*text = NULL;
	if (fileio_join(path, sizeof(path), dir, name, eb) != 0)
		return -1;
	if (optional && access(path, F_OK) != 0)
		return 0;
	return fileio_read(path, HISTORY_FILE_MAX_BYTES, NULL, text, &len, eb);
}

static int add_release(struct history *h, const struct history_fit *fit, const unsigned ver[3],
		       size_t line_len, struct errbuf *eb)
{
	struct history_line *l = NULL;
	struct history_release *r;

	for (size_t i = 0; i < h->n_lines && l == NULL; i++)
		if (strlen(h->lines[i].name) == line_len &&
		    strncmp(h->lines[i].name, fit->subject, line_len) == 0)
			l = &h->lines[i];
	if (l == NULL) {
		if (h->n_lines == HISTORY_LINES_MAX)
			return errbuf_set(eb, "fits.tsv: more than %d lines of releases",
					  HISTORY_LINES_MAX);
		l = &h->lines[h->n_lines++];
		memcpy(l->name, fit->subject, line_len);
		l->name[line_len] = '\0';
	}
	if (l->n == HISTORY_RELEASES_MAX)
		return errbuf_set(eb, "fits.tsv: %s: more than %d releases", l->name,
				  HISTORY_RELEASES_MAX);
	r = &l->rel[l->n++];
	memcpy(r->ver, ver, sizeof(r->ver));
	snprintf(r->version, sizeof(r->version), "%u.%u.%u", ver[0], ver[1], ver[2]);
	r->fit = *fit;
	return 0;
}

/* fits.tsv: the first row of each subject for the axis; releases into lines, the anchor apart. */
static int load_fits(struct history *h, const struct history_opts *o, struct errbuf *eb)
{
	static const char *const need[] = {"subject",
					   "x",
					   "n",
					   "intercept_ms",
					   "intercept_se_ms",
					   "intercept_lo_ms",
					   "intercept_hi_ms",
					   "slope_us",
					   "slope_se_us",
					   "slope_lo_us",
					   "slope_hi_us"};
	int col[sizeof(need) / sizeof(need[0])];
	char *text = NULL, *line, *next, *head[HISTORY_FIELDS_MAX];
	size_t nh;
	int rc = -1;

	if (read_table(o->out_dir, RUNFILES_FITS, false, &text, eb) != 0)
		return -1;
	next = strchr(text, '\n');
	if (next == NULL) {
		errbuf_set(eb, "%s/fits.tsv: no header line", o->out_dir);
		goto out;
	}
	*next++ = '\0';
	nh = split_tabs(text, head, HISTORY_FIELDS_MAX);
	for (size_t k = 0; k < sizeof(need) / sizeof(need[0]); k++)
		if ((col[k] = column(head, nh, need[k])) < 0) {
			errbuf_set(eb, "%s/fits.tsv: no column %s", o->out_dir, need[k]);
			goto out;
		}
	for (line = next; line != NULL && *line != '\0'; line = next) {
		char *f[HISTORY_FIELDS_MAX];
		struct history_fit fit;
		unsigned ver[3];
		size_t nf, line_len, k;
		bool seen = false;

		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		nf = split_tabs(line, f, HISTORY_FIELDS_MAX);
		if (nf < nh)
			continue;
		if (h->axis[0] == '\0')
			snprintf(h->axis, sizeof(h->axis), "%s",
				 o->axis != NULL ? o->axis : f[col[1]]);
		if (strcmp(f[col[1]], h->axis) != 0 || strlen(f[col[0]]) >= HISTORY_NAME_MAX)
			continue;
		/* Each line's name becomes data/history/LINE.tsv: only a plain one (fit's
		 * results reader refuses others; this file may have been written by another). */
		if (!fileio_name_is_plain(f[col[0]])) {
			errbuf_set(eb,
				   "%s/fits.tsv: subject: holds '/', '..' or a control byte (a "
				   "subject's name becomes a file name)",
				   o->out_dir);
			goto out;
		}
		memset(&fit, 0, sizeof(fit));
		snprintf(fit.subject, sizeof(fit.subject), "%s", f[col[0]]);
		fit.n = numarg_leading_u64(f[col[2]]);
		for (int p = 0; p < HISTORY_PARAMS; p++) {
			fit.v[p] = numarg_leading_double(f[col[3 + 4 * p]]);
			fit.se[p] = numarg_leading_double(f[col[4 + 4 * p]]);
			fit.lo[p] = numarg_leading_double(f[col[5 + 4 * p]]);
			fit.hi[p] = numarg_leading_double(f[col[6 + 4 * p]]);
		}
		/* Another host's row of a subject already read: the first one stands for it. */
		for (k = 0; k < h->n_lines && !seen; k++)
			for (size_t r = 0; r < h->lines[k].n && !seen; r++)
				seen = strcmp(h->lines[k].rel[r].fit.subject, fit.subject) == 0;
		if (seen)
			continue;
		if (o->anchor != NULL && strcmp(fit.subject, o->anchor) == 0) {
			if (!h->has_anchor)
				h->anchor = fit;
			h->has_anchor = true;
		} else if (split_release(fit.subject, ver, &line_len) == 0 &&
			   add_release(h, &fit, ver, line_len, eb) != 0) {
			goto out;
		}
	}
	rc = 0;
out:
	free(text);
	return rc;
}

static int cmp_release(const void *a, const void *b)
{
	return ver_cmp(((const struct history_release *)a)->ver,
		       ((const struct history_release *)b)->ver);
}

/* profile-fits.tsv (subject counter n slope_per_AXIS intercept ...) and profile-costs.tsv. */
static int load_profiles(struct history *h, const struct history_opts *o, struct errbuf *eb)
{
	char *text = NULL, *line, *next;
	int rc = -1;

	if (read_table(o->out_dir, RUNFILES_PROFILE_FITS, true, &text, eb) != 0)
		return -1;
	for (line = text; line != NULL && *line != '\0'; line = next) {
		char *f[HISTORY_FIELDS_MAX];
		struct history_counter *c;

		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		if (split_tabs(line, f, HISTORY_FIELDS_MAX) < 5 || strcmp(f[0], "subject") == 0 ||
		    strlen(f[0]) >= HISTORY_NAME_MAX || strlen(f[1]) >= sizeof(c->counter))
			continue;
		if (h->n_counters == h->cap_counters) {
			size_t cap = h->cap_counters ? 2 * h->cap_counters : 256;
			void *p = realloc(h->counters, cap * sizeof(*h->counters));

			if (p == NULL) {
				errbuf_set(eb, "out of memory");
				goto out;
			}
			h->counters = p;
			h->cap_counters = cap;
		}
		c = &h->counters[h->n_counters++];
		snprintf(c->subject, sizeof(c->subject), "%s", f[0]);
		snprintf(c->counter, sizeof(c->counter), "%s", f[1]);
		c->slope = numarg_leading_double(f[3]);
		c->intercept = numarg_leading_double(f[4]);
	}
	free(text);
	text = NULL;
	for (size_t i = 0; i < o->n_inputs && text == NULL; i++) {
		char dir[PLOTRUN_PATH_MAX];
		const char *slash = strrchr(o->inputs[i], '/');

		if (fileio_fmt(dir, sizeof(dir), "%.*s", slash ? (int)(slash - o->inputs[i]) : 1,
			       slash ? o->inputs[i] : ".") != 0)
			continue;
		if (read_table(dir, RUNFILES_PROFILE_COSTS, true, &text, eb) != 0)
			return -1;
	}
	for (line = text; line != NULL && *line != '\0'; line = next) {
		char *f[HISTORY_FIELDS_MAX];
		const char *end;
		double ns;

		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		if (split_tabs(line, f, HISTORY_FIELDS_MAX) < 2 ||
		    h->n_costs == HISTORY_COSTS_MAX || strlen(f[0]) >= sizeof(h->costs[0].syscall))
			continue;
		if (numarg_any_double_prefix(f[1], &ns, &end) == NUMARG_NOT_NUMBER || !isfinite(ns))
			continue; /* the header */
		snprintf(h->costs[h->n_costs].syscall, sizeof(h->costs[0].syscall), "%s", f[0]);
		h->costs[h->n_costs++].ns = ns;
	}
	rc = 0;
out:
	free(text);
	return rc;
}

/* Every adjacent pair of every line and parameter, one family under Holm. */
static int test_steps(struct history *h, const struct history_opts *o, struct errbuf *eb)
{
	size_t total = 0;

	for (size_t l = 0; l < h->n_lines; l++)
		if (h->lines[l].n > 1)
			total += HISTORY_PARAMS * (h->lines[l].n - 1);
	if (total == 0)
		return 0;
	h->tests = calloc(total, sizeof(*h->tests));
	if (h->tests == NULL)
		return errbuf_set(eb, "out of memory");
	for (size_t l = 0; l < h->n_lines; l++) {
		const struct history_line *line = &h->lines[l];
		double v[HISTORY_RELEASES_MAX], se[HISTORY_RELEASES_MAX], df[HISTORY_RELEASES_MAX];

		for (int p = 0; p < HISTORY_PARAMS; p++) {
			for (size_t r = 0; r < line->n; r++) {
				v[r] = line->rel[r].fit.v[p];
				se[r] = line->rel[r].fit.se[p];
				df[r] =
				    line->rel[r].fit.n > 2 ? (double)(line->rel[r].fit.n - 2) : 0;
			}
			h->n_tests +=
			    changepoint_adjacent(v, se, df, line->n, l * HISTORY_PARAMS + (size_t)p,
						 h->tests + h->n_tests);
		}
	}
	changepoint_holm(h->tests, h->n_tests, o->alpha, o->min_rel_pct);
	return 0;
}

/* Writes text (len bytes) to out_dir/name atomically. */
static int write_file(const char *dir, const char *name, const char *text, size_t len,
		      struct errbuf *eb)
{
	char path[PLOTRUN_PATH_MAX];

	if (fileio_join(path, sizeof(path), dir, name, eb) != 0)
		return -1;
	return atomicfile_write(path, text, len, 0644, eb);
}

/* Closes the memory stream f (its text in *buf, *len) and writes it to dir/name. 0 or -1. */
static int flush_to(FILE *f, char **buf, size_t *len, const char *dir, const char *name,
		    struct errbuf *eb)
{
	if (fclose(f) != 0)
		return errbuf_set(eb, "out of memory");
	return write_file(dir, name, *buf, *len, eb);
}

/* history.tsv: every release of every line with its intervals. */
static void print_history_tsv(const struct history *h, FILE *f)
{
	fputs("line\tversion\torder\tsubject\tn\tintercept_ms\tintercept_lo_ms\tintercept_hi_ms\t"
	      "slope_us\tslope_lo_us\tslope_hi_us\n",
	      f);
	for (size_t l = 0; l < h->n_lines; l++)
		for (size_t r = 0; r < h->lines[l].n; r++) {
			const struct history_fit *x = &h->lines[l].rel[r].fit;

			fprintf(f, "%s\t%s\t%zu\t%s\t%zu\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\n",
				h->lines[l].name, h->lines[l].rel[r].version, r + 1, x->subject,
				x->n, x->v[0], x->lo[0], x->hi[0], x->v[1], x->lo[1], x->hi[1]);
		}
}

/* history-steps.tsv: every test, stepped or not. */
static void print_steps_tsv(const struct history *h, FILE *f)
{
	fputs("line\tparameter\tfrom\tto\tdiff\trel_pct\tse\tt\tdf\tp\tp_holm\tstep\n", f);
	for (size_t i = 0; i < h->n_tests; i++) {
		const struct changepoint_test *t = &h->tests[i];
		const struct history_line *l = &h->lines[t->series / HISTORY_PARAMS];

		fprintf(f, "%s\t%s\t%s\t%s\t%.6g\t%.3f\t%.4g\t%.3f\t%.1f\t%.3g\t%.3g\t%s\n",
			l->name, history_param_name((int)(t->series % HISTORY_PARAMS)),
			l->rel[t->after].version, l->rel[t->after + 1].version, t->diff, t->rel_pct,
			t->se, t->t, t->df, t->p, t->p_holm, t->step ? "step" : "-");
	}
}

/* data/history/LINE.tsv, what plots/history.gp draws (x = the release's order). */
static void print_line_tsv(const struct history_line *l, FILE *f)
{
	fputs("# order version intercept_ms lo hi slope_us lo hi\n", f);
	for (size_t r = 0; r < l->n; r++) {
		const struct history_fit *x = &l->rel[r].fit;

		fprintf(f, "%zu\t%s\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\n", r + 1,
			l->rel[r].version, x->v[0], x->lo[0], x->hi[0], x->v[1], x->lo[1],
			x->hi[1]);
	}
}

/* history.tsv, history-steps.tsv, data/history/LINE.tsv for each line, history-diary.tsv. */
static int write_tables(const struct history *h, const struct history_opts *o, struct errbuf *eb)
{
	char name[HISTORY_NAME_MAX + 32], dir[PLOTRUN_PATH_MAX];
	size_t n_files = 2 + h->n_lines + (h->n_diary > 0);

	if (fileio_fmt(dir, sizeof(dir), "%s/data/history", o->out_dir) != 0)
		return errbuf_set(eb, "%s: path too long", o->out_dir);
	if (h->n_lines > 0 && fileio_mkdirs(dir, eb) != 0)
		return -1;
	for (size_t k = 0; k < n_files; k++) {
		bool is_line = k >= 2 && k < 2 + h->n_lines;
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		int rc;

		if (f == NULL)
			return errbuf_set_errno(eb, errno, "open_memstream");
		if (k == 0)
			print_history_tsv(h, f);
		else if (k == 1)
			print_steps_tsv(h, f);
		else if (is_line)
			print_line_tsv(&h->lines[k - 2], f);
		else
			history_diary_tsv(h, o, f);
		if (is_line &&
		    fileio_fmt(name, sizeof(name), "%s.tsv", h->lines[k - 2].name) != 0) {
			fclose(f);
			free(buf);
			return errbuf_set(eb, "%s: name too long", h->lines[k - 2].name);
		}
		rc = flush_to(f, &buf, &len, is_line ? dir : o->out_dir,
			      k == 0    ? RUNFILES_HISTORY
			      : k == 1  ? RUNFILES_HISTORY_STEPS
			      : is_line ? name
					: RUNFILES_HISTORY_DIARY,
			      eb);
		free(buf);
		if (rc != 0)
			return -1;
	}
	return 0;
}

/* Appends the space-separated list of where each line's steps of param lie (order + 0.5). */
static void step_list(const struct history *h, size_t line, int param, char *out, size_t cap)
{
	size_t pos = 0;

	out[0] = '\0';
	for (size_t i = 0; i < h->n_tests; i++) {
		const struct changepoint_test *t = &h->tests[i];
		int w;

		if (!t->step || t->series != line * HISTORY_PARAMS + (size_t)param)
			continue;
		w = snprintf(out + pos, cap - pos, "%s%zu.5", pos ? " " : "", t->after + 1);
		if (w < 0 || (size_t)w >= cap - pos)
			break;
		pos += (size_t)w;
	}
}

/* history.<fmt>: plots/history.gp, one figure per line of releases, for each format. */
static int draw(const struct history *h, const struct history_opts *o, struct errbuf *eb)
{
	char script[PLOTRUN_PATH_MAX], file[PLOTRUN_PATH_MAX], out[PLOTRUN_PATH_MAX];
	char band[4][32], si[512], ss[512], dir[PLOTRUN_PATH_MAX];

	if (o->gnuplot == NULL || o->gnuplot[0] == '\0' || o->n_formats == 0)
		return 0;
	if (fileio_fmt(script, sizeof(script), "%s/history.gp", o->scripts_dir) != 0 ||
	    fileio_fmt(dir, sizeof(dir), "%s/data/history", o->out_dir) != 0)
		return errbuf_set(eb, "%s: path too long", o->scripts_dir);
	for (int k = 0; k < 4; k++)
		snprintf(band[k], sizeof(band[k]), "%.6g",
			 !h->has_anchor ? NAN
					: (k % 2 ? h->anchor.hi[k / 2] : h->anchor.lo[k / 2]));
	for (size_t l = 0; l < h->n_lines; l++) {
		if (h->lines[l].n < 2)
			continue;
		step_list(h, l, HISTORY_INTERCEPT, si, sizeof(si));
		step_list(h, l, HISTORY_SLOPE, ss, sizeof(ss));
		for (size_t fi = 0; fi < o->n_formats; fi++) {
			const char *term = strcmp(o->formats[fi], "png") == 0   ? "pngcairo"
					   : strcmp(o->formats[fi], "pdf") == 0 ? "pdfcairo"
										: "svg";
			const struct plotrun_param params[] = {
			    {"file", file, 1},
			    {"out", out, 1},
			    {"term", term, 1},
			    {"line", h->lines[l].name, 1},
			    {"axis", h->axis, 1},
			    {"anchor", h->has_anchor ? o->anchor : "", 1},
			    {"anchor_i_lo", band[0], 0},
			    {"anchor_i_hi", band[1], 0},
			    {"anchor_s_lo", band[2], 0},
			    {"anchor_s_hi", band[3], 0},
			    {"steps_i", si, 1},
			    {"steps_s", ss, 1},
			};

			if (fileio_fmt(file, sizeof(file), "%s/%s.tsv", dir, h->lines[l].name) !=
				0 ||
			    fileio_fmt(out, sizeof(out), "%s/history_%s.%s", o->out_dir,
				       h->lines[l].name, o->formats[fi]) != 0)
				return errbuf_set(eb, "%s: path too long", o->out_dir);
			if (plotrun_run(o->gnuplot, script, params,
					sizeof(params) / sizeof(params[0]), eb) != 0)
				return -1;
		}
	}
	return 0;
}

static int append_report(const struct history *h, const struct history_opts *o, struct errbuf *eb)
{
	char path[PLOTRUN_PATH_MAX];
	FILE *f;

	if (fileio_join(path, sizeof(path), o->out_dir, RUNFILES_REPORT, eb) != 0)
		return -1;
	f = fopen(path, "ae");
	if (f == NULL)
		return errbuf_set_errno(eb, errno, "%s", path);
	history_report_markdown(h, o, f);
	if (fclose(f) != 0)
		return errbuf_set_errno(eb, errno, "%s", path);
	return 0;
}

int history_run(const struct history_opts *o, struct errbuf *eb)
{
	struct history *h = calloc(1, sizeof(*h));
	int rc = -1;

	if (h == NULL)
		return errbuf_set(eb, "out of memory");
	if (load_fits(h, o, eb) != 0 || load_profiles(h, o, eb) != 0)
		goto out;
	for (size_t l = 0; l < h->n_lines; l++)
		qsort(h->lines[l].rel, h->lines[l].n, sizeof(h->lines[l].rel[0]), cmp_release);
	if (test_steps(h, o, eb) != 0 || history_diary_match(h, o, eb) != 0 ||
	    write_tables(h, o, eb) != 0 || draw(h, o, eb) != 0 || append_report(h, o, eb) != 0)
		goto out;
	rc = 0;
out:
	free(h->tests);
	free(h->counters);
	free(h->diary_builds);
	free(h->diary);
	free(h);
	return rc;
}
