/* plotcli: rarplot's options parsed into struct plotcli, its usage text (plotcli.h). */
#include "plotcli.h"

#include <stdio.h>
#include <string.h>

#include "cliopt.h"
#include "numarg.h"
#include "sanitize.h"

void plotcli_usage(FILE *f)
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
	    "      --x AXIS           parameter on x: nb_tasks (default; nb_files for a files\n"
	    "                         sweep at one task count), nb_roles, nb_users, nb_commands,\n"
	    "                         nb_files, any numeric parameter, or both (roles x tasks)\n"
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
	    "                         counted: the manifest's \"counts\"): 0 no change, 1 "
	    "regressed,\n"
	    "                         2 a subject uncounted; the wall-time verdict printed beside\n"
	    "      --counts-from FILE the points' counts from FILE, a counted run (\"counts\")\n"
	    "                         of the same machine, for predicted.md's counts x prices\n"
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
	OPT_COUNTS_FROM,
};

static void config_defaults(struct plotcli *cfg)
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
static int parse_formats(struct plotcli *cfg, const char *arg)
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
static int parse_fit_option(struct plotcli *cfg, int c, struct errbuf *eb)
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
		cfg->axis_given = true;
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

int plotcli_parse(int argc, char **argv, struct plotcli *cfg, struct errbuf *eb)
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
	    {"counts-from", required_argument, NULL, OPT_COUNTS_FROM},
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
		case OPT_COUNTS_FROM:
			cfg->counts_from = optarg;
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

void plotcli_message(const char *msg)
{
	fputs("rarplot: ", stderr);
	sanitize_fputs(msg, SANITIZE_TEXT, stderr);
	fputc('\n', stderr);
}
