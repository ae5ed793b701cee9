/* site_run: runs.html and one page per published run, its raw files copied beside it
 * (sitepages.h). */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "sitehtml.h"
#include "sitemd.h"
#include "siteout.h"
#include "sitepages.h"
#include "runfiles.h"

#define SERIES_MAX 64
#define DATA_FILE_MAX (4u * 1024 * 1024)

/* The raw files of an experiment or a run copied into the site when present, besides every
 * .svg, .png, .md and .txt file. */
static const char *const raw_files[] = {RUNFILES_RESULTS,
					RUNFILES_FITS,
					RUNFILES_CLAIMS,
					RUNFILES_PREDICTED,
					RUNFILES_PROFILE,
					RUNFILES_PROFILE_FITS,
					RUNFILES_PROFILE_COSTS,
					RUNFILES_POINTS,
					RUNFILES_BETWEEN,
					RUNFILES_COMPARISON_RATIO,
					RUNFILES_FITS_NORMALISED,
					RUNFILES_HISTORY,
					RUNFILES_HISTORY_STEPS,
					RUNFILES_HISTORY_DIARY,
					RUNFILES_FACTS,
					RUNFILES_RARPLOT_OUT,
					"rarbench.out"};

static bool copied_kind(const char *name)
{
	size_t n = strlen(name);
	static const char *const ext[] = {".svg", ".png", ".md", ".txt"};

	for (size_t i = 0; i < sizeof(raw_files) / sizeof(raw_files[0]); i++)
		if (strcmp(name, raw_files[i]) == 0)
			return true;
	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++)
		if (n > strlen(ext[i]) && strcmp(name + n - strlen(ext[i]), ext[i]) == 0)
			return true;
	return n > 5 && strncmp(name, "manifest", 8) == 0 && strcmp(name + n - 5, ".json") == 0;
}

/* Copies the raw files of dir to out_dir/rel/. */
static int copy_raw(const char *dir, const char *out_dir, const char *rel, struct errbuf *eb)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	if (d == NULL)
		return errbuf_set_errno(eb, errno, "%s: cannot open", dir);
	while (rc == 0 && (e = readdir(d)) != NULL) {
		char src[SITELOAD_PATH_MAX], dst[SITELOAD_PATH_MAX];

		if (e->d_name[0] == '.' || !fileio_name_is_plain(e->d_name) ||
		    !copied_kind(e->d_name))
			continue;
		if (fileio_join(src, sizeof(src), dir, e->d_name, eb) != 0 ||
		    fileio_join(dst, sizeof(dst), rel, e->d_name, eb) != 0)
			rc = -1;
		else
			rc = siteout_copy(src, out_dir, dst, eb);
	}
	closedir(d);
	return rc;
}

/* "perf_tasks" for nb_tasks, "perf_both" for a product: rarplot's data folder of the axis. */
static void data_folder(const char *x, char *buf, size_t size)
{
	if (strchr(x, '*') != NULL)
		snprintf(buf, size, "perf_both"); /* lint: not a path */
	else
		snprintf(buf, size, "perf_%s",
			 strncmp(x, "nb_", 3) == 0 ? x + 3 : x); /* lint: not a path */
}

static double num(const char *s)
{
	char *end = NULL;
	double v = strtod(s, &end);

	return s[0] != '\0' && end != NULL && *end == '\0' && isfinite(v) ? v : NAN;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * One data file of rarplot's (data/perf_AXIS/NN_SUBJECT_FORMAT.tsv: "# subject=S format=F
 * host=H", then "# x<TAB>y_ms..." and the points) into ser: its name and points (y the
 * estimate, the interval its ci_low_ms, ci_high_ms when given, else ylow_ms, yhigh_ms).
 */
static int load_points(const char *path, struct sitepages_series *ser, char *subject, char *format,
		       char *host, size_t size, struct errbuf *eb)
{
	char *text = NULL, *hdr;
	size_t len = 0;
	struct sitetsv *t = NULL;
	int rc = -1;

	if (fileio_read(path, DATA_FILE_MAX, NULL, &text, &len, eb) != 0)
		return -1;
	subject[0] = format[0] = host[0] = '\0';
	if (sscanf(text, "# subject=%127s format=%127s host=%127s", subject, format, host) != 3 ||
	    size < 128) {
		errbuf_set(eb, "%s: no \"# subject=S format=F host=H\" line", path);
		goto out;
	}
	/* The header is the comment "# x\t...": made a header line for sitetsv. */
	hdr = strstr(text, "\n# x\t");
	if (hdr == NULL) {
		errbuf_set(eb, "%s: no \"# x\" header line", path);
		goto out;
	}
	hdr[1] = ' ';
	hdr[2] = ' ';
	t = sitetsv_parse(hdr + 3, len - (size_t)(hdr + 3 - text), path, eb);
	if (t == NULL)
		goto out;
	{
		int cx = sitetsv_col(t, "x"), cy = sitetsv_col(t, "y_ms"),
		    clo = sitetsv_col(t, "ci_low_ms"), chi = sitetsv_col(t, "ci_high_ms");

		if (clo < 0 || chi < 0) {
			clo = sitetsv_col(t, "ylow_ms");
			chi = sitetsv_col(t, "yhigh_ms");
		}
		if (cx < 0 || cy < 0) {
			errbuf_set(eb, "%s: no x or y_ms column", path);
			goto out;
		}
		snprintf(ser->name, sizeof(ser->name), "%s%s%s", subject, /* lint: not a path */
			 strcmp(host, "-") != 0 ? " @" : "", strcmp(host, "-") != 0 ? host : "");
		for (size_t r = 0; r < t->n_rows; r++)
			if (sitepages_series_add(ser, num(sitetsv_cell(t, r, cx)),
						 num(sitetsv_cell(t, r, cy)),
						 num(sitetsv_cell(t, r, clo)),
						 num(sitetsv_cell(t, r, chi)), eb) != 0)
				goto out;
	}
	rc = 0;
out:
	sitetsv_free(t);
	free(text);
	return rc;
}

/* The fitted line of subject x format x host from fits into s. */
static void fitted_line(const struct sitetsv *fits, const char *subject, const char *format,
			const char *host, struct sitesvg_series *s)
{
	int cs = sitetsv_col(fits, "subject"), cf = sitetsv_col(fits, "format"),
	    ch = sitetsv_col(fits, "host"), ci = sitetsv_col(fits, "intercept_ms"),
	    cb = sitetsv_col(fits, "slope_us");

	for (size_t r = 0; r < fits->n_rows; r++)
		if (strcmp(sitetsv_cell(fits, r, cs), subject) == 0 &&
		    strcmp(sitetsv_cell(fits, r, cf), format) == 0 &&
		    strcmp(sitetsv_cell(fits, r, ch), host) == 0) {
			s->intercept = num(sitetsv_cell(fits, r, ci));
			s->slope = num(sitetsv_cell(fits, r, cb)) / 1000; /* µs to ms per unit */
			s->line = isfinite(s->intercept) && isfinite(s->slope) && s->n > 0;
			return;
		}
}

/* The experiment's figure: its points (data/perf_AXIS/) and fitted lines (fits.tsv). */
static int run_figure(FILE *f, const struct siteload_exp *e, const struct sitetsv *fits,
		      const char *fig_id, struct errbuf *eb)
{
	char folder[64], dir[SITELOAD_PATH_MAX], *names[SERIES_MAX];
	struct sitepages_series ser[SERIES_MAX];
	struct sitesvg_series svg[SERIES_MAX];
	char hex[SERIES_MAX][8], subjects[SERIES_MAX][128], formats[SERIES_MAX][128],
	    hosts[SERIES_MAX][128];
	size_t n_names = 0, n = 0;
	const char *x = fits->n_rows > 0 ? sitetsv_cell(fits, 0, sitetsv_col(fits, "x")) : "";
	DIR *d;
	struct dirent *de;
	int rc = -1;
	char title[256], xlabel[128];

	data_folder(x, folder, sizeof(folder));
	if (fileio_fmt(dir, sizeof(dir), "%s/data/%s", e->dir, folder) != 0 ||
	    (d = opendir(dir)) == NULL)
		return 0; /* no points published: the table alone */
	while ((de = readdir(d)) != NULL && n_names < SERIES_MAX) {
		size_t l = strlen(de->d_name);

		if (l > 4 && strcmp(de->d_name + l - 4, ".tsv") == 0 &&
		    fileio_name_is_plain(de->d_name) &&
		    (names[n_names] = strdup(de->d_name)) != NULL)
			n_names++;
	}
	closedir(d);
	qsort(names, n_names, sizeof(names[0]), cmp_names);
	for (size_t i = 0; i < n_names; i++) {
		char path[SITELOAD_PATH_MAX], subject[128], format[128], host[128];

		memset(&ser[n], 0, sizeof(ser[n]));
		if (fileio_join(path, sizeof(path), dir, names[i], eb) != 0 ||
		    load_points(path, &ser[n], subject, format, host, sizeof(subject), eb) != 0) {
			n++;
			goto out;
		}
		snprintf(ser[n].format, sizeof(ser[n].format), "%s", format); /* lint: not a path */
		snprintf(subjects[n], sizeof(subjects[n]), "%s", subject);    /* lint: not a path */
		snprintf(formats[n], sizeof(formats[n]), "%s", format);       /* lint: not a path */
		snprintf(hosts[n], sizeof(hosts[n]), "%s", host);             /* lint: not a path */
		n++;
	}
	sitepages_to_svg(ser, n, svg, hex);
	{
		/* each series' look is its subject's, whatever its host */
		const char *subj[SERIES_MAX], *fmt[SERIES_MAX];

		for (size_t k = 0; k < n; k++) {
			subj[k] = subjects[k];
			fmt[k] = formats[k];
		}
		sitesvg_style(svg, subj, fmt, n, hex);
	}
	for (size_t k = 0; k < n; k++) {
		svg[k].x_min = INFINITY;
		svg[k].x_max = -INFINITY;
		for (size_t j = 0; j < ser[k].n; j++) {
			svg[k].x_min = fmin(svg[k].x_min, ser[k].pts[j].x);
			svg[k].x_max = fmax(svg[k].x_max, ser[k].pts[j].x);
		}
		fitted_line(fits, subjects[k], formats[k], hosts[k], &svg[k]);
	}
	snprintf(title, sizeof(title), /* lint: not a path */
		 "%s: time against %s, points with their 95 %% interval, lines fitted", e->name, x);
	snprintf(xlabel, sizeof(xlabel), "%s", x); /* lint: not a path */
	sitesvg_write(f, &(struct sitesvg_fig){.id = fig_id,
					       .title = title,
					       .xlabel = xlabel,
					       .ylabel = "time per call (ms)",
					       .yunit = "ms",
					       .xunit = xlabel,
					       .series = svg,
					       .n_series = n,
					       .yref = NAN,
					       .log_first = true});
	rc = 0;
out:
	sitepages_series_free(ser, n);
	for (size_t i = 0; i < n_names; i++)
		free(names[i]);
	return rc;
}

static const char *const fits_cols[] = {"subject",
					"format",
					"host",
					"n",
					"intercept_ms",
					"intercept_lo_ms",
					"intercept_hi_ms",
					"slope_us",
					"slope_lo_us",
					"slope_hi_us",
					"r2"};
static const bool fits_num[] = {false, false, false, true, true, true,
				true,  true,  true,  true, true};

static const char *const claims_cols[] = {"id",      "host",     "subject", "versus", "quantity",
					  "claimed", "measured", "lo",      "hi",     "verdict"};
static const bool claims_num[] = {false, false, false, false, false, true, true, true, true, false};

static const char *const predicted_cols[] = {"subject",           "n",
					     "intercept_ms",      "accounted_ms",
					     "residual_ms",       "residual_pct",
					     "exec_ms",           "faults_ms",
					     "close_ms",          "read_ms",
					     "openat_ms",         "newfstatat_ms",
					     "mmap_ms",           "other_calls_ms",
					     "user_ms",           "slope_us",
					     "accounted_slope_us"};
static const bool predicted_num[] = {false, true, true, true, true, true, true, true, true,
				     true,  true, true, true, true, true, true, true};

static const char *const costs_cols[] = {"syscall", "ns", "measured"};
static const bool costs_num[] = {false, true, false};

/* A published TSV of the experiment as a table, when present; its source named in the site. */
static void tsv_section(FILE *f, const struct siteload_run *run, const struct siteload_exp *e,
			const char *file, const char *heading, const char *words,
			const char *const *cols, const bool *nums, size_t n)
{
	char path[SITELOAD_PATH_MAX], src[SITELOAD_PATH_MAX];
	struct errbuf eb;
	struct sitetsv *t;

	if (fileio_join(path, sizeof(path), e->dir, file, &eb) != 0 ||
	    fileio_fmt(src, sizeof(src), "runs/%s/%s/%s", run->name, e->name, file) != 0)
		return;
	t = sitetsv_load(path, &eb);
	if (t == NULL)
		return;
	fprintf(f, "<h3>%s</h3>\n<p>", heading);
	fputs(words, f);
	fputs(" (<a href=\"", f);
	sitehtml_text(f, e->name);
	fputs("/", f);
	sitehtml_text(f, file);
	fputs("\">", f);
	sitehtml_text(f, file);
	fputs("</a>)</p>\n", f);
	sitehtml_tsv_table(f, t, src, cols, nums, n, NULL);
	sitetsv_free(t);
}

/* A link to the experiment's copied file rel when the site has it. */
static void file_link(FILE *f, const struct site *s, const struct siteload_run *run,
		      const struct siteload_exp *e, const char *name, const char *words)
{
	char rel[SITELOAD_PATH_MAX];

	if (fileio_fmt(rel, sizeof(rel), "runs/%s/%s/%s", run->name, e->name, name) != 0 ||
	    !siteout_exists(s->out_dir, rel))
		return;
	fputs("<li><a href=\"", f);
	sitehtml_text(f, e->name);
	fputs("/", f);
	sitehtml_text(f, name);
	fputs("\">", f);
	sitehtml_text(f, name);
	fputs("</a>: ", f);
	fputs(words, f);
	fputs("</li>\n", f);
}

static int exp_section(FILE *f, const struct site *s, const struct siteload_run *run,
		       const struct siteload_exp *e, size_t idx, struct errbuf *eb)
{
	char path[SITELOAD_PATH_MAX], rel[SITELOAD_PATH_MAX], from[SITELOAD_PATH_MAX], fig_id[32];
	struct sitepages_links links = {s->out_dir, rel, from};
	struct sitetsv *fits = NULL;

	/* report.md sits in EXP/ beside the page: its links are EXP/... from the page */
	if (fileio_fmt(rel, sizeof(rel), "runs/%s/%s", run->name, e->name) != 0 ||
	    fileio_fmt(from, sizeof(from), "%s/", e->name) != 0)
		return errbuf_set(eb, "%s: path too long", run->name);
	fputs("<section class=\"exp\" id=\"exp-", f);
	sitehtml_text(f, e->name);
	fputs("\">\n<h2>", f);
	sitehtml_text(f, e->name);
	fputs("</h2>\n", f);
	if (e->meta.description != NULL) {
		fputs("<p class=\"desc\">", f);
		sitehtml_text(f, e->meta.description);
		fputs("</p>\n", f);
	}
	if (e->meta.started != NULL) {
		fputs("<p class=\"when\">Measured ", f);
		sitehtml_text(f, e->meta.started);
		fputs(" to ", f);
		sitehtml_text(f, e->meta.finished != NULL ? e->meta.finished : "?");
		if (e->meta.commit != NULL) {
			fputs(" by rarperf ", f);
			sitehtml_text(f, e->meta.commit);
		}
		fputs(".</p>\n", f);
	}
	if (e->has_fits) {
		if (fileio_join(path, sizeof(path), e->dir, RUNFILES_FITS, eb) != 0 ||
		    (fits = sitetsv_load(path, eb)) == NULL)
			return -1;
		snprintf(fig_id, sizeof(fig_id), "fig-run-%zu", idx); /* lint: not a path */
		if (run_figure(f, e, fits, fig_id, eb) != 0) {
			sitetsv_free(fits);
			return -1;
		}
		fputs("<h3>The fits</h3>\n<p>time = intercept + slope × size, each with its 95 % "
		      "interval (<a href=\"",
		      f);
		sitehtml_text(f, e->name);
		fputs("/fits.tsv\">fits.tsv</a>).</p>\n", f);
		if (fileio_fmt(path, sizeof(path), "runs/%s/%s/fits.tsv", run->name, e->name) == 0)
			sitehtml_tsv_table(f, fits, path, fits_cols, fits_num,
					   sizeof(fits_cols) / sizeof(fits_cols[0]), NULL);
		sitetsv_free(fits);
	}
	if (fileio_join(path, sizeof(path), e->dir, RUNFILES_REPORT, eb) == 0 &&
	    access(path, R_OK) == 0) {
		fputs("<h3>Verdicts</h3>\n<div class=\"prose\">\n", f);
		if (!sitepages_markdown(f, path, "Verdicts", false, &links))
			fputs("<p>(no verdicts in this report)</p>\n", f);
		fputs("</div>\n", f);
		fputs("<div class=\"prose\">\n", f);
		sitepages_markdown(f, path, "On another machine", false, &links);
		fputs("</div>\n", f);
	}
	if (fileio_join(path, sizeof(path), e->dir, RUNFILES_COMPARISON, eb) == 0 &&
	    access(path, R_OK) == 0) {
		fputs("<h3>The comparison (rarplot --compare)</h3>\n<div class=\"prose\">\n", f);
		sitepages_markdown(f, path, NULL, false, &links);
		fputs("</div>\n", f);
	}
	tsv_section(f, run, e, RUNFILES_CLAIMS, "The published claims, checked",
		    "Each claim of RaR-perf's README against what this run measured", claims_cols,
		    claims_num, sizeof(claims_cols) / sizeof(claims_cols[0]));
	tsv_section(
	    f, run, e, RUNFILES_PREDICTED, "Profile: the intercept split by the kernel's prices",
	    "Each subject's intercept as exec, page faults, system calls (counted by strace, "
	    "priced by rarkref on this machine) and user time; the residual is what they "
	    "do not account for",
	    predicted_cols, predicted_num, sizeof(predicted_cols) / sizeof(predicted_cols[0]));
	tsv_section(f, run, e, RUNFILES_PROFILE_COSTS, "The kernel's prices on this machine",
		    "What one system call costs here", costs_cols, costs_num, 3);
	if (fileio_fmt(path, sizeof(path), "runs/%s/%s/profile_counters.svg", run->name, e->name) ==
		0 &&
	    siteout_exists(s->out_dir, path)) {
		fputs("<h3>System calls and bytes read against the size</h3>\n<p><img src=\"", f);
		sitehtml_text(f, e->name);
		fputs("/profile_counters.svg\" alt=\"the profile counters of each subject against "
		      "the size (strace)\" class=\"gnuplot\"></p>\n",
		      f);
	}
	fputs("<h3>Files</h3>\n<ul class=\"files\">\n", f);
	file_link(f, s, run, e, RUNFILES_MANIFEST,
		  "the manifest it ran (from results.json's meta)");
	file_link(f, s, run, e, RUNFILES_RESULTS,
		  "every run's times (hyperfine's format, and meta)");
	file_link(f, s, run, e, RUNFILES_REPORT, "rarplot's report");
	file_link(f, s, run, e, RUNFILES_COMPARISON, "rarplot --compare's section");
	file_link(f, s, run, e, RUNFILES_FITS, "the fits");
	file_link(f, s, run, e, RUNFILES_POINTS, "the points");
	file_link(f, s, run, e, RUNFILES_PROFILE, "the profile counters");
	file_link(f, s, run, e, "README.md", "what it is");
	file_link(f, s, run, e, "rarbench.out", "rarbench's output");
	fputs("</ul>\n", f);
	if (fileio_join(path, sizeof(path), e->dir, RUNFILES_REPORT, eb) == 0 &&
	    access(path, R_OK) == 0) {
		fputs("<details class=\"report\"><summary>The whole report.md</summary>\n"
		      "<div class=\"prose\">\n",
		      f);
		sitepages_markdown(f, path, NULL, false, &links);
		fputs("</div></details>\n", f);
	}
	fputs("</section>\n", f);
	return 0;
}

static int run_page(const struct site *s, const struct siteload_run *run, struct errbuf *eb)
{
	char rel[SITELOAD_PATH_MAX], path[SITELOAD_PATH_MAX];
	struct sitepages_links links = {s->out_dir, rel, ""};
	const struct siteload_meta *m = siteload_machine(run);
	struct siteout_page *p;
	FILE *f;

	if (fileio_fmt(rel, sizeof(rel), "runs/%s", run->name) != 0)
		return errbuf_set(eb, "%s: path too long", run->name);
	if (copy_raw(run->dir, s->out_dir, rel, eb) != 0)
		return -1;
	for (size_t i = 0; i < run->n_exps; i++) {
		const struct siteload_exp *e = &run->exps[i];
		char sub[SITELOAD_PATH_MAX];

		if (fileio_fmt(sub, sizeof(sub), "%s/%s", rel, e->name) != 0 ||
		    copy_raw(e->dir, s->out_dir, sub, eb) != 0)
			return -1;
		if (e->meta.manifest_text != NULL &&
		    (fileio_fmt(sub, sizeof(sub), "%s/%s/" RUNFILES_MANIFEST, rel, e->name) != 0 ||
		     siteout_write(s->out_dir, sub, e->meta.manifest_text,
				   strlen(e->meta.manifest_text), eb) != 0))
			return -1;
	}
	if (fileio_fmt(path, sizeof(path), "%s/index.html", rel) != 0 ||
	    (p = siteout_open(s->out_dir, path, eb)) == NULL)
		return -1;
	f = siteout_stream(p);
	sitehtml_page_start(f, "../../", run->name, "runs.html");
	if (m != NULL) {
		fputs("<p class=\"machine\">Machine: ", f);
		sitehtml_text(f, m->cpu_model != NULL ? m->cpu_model : "?");
		if (m->cpu_family != NULL) {
			fputs(" (CPU family ", f);
			sitehtml_text(f, m->cpu_family);
			fputs(")", f);
		}
		if (isfinite(m->cpus))
			fprintf(f, ", %.0f CPUs", m->cpus);
		if (m->kernel != NULL) {
			fputs(", ", f);
			sitehtml_text(f, m->kernel);
		}
		fputs(".</p>\n", f);
	}
	if (run->has_readme && fileio_join(path, sizeof(path), run->dir, "README.md", eb) == 0) {
		fputs("<details class=\"readme\" open><summary>The run's README.md</summary>\n"
		      "<div class=\"prose\">\n",
		      f);
		sitepages_markdown(f, path, NULL, false, &links);
		fputs("</div></details>\n", f);
	}
	if (run->n_exps > 1) {
		fputs("<p>Experiments:", f);
		for (size_t i = 0; i < run->n_exps; i++) {
			fputs(" <a href=\"#exp-", f);
			sitehtml_text(f, run->exps[i].name);
			fputs("\">", f);
			sitehtml_text(f, run->exps[i].name);
			fputs("</a>", f);
		}
		fputs("</p>\n", f);
	}
	for (size_t i = 0; i < run->n_exps; i++)
		if (exp_section(f, s, run, &run->exps[i], i, eb) != 0) {
			siteout_abort(p);
			return -1;
		}
	sitehtml_page_end(f);
	return siteout_commit(p, eb);
}

int sitepages_runs(const struct site *s, struct errbuf *eb)
{
	struct siteout_page *p;
	FILE *f;

	for (size_t i = 0; i < s->load->n_runs; i++)
		if (run_page(s, &s->load->runs[i], eb) != 0)
			return -1;
	p = siteout_open(s->out_dir, "runs.html", eb);
	if (p == NULL)
		return -1;
	f = siteout_stream(p);
	sitehtml_page_start(f, "", "Every published run", "runs.html");
	fputs("<div class=\"tablewrap\"><table class=\"md\"><thead><tr><th>run</th><th>machine"
	      "</th><th>experiments</th></tr></thead><tbody>\n",
	      f);
	for (size_t i = 0; i < s->load->n_runs; i++) {
		const struct siteload_run *run = &s->load->runs[i];
		const struct siteload_meta *m = siteload_machine(run);

		fputs("<tr><td><a href=\"runs/", f);
		sitehtml_text(f, run->name);
		fputs("/index.html\">", f);
		sitehtml_text(f, run->name);
		fputs("</a></td><td>", f);
		if (m != NULL && m->cpu_model != NULL) {
			sitehtml_text(f, m->cpu_model);
			if (m->cpu_family != NULL) {
				fputs(", family ", f);
				sitehtml_text(f, m->cpu_family);
			}
		}
		fputs("</td><td>", f);
		for (size_t j = 0; j < run->n_exps; j++) {
			fputs(j > 0 ? ", " : "", f);
			sitehtml_text(f, run->exps[j].name);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
	sitehtml_page_end(f);
	return siteout_commit(p, eb);
}
