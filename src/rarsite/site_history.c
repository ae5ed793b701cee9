/* site_history: RootAsRole's releases measured one after another: intercept and slope per
 * release, the change points, the 3.3.4 -> 4.0.3 change (sitepages.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "sitehtml.h"
#include "siteout.h"
#include "sitepages.h"
#include "runfiles.h"

#define VERSIONS_MAX 128
#define LINES_MAX 8
#define MARKS_MAX 64

static double num(const char *s)
{
	char *end = NULL;
	double v = strtod(s, &end);

	return s[0] != '\0' && end != NULL && *end == '\0' && isfinite(v) ? v : NAN;
}

/* The newest experiment holding history.tsv: its run and experiment, or false. */
static bool find_history(const struct site *s, const struct siteload_run **run,
			 const struct siteload_exp **exp)
{
	for (size_t i = s->load->n_runs; i-- > 0;)
		for (size_t j = 0; j < s->load->runs[i].n_exps; j++) {
			char path[SITELOAD_PATH_MAX];
			FILE *probe;

			if (fileio_join(path, sizeof(path), s->load->runs[i].exps[j].dir,
					RUNFILES_HISTORY, NULL) != 0)
				continue;
			probe = fopen(path, "re");
			if (probe == NULL)
				continue;
			fclose(probe);
			*run = &s->load->runs[i];
			*exp = &s->load->runs[i].exps[j];
			return true;
		}
	return false;
}

struct versions {
	const char *name[VERSIONS_MAX];
	double order[VERSIONS_MAX];
	size_t n;
};

static int cmp_order(const void *a, const void *b, void *arg)
{
	const struct versions *v = arg;
	double x = v->order[*(const size_t *)a], y = v->order[*(const size_t *)b];

	return x < y ? -1 : x > y;
}

/* The releases of h in their order (column "order"), each once. */
static void versions_of(const struct sitetsv *h, struct versions *v)
{
	int cv = sitetsv_col(h, "version"), co = sitetsv_col(h, "order");
	struct versions raw = {.n = 0};
	size_t idx[VERSIONS_MAX];

	for (size_t r = 0; r < h->n_rows; r++) {
		const char *name = sitetsv_cell(h, r, cv);
		size_t i;

		for (i = 0; i < raw.n; i++)
			if (strcmp(raw.name[i], name) == 0)
				break;
		if (i < raw.n || raw.n == VERSIONS_MAX)
			continue;
		raw.name[raw.n] = name;
		raw.order[raw.n] = num(sitetsv_cell(h, r, co));
		idx[raw.n] = raw.n;
		raw.n++;
	}
	qsort_r(idx, raw.n, sizeof(idx[0]), cmp_order, &raw);
	v->n = raw.n;
	for (size_t i = 0; i < raw.n; i++) {
		v->name[i] = raw.name[idx[i]];
		v->order[i] = raw.order[idx[i]];
	}
}

static int version_index(const struct versions *v, const char *name)
{
	for (size_t i = 0; i < v->n; i++)
		if (strcmp(v->name[i], name) == 0)
			return (int)i;
	return -1;
}

/* One figure: param "intercept" (ms) or "slope" (µs per task) of every line per release. */
static int history_figure(FILE *f, const struct sitetsv *h, const struct sitetsv *steps,
			  const struct versions *v, const char *param, struct errbuf *eb)
{
	struct sitepages_series ser[LINES_MAX];
	struct sitesvg_series svg[LINES_MAX];
	struct sitesvg_mark marks[MARKS_MAX];
	char hex[LINES_MAX][8];
	char labels[MARKS_MAX][160], col[32], col_lo[32], col_hi[32], id[32], title[200];
	size_t n = 0, n_marks = 0;
	bool intercept = strcmp(param, "intercept") == 0;
	int cl = sitetsv_col(h, "line"), cv = sitetsv_col(h, "version"), rc = -1;

	snprintf(col, sizeof(col), "%s",
		 intercept ? "intercept_ms" : "slope_us"); /* lint: not a path */
	snprintf(col_lo, sizeof(col_lo), "%s",
		 intercept ? "intercept_lo_ms" : "slope_lo_us"); /* lint: not a path */
	snprintf(col_hi, sizeof(col_hi), "%s",
		 intercept ? "intercept_hi_ms" : "slope_hi_us"); /* lint: not a path */
	for (size_t r = 0; r < h->n_rows; r++) {
		const char *line = sitetsv_cell(h, r, cl);
		size_t k;
		int x = version_index(v, sitetsv_cell(h, r, cv));

		for (k = 0; k < n; k++)
			if (strcmp(ser[k].name, line) == 0)
				break;
		if (k == n) {
			if (n == LINES_MAX)
				continue;
			memset(&ser[n], 0, sizeof(ser[n]));
			snprintf(ser[n].name, sizeof(ser[n].name), "%s",
				 line);                                      /* lint: not a path */
			snprintf(ser[n].format, sizeof(ser[n].format), "-"); /* lint: not a path */
			n++;
		}
		if (x >= 0 && sitepages_series_add(
				  &ser[k], (double)x, num(sitetsv_cell(h, r, sitetsv_col(h, col))),
				  num(sitetsv_cell(h, r, sitetsv_col(h, col_lo))),
				  num(sitetsv_cell(h, r, sitetsv_col(h, col_hi))), eb) != 0)
			goto out;
	}
	for (size_t r = 0; steps != NULL && r < steps->n_rows && n_marks < MARKS_MAX; r++) {
		int from = version_index(v, sitetsv_cell(steps, r, sitetsv_col(steps, "from")));

		if (strcmp(sitetsv_cell(steps, r, sitetsv_col(steps, "step")), "step") != 0 ||
		    strcmp(sitetsv_cell(steps, r, sitetsv_col(steps, "parameter")), param) != 0 ||
		    from < 0)
			continue;
		{
			/* one mark per pair of releases: both lines' steps in its label */
			size_t m, used;

			for (m = 0; m < n_marks; m++)
				if (marks[m].x == from + 0.5)
					break;
			if (m == n_marks) {
				snprintf(labels[m], sizeof(labels[0]),
					 "%s→%s:", /* lint: not a path */
					 sitetsv_cell(steps, r, sitetsv_col(steps, "from")),
					 sitetsv_cell(steps, r, sitetsv_col(steps, "to")));
				marks[m].x = from + 0.5;
				marks[m].label = labels[m];
				n_marks++;
			}
			used = strlen(labels[m]);
			snprintf(labels[m] + used, sizeof(labels[0]) - used, /* lint: not a path */
				 " %s %+.0f %%", sitetsv_cell(steps, r, sitetsv_col(steps, "line")),
				 num(sitetsv_cell(steps, r, sitetsv_col(steps, "rel_pct"))));
		}
	}
	sitepages_to_svg(ser, n, svg, hex);
	for (size_t k = 0; k < n; k++)
		svg[k].connect = true;
	snprintf(id, sizeof(id), "fig-history-%s", param); /* lint: not a path */
	snprintf(title, sizeof(title),                     /* lint: not a path */
		 "RootAsRole's %s per release (95 %% interval); dashed: the change points", param);
	sitesvg_write(
	    f, &(struct sitesvg_fig){.id = id,
				     .title = title,
				     .xlabel = "release",
				     .ylabel = intercept ? "intercept (ms)" : "slope (µs per task)",
				     .yunit = intercept ? "ms" : "µs/task",
				     .xunit = "",
				     .xcats = v->name,
				     .n_xcats = v->n,
				     .series = svg,
				     .n_series = n,
				     .marks = marks,
				     .n_marks = n_marks,
				     .yref = NAN,
				     .log_first = !intercept});
	rc = 0;
out:
	sitepages_series_free(ser, n);
	return rc;
}

/* The change from release a to b of every line, both parameters: a table. */
static void change_table(FILE *f, const struct sitetsv *h, const char *a, const char *b)
{
	int cl = sitetsv_col(h, "line"), cv = sitetsv_col(h, "version");
	static const char *const cols[2][3] = {
	    {"intercept_ms", "intercept_lo_ms", "intercept_hi_ms"},
	    {"slope_us", "slope_lo_us", "slope_hi_us"}};

	fputs("<div class=\"tablewrap\"><table class=\"md\" id=\"step-334-403\"><thead><tr><th>line"
	      "</th><th>quantity</th><th>",
	      f);
	sitehtml_text(f, a);
	fputs("</th><th>", f);
	sitehtml_text(f, b);
	fputs("</th><th>change</th></tr></thead><tbody>\n", f);
	for (size_t r = 0; r < h->n_rows; r++) {
		if (strcmp(sitetsv_cell(h, r, cv), a) != 0)
			continue;
		for (size_t r2 = 0; r2 < h->n_rows; r2++) {
			if (strcmp(sitetsv_cell(h, r2, cv), b) != 0 ||
			    strcmp(sitetsv_cell(h, r2, cl), sitetsv_cell(h, r, cl)) != 0)
				continue;
			for (int q = 0; q < 2; q++) {
				double va = num(sitetsv_cell(h, r, sitetsv_col(h, cols[q][0])));
				double vb = num(sitetsv_cell(h, r2, sitetsv_col(h, cols[q][0])));

				fputs("<tr><td>", f);
				sitehtml_text(f, sitetsv_cell(h, r, cl));
				fprintf(f, "</td><td>%s</td>",
					q == 0 ? "intercept (ms)" : "slope (µs per task)");
				for (int side = 0; side < 2; side++) {
					size_t row = side == 0 ? r : r2;

					fputs("<td class=\"n\">", f);
					sitehtml_num(
					    f, sitetsv_cell(h, row, sitetsv_col(h, cols[q][0])));
					fputs(" [", f);
					sitehtml_num(
					    f, sitetsv_cell(h, row, sitetsv_col(h, cols[q][1])));
					fputs(", ", f);
					sitehtml_num(
					    f, sitetsv_cell(h, row, sitetsv_col(h, cols[q][2])));
					fputs("]</td>", f);
				}
				fprintf(f, "<td class=\"n\">×%.3g (%+.0f %%)</td></tr>\n", vb / va,
					100 * (vb / va - 1));
			}
		}
	}
	fputs("</tbody></table></div>\n", f);
}

static const char *const steps_cols[] = {"line", "parameter", "from", "to", "diff",   "rel_pct",
					 "se",   "t",         "df",   "p",  "p_holm", "step"};
static const bool steps_num[] = {false, false, false, false, true, true,
				 true,  true,  true,  true,  true, false};
static const char *const diary_cols[] = {"id",       "quantity", "stated", "from",     "to",
					 "measured", "lo",       "hi",     "matching", "verdict"};
static const bool diary_num[] = {false, false, true, false, false, true, true, true, true, false};

static int history_body(FILE *f, const struct site *s, const struct siteload_run *run,
			const struct siteload_exp *e, struct errbuf *eb)
{
	char path[SITELOAD_PATH_MAX], src[SITELOAD_PATH_MAX], base[SITELOAD_PATH_MAX];
	struct sitetsv *h = NULL, *steps = NULL, *diary = NULL;
	struct versions v;
	char from[SITELOAD_PATH_MAX];
	struct sitepages_links links = {s->out_dir, "", ""};
	int rc = -1;

	if (fileio_join(path, sizeof(path), e->dir, RUNFILES_HISTORY, eb) != 0 ||
	    (h = sitetsv_load(path, eb)) == NULL)
		return -1;
	if (sitetsv_col(h, "line") < 0 || sitetsv_col(h, "version") < 0 ||
	    sitetsv_col(h, "order") < 0) {
		errbuf_set(eb, "%s: no line, version or order column", path);
		goto out;
	}
	if (fileio_join(path, sizeof(path), e->dir, RUNFILES_HISTORY_STEPS, eb) != 0 ||
	    (steps = sitetsv_load(path, eb)) == NULL)
		goto out;
	if (fileio_join(path, sizeof(path), e->dir, RUNFILES_HISTORY_DIARY, eb) == 0)
		diary = sitetsv_load(path, eb); /* optional */
	versions_of(h, &v);
	if (fileio_fmt(base, sizeof(base), "runs/%s/%s", run->name, e->name) != 0) {
		errbuf_set(eb, "%s: path too long", e->dir);
		goto out;
	}
	fputs("<p>Every release of RootAsRole from ", f);
	sitehtml_text(f, v.n > 0 ? v.name[0] : "?");
	fputs(" to ", f);
	sitehtml_text(f, v.n > 0 ? v.name[v.n - 1] : "?");
	fputs(", each in its JSON and CBOR builds, measured in one sweep beside sudo (<a href=\"",
	      f);
	sitehtml_text(f, base);
	fputs("/README.md\">its README</a>, <a href=\"runs/", f);
	sitehtml_text(f, run->name);
	fputs("/index.html#exp-", f);
	sitehtml_text(f, e->name);
	fputs("\">its run page</a>). A change point (dashed) is a step between adjacent releases "
	      "whose t test passes Holm's correction over every pair and exceeds the threshold "
	      "(<a href=\"",
	      f);
	sitehtml_text(f, base);
	fputs("/history-steps.tsv\">history-steps.tsv</a>).</p>\n", f);
	if (history_figure(f, h, steps, &v, "intercept", eb) != 0 ||
	    history_figure(f, h, steps, &v, "slope", eb) != 0)
		goto out;
	fputs("<h2>From 3.3.4 to 4.0.3</h2>\n<p>The release the published comparisons measure "
	      "(3.3.4) against the first 4.0 release they measure (4.0.3): the step at 4.0.0 "
	      "and what followed it to 4.0.3, from <code>history.tsv</code>.</p>\n",
	      f);
	change_table(f, h, "3.3.4", "4.0.3");
	fputs("<h2>The change points</h2>\n<ul class=\"steps\">\n", f);
	for (size_t r = 0; r < steps->n_rows; r++) {
		if (strcmp(sitetsv_cell(steps, r, sitetsv_col(steps, "step")), "step") != 0)
			continue;
		fputs("<li>", f);
		sitehtml_text(f, sitetsv_cell(steps, r, sitetsv_col(steps, "line")));
		fputs(" ", f);
		sitehtml_text(f, sitetsv_cell(steps, r, sitetsv_col(steps, "parameter")));
		fputs(", ", f);
		sitehtml_text(f, sitetsv_cell(steps, r, sitetsv_col(steps, "from")));
		fputs(" → ", f);
		sitehtml_text(f, sitetsv_cell(steps, r, sitetsv_col(steps, "to")));
		fputs(": ", f);
		sitehtml_num(f, sitetsv_cell(steps, r, sitetsv_col(steps, "rel_pct")));
		fputs(" % (Holm-adjusted p ", f);
		sitehtml_num(f, sitetsv_cell(steps, r, sitetsv_col(steps, "p_holm")));
		fputs(")</li>\n", f);
	}
	fputs("</ul>\n<details><summary>Every adjacent pair tested</summary>\n", f);
	if (fileio_fmt(src, sizeof(src), "%s/" RUNFILES_HISTORY_STEPS, base) == 0)
		sitehtml_tsv_table(f, steps, src, steps_cols, steps_num, 12, NULL);
	fputs("</details>\n", f);
	if (diary != NULL &&
	    fileio_fmt(src, sizeof(src), "%s/" RUNFILES_HISTORY_DIARY, base) == 0) {
		fputs("<h2>The original README's sentences, against the releases</h2>\n", f);
		sitehtml_tsv_table(f, diary, src, diary_cols, diary_num, 10, NULL);
	}
	fputs("<h2>Each step explained</h2>\n<div class=\"prose\">\n", f);
	if (fileio_join(path, sizeof(path), e->dir, "README.md", eb) == 0 &&
	    fileio_fmt(from, sizeof(from), "%s/", base) == 0) {
		links.base = base;
		links.from_page = from;
		sitepages_markdown(f, path, NULL, false, &links);
	}
	fputs("</div>\n", f);
	if (fileio_join(path, sizeof(path), s->doc_dir, "rootasrole-history.md", eb) == 0) {
		links.base = "";
		links.from_page = "";
		fputs("<details><summary>What each release reads and writes "
		      "(doc/rootasrole-history.md)</summary>\n<div class=\"prose\">\n",
		      f);
		sitepages_markdown(f, path, NULL, false, &links);
		fputs("</div></details>\n", f);
	}
	rc = 0;
out:
	sitetsv_free(diary);
	sitetsv_free(steps);
	sitetsv_free(h);
	return rc;
}

int sitepages_history(const struct site *s, struct errbuf *eb)
{
	const struct siteload_run *run = NULL;
	const struct siteload_exp *e = NULL;
	struct siteout_page *p = siteout_open(s->out_dir, "history.html", eb);
	FILE *f;

	if (p == NULL)
		return -1;
	f = siteout_stream(p);
	sitehtml_page_start(f, "", "RootAsRole's history", "history.html");
	if (!find_history(s, &run, &e))
		fputs("<p>No published run holds a history (<code>history.tsv</code>).</p>\n", f);
	else if (history_body(f, s, run, e, eb) != 0) {
		siteout_abort(p);
		return -1;
	}
	sitehtml_page_end(f);
	return siteout_commit(p, eb);
}
