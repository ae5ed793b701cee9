/* compare_cli: rarplot --compare, its options and exit status (compare_cli.h). */
#include "compare_cli.h"

#include "compare_print.h"
#include "countcompare.h"
#include "countcompare_print.h"
#include "plotseries.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomicfile.h"
#include "axishint.h"
#include "between.h"
#include "between_file.h"
#include "exitcode.h"
#include "fileio.h"
#include "numarg.h"
#include "plotrun.h"
#include "sanitize.h"
#include "runfiles.h"

/* The exit status of verdicts: regressed before inconclusive before the rest. */
static int compare_cli_status(bool regressed, bool inconclusive)
{
	if (regressed)
		return EXITCODE_REGRESSED;
	return inconclusive ? EXITCODE_INCONCLUSIVE : EXITCODE_OK;
}

/*
 * The exit status once the counts are known: with --counts they decide it (2 when they cannot:
 * a subject uncounted), else the wall time's stands and the counts are only printed beside.
 */
static int compare_cli_counted_status(const struct compare_cli *c, const struct countcompare *cc,
				      int wall_status)
{
	if (!c->on_counts)
		return wall_status;
	if (!cc->available) {
		fputs("rarplot: --counts: no verdict on counts (a subject's points carry no counts: "
		      "the manifest's \"counts\", doc/counts.md)\n",
		      stderr);
		return EXITCODE_BAD_INPUT;
	}
	return cc->regressed ? EXITCODE_REGRESSED : EXITCODE_OK;
}

void compare_cli_defaults(struct compare_cli *c)
{
	memset(c, 0, sizeof(*c));
	c->noise = VERDICT_DEFAULT_NOISE;
}

/* "--opt ARG: what" into eb (main prints it sanitized: ARG is the user's bytes). Returns -1. */
static int compare_cli_bad(const char *opt, const char *arg, const char *what, struct errbuf *eb)
{
	const struct numarg_words w = {opt, what, NUMARG_WORDING_USE};

	return numarg_error(eb, &w, arg, NUMARG_NOT_NUMBER);
}

/* "BASELINE:CANDIDATE" into c. */
static int compare_cli_pair(struct compare_cli *c, const char *arg, struct errbuf *eb)
{
	const char *colon = strchr(arg, ':');
	size_t nb = colon != NULL ? (size_t)(colon - arg) : 0;

	if (colon == NULL || nb == 0 || colon[1] == '\0' || strchr(colon + 1, ':') != NULL)
		return compare_cli_bad("--compare", arg, "use BASELINE:CANDIDATE (subject names)",
				       eb);
	if (nb >= sizeof(c->baseline) || strlen(colon + 1) >= sizeof(c->candidate))
		return compare_cli_bad("--compare", arg, "a subject name is too long", eb);
	memcpy(c->baseline, arg, nb);
	c->baseline[nb] = '\0';
	snprintf(c->candidate, sizeof(c->candidate), "%s", colon + 1);
	c->pair = arg;
	return 0;
}

/* "2%" or "2": a percentage in [0, 100) into c->noise as a fraction. */
static int compare_cli_noise(struct compare_cli *c, const char *arg, struct errbuf *eb)
{
	const struct numarg_bounds pct = {0, 100, NUMARG_OPEN_HI | NUMARG_PERCENT_SIGN};
	double v = 0;

	if (numarg_double(arg, &pct, &v) != NUMARG_OK)
		return compare_cli_bad("--noise", arg, "use a percentage such as 2%", eb);
	c->noise = v / 100;
	return 0;
}

/* "100,10000": sizes >= 0. */
static int compare_cli_at(struct compare_cli *c, const char *arg, struct errbuf *eb)
{
	const struct numarg_bounds size = {0, INFINITY, 0};
	const char *p = arg, *end = NULL;

	c->n_at = 0;
	while (*p != '\0') {
		double v = 0;

		if (numarg_double_prefix(p, &size, &v, &end) != NUMARG_OK ||
		    (*end != ',' && *end != '\0'))
			return compare_cli_bad("--at", arg, "use sizes separated by commas", eb);
		if (c->n_at == PAIRED_MAX_AT)
			return compare_cli_bad("--at", arg, "too many sizes (16 at most)", eb);
		c->at[c->n_at++] = v;
		p = *end == ',' ? end + 1 : end;
	}
	return c->n_at > 0 ? 0 : compare_cli_bad("--at", arg, "no size", eb);
}

int compare_cli_option(struct compare_cli *c, int which, const char *arg, struct errbuf *eb)
{
	switch (which) {
	case 'c':
		return compare_cli_pair(c, arg, eb);
	case 'n':
		return compare_cli_noise(c, arg, eb);
	case 'a':
		return compare_cli_at(c, arg, eb);
	case 'b':
		c->between = arg;
		return 0;
	case 'k':
		c->on_counts = true;
		return 0;
	default:
		c->allow_unpaired = true;
		return 0;
	}
}

/* "rarplot: MSG" on stderr: the message may hold bytes of a results file. */
static void compare_cli_say(const struct errbuf *eb)
{
	fputs("rarplot: ", stderr);
	sanitize_fputs(eb->msg, SANITIZE_TEXT, stderr);
	fputc('\n', stderr);
}

/* DIR/comparison.md (the section) and DIR/comparison.tsv. */
static int compare_cli_write(const struct compare_outcome *out, const struct compare_opts *o,
			     const struct countcompare *cc, const char *dir, struct errbuf *eb)
{
	struct atomicfile *af;
	char path[PATH_MAX];

	if (fileio_mkdirs(dir, eb) != 0)
		return -1;
	if (fileio_join(path, sizeof(path), dir, RUNFILES_COMPARISON, eb) != 0)
		return -1;
	af = atomicfile_open(path, 0644, eb);
	if (af == NULL)
		return -1;
	compare_print(out, o, atomicfile_stream(af));
	if (cc->available)
		countcompare_print(cc, o->baseline, o->candidate, o->axis, atomicfile_stream(af));
	if (atomicfile_commit(af, eb) != 0)
		return -1;
	if (fileio_join(path, sizeof(path), dir, RUNFILES_COMPARISON_TSV, eb) != 0)
		return -1;
	return compare_write_tsv(out, path, eb);
}

/*
 * The sizes the ratio figure shows: every size measured, or PAIRED_MAX_AT of them spread by
 * index (the first and the last always) into at. Returns how many.
 */
static size_t compare_cli_ratio_sizes(const double *xs, size_t n, double *at)
{
	if (n <= PAIRED_MAX_AT) {
		memcpy(at, xs, n * sizeof(*at));
		return n;
	}
	for (size_t i = 0; i < PAIRED_MAX_AT; i++)
		at[i] = xs[i * (n - 1) / (PAIRED_MAX_AT - 1)];
	return PAIRED_MAX_AT;
}

/* DIR/comparison-ratio.tsv: size, the ratio of the lines there, its 95 % interval (what: how). */
static int compare_cli_ratio_tsv(const double *at, const struct paired_ratio *r, size_t n,
				 const struct compare_opts *o, const char *what, const char *path,
				 struct errbuf *eb)
{
	struct atomicfile *af = atomicfile_open(path, 0644, eb);
	FILE *f;

	if (af == NULL)
		return -1;
	f = atomicfile_stream(af);
	fputs("# rarplot --compare: ", f);
	sanitize_fputs(o->candidate, SANITIZE_TEXT, f);
	fputs(" / ", f);
	sanitize_fputs(o->baseline, SANITIZE_TEXT, f);
	fprintf(f, ", the ratio of the fitted lines at each size (%s)\n", what);
	fputs("size\tratio\tlo\thi\n", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%.10g\t%.6g\t%.6g\t%.6g\n", at[i], r[i].value, r[i].lo, r[i].hi);
	return atomicfile_commit(af, eb);
}

/* compare_ratio.gp into DIR/comparison-ratio.<format>, through a hidden temporary file. */
static int compare_cli_ratio_draw(const struct compare_cli *c, const struct compare_opts *o,
				  const char *dir, const char *tsv, const char *what,
				  const char *host, bool log_x, struct errbuf *eb)
{
	char gnuplot[PLOTRUN_PATH_MAX], scripts[PLOTRUN_PATH_MAX], script[PLOTRUN_PATH_MAX];
	char tmp[PLOTRUN_PATH_MAX], final[PLOTRUN_PATH_MAX], noise[32], title[256];
	struct plotrun_param p[] = {
	    {"file", tsv, 1},        {"out", tmp, 1},
	    {"noise", noise, 0},     {"logscale", log_x ? "1" : "0", 0},
	    {"xlabel", o->axis, 1},  {"figure_title", title, 1},
	    {"caption", what, 1},    {"host", host, 1},
	    {"term", "pngcairo", 1},
	};
	size_t np = sizeof(p) / sizeof(p[0]);

	if (plotrun_find_gnuplot(gnuplot, sizeof(gnuplot), eb) != 0 ||
	    plotrun_find_scripts(c->plots_dir, RARPERF_DATADIR, scripts, sizeof(scripts), eb) !=
		0 ||
	    fileio_join(script, sizeof(script), scripts, "compare_ratio.gp", eb) != 0)
		return -1;
	snprintf(noise, sizeof(noise), "%.6g", o->noise);
	snprintf(title, sizeof(title), "%s / %s against %s, with the 95 %% interval", o->candidate,
		 o->baseline, o->axis);
	for (size_t i = 0; i < c->n_formats; i++) {
		const char *fmt = c->formats[i];
		char leaf[64];

		p[np - 1].value = strcmp(fmt, "svg") == 0   ? "svg"
				  : strcmp(fmt, "pdf") == 0 ? "pdfcairo"
							    : "pngcairo";
		snprintf(leaf, sizeof(leaf), "comparison-ratio.%s", fmt);
		if (fileio_join(final, sizeof(final), dir, leaf, eb) != 0)
			return -1;
		if (fileio_fmt(tmp, sizeof(tmp), "%s/.%s.tmp", dir, leaf) != 0)
			return errbuf_set(eb, "%s: path too long", dir);
		if (plotrun_run(gnuplot, script, p, np, eb) != 0) {
			unlink(tmp);
			return -1;
		}
		if (rename(tmp, final) != 0) {
			errbuf_set_errno(eb, errno, "%s", final);
			unlink(tmp);
			return -1;
		}
	}
	return 0;
}

/*
 * The ratio against size: the comparison again at the sizes measured (of one sweep, or over the k
 * sweeps source[] with their across-sweeps intervals), its TSV and its figure in dir. A failure
 * to draw is a warning; a failure to compare or to write the TSV an error (-1).
 */
static int compare_cli_ratio(const struct compare_cli *c, const struct compare_opts *o,
			     const struct results *res, const size_t *source, size_t k,
			     const char *dir, struct errbuf *eb)
{
	struct compare_outcome *per = calloc(k > 1 ? k : 1, sizeof(*per));
	struct compare_across *a = calloc(1, sizeof(*a));
	double *xs = calloc(COMPARE_MAX_POINTS, sizeof(*xs)), at[PAIRED_MAX_AT];
	struct paired_ratio r[PAIRED_MAX_AT];
	struct compare_opts ro = *o;
	struct interference h;
	char tsv[PATH_MAX], what[96], host[320];
	size_t n, left = 0;
	int rc = -1;

	if (per == NULL || a == NULL || xs == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	ro.source = k > 1 ? source[0] : o->source;
	n = compare_sizes(res, &ro, xs, COMPARE_MAX_POINTS);
	ro.source = o->source;
	ro.at = at;
	ro.n_at = compare_cli_ratio_sizes(xs, n, at);
	if (k > 1) {
		if (compare_sweeps(res, &ro, source, k, per, a, eb) != 0)
			goto out;
		for (size_t i = 0; i < ro.n_at; i++)
			r[i] = a->ci[2 + i];
		snprintf(what, sizeof(what), "the mean over %zu sweeps, t(%zu) interval", k, k - 1);
	} else {
		if (compare_compute(res, &ro, per, eb) != 0)
			goto out;
		for (size_t i = 0; i < ro.n_at; i++)
			r[i] = per->paired ? per->q[2 + i].paired : per->q[2 + i].unpaired;
		snprintf(what, sizeof(what), "%s", per->paired ? "paired per round" : "unpaired");
	}
	if (fileio_join(tsv, sizeof(tsv), dir, RUNFILES_COMPARISON_RATIO, eb) != 0 ||
	    compare_cli_ratio_tsv(at, r, ro.n_at, o, what, tsv, eb) != 0)
		goto out;
	rc = 0;
	/* Log-spaced sizes (half of them in the leftmost fifth) on a log axis, as the figures. */
	for (size_t i = 0; i < ro.n_at; i++)
		left += at[i] <= at[ro.n_at - 1] / 5;
	/* The figure names a host that interfered as the verdict does (issue 51). */
	interference_of(res, k > 1 ? SIZE_MAX : o->source, &h);
	interference_figure_line(&h, host, sizeof(host));
	if (c->n_formats > 0 &&
	    compare_cli_ratio_draw(c, o, dir, tsv, what, host,
				   at[0] > 0 && ro.n_at >= 3 && 2 * left >= ro.n_at, eb) != 0) {
		fputs("rarplot: warning: comparison-ratio not drawn: ", stderr);
		sanitize_fputs(eb->msg, SANITIZE_TEXT, stderr);
		fputc('\n', stderr);
	}
out:
	free(xs);
	free(a);
	free(per);
	return rc;
}

/* Several sweeps of both subjects: each compared, then what varies between them. */
static int compare_cli_sweeps(const struct compare_cli *c, const struct compare_opts *o,
			      const struct results *res, const size_t *source, size_t k,
			      const char *out_dir)
{
	struct compare_outcome *per = calloc(k, sizeof(*per));
	struct compare_across *a = calloc(1, sizeof(*a));
	struct countcompare cc;
	struct errbuf eb = {{0}};
	int status = EXITCODE_BAD_INPUT;

	if (per == NULL || a == NULL) {
		errbuf_set(&eb, "out of memory");
		goto fail;
	}
	if (compare_sweeps(res, o, source, k, per, a, &eb) != 0)
		goto fail;
	compare_sweeps_print(a, per, o, stdout);
	status = compare_cli_status(a->regressed, a->inconclusive);
	if (countcompare_compute(res, o->baseline, o->candidate, o->axis, &cc, &eb) != 0)
		goto fail;
	/* Every sweep's counts, pooled: a count has no between-sweep spread to speak of. */
	if (cc.available || plotseries_any_counted(res))
		countcompare_print(&cc, o->baseline, o->candidate, o->axis, stdout);
	status = compare_cli_counted_status(c, &cc, status);
	if (out_dir != NULL) {
		struct between b;
		struct atomicfile *af;
		char path[PATH_MAX], what[256];

		between_from_sweeps(per, k, &b);
		snprintf(what, sizeof(what), "rarplot --compare %s:%s over %zu sweeps", o->baseline,
			 o->candidate, k);
		if (fileio_mkdirs(out_dir, &eb) != 0)
			goto fail;
		if (fileio_join(path, sizeof(path), out_dir, RUNFILES_BETWEEN, &eb) != 0 ||
		    between_write(&b, what, path, &eb) != 0)
			goto fail;
		/* The section printed, as the guide and the man page promise it. */
		if (fileio_join(path, sizeof(path), out_dir, RUNFILES_COMPARISON, &eb) != 0 ||
		    (af = atomicfile_open(path, 0644, &eb)) == NULL)
			goto fail;
		compare_sweeps_print(a, per, o, atomicfile_stream(af));
		if (cc.available)
			countcompare_print(&cc, o->baseline, o->candidate, o->axis,
					   atomicfile_stream(af));
		if (atomicfile_commit(af, &eb) != 0 ||
		    compare_cli_ratio(c, o, res, source, k, out_dir, &eb) != 0)
			goto fail;
	}
	goto out;
fail:
	/* A sweep of roles read along tasks: the hint plain rarplot gives. */
	axishint_append(res, o->axis, PLOTSERIES_MEDIAN, &eb);
	compare_cli_say(&eb);
out:
	free(a);
	free(per);
	return status;
}

int compare_cli_run(const struct compare_cli *c, const struct results *res, const char *axis,
		    bool use_weights, const char *out_dir)
{
	struct compare_opts o = {c->baseline, c->candidate,      axis,        c->noise, c->at,
				 c->n_at,     c->allow_unpaired, use_weights, 0,        SIZE_MAX};
	struct compare_outcome *out = calloc(1, sizeof(*out));
	struct countcompare cc;
	struct errbuf eb = {{0}};
	int status = EXITCODE_BAD_INPUT;

	size_t source[COMPARE_MAX_SWEEPS], k;

	if (out == NULL) {
		fputs("rarplot: out of memory\n", stderr);
		return EXITCODE_BAD_INPUT;
	}
	k = compare_sweeps_find(res, &o, source);
	if (k >= 2) {
		free(out);
		return compare_cli_sweeps(c, &o, res, source, k, out_dir);
	}
	if (compare_compute(res, &o, out, &eb) != 0) {
		struct errbuf ceb = {{0}};

		/* No wall-time comparison (unpaired, too poor a fit): counts still give a verdict. */
		if (!c->on_counts ||
		    countcompare_compute(res, o.baseline, o.candidate, axis, &cc, &ceb) != 0 ||
		    !cc.available)
			goto fail;
		fputs("No wall-time verdict: ", stdout);
		sanitize_fputs(eb.msg, SANITIZE_TEXT, stdout);
		fputc('\n', stdout);
		countcompare_print(&cc, o.baseline, o.candidate, axis, stdout);
		status = compare_cli_counted_status(c, &cc, EXITCODE_OK);
		goto out;
	}
	if (c->between != NULL) {
		struct between b;

		if (between_load(c->between, &b, &eb) != 0)
			goto fail;
		between_widen(out, &b, o.noise);
	}
	compare_print(out, &o, stdout);
	status = compare_cli_status(out->regressed, out->inconclusive);
	if (countcompare_compute(res, o.baseline, o.candidate, axis, &cc, &eb) != 0)
		goto fail;
	/* With --counts they decide the exit status; the wall-time verdict stays printed above. */
	if (cc.available || plotseries_any_counted(res))
		countcompare_print(&cc, o.baseline, o.candidate, axis, stdout);
	status = compare_cli_counted_status(c, &cc, status);
	if (out_dir != NULL && (compare_cli_write(out, &o, &cc, out_dir, &eb) != 0 ||
				compare_cli_ratio(c, &o, res, NULL, 1, out_dir, &eb) != 0)) {
		status = EXITCODE_FAILED; /* an output failed */
		goto fail;
	}
	goto out;
fail:
	axishint_append(res, axis, PLOTSERIES_MEDIAN, &eb);
	compare_cli_say(&eb);
out:
	free(out);
	return status;
}
