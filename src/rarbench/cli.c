/* cli: rarbench's hyperfine-compatible command line: options, validation, --help text. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cliopt.h"
#include "growbuf.h"
#include "numarg.h"

enum {
	OPT_STYLE = 256,
	OPT_EXPORT_JSON,
	OPT_EXPORT_CSV,
	OPT_EXPORT_MARKDOWN,
	OPT_SHOW_OUTPUT,
	OPT_OUTPUT,
	OPT_AS_USER,
	OPT_ORDER,
	OPT_SEED,
	OPT_PRECISION,
	OPT_ESTIMATOR,
	OPT_PROFILE,
};

static void config_init(struct config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->min_runs = MEASURE_DEFAULT_MIN_RUNS;
	cfg->shell = "sh";
	cfg->order = MEASURE_ORDER_SEQUENTIAL;
	cfg->estimator = ESTIMATE_MEDIAN;
}

void cli_usage(FILE *f)
{
	fputs(
	    "Usage: rarbench [OPTIONS] <command>...\n"
	    "       rarbench --manifest FILE [...]   (see rarbench(1), MANIFEST MODE)\n"
	    "\n"
	    "A command-line benchmarking tool that speaks hyperfine 1.15's options and export.\n"
	    "\n"
	    "hyperfine options:\n"
	    "  -w, --warmup NUM              warmup runs before each benchmark\n"
	    "  -m, --min-runs NUM            at least NUM timing runs (default 10)\n"
	    "  -M, --max-runs NUM            at most NUM timing runs (default unbounded)\n"
	    "  -r, --runs NUM                exactly NUM timing runs\n"
	    "                                (default: as many as fit in 3 s, within the bounds)\n"
	    "  -s, --setup CMD               once per benchmark, before the warmup runs\n"
	    "  -p, --prepare CMD             before every run (once, or once per command)\n"
	    "  -c, --cleanup CMD             once per benchmark, after the last run\n"
	    "  -P, --parameter-scan VAR MIN MAX   benchmark for VAR = MIN..MAX\n"
	    "  -D, --parameter-step-size DELTA    step of -P (required for decimals)\n"
	    "  -L, --parameter-list VAR V1,V2,... repeatable: every combination, {VAR} replaced\n"
	    "  -S, --shell SHELL             shell used to run commands (default sh; 'none' = -N)\n"
	    "  -N                            no shell: split commands into words and exec them\n"
	    "  -i, --ignore-failure          record non-zero exit codes instead of stopping\n"
	    "      --style TYPE              full, basic, nocolor, color, none\n"
	    "  -u, --time-unit UNIT          millisecond or second\n"
	    "      --export-json FILE        hyperfine's JSON (rewritten after each benchmark)\n"
	    "      --export-csv FILE         hyperfine's CSV\n"
	    "      --export-markdown FILE    hyperfine's Markdown table\n"
	    "      --show-output             show the commands' output (else /dev/null)\n"
	    "      --output WHERE            null, inherit, or a FILE for the commands' stdout\n"
	    "  -n, --command-name NAME       name of a command (repeatable)\n"
	    "  -h, --help                    this help\n"
	    "  -V, --version                 the version\n"
	    "\n"
	    "rarbench extras:\n"
	    "      --as-user USER            (root only) timed runs execute as USER, with USER's\n"
	    "                                groups and a clean environment; hooks stay root\n"
	    "      --profile                 after its runs, trace each command once with strace\n"
	    "                                (-u USER with --as-user): \"profile\" in the JSON\n"
	    "      --order ORDER             sequential (hyperfine's), interleaved, random\n"
	    "      --seed N                  seed of --order random (recorded in the export)\n"
	    "      --precision PCT           run each command until the 95 % interval of its\n"
	    "                                estimate is within PCT % of it (at least -m runs,\n"
	    "                                at most -M, else what the 3 s rule would give)\n"
	    "      --estimator E             median (default), mean, trimmed, min or cpu-median "
	    "(of the\n"
	    "                                runs' CPU time, not wall time): the estimate\n"
	    "                                (of every run as measured) in the export's\n"
	    "                                \"rarbench\" object and the summary\n"
	    "\n"
	    "Experiment manifests (a whole sweep; rarbench --manifest FILE --help: all of them):\n"
	    "      --manifest FILE           run the manifest FILE (experiments/*.json), as root\n"
	    "      --dry-run                 with --manifest: check it against the prefix and\n"
	    "                                print the plan; writes nothing, any user\n"
	    "      --pilot                   with --dry-run: a few measured runs, a wall time\n"
	    "      --out DIR                 results.json, results.tsv, journal.jsonl in DIR\n"
	    "      --resume                  continue DIR's journal after a failure\n"
	    "      --progress MODE           bar, jsonl or none\n"
	    "      --prefix DIR              the provisioned prefix (default $RARPERF_PREFIX,\n"
	    "                                else /opt/rarperf)\n"
	    "      --wait                    wait while another run holds the prefix\n"
	    "      --counts                  count each subject's instructions per point\n"
	    "  e.g. rarbench --manifest experiments/quick.json --dry-run\n"
	    "\n"
	    "Exit status: 0 ok, 1 a measurement failed, 2 usage or input error,\n"
	    "130 interrupted by SIGINT (143 by SIGTERM) after exporting finished benchmarks.\n",
	    f);
}

/* The manifest mode's own options (manifest_mode.c), named when given without --manifest. */
static const char *const cli_manifest_only[] = {"dry-run",  "pilot",  "out",  "resume",
						"progress", "prefix", "wait", "not-this-host",
						"manifest", "counts",   NULL};

/*
 * An option this mode does not have: a manifest mode's option ("rarbench --dry-run" alone)
 * says that it needs --manifest FILE; a misspelt or abbreviated one says the nearest name.
 */
static int cli_unknown_option(const char *arg, const struct option *longopts, struct errbuf *eb)
{
	size_t len = strcspn(arg, "=");

	for (size_t i = 0; cli_manifest_only[i] != NULL; i++)
		if (strncmp(arg, "--", 2) == 0 && strlen(cli_manifest_only[i]) == len - 2 &&
		    strncmp(arg + 2, cli_manifest_only[i], len - 2) == 0 &&
		    strcmp(cli_manifest_only[i], "manifest") != 0)
			return errbuf_set(
			    eb,
			    "%.*s goes with --manifest FILE (e.g. rarbench --manifest "
			    "experiments/quick.json --dry-run)",
			    (int)len, arg);
	return cliopt_unknown("rarbench", arg, longopts, cli_manifest_only, eb);
}

/* A count or seed: "OPT: 'ARG' is not a non-negative integer" otherwise. */
static int parse_u64(const char *opt, const char *s, uint64_t *out, struct errbuf *eb)
{
	const struct numarg_words w = {opt, "a non-negative integer", NUMARG_WORDING_IS_NOT};

	return numarg_get_u64(&w, s, 0, UINT64_MAX, out, eb);
}

/* Appends s to *v (n entries, allocated for at least n: growarray may reallocate to the same size).
 */
static int push_str(const char ***v, size_t *n, const char *s, struct errbuf *eb)
{
	size_t cap = *n;

	if (growarray(v, &cap, *n + 1, sizeof(**v), SIZE_MAX, eb) < 0)
		return -1;
	(*v)[(*n)++] = s;
	return 0;
}

/* Takes the next argv element as an extra value of a multi-value option (-L, -P). */
static const char *next_arg(int argc, char **argv, const char *opt, struct errbuf *eb)
{
	if (optind >= argc) {
		errbuf_set(eb, "%s needs more values", opt);
		return NULL;
	}
	return argv[optind++];
}

/* Options that return CLI_NOT_MINE leave c to the next group. */
#define CLI_NOT_MINE 1

/* -w -m -M -r --seed: the run counts (hyperfine's bounds are checked in cli_check). */
static int cli_counts(struct config *cfg, int c, struct errbuf *eb)
{
	switch (c) {
	case 'w':
		return parse_u64("--warmup", optarg, &cfg->warmup, eb);
	case 'm':
		cfg->have_min = true;
		return parse_u64("--min-runs", optarg, &cfg->min_runs, eb);
	case 'M':
		cfg->have_max = true;
		return parse_u64("--max-runs", optarg, &cfg->max_runs, eb);
	case 'r':
		cfg->have_runs = true;
		return parse_u64("--runs", optarg, &cfg->runs, eb);
	case OPT_SEED:
		cfg->have_seed = true;
		return parse_u64("--seed", optarg, &cfg->seed, eb);
	default:
		return CLI_NOT_MINE;
	}
}

/* -s -p -c -P -D -L: the hooks and the parameters (-P and -L take extra argv elements). */
static int cli_hooks(struct config *cfg, int c, int argc, char **argv, struct errbuf *eb)
{
	const char *v2;

	switch (c) {
	case 's':
		cfg->setup = optarg;
		return 0;
	case 'p':
		return push_str(&cfg->prepare, &cfg->n_prepare, optarg, eb);
	case 'c':
		cfg->cleanup = optarg;
		return 0;
	case 'P':
		if (cfg->scan[0] != NULL)
			return errbuf_set(eb, "--parameter-scan can be given only once");
		cfg->scan[0] = optarg;
		cfg->scan[1] = next_arg(argc, argv, "--parameter-scan", eb);
		if (cfg->scan[1] == NULL)
			return -1;
		cfg->scan[2] = next_arg(argc, argv, "--parameter-scan", eb);
		return cfg->scan[2] == NULL ? -1 : 0;
	case 'D':
		cfg->scan_step = optarg;
		return 0;
	case 'L':
		v2 = next_arg(argc, argv, "--parameter-list", eb);
		if (v2 == NULL || params_add_list(&cfg->params, optarg, v2, eb) != 0)
			return -1;
		cfg->have_list = true;
		return 0;
	default:
		return CLI_NOT_MINE;
	}
}

/* --style -u --export-* --show-output --output -n: what is shown and written. */
static int cli_output(struct config *cfg, int c, struct errbuf *eb)
{
	switch (c) {
	case OPT_STYLE:
		if (report_style_parse(optarg, &cfg->style) != 0)
			return errbuf_set(eb, "--style: unknown style '%s'", optarg);
		cfg->have_style = true;
		return 0;
	case 'u':
		if (strcmp(optarg, "millisecond") == 0)
			cfg->unit = EXPORT_UNIT_MILLISECOND;
		else if (strcmp(optarg, "second") == 0)
			cfg->unit = EXPORT_UNIT_SECOND;
		else
			return errbuf_set(eb, "--time-unit: '%s' is not millisecond or second",
					  optarg);
		cfg->have_unit = true;
		return 0;
	case OPT_EXPORT_JSON:
		cfg->export_json = optarg;
		return 0;
	case OPT_EXPORT_CSV:
		cfg->export_csv = optarg;
		return 0;
	case OPT_EXPORT_MARKDOWN:
		cfg->export_markdown = optarg;
		return 0;
	case OPT_SHOW_OUTPUT:
		cfg->show_output = true;
		return 0;
	case OPT_OUTPUT:
		if (strcmp(optarg, "pipe") == 0)
			return errbuf_set(eb, "--output pipe is not supported; use null, "
					      "inherit or a file");
		cfg->output = optarg;
		return 0;
	case 'n':
		return push_str(&cfg->names, &cfg->n_names, optarg, eb);
	default:
		return CLI_NOT_MINE;
	}
}

/* -S -N -i --as-user --profile --order --precision --estimator: how the runs are made. */
static int cli_runs(struct config *cfg, int c, struct errbuf *eb)
{
	const struct numarg_words pct_words = {"--precision", "a percentage above 0 and below 100",
					       NUMARG_WORDING_IS_NOT};
	const struct numarg_bounds pct_bounds = {0, 100, NUMARG_OPEN_LO | NUMARG_OPEN_HI};
	double pct = 0;

	switch (c) {
	case 'S':
		cfg->shell = strcmp(optarg, "none") == 0      ? NULL
			     : strcmp(optarg, "default") == 0 ? "sh"
							      : optarg;
		return 0;
	case 'N':
		cfg->shell = NULL;
		return 0;
	case 'i':
		cfg->ignore_failure = true;
		return 0;
	case OPT_AS_USER:
		cfg->as_user = optarg;
		return 0;
	case OPT_PROFILE:
		cfg->profile = true;
		return 0;
	case OPT_ORDER:
		if (measure_order_parse(optarg, &cfg->order) != 0)
			return errbuf_set(
			    eb, "--order: '%s' is not sequential, interleaved or random", optarg);
		return 0;
	case OPT_PRECISION:
		if (numarg_get_double(&pct_words, optarg, &pct_bounds, &pct, eb) != 0)
			return -1;
		cfg->precision = pct / 100.0;
		return 0;
	case OPT_ESTIMATOR:
		if (estimate_kind_parse(optarg, &cfg->estimator) != 0)
			return errbuf_set(
			    eb, "--estimator: '%s' is not median, mean, trimmed, min or cpu-median",
			    optarg);
		return 0;
	default:
		return CLI_NOT_MINE;
	}
}

/* After the options: the commands, the parameter scan, hyperfine's run bounds, the seed. */
static int cli_check(struct config *cfg, int argc, char **argv, struct errbuf *eb)
{
	if (optind >= argc)
		return errbuf_set(eb, "no command to benchmark (see --help)");
	cfg->commands = argv + optind;
	cfg->n_commands = (size_t)(argc - optind);
	if (cfg->scan[0] != NULL) {
		if (cfg->have_list)
			return errbuf_set(eb,
					  "--parameter-scan and --parameter-list cannot be mixed");
		if (params_add_scan(&cfg->params, cfg->scan[0], cfg->scan[1], cfg->scan[2],
				    cfg->scan_step, eb) != 0)
			return -1;
	} else if (cfg->scan_step != NULL) {
		return errbuf_set(eb, "--parameter-step-size needs --parameter-scan");
	}
	/* hyperfine's run bounds: -r sets both; -M alone lowers the default minimum. */
	if (cfg->have_runs) {
		cfg->min_runs = cfg->max_runs = cfg->runs;
		cfg->have_max = true;
	} else if (cfg->have_max && !cfg->have_min && cfg->max_runs < cfg->min_runs) {
		cfg->min_runs = cfg->max_runs;
	}
	if (cfg->have_max && cfg->min_runs > cfg->max_runs)
		return errbuf_set(eb,
				  "Empty runs range: --min-runs %llu is greater than "
				  "--max-runs %llu",
				  (unsigned long long)cfg->min_runs,
				  (unsigned long long)cfg->max_runs);
	if (cfg->min_runs == 0 || (cfg->have_max && cfg->max_runs == 0))
		return errbuf_set(eb, "the number of runs must be at least 1");
	if (!cfg->have_seed && cfg->order == MEASURE_ORDER_RANDOM) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		cfg->seed = ((uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec) ^
			    ((uint64_t)getpid() << 32);
	}
	return 0;
}

int cli_parse(int argc, char **argv, struct config *cfg, struct errbuf *eb)
{
	static const struct option longopts[] = {
	    {"warmup", required_argument, NULL, 'w'},
	    {"min-runs", required_argument, NULL, 'm'},
	    {"max-runs", required_argument, NULL, 'M'},
	    {"runs", required_argument, NULL, 'r'},
	    {"setup", required_argument, NULL, 's'},
	    {"prepare", required_argument, NULL, 'p'},
	    {"cleanup", required_argument, NULL, 'c'},
	    {"parameter-scan", required_argument, NULL, 'P'},
	    {"parameter-step-size", required_argument, NULL, 'D'},
	    {"parameter-list", required_argument, NULL, 'L'},
	    {"shell", required_argument, NULL, 'S'},
	    {"ignore-failure", no_argument, NULL, 'i'},
	    {"style", required_argument, NULL, OPT_STYLE},
	    {"time-unit", required_argument, NULL, 'u'},
	    {"export-json", required_argument, NULL, OPT_EXPORT_JSON},
	    {"export-csv", required_argument, NULL, OPT_EXPORT_CSV},
	    {"export-markdown", required_argument, NULL, OPT_EXPORT_MARKDOWN},
	    {"show-output", no_argument, NULL, OPT_SHOW_OUTPUT},
	    {"output", required_argument, NULL, OPT_OUTPUT},
	    {"command-name", required_argument, NULL, 'n'},
	    {"as-user", required_argument, NULL, OPT_AS_USER},
	    {"order", required_argument, NULL, OPT_ORDER},
	    {"seed", required_argument, NULL, OPT_SEED},
	    {"precision", required_argument, NULL, OPT_PRECISION},
	    {"estimator", required_argument, NULL, OPT_ESTIMATOR},
	    {"profile", no_argument, NULL, OPT_PROFILE},
	    {"help", no_argument, NULL, 'h'},
	    {"version", no_argument, NULL, 'V'},
	    {NULL, 0, NULL, 0},
	};
	struct cliopt_seen seen;
	int c, rc;

	config_init(cfg);
	while ((c = cliopt_next(argc, argv, ":w:m:M:r:s:p:c:P:D:L:S:Niu:n:hV", longopts, &seen)) !=
	       -1) {
		if (c == 'h')
			return NUMARG_HELP;
		if (c == 'V')
			return NUMARG_VERSION;
		if (c == ':')
			return errbuf_set(eb, "option '%s' needs a value", seen.typed);
		if (c == '?')
			return cli_unknown_option(seen.typed, longopts, eb);
		rc = cli_counts(cfg, c, eb);
		if (rc == CLI_NOT_MINE)
			rc = cli_hooks(cfg, c, argc, argv, eb);
		if (rc == CLI_NOT_MINE)
			rc = cli_output(cfg, c, eb);
		if (rc == CLI_NOT_MINE)
			rc = cli_runs(cfg, c, eb);
		if (rc == CLI_NOT_MINE)
			return cli_unknown_option(seen.typed, longopts, eb);
		if (rc != 0)
			return NUMARG_ERROR;
	}
	return cli_check(cfg, argc, argv, eb);
}

void cli_config_clear(struct config *cfg)
{
	params_clear(&cfg->params);
	free(cfg->prepare);
	free(cfg->names);
	cfg->prepare = NULL;
	cfg->names = NULL;
}
