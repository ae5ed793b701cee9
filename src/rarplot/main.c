/* rarplot: fit time = intercept + slope x size per subject and format, print the comparison, draw
 * the figures. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "axishint.h"
#include "cliopt.h"
#include "errbuf.h"
#include "exitcode.h"
#include "fileio.h"
#include "fitreport.h"
#include "fitreport_write.h"
#include "history.h"
#include "labgroups.h"
#include "normfig.h"
#include "numarg.h"
#include "plotfig.h"
#include "plotprofile.h"
#include "profilefit_report.h"
#include "predictfig.h"
#include "plotrun.h"
#include "plotseries.h"
#include "plotstyle.h"
#include "results.h"
#include "acrossreport.h"
#include "changepoint.h"
#include "claims.h"
#include "claims_file.h"
#include "diary.h"
#include "diary_file.h"
#include "compare_cli.h"
#include "sanitize.h"
#include "stdfigs.h"

struct config {
	const char *out_dir;
	enum plotseries_stat stat;
	bool stat_auto; /* estimate when every result carries rarbench's, else median */
	const char *axis;
	const char *baseline;
	bool baseline_given; /* an explicit --baseline must name a subject of the inputs */
	const char *formats[PLOTFIG_MAX_FORMATS];
	size_t n_formats;
	char formats_buf[64];
	bool use_weights;
	bool delta; /* --comparisons delta: every comparison by the delta method */
	const char *plots_dir;
	const char *claims; /* a claims file to check (claims.h) */
	char **inputs;
	size_t n_inputs;
	bool out_given;
	bool history;      /* --history: releases in version order, their steps (history.h) */
	const char *diary; /* --diary: a diary's sentences matched with release pairs (diary.h) */
	struct compare_cli compare;          /* --compare and its options (compare_cli.h) */
	enum results_machines_mode machines; /* --machines: files without a machine identity */
	bool published_given;
	const char *published; /* --published: the across-machine spread a one-host report quotes */
	char published_buf[PLOTRUN_PATH_MAX];
};

static void usage(FILE *f)
{
	fputs(
	    "usage: rarplot [-o DIR] [--stat S] [--x AXIS] [--baseline SUBJECT]\n"
	    "               [--format png,svg,pdf|none] [--unweighted] [--plots-dir DIR]\n"
	    "               [--claims FILE] [--comparisons paired|delta]\n"
	    "               [--machines auto|distinct|same] [--published FILE|none]\n"
	    "               RESULTS.json...\n"
	    "       rarplot --compare BASELINE:CANDIDATE [--noise PCT] [--at SIZE,...]\n"
	    "               [--allow-unpaired] [--between FILE] [--counts] [--x AXIS]\n"
	    "               [--unweighted] [-o DIR] RESULTS.json...\n"
	    "\n"
	    "Fits time = intercept + slope x AXIS per subject x format (x host) of\n"
	    "hyperfine-format results (plain hyperfine exports, rarbench results.json,\n"
	    "rarlab merged.json), prints the comparison with the baseline subject, and\n"
	    "writes DIR/report.md, DIR/fits.tsv, DIR/data/*/*.tsv and the figures.\n"
	    "\n"
	    "  -o, --out DIR          output directory (default rarplot-out)\n"
	    "      --stat S           y of each point: estimate (rarbench's estimate with its\n"
	    "                         95 % interval), median or mean; default: estimate when\n"
	    "                         every result has one, else median\n"
	    "      --x AXIS           parameter on x: nb_tasks (default), nb_roles, nb_users,\n"
	    "                         nb_commands, any numeric parameter, or both (roles x tasks)\n"
	    "      --baseline SUBJECT subject the others are compared with (default sudo; one\n"
	    "                         the inputs lack is an error, the default absent gives n/a)\n"
	    "      --format LIST      figure formats, comma-separated: png,svg,pdf (default),\n"
	    "                         or none for the report only (no gnuplot needed)\n"
	    "      --unweighted       ordinary least squares even when points have a stddev\n"
	    "      --plots-dir DIR    where perf_tasks.gp and the other scripts are\n"
	    "      --claims FILE      check published claims (experiments/claims/*.tsv) against\n"
	    "                         the fits: report.md section and DIR/claims.tsv\n"
	    "      --comparisons M    paired (default): report.md's comparisons and claims as\n"
	    "                         --compare computes them (paired per round, the same\n"
	    "                         interval) where the sweep has rounds; delta: the delta\n"
	    "                         method over both fits everywhere (as before 0.2)\n"
	    "      --machines M       which inputs are one host: auto (default) by the machine\n"
	    "                         each results file names (files of one machine are\n"
	    "                         repetitions, fitted together; of different machines,\n"
	    "                         hosts: each fitted and compared on its own, then\n"
	    "                         combined in across-hosts.tsv; one machine id with\n"
	    "                         another CPU or kernel is another machine); distinct:\n"
	    "                         files without a machine identity (older rarbench) or\n"
	    "                         that share an id across boots (a VM image's clones\n"
	    "                         do) are one machine each; same: every file is one\n"
	    "                         machine\n"
	    "      --published FILE   the across-hosts.tsv a one-host report quotes for the\n"
	    "                         spread between machines (default: the project's,\n"
	    "                         share/rarperf/across-hosts.tsv or doc/results/ beside\n"
	    "                         the binary), none for no quote\n"
	    "      --history          releases in version order (subjects LINE-X.Y.Z): intercept\n"
	    "                         and slope per release, the baseline as a band, steps\n"
	    "                         (history.tsv, history-steps.tsv, history_LINE.*, report.md)\n"
	    "      --diary FILE       with --history: each sentence of a diary\n"
	    "                         (experiments/claims/rar-perf-diary.tsv) matched with the\n"
	    "                         release pair it describes best (report.md, "
	    "history-diary.tsv)\n"
	    "      --compare B:C      compare candidate subject C with baseline B: intercept,\n"
	    "                         slope and time at --at sizes as ratios C/B with 95 %\n"
	    "                         intervals (paired by round when both ran in the same\n"
	    "                         steps), each improved, regressed, no change or\n"
	    "                         inconclusive, with the smallest change it could detect;\n"
	    "                         prints the section (with -o: DIR/comparison.md, .tsv);\n"
	    "                         several files each holding both: compared across sweeps\n"
	    "      --noise PCT        the threshold: no change when the whole interval lies\n"
	    "                         within +/-PCT %, regressed or improved when beyond it,\n"
	    "                         else inconclusive (default 2)\n"
	    "      --at LIST          sizes for the time ratio (default: the largest measured)\n"
	    "      --allow-unpaired   compare subjects measured in different sweeps\n"
	    "      --between FILE     widen one sweep's paired intervals into intervals for the\n"
	    "                         next sweep with the between-sweep variation in FILE\n"
	    "                         (between.tsv, written by --compare over several sweeps\n"
	    "                         with -o)\n"
	    "      --counts           the exit status rests on the counted instructions (points\n"
	    "                         counted: the manifest's \"counts\"): 0 no change, 1 regressed,\n"
	    "                         2 a subject uncounted; the wall-time verdict printed beside\n"
	    "  -h, --help             this text\n"
	    "  -V, --version          rarperf's version\n"
	    "\n"
	    "Exit status: 0 ok, 1 gnuplot or output failure, 2 usage or input error;\n"
	    "with --compare: 0 no change or improved, 1 something regressed, 2 bad input,\n"
	    "3 inconclusive (nothing regressed, but some interval reaches across the threshold).\n",
	    f);
}

/* rarplot's long-only options (the --compare ones use compare_cli_option's letters). */
enum {
	OPT_STAT = 256,
	OPT_X,
	OPT_BASELINE,
	OPT_FORMAT,
	OPT_UNWEIGHTED,
	OPT_PLOTS_DIR,
	OPT_CLAIMS,
	OPT_COMPARISONS,
	OPT_HISTORY,
	OPT_DIARY,
	OPT_MACHINES,
	OPT_PUBLISHED,
};

static void config_defaults(struct config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	compare_cli_defaults(&cfg->compare);
	cfg->out_dir = "rarplot-out";
	cfg->stat = PLOTSERIES_MEDIAN;
	cfg->stat_auto = true;
	cfg->axis = "nb_tasks";
	cfg->baseline = "sudo";
	cfg->formats[0] = "png";
	cfg->formats[1] = "svg";
	cfg->formats[2] = "pdf";
	cfg->n_formats = 3;
	cfg->use_weights = true;
}

/* Splits "png,svg" into cfg->formats; "none" leaves it empty. */
static int parse_formats(struct config *cfg, const char *arg)
{
	char *p, *save = NULL;
	size_t i;

	if ((size_t)snprintf(cfg->formats_buf, sizeof(cfg->formats_buf), "%s", arg) >=
	    sizeof(cfg->formats_buf))
		return -1;
	cfg->n_formats = 0;
	if (strcmp(arg, "none") == 0)
		return 0;
	for (p = strtok_r(cfg->formats_buf, ",", &save); p != NULL;
	     p = strtok_r(NULL, ",", &save)) {
		if (strcmp(p, "png") != 0 && strcmp(p, "svg") != 0 && strcmp(p, "pdf") != 0)
			return -1;
		for (i = 0; i < cfg->n_formats; i++)
			if (strcmp(cfg->formats[i], p) == 0)
				break;
		if (i < cfg->n_formats)
			continue;
		if (cfg->n_formats == PLOTFIG_MAX_FORMATS)
			return -1;
		cfg->formats[cfg->n_formats++] = p;
	}
	return cfg->n_formats > 0 ? 0 : -1;
}

/* --stat --x --baseline --format --unweighted --plots-dir --claims: the fit and its figures. */
static int parse_fit_option(struct config *cfg, int c, struct errbuf *eb)
{
	switch (c) {
	case OPT_STAT:
		cfg->stat_auto = false;
		if (strcmp(optarg, "median") == 0)
			cfg->stat = PLOTSERIES_MEDIAN;
		else if (strcmp(optarg, "mean") == 0)
			cfg->stat = PLOTSERIES_MEAN;
		else if (strcmp(optarg, "estimate") == 0)
			cfg->stat = PLOTSERIES_ESTIMATE;
		else
			return errbuf_set(eb, "--stat %s: use estimate, median or mean", optarg);
		return 0;
	case OPT_X:
		cfg->axis = strcmp(optarg, "both") == 0 ? PLOTSERIES_AXIS_BOTH : optarg;
		return 0;
	case OPT_BASELINE:
		cfg->baseline = optarg;
		cfg->baseline_given = true;
		return 0;
	case OPT_FORMAT:
		if (parse_formats(cfg, optarg) != 0)
			return errbuf_set(eb,
					  "--format %s: use a comma-separated list of png, svg, "
					  "pdf, or none",
					  optarg);
		return 0;
	case OPT_UNWEIGHTED:
		cfg->use_weights = false;
		return 0;
	case OPT_PLOTS_DIR:
		cfg->plots_dir = optarg;
		return 0;
	case OPT_COMPARISONS:
		if (strcmp(optarg, "paired") != 0 && strcmp(optarg, "delta") != 0)
			return errbuf_set(eb, "--comparisons %s: use paired or delta", optarg);
		cfg->delta = strcmp(optarg, "delta") == 0;
		return 0;
	default:
		cfg->claims = optarg;
		return 0;
	}
}

/*
 * The programs' parse_args contract (numarg.h): sets cfg's defaults and fills
 * it from argv; NUMARG_USAGE when the usage text follows the message (or
 * getopt's own).
 */
static int parse_args(int argc, char **argv, struct config *cfg, struct errbuf *eb)
{
	static const struct option opts[] = {
	    {"out", required_argument, NULL, 'o'},
	    {"stat", required_argument, NULL, OPT_STAT},
	    {"x", required_argument, NULL, OPT_X},
	    {"baseline", required_argument, NULL, OPT_BASELINE},
	    {"format", required_argument, NULL, OPT_FORMAT},
	    {"unweighted", no_argument, NULL, OPT_UNWEIGHTED},
	    {"plots-dir", required_argument, NULL, OPT_PLOTS_DIR},
	    {"claims", required_argument, NULL, OPT_CLAIMS},
	    {"comparisons", required_argument, NULL, OPT_COMPARISONS},
	    {"history", no_argument, NULL, OPT_HISTORY},
	    {"diary", required_argument, NULL, OPT_DIARY},
	    {"machines", required_argument, NULL, OPT_MACHINES},
	    {"published", required_argument, NULL, OPT_PUBLISHED},
	    /* compare_cli_option's letters; 'c' 'n' 'a' 'u' 'b' 'k' are no short options */
	    {"compare", required_argument, NULL, 'c'},
	    {"noise", required_argument, NULL, 'n'},
	    {"at", required_argument, NULL, 'a'},
	    {"allow-unpaired", no_argument, NULL, 'u'},
	    {"between", required_argument, NULL, 'b'},
	    {"counts", no_argument, NULL, 'k'},
	    {"help", no_argument, NULL, 'h'},
	    {"version", no_argument, NULL, 'V'},
	    {NULL, 0, NULL, 0},
	};
	struct cliopt_seen seen;
	int c;

	config_defaults(cfg);
	while ((c = cliopt_next(argc, argv, ":o:hV", opts, &seen)) != -1) {
		switch (c) {
		case 'o':
			cfg->out_dir = optarg;
			cfg->out_given = true;
			break;
		case 'c':
		case 'n':
		case 'a':
		case 'u':
		case 'b':
		case 'k':
			if (compare_cli_option(&cfg->compare, c, optarg, eb) != 0)
				return NUMARG_ERROR;
			break;
		case OPT_STAT:
		case OPT_X:
		case OPT_BASELINE:
		case OPT_FORMAT:
		case OPT_UNWEIGHTED:
		case OPT_PLOTS_DIR:
		case OPT_CLAIMS:
		case OPT_COMPARISONS:
			if (parse_fit_option(cfg, c, eb) != 0)
				return NUMARG_ERROR;
			break;
		case OPT_HISTORY:
			cfg->history = true;
			break;
		case OPT_DIARY:
			cfg->diary = optarg;
			break;
		case OPT_MACHINES:
			if (strcmp(optarg, "auto") == 0)
				cfg->machines = RESULTS_MACHINES_AUTO;
			else if (strcmp(optarg, "distinct") == 0)
				cfg->machines = RESULTS_MACHINES_DISTINCT;
			else if (strcmp(optarg, "same") == 0)
				cfg->machines = RESULTS_MACHINES_SAME;
			else {
				errbuf_set(eb, "--machines %.64s: use auto, distinct or same",
					   optarg);
				return NUMARG_ERROR;
			}
			break;
		case OPT_PUBLISHED:
			cfg->published = strcmp(optarg, "none") == 0 ? NULL : optarg;
			cfg->published_given = true;
			break;
		case 'h':
			return NUMARG_HELP;
		case 'V':
			return NUMARG_VERSION;
		case ':':
			errbuf_set(eb, "option '%s' needs a value", seen.typed);
			return NUMARG_ERROR;
		default:
			cliopt_unknown("rarplot", seen.typed, opts, NULL, eb);
			return NUMARG_ERROR;
		}
	}
	if (optind >= argc) {
		errbuf_set(eb, "no results file given");
		return NUMARG_USAGE;
	}
	if (cfg->diary != NULL && !cfg->history) {
		errbuf_set(eb, "--diary %.64s: matches sentences with releases: give --history too",
			   cfg->diary);
		return NUMARG_USAGE;
	}
	cfg->inputs = argv + optind;
	cfg->n_inputs = (size_t)(argc - optind);
	return 0;
}

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
		    m->published_given ? m->published : "doc/results/across-hosts.tsv", f);
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
static void stat_name(const struct config *cfg, const struct results *res, char *buf, size_t len)
{
	if (cfg->stat == PLOTSERIES_MEAN)
		snprintf(buf, len, "mean");
	else if (cfg->stat == PLOTSERIES_MEDIAN || res->n_points == 0)
		snprintf(buf, len, "median");
	else
		snprintf(buf, len, "%s estimate", res->estimator);
}

/* "rarplot: MSG" on stderr, or the notes: they may hold bytes of a results or claims file. */
static void print_message(const char *msg)
{
	fputs("rarplot: ", stderr);
	sanitize_fputs(msg, SANITIZE_TEXT, stderr);
	fputc('\n', stderr);
}

/* Prints what parse_args' result rc asks for (help, version, a usage error); the exit status. */
static int parse_args_done(int rc, const struct errbuf *eb)
{
	if (rc == NUMARG_HELP) {
		usage(stdout);
		return EXITCODE_OK;
	}
	if (rc == NUMARG_VERSION) {
		printf("rarplot %s (%s)\n", RARPERF_VERSION, RARPERF_GIT_COMMIT);
		return EXITCODE_OK;
	}
	if (eb->msg[0] != '\0')
		print_message(eb->msg);
	if (rc == NUMARG_USAGE)
		usage(stderr);
	return EXITCODE_BAD_INPUT;
}

/* "rarplot: wrote DIR/report.md, DIR/fits.tsv, DIR/FIGURE..." on stderr. */
static void print_wrote(const char *out_dir, bool across, const struct plotfig_out *drawn)
{
	fputs("rarplot: wrote ", stderr);
	sanitize_fputs(out_dir, SANITIZE_TEXT, stderr);
	fputs("/report.md, ", stderr);
	sanitize_fputs(out_dir, SANITIZE_TEXT, stderr);
	fputs("/fits.tsv", stderr);
	if (across) {
		fputs(", ", stderr);
		sanitize_fputs(out_dir, SANITIZE_TEXT, stderr);
		fputs("/across-hosts.tsv", stderr);
	}
	for (size_t i = 0; i < drawn->n_files; i++) {
		fputs(", ", stderr);
		sanitize_fputs(out_dir, SANITIZE_TEXT, stderr);
		fputc('/', stderr);
		sanitize_fputs(drawn->files[i], SANITIZE_TEXT, stderr);
	}
	fputc('\n', stderr);
}

/* What main makes from the inputs to the figures: all NULL (or 0) until made, plot_free frees it.
 */
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
	results_free(pl->res);
}

/* --stat chosen (estimate when every result has one) and checked, --baseline checked. */
static int check_stat_and_baseline(struct config *cfg, const struct results *res, struct errbuf *eb)
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
static int fit(const struct config *cfg, struct plot *pl, struct errbuf *eb)
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
static int prepare_figures(const struct config *cfg, struct plot *pl, struct errbuf *eb)
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
static int draw_all_figures(const struct config *cfg, struct plot *pl, struct errbuf *eb)
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
static int write_fits(const struct config *cfg, struct plot *pl, struct errbuf *eb)
{
	char path[PLOTRUN_PATH_MAX];

	if (fileio_join(path, sizeof(path), cfg->out_dir, "fits.tsv", eb) != 0 ||
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
		if (predictfig_write((const char *const *)cfg->inputs, cfg->n_inputs, cfg->axis,
				     cfg->out_dir, &wrote, eb) != 0)
			return -1;
	}
	return 0;
}

/* DIR/report.md with its extra sections, the profiles' files and DIR/claims.tsv. */
static int write_report(const struct config *cfg, struct plot *pl, struct errbuf *eb)
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
		if (fileio_join(path, sizeof(path), cfg->out_dir, "claims.tsv", eb) != 0 ||
		    claims_write_tsv(pl->checks, pl->n_checks, path, eb) != 0)
			return -1;
	}
	if (fileio_join(path, sizeof(path), cfg->out_dir, "report.md", eb) != 0 ||
	    fitreport_write_markdown(pl->rep, &ctx, path, eb) != 0)
		return -1;
	return 0;
}

/* The table and the claims on stdout; the notes, a warning for emulated hosts, what was written. */
static void print_summary(const struct config *cfg, const struct plot *pl)
{
	if (pl->across != NULL)
		acrossreport_print_markdown(pl->across, stdout);
	fitreport_print_table(pl->rep, stdout);
	if (pl->claims != NULL)
		claims_print_markdown(pl->checks, pl->n_checks, fitreport_unit(pl->set->axis),
				      stdout);
	for (size_t i = 0; i < pl->drawn.n_notes; i++)
		print_message(pl->drawn.notes[i]);
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
	static const char *const beside[] = {"../share/rarperf/across-hosts.tsv",
					     "../doc/results/across-hosts.tsv"};
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
	if ((size_t)snprintf(buf, size, "%s/across-hosts.tsv", RARPERF_DATADIR) < size &&
	    access(buf, R_OK) == 0)
		return buf;
	return NULL;
}

/* --history, after report.md: reads the tables just written (history.h). */
static int run_history(const struct config *cfg, const struct plot *pl, struct errbuf *eb)
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

int main(int argc, char **argv)
{
	struct config cfg;
	struct errbuf eb = {{0}};
	struct plot pl;
	int status = EXITCODE_BAD_INPUT, rc;

	rc = parse_args(argc, argv, &cfg, &eb);
	if (rc != 0)
		return parse_args_done(rc, &eb);
	memset(&pl, 0, sizeof(pl));

	/* Everything that can reject the input happens before anything is written. */
	pl.res = results_new();
	if (pl.res == NULL) {
		fputs("rarplot: out of memory\n", stderr);
		goto out;
	}
	for (size_t i = 0; i < cfg.n_inputs; i++)
		if (results_load_file(pl.res, cfg.inputs[i], &eb) != 0)
			goto fail;
	if (cfg.compare.pair == NULL &&
	    results_machines_assign(pl.res, cfg.machines,
				    results_has_subject(pl.res, cfg.baseline) ? cfg.baseline : NULL,
				    &eb) != 0)
		goto fail;
	if (!cfg.published_given)
		cfg.published = find_published(cfg.published_buf, sizeof(cfg.published_buf));
	if (cfg.compare.pair != NULL) {
		cfg.compare.formats = cfg.formats; /* the ratio figure's */
		cfg.compare.n_formats = cfg.n_formats;
		cfg.compare.plots_dir = cfg.plots_dir;
		status = compare_cli_run(&cfg.compare, pl.res, cfg.axis, cfg.use_weights,
					 cfg.out_given ? cfg.out_dir : NULL);
		goto out;
	}
	if (check_stat_and_baseline(&cfg, pl.res, &eb) != 0 || fit(&cfg, &pl, &eb) != 0)
		goto fail;
	status = EXITCODE_FAILED;
	if (prepare_figures(&cfg, &pl, &eb) != 0)
		goto fail;
	if (draw_all_figures(&cfg, &pl, &eb) != 0) {
		errbuf_set(&eb, "out of memory");
		goto fail;
	}
	if (write_fits(&cfg, &pl, &eb) != 0 || write_report(&cfg, &pl, &eb) != 0)
		goto fail;
	if (cfg.history && run_history(&cfg, &pl, &eb) != 0)
		goto fail;
	print_summary(&cfg, &pl);
	status = pl.figure_failed ? EXITCODE_FAILED : EXITCODE_OK;
	goto out;
fail:
	print_message(eb.msg);
out:
	plot_free(&pl);
	return status;
}
