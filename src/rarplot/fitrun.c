/* fitrun: the default mode's order of work (fitrun.h): every input check before anything is
 * written. */
#include "fitrun.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acrossreport.h"
#include "axishint.h"
#include "changepoint.h"
#include "claims.h"
#include "claims_file.h"
#include "countprice.h"
#include "diary.h"
#include "diary_file.h"
#include "fileio.h"
#include "fitreport.h"
#include "fitreport_write.h"
#include "history.h"
#include "labgroups.h"
#include "normfig.h"
#include "plotfig.h"
#include "plotprofile.h"
#include "plotrun.h"
#include "plotseries.h"
#include "plotstyle.h"
#include "predictfig.h"
#include "profilefit_report.h"
#include "sanitize.h"
#include "stdfigs.h"
#include "runfiles.h"

/* The claims checked, for fitreport_write_markdown's extra sections. */
struct rarplot_claims {
	const struct claims_check *checks;
	size_t n;
	const char *unit;
};

/* The report's extra sections: a mixed lab's groups of hosts, the claims checked, the profiles. */
struct rarplot_more {
	const struct acrossreport *across;   /* several hosts: combined (first section), or NULL */
	const struct fitreport *rep;         /* one host: the spread a new machine may see */
	const char *published;               /* the published across-hosts.tsv, or NULL */
	bool published_given;                /* named by --published (else the project's) */
	const char *lab_md;                  /* results' lab_md, or NULL */
	const struct rarplot_claims *claims; /* or NULL */
	const struct plotprofile *profile;
};

/* Right after the question: with several hosts, what holds across machines. */
static void print_first_sections(FILE *f, const void *arg)
{
	const struct rarplot_more *m = arg;

	if (m->across != NULL)
		acrossreport_print_markdown(m->across, f);
}

/* After the verdicts: one host's intervals hold for it; the claims checked are verdicts too. */
static void print_verdict_sections(FILE *f, const void *arg)
{
	const struct rarplot_more *m = arg;

	if (m->across == NULL && m->rep != NULL)
		acrossreport_print_one_host(
		    m->rep, m->published,
		    m->published_given ? m->published : "doc/results/" RUNFILES_ACROSS, f);
	if (m->claims != NULL)
		claims_print_markdown(m->claims->checks, m->claims->n, m->claims->unit, f);
}

/* After the fits: a mixed lab's groups of hosts, the profiles and what they explain. */
static void print_more(FILE *f, const void *arg)
{
	const struct rarplot_more *m = arg;

	labgroups_print_markdown(m->lab_md, f);
	if (m->profile->pf != NULL)
		profilefit_print_markdown(m->profile->pf, m->profile->times, m->profile->n_times,
					  f);
	if (m->profile->pf != NULL && m->claims != NULL)
		profilefit_explain_claims(m->profile->pf, m->claims->checks, m->claims->n,
					  m->profile->times, m->profile->n_times, f);
}

/* "median", "mean", or for rarbench's estimate its estimator: "median estimate". */
static void stat_name(const struct plotcli *cfg, const struct results *res, char *buf, size_t len)
{
	if (cfg->stat == PLOTSERIES_MEAN)
		snprintf(buf, len, "mean");
	else if (cfg->stat == PLOTSERIES_MEDIAN || res->n_points == 0)
		snprintf(buf, len, "median");
	else
		snprintf(buf, len, "%s estimate", res->estimator);
}

/* "rarplot: wrote DIR/report.md, DIR/fits.tsv, DIR/FIGURE..." on stderr. */
static void print_wrote(const char *out_dir, bool across, const struct plotfig_out *drawn)
{
	fputs("rarplot: wrote ", stderr);
	sanitize_fputs(out_dir, SANITIZE_TEXT, stderr);
	fputs("/" RUNFILES_REPORT ", ", stderr);
	sanitize_fputs(out_dir, SANITIZE_TEXT, stderr);
	fputs("/" RUNFILES_FITS, stderr);
	if (across) {
		fputs(", ", stderr);
		sanitize_fputs(out_dir, SANITIZE_TEXT, stderr);
		fputs("/" RUNFILES_ACROSS, stderr);
	}
	for (size_t i = 0; i < drawn->n_files; i++) {
		fputs(", ", stderr);
		sanitize_fputs(out_dir, SANITIZE_TEXT, stderr);
		fputc('/', stderr);
		sanitize_fputs(drawn->files[i], SANITIZE_TEXT, stderr);
	}
	fputc('\n', stderr);
}

/* What fitrun_run makes from the inputs to the figures: all NULL (or 0) until made, plot_free frees
 * it (but res, the caller's). */
struct plot {
	struct results *res;
	struct plotseries_set *set;
	struct fitreport *rep;
	/* The counted instructions' series and fits (every result counted), else NULL. */
	struct plotseries_set *counts_set;
	struct fitreport *counts;
	struct acrossreport *across; /* several hosts: every comparison combined over them */
	struct claims *claims;
	struct claims_check *checks;
	size_t n_checks;
	struct diary *diary;
	struct plotprofile prof;
	struct plotfig_out drawn;
	struct plotstyle_entry *styles;
	struct plotfig_env env;
	char gnuplot[PLOTRUN_PATH_MAX], scripts[PLOTRUN_PATH_MAX];
	char stat_buf[64];
	bool figure_failed;
};

static void plot_free(struct plot *pl)
{
	plotprofile_clear(&pl->prof);
	plotfig_out_free(&pl->drawn);
	free(pl->styles);
	free(pl->checks);
	claims_free(pl->claims);
	diary_free(pl->diary);
	acrossreport_free(pl->across);
	fitreport_free(pl->rep);
	plotseries_set_free(pl->set);
	fitreport_free(pl->counts);
	plotseries_set_free(pl->counts_set);
}

/* --stat chosen (estimate when every result has one) and checked, --baseline checked. */
static int check_stat_and_baseline(struct plotcli *cfg, const struct results *res,
				   struct errbuf *eb)
{
	if (cfg->stat_auto && plotseries_all_estimated(res))
		cfg->stat = PLOTSERIES_ESTIMATE;
	if (cfg->stat == PLOTSERIES_ESTIMATE && !plotseries_all_estimated(res))
		return errbuf_set(eb,
				  "--stat estimate: some results have no rarbench estimate "
				  "(files from hyperfine or an older rarbench); use --stat median");
	if (cfg->baseline_given && !results_has_subject(res, cfg->baseline)) {
		char subjects[ERRBUF_MSG_MAX / 2];

		results_subjects(res, subjects, sizeof(subjects));
		return errbuf_set(eb,
				  "--baseline %.64s: no such subject in the inputs; subjects: %s",
				  cfg->baseline, subjects);
	}
	return 0;
}

/* The series along the axis, their fits, the claims checked against them, the profiles. */
static int fit(const struct plotcli *cfg, struct plot *pl, struct errbuf *eb)
{
	stat_name(cfg, pl->res, pl->stat_buf, sizeof(pl->stat_buf));
	if (plotseries_build(pl->res, cfg->axis, cfg->stat, &pl->set, eb) != 0) {
		axishint_append(pl->res, cfg->axis, cfg->stat, eb);
		return -1;
	}
	if (fitreport_compute(pl->set, cfg->baseline, cfg->use_weights, pl->res, &pl->rep, eb) != 0)
		return -1;
	/* Counted results: their instructions fitted the same way, beside the time (unweighted:
	 * a count is exact). */
	if (plotseries_any_counted(pl->res)) {
		if (plotseries_build(pl->res, cfg->axis, PLOTSERIES_INSTRUCTIONS, &pl->counts_set,
				     eb) != 0 ||
		    fitreport_compute(pl->counts_set, cfg->baseline, false, pl->res, &pl->counts,
				      eb) != 0)
			return -1;
		pl->rep->counts = pl->counts;
	}
	/* One verdict per comparison: the table and the claims as --compare computes them. */
	fitreport_pair(pl->rep, !cfg->delta && cfg->stat == PLOTSERIES_ESTIMATE, cfg->use_weights);
	/* Several hosts: each compared on its own above, combined here; never pooled. */
	if (pl->set->n_hosts > 1 && acrossreport_compute(pl->rep, &pl->across, eb) != 0)
		return -1;
	if (cfg->claims != NULL &&
	    ((pl->claims = claims_load(cfg->claims, eb)) == NULL ||
	     claims_check(pl->claims, pl->rep, &pl->checks, &pl->n_checks, eb) != 0))
		return -1;
	/* Read before anything is written: a bad diary is a usage error with nothing written. */
	if (cfg->diary != NULL && (pl->diary = diary_load(cfg->diary, eb)) == NULL)
		return -1;
	return plotprofile_load(&pl->prof, (const char *const *)cfg->inputs, cfg->n_inputs,
				pl->set->axis, pl->rep, eb);
}

/*
 * gnuplot and the scripts found (unless --format none), one look per subject, the output
 * directory made and the figures' environment filled.
 */
static int prepare_figures(const struct plotcli *cfg, struct plot *pl, struct errbuf *eb)
{
	struct plotfig_env *env = &pl->env;

	if (cfg->n_formats > 0 &&
	    (plotrun_find_gnuplot(pl->gnuplot, sizeof(pl->gnuplot), eb) != 0 ||
	     plotrun_find_scripts(cfg->plots_dir, RARPERF_DATADIR, pl->scripts, sizeof(pl->scripts),
				  eb) != 0))
		return -1;
	/* One look per subject for every figure of the run, whatever each figure holds. */
	pl->styles = calloc(pl->set->n_series, sizeof(*pl->styles));
	if (pl->styles == NULL)
		return errbuf_set(eb, "out of memory");
	for (size_t i = 0; i < pl->set->n_series; i++) {
		pl->styles[i].subject = pl->set->series[i].subject;
		pl->styles[i].format = pl->set->series[i].format;
	}
	plotstyle_assign(pl->styles, pl->set->n_series);
	if (fileio_mkdirs(cfg->out_dir, eb) != 0)
		return -1;
	memset(env, 0, sizeof(*env));
	env->out_dir = cfg->out_dir;
	env->scripts_dir = pl->scripts;
	env->gnuplot = pl->gnuplot;
	env->stat = pl->stat_buf;
	env->stat_kind = cfg->stat;
	env->styles = pl->styles;
	env->n_styles = pl->set->n_series;
	env->use_weights = cfg->use_weights;
	memcpy(env->formats, cfg->formats, sizeof(env->formats));
	env->n_formats = cfg->n_formats;
	env->res = pl->res;
	return 0;
}

/* The standard figures and the profile's: one that fails is a note. Returns -1 out of memory. */
static int draw_all_figures(const struct plotcli *cfg, struct plot *pl, struct errbuf *eb)
{
	if (stdfigs_draw(cfg->axis, cfg->stat, pl->set, &pl->env, &pl->drawn, &pl->figure_failed,
			 eb) != 0)
		return -1;
	if (plotprofile_draw(&pl->prof, &pl->env, &pl->drawn, eb) != 0) {
		if (plotfig_out_note(&pl->drawn, "profile_counters not drawn: %s", eb->msg) != 0)
			return -1;
		pl->figure_failed = true;
	}
	return 0;
}

/* DIR/fits.tsv, and the normalised figures when the inputs hold reference runs. */
static int write_fits(const struct plotcli *cfg, struct plot *pl, struct errbuf *eb)
{
	char path[PLOTRUN_PATH_MAX];

	if (fileio_join(path, sizeof(path), cfg->out_dir, RUNFILES_FITS, eb) != 0 ||
	    fitreport_write_tsv(pl->rep, path, eb) != 0)
		return -1;
	if (pl->across != NULL && acrossreport_write_tsv(pl->across, cfg->out_dir, eb) != 0)
		return -1;
	if (pl->res->n_refs > 0) {
		struct normfig_opts no = {(const char *const *)cfg->inputs,
					  cfg->n_inputs,
					  cfg->axis,
					  cfg->stat,
					  cfg->baseline,
					  cfg->use_weights,
					  cfg->machines};
		bool wrote;

		if (normfig_write(&no, &pl->env, &pl->drawn, &wrote, eb) != 0)
			return -1;
		/* With the kernel's prices too: predicted.tsv and predicted.md. */
		struct predictfig_opts po = {(const char *const *)cfg->inputs,
					     cfg->n_inputs,
					     cfg->axis,
					     cfg->counts_from,
					     cfg->baseline,
					     cfg->out_dir};

		if (predictfig_write(&po, &wrote, eb) != 0)
			return -1;
	}
	return 0;
}

/* DIR/report.md with its extra sections, the profiles' files and DIR/claims.tsv. */
static int write_report(const struct plotcli *cfg, struct plot *pl, struct errbuf *eb)
{
	struct fitreport_context ctx;
	struct rarplot_claims shown;
	struct rarplot_more sections = {pl->across, pl->rep, cfg->published, cfg->published_given,
					NULL,       NULL,    &pl->prof};
	char path[PLOTRUN_PATH_MAX];

	memset(&ctx, 0, sizeof(ctx));
	ctx.inputs = (const char *const *)cfg->inputs;
	ctx.n_inputs = cfg->n_inputs;
	ctx.stat = pl->env.stat;
	ctx.stat_kind = cfg->stat;
	ctx.use_weights = cfg->use_weights;
	ctx.figures = (const char *const *)pl->drawn.files;
	ctx.captions = (const char *const *)pl->drawn.captions;
	ctx.n_figures = pl->drawn.n_files;
	ctx.styles = pl->styles;
	ctx.n_styles = pl->set->n_series;
	ctx.notes = (const char *const *)pl->drawn.notes;
	ctx.n_notes = pl->drawn.n_notes;
	sections.lab_md = pl->res->lab_md;
	ctx.first_sections = print_first_sections;
	ctx.verdict_sections = print_verdict_sections;
	ctx.more_sections = print_more;
	ctx.more_arg = &sections;
	if (plotprofile_write(&pl->prof, cfg->out_dir, eb) != 0)
		return -1;
	if (pl->claims != NULL) {
		shown.checks = pl->checks;
		shown.n = pl->n_checks;
		shown.unit = fitreport_unit(pl->set->axis);
		sections.claims = &shown;
		if (fileio_join(path, sizeof(path), cfg->out_dir, RUNFILES_CLAIMS, eb) != 0 ||
		    claims_write_tsv(pl->checks, pl->n_checks, path, eb) != 0)
			return -1;
	}
	if (fileio_join(path, sizeof(path), cfg->out_dir, RUNFILES_REPORT, eb) != 0 ||
	    fitreport_write_markdown(pl->rep, &ctx, path, eb) != 0)
		return -1;
	return 0;
}

/* The table and the claims on stdout; the notes, a warning for emulated hosts, what was written. */
static void print_summary(const struct plotcli *cfg, const struct plot *pl)
{
	if (pl->across != NULL)
		acrossreport_print_markdown(pl->across, stdout);
	fitreport_print_table(pl->rep, stdout);
	if (pl->claims != NULL)
		claims_print_markdown(pl->checks, pl->n_checks, fitreport_unit(pl->set->axis),
				      stdout);
	for (size_t i = 0; i < pl->drawn.n_notes; i++)
		plotcli_message(pl->drawn.notes[i]);
	if (pl->res->n_emulated > 0) {
		fputs("rarplot: warning: emulated (TCG) hosts, not comparable with any other: ",
		      stderr);
		sanitize_fputs(pl->res->emulated, SANITIZE_TEXT, stderr);
		fputs("\n", stderr);
	}
	print_wrote(cfg->out_dir, pl->across != NULL, &pl->drawn);
}

/*
 * The project's across-machine spread, for a one-host report: share/rarperf/across-hosts.tsv
 * beside the binary (installed), doc/results/across-hosts.tsv beside it (a checkout), or the
 * configured data directory's. Into buf; NULL when none is there.
 */
static const char *find_published(char *buf, size_t size)
{
	static const char *const beside[] = {"../share/rarperf/" RUNFILES_ACROSS,
					     "../doc/results/" RUNFILES_ACROSS};
	char exe[PLOTRUN_PATH_MAX];
	ssize_t got = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (got > 0) {
		exe[got] = '\0';
		slash = strrchr(exe, '/');
		if (slash != NULL)
			*slash = '\0';
		for (size_t i = 0; slash != NULL && i < sizeof(beside) / sizeof(beside[0]); i++)
			if ((size_t)snprintf(buf, size, "%s/%s", exe, beside[i]) < size &&
			    access(buf, R_OK) == 0)
				return buf;
	}
	if ((size_t)snprintf(buf, size, "%s/" RUNFILES_ACROSS, RARPERF_DATADIR) < size &&
	    access(buf, R_OK) == 0)
		return buf;
	return NULL;
}

/* --history, after report.md: reads the tables just written (history.h). */
static int run_history(const struct plotcli *cfg, const struct plot *pl, struct errbuf *eb)
{
	const struct history_opts o = {
	    .out_dir = cfg->out_dir,
	    .inputs = (const char *const *)cfg->inputs,
	    .n_inputs = cfg->n_inputs,
	    .axis = strcmp(cfg->axis, PLOTSERIES_AXIS_BOTH) == 0 ? NULL : cfg->axis,
	    .anchor = cfg->baseline,
	    .gnuplot = pl->gnuplot,
	    .scripts_dir = pl->scripts,
	    .formats = cfg->formats,
	    .n_formats = cfg->n_formats,
	    .alpha = CHANGEPOINT_ALPHA,
	    .min_rel_pct = CHANGEPOINT_MIN_REL_PCT,
	    .diary = pl->diary,
	};

	return history_run(&o, eb);
}

enum fitrun_outcome fitrun_run(struct plotcli *cfg, struct results *res, struct errbuf *eb)
{
	struct plot pl;
	enum fitrun_outcome outcome = FITRUN_BAD_INPUT;

	memset(&pl, 0, sizeof(pl));
	pl.res = res;
	if (!cfg->published_given)
		cfg->published = find_published(cfg->published_buf, sizeof(cfg->published_buf));
	/* Everything that can reject the input happens before anything is written. */
	if (cfg->counts_from != NULL &&
	    countprice_check_inputs(cfg->counts_from, (const char *const *)cfg->inputs,
				    cfg->n_inputs, cfg->axis, eb) != 0)
		goto out;
	if (check_stat_and_baseline(cfg, res, eb) != 0 || fit(cfg, &pl, eb) != 0)
		goto out;
	outcome = FITRUN_FAILED;
	if (prepare_figures(cfg, &pl, eb) != 0)
		goto out;
	if (draw_all_figures(cfg, &pl, eb) != 0) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	if (write_fits(cfg, &pl, eb) != 0 || write_report(cfg, &pl, eb) != 0)
		goto out;
	if (cfg->history && run_history(cfg, &pl, eb) != 0)
		goto out;
	print_summary(cfg, &pl);
	outcome = pl.figure_failed ? FITRUN_FIGURE_FAILED : FITRUN_OK;
out:
	plot_free(&pl);
	return outcome;
}
