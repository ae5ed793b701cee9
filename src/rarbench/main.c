/* rarbench: a hyperfine-compatible command benchmark runner (CLI over src/lib's measure/export). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "errbuf.h"
#include "export.h"
#include "manifest_main.h"
#include "measure.h"
#include "params.h"
#include "proc.h"
#include "report.h"
#include "shellwords.h"

#define RARBENCH_EXIT_OK 0
#define RARBENCH_EXIT_FAIL 1
#define RARBENCH_EXIT_USAGE 2
#define RARBENCH_SHELL_CALIBRATION_RUNS 50
#define RARBENCH_MAX_COMMANDS 100000

/* Set by the SIGINT/SIGTERM handler; the only thing the handler does (see proc.h). */
static volatile sig_atomic_t rarbench_stop;

static void rarbench_on_signal(int sig)
{
	rarbench_stop = sig;
}

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
};

struct config {
	uint64_t warmup;
	uint64_t min_runs, max_runs, runs;
	bool have_min, have_max, have_runs;
	const char *setup, *cleanup;
	const char **prepare;
	size_t n_prepare;
	struct params params;
	const char *scan[3];
	const char *scan_step;
	bool have_list;
	const char *shell; /* NULL: -N */
	bool ignore_failure;
	enum report_style style;
	bool have_style;
	const char *export_json, *export_csv, *export_markdown;
	bool show_output;
	const char *output;
	enum export_time_unit unit;
	bool have_unit;
	const char **names;
	size_t n_names;
	const char *as_user;
	enum measure_order order;
	uint64_t seed;
	bool have_seed;
	char **commands;
	size_t n_commands;
};

static void config_init(struct config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->min_runs = MEASURE_DEFAULT_MIN_RUNS;
	cfg->shell = "sh";
	cfg->order = MEASURE_ORDER_SEQUENTIAL;
}

static void usage(FILE *f)
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
	    "      --order ORDER             sequential (hyperfine's), interleaved, random\n"
	    "      --seed N                  seed of --order random (recorded in the export)\n"
	    "\n"
	    "Exit status: 0 ok, 1 a measurement failed, 2 usage or input error,\n"
	    "130 interrupted by SIGINT (143 by SIGTERM) after exporting finished benchmarks.\n",
	    f);
}

static int parse_u64(const char *opt, const char *s, uint64_t *out, struct errbuf *eb)
{
	char *end = NULL;
	unsigned long long v;

	errno = 0;
	if (s[0] == '-' || s[0] == '\0')
		return errbuf_set(eb, "%s: '%s' is not a non-negative integer", opt, s);
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return errbuf_set(eb, "%s: '%s' is not a non-negative integer", opt, s);
	*out = v;
	return 0;
}

static int push_str(const char ***v, size_t *n, const char *s, struct errbuf *eb)
{
	const char **grown = realloc(*v, (*n + 1) * sizeof(**v));

	if (grown == NULL)
		return errbuf_set(eb, "out of memory");
	grown[(*n)++] = s;
	*v = grown;
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

static int parse_args(int argc, char **argv, struct config *cfg, struct errbuf *eb)
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
	    {"help", no_argument, NULL, 'h'},
	    {"version", no_argument, NULL, 'V'},
	    {NULL, 0, NULL, 0},
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":w:m:M:r:s:p:c:P:D:L:S:Niu:n:hV", longopts, NULL)) !=
	       -1) {
		const char *v1, *v2;

		switch (c) {
		case 'w':
			if (parse_u64("--warmup", optarg, &cfg->warmup, eb) != 0)
				return -1;
			break;
		case 'm':
			if (parse_u64("--min-runs", optarg, &cfg->min_runs, eb) != 0)
				return -1;
			cfg->have_min = true;
			break;
		case 'M':
			if (parse_u64("--max-runs", optarg, &cfg->max_runs, eb) != 0)
				return -1;
			cfg->have_max = true;
			break;
		case 'r':
			if (parse_u64("--runs", optarg, &cfg->runs, eb) != 0)
				return -1;
			cfg->have_runs = true;
			break;
		case 's':
			cfg->setup = optarg;
			break;
		case 'p':
			if (push_str(&cfg->prepare, &cfg->n_prepare, optarg, eb) != 0)
				return -1;
			break;
		case 'c':
			cfg->cleanup = optarg;
			break;
		case 'P':
			if (cfg->scan[0] != NULL)
				return errbuf_set(eb, "--parameter-scan can be given only once");
			cfg->scan[0] = optarg;
			cfg->scan[1] = next_arg(argc, argv, "--parameter-scan", eb);
			if (cfg->scan[1] == NULL)
				return -1;
			cfg->scan[2] = next_arg(argc, argv, "--parameter-scan", eb);
			if (cfg->scan[2] == NULL)
				return -1;
			break;
		case 'D':
			cfg->scan_step = optarg;
			break;
		case 'L':
			v1 = optarg;
			v2 = next_arg(argc, argv, "--parameter-list", eb);
			if (v2 == NULL || params_add_list(&cfg->params, v1, v2, eb) != 0)
				return -1;
			cfg->have_list = true;
			break;
		case 'S':
			cfg->shell = strcmp(optarg, "none") == 0      ? NULL
				     : strcmp(optarg, "default") == 0 ? "sh"
								      : optarg;
			break;
		case 'N':
			cfg->shell = NULL;
			break;
		case 'i':
			cfg->ignore_failure = true;
			break;
		case OPT_STYLE:
			if (report_style_parse(optarg, &cfg->style) != 0)
				return errbuf_set(eb, "--style: unknown style '%s'", optarg);
			cfg->have_style = true;
			break;
		case 'u':
			if (strcmp(optarg, "millisecond") == 0)
				cfg->unit = EXPORT_UNIT_MILLISECOND;
			else if (strcmp(optarg, "second") == 0)
				cfg->unit = EXPORT_UNIT_SECOND;
			else
				return errbuf_set(
				    eb, "--time-unit: '%s' is not millisecond or second", optarg);
			cfg->have_unit = true;
			break;
		case OPT_EXPORT_JSON:
			cfg->export_json = optarg;
			break;
		case OPT_EXPORT_CSV:
			cfg->export_csv = optarg;
			break;
		case OPT_EXPORT_MARKDOWN:
			cfg->export_markdown = optarg;
			break;
		case OPT_SHOW_OUTPUT:
			cfg->show_output = true;
			break;
		case OPT_OUTPUT:
			if (strcmp(optarg, "pipe") == 0)
				return errbuf_set(eb, "--output pipe is not supported; use null, "
						      "inherit or a file");
			cfg->output = optarg;
			break;
		case 'n':
			if (push_str(&cfg->names, &cfg->n_names, optarg, eb) != 0)
				return -1;
			break;
		case OPT_AS_USER:
			cfg->as_user = optarg;
			break;
		case OPT_ORDER:
			if (strcmp(optarg, "sequential") == 0)
				cfg->order = MEASURE_ORDER_SEQUENTIAL;
			else if (strcmp(optarg, "interleaved") == 0)
				cfg->order = MEASURE_ORDER_INTERLEAVED;
			else if (strcmp(optarg, "random") == 0)
				cfg->order = MEASURE_ORDER_RANDOM;
			else
				return errbuf_set(eb,
						  "--order: '%s' is not sequential, interleaved "
						  "or random",
						  optarg);
			break;
		case OPT_SEED:
			if (parse_u64("--seed", optarg, &cfg->seed, eb) != 0)
				return -1;
			cfg->have_seed = true;
			break;
		case 'h':
			usage(stdout);
			exit(RARBENCH_EXIT_OK);
		case 'V':
			printf("rarbench %s (hyperfine 1.15 compatible)\n", RARPERF_VERSION);
			exit(RARBENCH_EXIT_OK);
		case ':':
			return errbuf_set(eb, "option '%s' needs a value", argv[optind - 1]);
		default:
			return errbuf_set(eb, "unknown option '%s' (see --help)", argv[optind - 1]);
		}
	}
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

/* Everything built from the configuration before the first run. */
struct plan {
	size_t n;                       /* benchmarks */
	char **cmdlines;                /* n, after {param} substitution */
	char **names;                   /* n */
	struct measure_bench *benches;  /* n */
	struct measure_result *results; /* n */
	struct export_param **params;   /* n arrays of params.n_dims */
	struct proc_cmd **cmds;         /* 4n: cmd, setup, prepare, cleanup */
	struct proc_user user;
	char **user_env;
	int output_fd;
	char **shell_words;
};

static void plan_free(struct plan *p, const struct config *cfg)
{
	for (size_t i = 0; i < p->n; i++) {
		if (p->cmdlines != NULL)
			free(p->cmdlines[i]);
		if (p->names != NULL)
			free(p->names[i]);
		if (p->results != NULL)
			measure_result_clear(&p->results[i]);
		if (p->params != NULL && p->params[i] != NULL) {
			for (size_t d = 0; d < cfg->params.n_dims; d++)
				free((char *)p->params[i][d].value);
			free(p->params[i]);
		}
	}
	for (size_t i = 0; p->cmds != NULL && i < 4 * p->n; i++)
		proc_cmd_free(p->cmds[i]);
	free(p->cmds);
	free(p->cmdlines);
	free(p->names);
	free(p->benches);
	free(p->results);
	free(p->params);
	proc_user_clear(&p->user);
	proc_env_free(p->user_env);
	if (p->output_fd >= 0)
		close(p->output_fd);
	shellwords_free(p->shell_words);
}

/* The argv of a command line: split (-N) or handed to the shell with -c. */
static char **build_argv(const struct plan *p, const char *cmdline, struct errbuf *eb)
{
	size_t ns = shellwords_count(p->shell_words);
	char **argv;

	if (p->shell_words == NULL) {
		argv = shellwords_split(cmdline, eb);
		if (argv == NULL)
			return NULL;
		if (argv[0] == NULL) {
			shellwords_free(argv);
			errbuf_set(eb, "Can not execute empty command");
			return NULL;
		}
		return argv;
	}
	argv = calloc(ns + 3, sizeof(*argv));
	if (argv == NULL)
		goto oom;
	for (size_t i = 0; i < ns; i++)
		if ((argv[i] = strdup(p->shell_words[i])) == NULL)
			goto oom;
	if ((argv[ns] = strdup("-c")) == NULL || (argv[ns + 1] = strdup(cmdline)) == NULL)
		goto oom;
	return argv;
oom:
	shellwords_free(argv);
	errbuf_set(eb, "out of memory");
	return NULL;
}

static struct proc_cmd *build_cmd(const struct plan *p, const struct config *cfg, size_t combo,
				  const char *tmpl, const struct proc_opts *opts, const char *what,
				  struct errbuf *eb)
{
	char *line = params_substitute(&cfg->params, combo, tmpl, eb);
	char **argv = NULL;
	struct proc_cmd *cmd = NULL;

	if (line == NULL)
		return NULL;
	argv = build_argv(p, line, eb);
	if (argv != NULL)
		cmd = proc_cmd_new(argv, opts, eb);
	if (cmd == NULL)
		errbuf_prefix(eb, "%s '%s'", what, line);
	shellwords_free(argv);
	free(line);
	return cmd;
}

static int plan_build(struct plan *p, const struct config *cfg, struct errbuf *eb)
{
	size_t combos = params_combinations(&cfg->params);
	bool has_params = cfg->params.n_dims > 0;
	struct proc_opts run_opts = {0}, hook_opts = {0};

	p->output_fd = -1;
	if (cfg->n_commands > RARBENCH_MAX_COMMANDS ||
	    combos > RARBENCH_MAX_COMMANDS / cfg->n_commands)
		return errbuf_set(eb, "too many benchmarks");
	p->n = combos * cfg->n_commands;
	if (has_params && cfg->n_names > 1 && cfg->n_names != p->n)
		return errbuf_set(eb,
				  "'--command-name' has been specified %zu times. It has to appear "
				  "exactly once, or exactly %zu times (number of benchmarks)",
				  cfg->n_names, p->n);
	if (!has_params && cfg->n_names > cfg->n_commands)
		return errbuf_set(eb, "Too many --command-name options: expected %zu at most",
				  cfg->n_commands);
	if (cfg->n_prepare > 1 && cfg->n_prepare != cfg->n_commands)
		return errbuf_set(eb,
				  "The '--prepare' option has to be provided just once or N times, "
				  "where N is the number of benchmark commands.");
	if (cfg->shell != NULL) {
		p->shell_words = shellwords_split(cfg->shell, eb);
		if (p->shell_words == NULL)
			return errbuf_prefix(eb, "--shell");
		if (p->shell_words[0] == NULL)
			return errbuf_set(eb, "--shell: empty shell");
	}
	if (cfg->as_user != NULL) {
		if (geteuid() != 0)
			return errbuf_set(eb, "--as-user needs root (rarbench runs as uid %u)",
					  (unsigned)geteuid());
		if (proc_user_lookup(cfg->as_user, &p->user, eb) != 0)
			return -1;
		p->user_env = proc_env_for_user(&p->user, eb);
		if (p->user_env == NULL)
			return -1;
		run_opts.as = &p->user;
		run_opts.envp = p->user_env;
	}
	run_opts.stdin_null = hook_opts.stdin_null = true;
	if (cfg->show_output || (cfg->output != NULL && strcmp(cfg->output, "inherit") == 0)) {
		run_opts.output = hook_opts.output = PROC_OUTPUT_INHERIT;
	} else if (cfg->output != NULL && strcmp(cfg->output, "null") != 0) {
		p->output_fd = open(cfg->output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (p->output_fd < 0)
			return errbuf_set_errno(eb, errno, "--output %s", cfg->output);
		run_opts.output = hook_opts.output = PROC_OUTPUT_FD;
		run_opts.output_fd = hook_opts.output_fd = p->output_fd;
	}
	p->cmdlines = calloc(p->n, sizeof(*p->cmdlines));
	p->names = calloc(p->n, sizeof(*p->names));
	p->benches = calloc(p->n, sizeof(*p->benches));
	p->results = calloc(p->n, sizeof(*p->results));
	p->params = calloc(p->n, sizeof(*p->params));
	p->cmds = calloc(4 * p->n, sizeof(*p->cmds));
	if (!p->cmdlines || !p->names || !p->benches || !p->results || !p->params || !p->cmds)
		return errbuf_set(eb, "out of memory");
	for (size_t combo = 0; combo < combos; combo++) {
		for (size_t ci = 0; ci < cfg->n_commands; ci++) {
			size_t i = combo * cfg->n_commands + ci;
			const char *name_tmpl = NULL;
			struct measure_bench *b = &p->benches[i];

			p->cmdlines[i] =
			    params_substitute(&cfg->params, combo, cfg->commands[ci], eb);
			if (p->cmdlines[i] == NULL)
				return -1;
			if (has_params && cfg->n_names > 0)
				name_tmpl = cfg->names[cfg->n_names == 1 ? 0 : i];
			else if (!has_params && ci < cfg->n_names)
				name_tmpl = cfg->names[ci];
			p->names[i] = name_tmpl != NULL
					  ? params_substitute(&cfg->params, combo, name_tmpl, eb)
					  : strdup(p->cmdlines[i]);
			if (p->names[i] == NULL)
				return errbuf_set(eb, "out of memory");
			p->params[i] = calloc(cfg->params.n_dims ? cfg->params.n_dims : 1,
					      sizeof(**p->params));
			if (p->params[i] == NULL)
				return errbuf_set(eb, "out of memory");
			for (size_t d = 0; d < cfg->params.n_dims; d++) {
				p->params[i][d].name = cfg->params.dims[d].name;
				p->params[i][d].value =
				    strdup(params_value(&cfg->params, combo, d));
				if (p->params[i][d].value == NULL)
					return errbuf_set(eb, "out of memory");
			}
			b->name = p->names[i];
			b->group = combo;
			b->cmd = p->cmds[4 * i] =
			    build_cmd(p, cfg, combo, cfg->commands[ci], &run_opts, "command", eb);
			if (b->cmd == NULL)
				return -1;
			if (cfg->setup != NULL &&
			    (b->setup = p->cmds[4 * i + 1] = build_cmd(
				 p, cfg, combo, cfg->setup, &hook_opts, "--setup", eb)) == NULL)
				return -1;
			if (cfg->n_prepare > 0 &&
			    (b->prepare = p->cmds[4 * i + 2] = build_cmd(
				 p, cfg, combo, cfg->prepare[cfg->n_prepare == 1 ? 0 : ci],
				 &hook_opts, "--prepare", eb)) == NULL)
				return -1;
			if (cfg->cleanup != NULL &&
			    (b->cleanup = p->cmds[4 * i + 3] = build_cmd(
				 p, cfg, combo, cfg->cleanup, &hook_opts, "--cleanup", eb)) == NULL)
				return -1;
		}
	}
	return 0;
}

struct run_ctx {
	const struct config *cfg;
	struct plan *plan;
	struct report *rep;
	cJSON *extra;
};

static const char *order_name(enum measure_order o)
{
	return o == MEASURE_ORDER_INTERLEAVED ? "interleaved"
	       : o == MEASURE_ORDER_RANDOM    ? "random"
					      : "sequential";
}

/* Rewrites every requested export with the benchmarks finished so far. */
static int export_all(struct run_ctx *ctx, struct errbuf *eb)
{
	const struct config *cfg = ctx->cfg;
	struct plan *p = ctx->plan;
	struct export_entry *e;
	size_t m = 0;
	int rc = 0;

	if (!cfg->export_json && !cfg->export_csv && !cfg->export_markdown)
		return 0;
	e = calloc(p->n ? p->n : 1, sizeof(*e));
	if (e == NULL)
		return errbuf_set(eb, "out of memory");
	for (size_t i = 0; i < p->n; i++) {
		if (!p->results[i].complete)
			continue;
		e[m].command = p->names[i];
		e[m].result = &p->results[i];
		e[m].params = p->params[i];
		e[m].n_params = cfg->params.n_dims;
		m++;
	}
	if (cfg->export_json != NULL)
		rc = export_json(cfg->export_json, e, m, ctx->extra, eb);
	if (rc == 0 && cfg->export_csv != NULL)
		rc = export_csv(cfg->export_csv, e, m, eb);
	if (rc == 0 && cfg->export_markdown != NULL)
		rc = export_markdown(cfg->export_markdown, e, m, cfg->have_unit ? &cfg->unit : NULL,
				     eb);
	free(e);
	return rc;
}

static int on_event(void *vctx, const struct measure_event *ev, struct errbuf *eb)
{
	struct run_ctx *ctx = vctx;

	report_event(ctx->rep, ev, (const char *const *)ctx->plan->names, ctx->cfg->shell != NULL);
	if (ev->kind == MEASURE_EV_DONE && ev->bench + 1 == ev->group_first + ev->group_count)
		return export_all(ctx, eb);
	return 0;
}

static cJSON *build_extra(const struct config *cfg)
{
	cJSON *extra = cJSON_CreateObject(), *rb = NULL;

	if (extra == NULL)
		return NULL;
	rb = cJSON_AddObjectToObject(extra, "rarbench");
	if (rb == NULL || !cJSON_AddStringToObject(rb, "version", RARPERF_VERSION) ||
	    !cJSON_AddStringToObject(rb, "order", order_name(cfg->order)) ||
	    !(cfg->have_seed || cfg->order == MEASURE_ORDER_RANDOM
		  ? cJSON_AddNumberToObject(rb, "seed", (double)cfg->seed)
		  : cJSON_AddNullToObject(rb, "seed")) ||
	    !cJSON_AddStringToObject(rb, "shell", cfg->shell != NULL ? cfg->shell : "none") ||
	    !(cfg->as_user != NULL ? cJSON_AddStringToObject(rb, "as_user", cfg->as_user)
				   : cJSON_AddNullToObject(rb, "as_user"))) {
		cJSON_Delete(extra);
		return NULL;
	}
	return extra;
}

static enum report_style default_style(const struct config *cfg)
{
	const char *term = getenv("TERM"), *nocolor = getenv("NO_COLOR");

	if (cfg->show_output || (cfg->output != NULL && strcmp(cfg->output, "inherit") == 0) ||
	    !isatty(STDOUT_FILENO))
		return REPORT_STYLE_BASIC;
	if (term == NULL || strcmp(term, "unknown") == 0 || strcmp(term, "dumb") == 0 ||
	    (nocolor != NULL && nocolor[0] != '\0'))
		return REPORT_STYLE_NOCOLOR;
	return REPORT_STYLE_FULL;
}

/* hyperfine's shell calibration, with the identity and environment of the timed runs. */
static int calibrate(struct run_ctx *ctx, struct measure_opts *mo, struct errbuf *eb)
{
	struct plan *p = ctx->plan;
	struct proc_opts o = {0};
	struct proc_cmd *sh = NULL;
	char **argv = build_argv(p, "", eb);
	int rc;

	if (argv == NULL)
		return -1;
	o.stdin_null = true;
	if (ctx->cfg->as_user != NULL) {
		o.as = &p->user;
		o.envp = p->user_env;
	}
	sh = proc_cmd_new(argv, &o, eb);
	shellwords_free(argv);
	if (sh == NULL)
		return errbuf_prefix(eb, "--shell");
	report_progress(ctx->rep, "Measuring shell spawning time", 0,
			RARBENCH_SHELL_CALIBRATION_RUNS);
	rc = measure_calibrate(sh, RARBENCH_SHELL_CALIBRATION_RUNS, &rarbench_stop, &mo->overhead,
			       eb);
	report_clear(ctx->rep);
	proc_cmd_free(sh);
	return rc;
}

int main(int argc, char **argv)
{
	struct config cfg;
	struct plan plan = {0};
	struct measure_opts mo;
	struct run_ctx ctx = {0};
	struct errbuf eb = {{0}};
	struct sigaction sa;
	int status = RARBENCH_EXIT_USAGE, rc;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--manifest") == 0 || strncmp(argv[i], "--manifest=", 11) == 0)
			return manifest_main(argc, argv);
		if (strcmp(argv[i], "--") == 0)
			break;
	}
	config_init(&cfg);
	plan.output_fd = -1;
	if (parse_args(argc, argv, &cfg, &eb) != 0) {
		fprintf(stderr, "rarbench: %s\n", eb.msg);
		goto out;
	}
	/* Everything is resolved here, before any run: a missing program stops us now. */
	if (plan_build(&plan, &cfg, &eb) != 0) {
		fprintf(stderr, "rarbench: %s\n", eb.msg);
		goto out;
	}
	status = RARBENCH_EXIT_FAIL;
	ctx.cfg = &cfg;
	ctx.plan = &plan;
	ctx.rep = report_new(stdout, stderr, cfg.have_style ? cfg.style : default_style(&cfg),
			     cfg.have_unit ? &cfg.unit : NULL);
	ctx.extra = build_extra(&cfg);
	if (ctx.rep == NULL || ctx.extra == NULL) {
		fprintf(stderr, "rarbench: out of memory\n");
		goto out;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = rarbench_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	measure_opts_init(&mo);
	mo.warmup = cfg.warmup;
	mo.min_runs = cfg.min_runs;
	mo.max_runs = cfg.have_max ? cfg.max_runs : 0;
	mo.order = cfg.order;
	mo.seed = cfg.seed;
	mo.ignore_failure = cfg.ignore_failure;
	mo.stop = &rarbench_stop;
	mo.on_event = on_event;
	mo.ctx = &ctx;

	rc = cfg.shell != NULL ? calibrate(&ctx, &mo, &eb) : 0;
	if (rc == 0)
		rc = measure_run(plan.benches, plan.n, &mo, plan.results, &eb);
	report_clear(ctx.rep);
	if (rc == MEASURE_STOPPED) {
		struct errbuf eb2 = {{0}};

		if (export_all(&ctx, &eb2) != 0)
			fprintf(stderr, "rarbench: %s\n", eb2.msg);
		fprintf(stderr, "rarbench: interrupted; exported the finished benchmarks\n");
		status = 128 + (int)rarbench_stop;
		goto out;
	}
	if (rc != 0) {
		fprintf(stderr, "rarbench: %s\n", eb.msg);
		goto out;
	}
	report_comparison(ctx.rep, (const char *const *)plan.names, plan.results, plan.n);
	status = RARBENCH_EXIT_OK;
out:
	report_free(ctx.rep);
	cJSON_Delete(ctx.extra);
	plan_free(&plan, &cfg);
	params_clear(&cfg.params);
	free(cfg.prepare);
	free(cfg.names);
	return status;
}
