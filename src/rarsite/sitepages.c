/* sitepages: home, across machines, counts, and what the pages share (sitepages.h). */
#include "sitepages.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "growbuf.h"
#include "sitehtml.h"
#include "sitemd.h"
#include "siteout.h"
#include "runfiles.h"

#define MD_MAX (4u * 1024 * 1024)
#define SERIES_MAX 64
#define POINTS_MAX 100000

bool sitepages_link_exists(const char *rel, char *href, size_t size, void *ctx)
{
	const struct sitepages_links *l = ctx;
	char path[SITELOAD_PATH_MAX];
	const char *hash = strchr(rel, '#');
	size_t n = hash != NULL ? (size_t)(hash - rel) : strlen(rel);

	if (n == 0)
		return false;
	if (fileio_fmt(path, sizeof(path), "%s%s%.*s", l->base, l->base[0] != '\0' ? "/" : "",
		       (int)n, rel) != 0 ||
	    !siteout_exists(l->out_dir, path))
		return false;
	return fileio_fmt(href, size, "%s%s", l->from_page != NULL ? l->from_page : "", rel) == 0;
}

bool sitepages_has_run(const struct site *s, const char *name)
{
	return siteload_find(s->load, name) != NULL;
}

bool sitepages_markdown(FILE *f, const char *path, const char *section, bool first_para,
			const struct sitepages_links *links)
{
	char *text = NULL;
	size_t len = 0;
	struct errbuf eb;
	bool wrote;

	if (path == NULL || fileio_read(path, MD_MAX, NULL, &text, &len, &eb) != 0)
		return false;
	if (first_para)
		wrote = sitemd_write_first_paragraph(f, text, len, sitepages_link_exists,
						     (void *)links);
	else
		wrote = sitemd_write(f, text, len, section, sitepages_link_exists, (void *)links);
	free(text);
	return wrote;
}

int sitepages_series_add(struct sitepages_series *s, double x, double y, double lo, double hi,
			 struct errbuf *eb)
{
	if (growarray(&s->pts, &s->cap, s->n + 1, sizeof(*s->pts), POINTS_MAX, eb) != 0)
		return -1;
	s->pts[s->n++] = (struct sitesvg_point){x, y, lo, hi};
	return 0;
}

void sitepages_series_free(struct sitepages_series *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(s[i].pts);
}

static double num(const char *s)
{
	char *end = NULL;
	double v = strtod(s, &end);

	return s[0] != '\0' && end != NULL && *end == '\0' && isfinite(v) ? v : NAN;
}

/* The index of series name in ser[0..*n), added when new (at most SERIES_MAX). */
static int series_of(struct sitepages_series *ser, size_t *n, const char *name, const char *format,
		     struct errbuf *eb)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(ser[i].name, name) == 0)
			return (int)i;
	if (*n == SERIES_MAX)
		return errbuf_set(eb, "more than %d series in one figure", SERIES_MAX);
	memset(&ser[*n], 0, sizeof(ser[*n]));
	snprintf(ser[*n].name, sizeof(ser[*n].name), "%s", name); /* lint: not a path */
	snprintf(ser[*n].format, sizeof(ser[*n].format), "%s",    /* lint: not a path */
		 format != NULL && format[0] != '\0' ? format : "-");
	return (int)(*n)++;
}

void sitepages_to_svg(const struct sitepages_series *ser, size_t n, struct sitesvg_series *out,
		      char (*hex)[8])
{
	const char *subjects[SERIES_MAX], *formats[SERIES_MAX];

	for (size_t i = 0; i < n && i < SERIES_MAX; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		out[i].name = ser[i].name;
		out[i].pts = ser[i].pts;
		out[i].n = ser[i].n;
		subjects[i] = ser[i].name;
		formats[i] = ser[i].format;
	}
	sitesvg_style(out, subjects, formats, n < SERIES_MAX ? n : SERIES_MAX, hex);
}

static const char *quantity_words(const char *q)
{
	if (strcmp(q, "intercept_ratio") == 0)
		return "start-up (intercept ÷ sudo's)";
	if (strcmp(q, "slope_ratio") == 0)
		return "per task (slope ÷ sudo's)";
	return q;
}

/*
 * The headline figure: each subject's mean ratio to the baseline over the machines, with the
 * mean's interval, for the start-up and the per-task cost.
 */
static int home_figure(FILE *f, const struct sitetsv *t, struct errbuf *eb)
{
	static const char *const qs[] = {"intercept_ratio", "slope_ratio"};
	const char *cats[2] = {quantity_words(qs[0]), quantity_words(qs[1])};
	struct sitepages_series ser[SERIES_MAX];
	struct sitesvg_series svg[SERIES_MAX];
	char hex[SERIES_MAX][8];
	size_t n = 0;
	int cs = sitetsv_col(t, "subject"), cq = sitetsv_col(t, "quantity"),
	    cm = sitetsv_col(t, "mean"), clo = sitetsv_col(t, "mean_lo"),
	    chi = sitetsv_col(t, "mean_hi"), rc = -1;

	if (cs < 0 || cq < 0 || cm < 0) {
		errbuf_set(eb, "across-hosts.tsv: no subject, quantity or mean column");
		return -1;
	}
	for (size_t r = 0; r < t->n_rows; r++)
		for (size_t qi = 0; qi < 2; qi++) {
			int k;

			if (strcmp(sitetsv_cell(t, r, cq), qs[qi]) != 0)
				continue;
			k = series_of(ser, &n, sitetsv_cell(t, r, cs),
				      sitetsv_cell(t, r, sitetsv_col(t, "format")), eb);
			if (k < 0 ||
			    sitepages_series_add(&ser[k], (double)qi, num(sitetsv_cell(t, r, cm)),
						 num(sitetsv_cell(t, r, clo)),
						 num(sitetsv_cell(t, r, chi)), eb) != 0)
				goto out;
		}
	sitepages_to_svg(ser, n, svg, hex);
	sitesvg_write(f, &(struct sitesvg_fig){.id = "fig-home",
					       .title = "Each tool's cost as a multiple of sudo's, "
							"mean over the machines (95 % interval)",
					       .xlabel = "cost",
					       .ylabel = "ratio to sudo",
					       .yunit = "× sudo",
					       .xunit = "",
					       .xcats = cats,
					       .n_xcats = 2,
					       .series = svg,
					       .n_series = n,
					       .yref = 1,
					       .log_first = true});
	rc = 0;
out:
	sitepages_series_free(ser, n);
	return rc;
}

/* The hosts of across-hosts.tsv's host_names column, each once, as links to their runs. */
static void machines_list(FILE *f, const struct site *s)
{
	int ch = sitetsv_col(s->across, "host_names");
	char seen[64][128];
	size_t n_seen = 0;

	fputs("<ul class=\"machines\">\n", f);
	for (size_t r = 0; ch >= 0 && r < s->across->n_rows; r++) {
		char *names = strdup(sitetsv_cell(s->across, r, ch)), *save = NULL;

		for (char *h = names != NULL ? strtok_r(names, ",", &save) : NULL; h != NULL;
		     h = strtok_r(NULL, ",", &save)) {
			size_t i;

			for (i = 0; i < n_seen; i++)
				if (strcmp(seen[i], h) == 0)
					break;
			if (i < n_seen || n_seen == 64)
				continue;
			snprintf(seen[n_seen++], sizeof(seen[0]), "%s", h); /* lint: not a path */
			fputs("<li>", f);
			if (sitepages_has_run(s, h)) {
				fputs("<a href=\"runs/", f);
				sitehtml_text(f, h);
				fputs("/index.html\">", f);
				sitehtml_text(f, h);
				fputs("</a>", f);
			} else
				sitehtml_text(f, h);
			{
				const struct siteload_run *run = siteload_find(s->load, h);
				const struct siteload_meta *m = run ? siteload_machine(run) : NULL;

				if (m != NULL && m->cpu_model != NULL) {
					fputs(": ", f);
					sitehtml_text(f, m->cpu_model);
					if (m->cpu_family != NULL) {
						fputs(", CPU family ", f);
						sitehtml_text(f, m->cpu_family);
					}
				}
			}
			fputs("</li>\n", f);
		}
		free(names);
	}
	fputs("</ul>\n", f);
}

static const char *const across_cols[] = {"subject",    "quantity",   "hosts",      "mean",
					  "mean_lo",    "mean_hi",    "predict_lo", "predict_hi",
					  "between_sd", "within_sd",  "format",     "baseline",
					  "machines",   "host_names", "scale"};
static const bool across_num[] = {false, false, true,  true,  true, true,  true, true,
				  true,  true,  false, false, true, false, false};

int sitepages_home(const struct site *s, struct errbuf *eb)
{
	struct siteout_page *p = siteout_open(s->out_dir, "index.html", eb);
	struct sitepages_links links = {s->out_dir, "", ""};
	FILE *f;

	if (p == NULL)
		return -1;
	f = siteout_stream(p);
	sitehtml_page_start(f, "", "Which tool, how much, on which machines", "index.html");
	fputs("<p class=\"lead\">rarperf times sudo, sudo-rs, OpenDoas and RootAsRole's "
	      "<code>dosr</code> as their policy grows, fits time = intercept + slope × size, and "
	      "compares every tool with sudo on each machine. This site shows every published run "
	      "(<code>doc/results/</code>).</p>\n",
	      f);
	if (s->across != NULL) {
		if (home_figure(f, s->across, eb) != 0) {
			siteout_abort(p);
			return -1;
		}
		fputs(
		    "<h2>The answer per tool, across machines</h2>\n<p>Mean ratio to sudo over "
		    "the machines with its 95 % interval (<em>mean_lo</em>, <em>mean_hi</em>), and "
		    "where a machine not yet measured is predicted to fall (<em>predict_lo</em>, "
		    "<em>predict_hi</em>), from <a href=\"across-hosts.tsv\">across-hosts.tsv</a>."
		    "</p>\n",
		    f);
		sitehtml_tsv_table(f, s->across, RUNFILES_ACROSS, across_cols, across_num, 10,
				   NULL);
		fputs("<h2>The machines it rests on</h2>\n", f);
		machines_list(f, s);
	} else
		fputs("<p>No across-machine table (<code>across-hosts.tsv</code>) is published "
		      "yet.</p>\n",
		      f);
	if (s->readme != NULL) {
		fputs("<h2>The newest published result, in words</h2>\n<div class=\"prose\">\n", f);
		if (!sitepages_markdown(f, s->readme, "The newest published result", false, &links))
			fputs("<p>(README.md has no such section.)</p>\n", f);
		fputs("</div>\n", f);
	}
	fputs("<p>More: <a href=\"across.html\">each machine and its values</a>, "
	      "<a href=\"runs.html\">every run</a>, <a href=\"history.html\">RootAsRole's "
	      "releases</a>.</p>\n",
	      f);
	sitehtml_page_end(f);
	return siteout_commit(p, eb);
}

/* A figure of one quantity: each host's value, and a new machine's prediction. */
static int across_figure(FILE *f, const struct site *s, const char *quantity, const char *id,
			 struct errbuf *eb)
{
	const struct sitetsv *v = s->across_values, *a = s->across;
	struct sitepages_series ser[SERIES_MAX];
	struct sitesvg_series svg[SERIES_MAX];
	char hex[SERIES_MAX][8];
	const char *hosts[65];
	size_t n = 0, n_hosts = 0;
	int cs = sitetsv_col(v, "subject"), cq = sitetsv_col(v, "quantity"),
	    ch = sitetsv_col(v, "host"), cv = sitetsv_col(v, "value"), clo = sitetsv_col(v, "lo"),
	    chi = sitetsv_col(v, "hi"), rc = -1;
	char title[256];

	if (cs < 0 || cq < 0 || ch < 0 || cv < 0) {
		errbuf_set(eb,
			   "across-hosts-values.tsv: no subject, quantity, host or value column");
		return -1;
	}
	for (size_t r = 0; r < v->n_rows; r++) {
		const char *h = sitetsv_cell(v, r, ch);
		size_t i;

		if (strcmp(sitetsv_cell(v, r, cq), quantity) != 0)
			continue;
		for (i = 0; i < n_hosts; i++)
			if (strcmp(hosts[i], h) == 0)
				break;
		if (i == n_hosts && n_hosts < 64)
			hosts[n_hosts++] = h;
		if (i == 64)
			continue;
		{
			int k = series_of(ser, &n, sitetsv_cell(v, r, cs),
					  sitetsv_cell(v, r, sitetsv_col(v, "format")), eb);

			if (k < 0 ||
			    sitepages_series_add(&ser[k], (double)i, num(sitetsv_cell(v, r, cv)),
						 num(sitetsv_cell(v, r, clo)),
						 num(sitetsv_cell(v, r, chi)), eb) != 0)
				goto out;
		}
	}
	hosts[n_hosts] = "a new machine (predicted)";
	for (size_t r = 0; a != NULL && r < a->n_rows; r++) {
		int k;

		if (strcmp(sitetsv_cell(a, r, sitetsv_col(a, "quantity")), quantity) != 0)
			continue;
		k = series_of(ser, &n, sitetsv_cell(a, r, sitetsv_col(a, "subject")),
			      sitetsv_cell(a, r, sitetsv_col(a, "format")), eb);
		if (k < 0 ||
		    sitepages_series_add(
			&ser[k], (double)n_hosts, num(sitetsv_cell(a, r, sitetsv_col(a, "mean"))),
			num(sitetsv_cell(a, r, sitetsv_col(a, "predict_lo"))),
			num(sitetsv_cell(a, r, sitetsv_col(a, "predict_hi"))), eb) != 0)
			goto out;
	}
	sitepages_to_svg(ser, n, svg, hex);
	snprintf(title, sizeof(title),
		 "%s on each machine (95 %% interval); last: where a new " /* lint: not a path */
		 "machine is predicted to fall (95 %% prediction interval)",
		 quantity_words(quantity));
	title[0] = (char)(title[0] == 's' ? 'S' : title[0] == 'p' ? 'P' : title[0]);
	sitesvg_write(f, &(struct sitesvg_fig){.id = id,
					       .title = title,
					       .xlabel = "machine (run folder)",
					       .ylabel = "ratio to sudo",
					       .yunit = "× sudo",
					       .xunit = "",
					       .xcats = hosts,
					       .n_xcats = n_hosts + 1,
					       .series = svg,
					       .n_series = n,
					       .yref = 1,
					       .log_first = true});
	rc = 0;
out:
	sitepages_series_free(ser, n);
	return rc;
}

static void machine_row(FILE *f, const struct site *s, const struct siteload_run *run)
{
	const struct siteload_meta *m = siteload_machine(run);
	char path[SITELOAD_PATH_MAX], base[SITELOAD_PATH_MAX], from[SITELOAD_PATH_MAX];
	struct sitepages_links links = {s->out_dir, base, from};

	fputs("<tr><td><a href=\"runs/", f);
	sitehtml_text(f, run->name);
	fputs("/index.html\">", f);
	sitehtml_text(f, run->name);
	fputs("</a>", f);
	if (run->has_machine_txt) {
		/* what the machine said of itself (/proc/cpuinfo and more), copied beside its page
		 */
		fputs(" (<a href=\"runs/", f);
		sitehtml_text(f, run->name);
		fputs("/machine.txt\">machine.txt</a>)", f);
	}
	fputs("</td><td>", f);
	if (m != NULL) {
		sitehtml_text(f, m->cpu_model != NULL ? m->cpu_model : "?");
		fputs(" (", f);
		sitehtml_text(f, m->cpu_vendor != NULL ? m->cpu_vendor : "?");
		fputs(", family ", f);
		sitehtml_text(f, m->cpu_family != NULL ? m->cpu_family : "?");
		fputs(", model ", f);
		sitehtml_text(f, m->cpu_model_no != NULL ? m->cpu_model_no : "?");
		fputs(")</td><td>", f);
		if (isfinite(m->cpus))
			fprintf(f, "%.0f", m->cpus);
		fputs("</td><td>", f);
		if (isfinite(m->mem_bytes))
			fprintf(f, "%.1f GiB", m->mem_bytes / (1024.0 * 1024 * 1024));
		fputs("</td><td>", f);
		sitehtml_text(f, m->kernel != NULL ? m->kernel : "");
		fputs("</td><td>", f);
		sitehtml_text(f, m->virtualization != NULL ? m->virtualization : "");
	} else
		fputs("(no results.json)</td><td></td><td></td><td></td><td>", f);
	fputs("</td><td class=\"prose\">", f);
	if (run->has_readme && fileio_join(path, sizeof(path), run->dir, "README.md", NULL) == 0 &&
	    fileio_fmt(base, sizeof(base), "runs/%s", run->name) == 0 &&
	    fileio_fmt(from, sizeof(from), "runs/%s/", run->name) == 0)
		sitepages_markdown(f, path, NULL, true, &links);
	fputs("</td></tr>\n", f);
}

int sitepages_across(const struct site *s, struct errbuf *eb)
{
	struct siteout_page *p = siteout_open(s->out_dir, "across.html", eb);
	FILE *f;

	if (p == NULL)
		return -1;
	f = siteout_stream(p);
	sitehtml_page_start(f, "", "Across machines", "across.html");
	if (s->across == NULL || s->across_values == NULL) {
		fputs("<p>No across-machine tables are published yet.</p>\n", f);
	} else {
		fputs(
		    "<p>Each run folder is one machine. Every ratio is measured on each machine "
		    "against sudo on the same machine, then combined: the mean and its interval, "
		    "the spread between machines (<em>between_sd</em>, natural log of the ratio), "
		    "and the interval a machine not yet measured should fall in.</p>\n",
		    f);
		if (across_figure(f, s, "intercept_ratio", "fig-across-intercept", eb) != 0 ||
		    across_figure(f, s, "slope_ratio", "fig-across-slope", eb) != 0) {
			siteout_abort(p);
			return -1;
		}
		fputs("<h2>The combined table</h2>\n", f);
		sitehtml_tsv_table(f, s->across, RUNFILES_ACROSS, across_cols, across_num,
				   sizeof(across_cols) / sizeof(across_cols[0]), NULL);
		fputs("<h2>Each machine's values</h2>\n", f);
		{
			static const char *const cols[] = {"subject", "quantity", "host",
							   "value",   "lo",       "hi"};
			static const bool nums[] = {false, false, false, true, true, true};

			sitehtml_tsv_table(f, s->across_values, RUNFILES_ACROSS_VALUES, cols, nums,
					   6, NULL);
		}
	}
	fputs("<h2>The machines</h2>\n<div class=\"tablewrap\"><table class=\"md\"><thead><tr>"
	      "<th>run</th><th>CPU (results.json's meta)</th><th>CPUs</th><th>memory</th>"
	      "<th>kernel</th><th>virtualisation</th><th>its README</th></tr></thead><tbody>\n",
	      f);
	for (size_t i = 0; i < s->load->n_runs; i++)
		machine_row(f, s, &s->load->runs[i]);
	fputs("</tbody></table></div>\n", f);
	sitehtml_page_end(f);
	return siteout_commit(p, eb);
}

/*
 * The hook for counts: a column of a run's fits.tsv whose name holds "instr" (the instruction
 * counts another change adds to fits.tsv; its name is that change's to choose). Nothing here
 * invents the format: the page lists such columns as they are, and says so when none is there.
 */
#define SITEPAGES_COUNTS_MARK "instr"

static size_t counts_of_exp(FILE *f, const struct siteload_run *run, const struct siteload_exp *e,
			    const char *fits)
{
	char path[SITELOAD_PATH_MAX], src[SITELOAD_PATH_MAX];
	struct errbuf eb;
	struct sitetsv *t;
	const char *cols[SITETSV_COLS_MAX];
	bool nums[SITETSV_COLS_MAX];
	size_t n = 0, found = 0;

	/* A counted run published beside a timed one keeps its fits as counts-fits.tsv (its times
	 * rest on one run per point: doc/results/.../counts/). */
	if (fileio_join(path, sizeof(path), e->dir, fits, &eb) != 0 || access(path, F_OK) != 0 ||
	    (t = sitetsv_load(path, &eb)) == NULL)
		return 0;
	cols[n] = "subject";
	nums[n++] = false;
	cols[n] = "format";
	nums[n++] = false;
	cols[n] = "host";
	nums[n++] = false;
	for (size_t c = 0; c < t->n_cols && n < SITETSV_COLS_MAX; c++)
		if (strstr(t->cols[c], SITEPAGES_COUNTS_MARK) != NULL ||
		    strcmp(t->cols[c], "intercept_ms") == 0 ||
		    strcmp(t->cols[c], "slope_us") == 0) {
			found += strstr(t->cols[c], SITEPAGES_COUNTS_MARK) != NULL;
			cols[n] = t->cols[c];
			nums[n++] = true;
		}
	if (found > 0 &&
	    fileio_fmt(src, sizeof(src), "runs/%s/%s/%s", run->name, e->name, fits) == 0) {
		fputs("<h2>", f);
		sitehtml_text(f, run->name);
		fputs(" / ", f);
		sitehtml_text(f, e->name);
		fputs("</h2>\n", f);
		sitehtml_tsv_table(f, t, src, cols, nums, n, NULL);
	}
	sitetsv_free(t);
	return found;
}

/* A run's counts × prices (its counts-prices/counts-prices.tsv, rarplot's predicted.md's table
 * as TSV: doc/counts.md "Time as counts × prices"), when it has one. */
static size_t prices_of_run(FILE *f, const struct siteload_run *run)
{
	static const char *const cols[] = {
	    "subject",         "instr_per_call",        "instr_per_unit",
	    "intercept_ms",    "rarref_intercept_ms",   "baseline_intercept_ms",
	    "baseline_intercept_error_pct", "slope_us", "baseline_slope_us",
	    "baseline_slope_error_pct", "own_ns_per_call_instr", "own_ns_per_unit_instr"};
	static const bool nums[] = {false, true, true, true, true, true,
				    true,  true, true, true, true, true};
	char path[SITELOAD_PATH_MAX], src[SITELOAD_PATH_MAX];
	struct errbuf eb;
	struct sitetsv *t;

	if (fileio_fmt(path, sizeof(path), "%s/counts-prices/counts-prices.tsv", run->dir) != 0 ||
	    access(path, F_OK) != 0 || (t = sitetsv_load(path, &eb)) == NULL ||
	    fileio_fmt(src, sizeof(src), "runs/%s/counts-prices/counts-prices.tsv", run->name) != 0)
		return 0;
	fputs("<h2>", f);
	sitehtml_text(f, run->name);
	fputs(": time as counts × prices</h2>\n<p>Each subject's intercept and slope predicted "
	      "from its counted instructions and system-call profile at the machine's prices: "
	      "rarref's price for every instruction, and the baseline's (sudo's) own price per "
	      "instruction of its start and of its per-task work; the error is the prediction's "
	      "against the measured line, in %.</p>\n",
	      f);
	sitehtml_tsv_table(f, t, src, cols, nums, sizeof(cols) / sizeof(cols[0]), NULL);
	sitetsv_free(t);
	return 1;
}

int sitepages_counts(const struct site *s, struct errbuf *eb)
{
	struct siteout_page *p = siteout_open(s->out_dir, "counts.html", eb);
	size_t found = 0;
	FILE *f;

	if (p == NULL)
		return -1;
	f = siteout_stream(p);
	sitehtml_page_start(f, "", "Counts: instructions beside time", "counts.html");
	fputs("<p>Time moves with the machine and its load; the number of instructions a tool "
	      "executes per call and per task does not. This page shows such counts beside the "
	      "fitted times wherever a published run's <code>fits.tsv</code> (or a counted run's "
	      "<code>counts-fits.tsv</code>) carries a column named with <code>"
	      SITEPAGES_COUNTS_MARK "</code>, and each run's time as counts × prices.</p>\n",
	      f);
	for (size_t i = 0; i < s->load->n_runs; i++) {
		for (size_t j = 0; j < s->load->runs[i].n_exps; j++) {
			const struct siteload_exp *e = &s->load->runs[i].exps[j];

			found += counts_of_exp(f, &s->load->runs[i], e,
					       e->has_fits ? RUNFILES_FITS : RUNFILES_COUNTS_FITS);
		}
		found += prices_of_run(f, &s->load->runs[i]);
	}
	if (found == 0)
		fputs("<p class=\"empty\" id=\"counts-none\">No published run carries instruction "
		      "counts yet: none of the <code>fits.tsv</code> files has such a column. "
		      "Once results carry them, this page lists them here with no change to the "
		      "site's code (the hook: <code>SITEPAGES_COUNTS_MARK</code> in "
		      "<code>src/rarsite/sitepages.c</code>).</p>\n",
		      f);
	sitehtml_page_end(f);
	return siteout_commit(p, eb);
}
