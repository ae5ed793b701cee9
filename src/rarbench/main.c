/* rarbench: a hyperfine-compatible command benchmark runner (CLI over src/bench). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "errbuf.h"
#include "exitcode.h"
#include "export.h"
#include "fileio.h"
#include "jsonget.h"
#include "machine.h"
#include "manifest_mode.h"
#include "measure.h"
#include "params.h"
#include "plain_profile.h"
#include "proc.h"
#include "report.h"
#include "sanitize.h"
#include "shellwords.h"

#define RARBENCH_SHELL_CALIBRATION_RUNS 50
#define RARBENCH_MAX_COMMANDS 100000
/* A result with more contended runs than this fraction is flagged "contended". */
#define RARBENCH_CONTENTION_LIMIT 0.5

/* Set by the SIGINT/SIGTERM handler; the only thing the handler does (see proc.h). */
static volatile sig_atomic_t rarbench_stop;

static void rarbench_on_signal(int sig)
{
	rarbench_stop = sig;
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

/* The number of benchmarks, p->n, and the counts of --command-name and --prepare checked against
 * it. */
static int plan_count(struct plan *p, const struct config *cfg, size_t combos, struct errbuf *eb)
{
	bool has_params = cfg->params.n_dims > 0;

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
	return 0;
}

/* --shell split into its words; --as-user looked up: the timed runs run as it, in its environment.
 */
static int plan_shell_and_user(struct plan *p, const struct config *cfg, struct proc_opts *run_opts,
			       struct errbuf *eb)
{
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
		run_opts->as = &p->user;
		run_opts->envp = p->user_env;
	}
	return 0;
}

/* stdin from /dev/null; the output (--show-output, --output) the same for the runs and the hooks.
 */
static int plan_output(struct plan *p, const struct config *cfg, struct proc_opts *run_opts,
		       struct proc_opts *hook_opts, struct errbuf *eb)
{
	run_opts->stdin_null = hook_opts->stdin_null = true;
	if (cfg->show_output || (cfg->output != NULL && strcmp(cfg->output, "inherit") == 0)) {
		run_opts->output = hook_opts->output = PROC_OUTPUT_INHERIT;
	} else if (cfg->output != NULL && strcmp(cfg->output, "null") != 0) {
		p->output_fd = open(cfg->output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (p->output_fd < 0)
			return errbuf_set_errno(eb, errno, "--output %s", cfg->output);
		run_opts->output = hook_opts->output = PROC_OUTPUT_FD;
		run_opts->output_fd = hook_opts->output_fd = p->output_fd;
	}
	return 0;
}

/* Benchmark i's name (--command-name's, substituted, or its command line) and parameters. */
static int plan_name_and_params(struct plan *p, const struct config *cfg, size_t combo, size_t ci,
				struct errbuf *eb)
{
	bool has_params = cfg->params.n_dims > 0;
	size_t i = combo * cfg->n_commands + ci;
	const char *name_tmpl = NULL;

	if (has_params && cfg->n_names > 0)
		name_tmpl = cfg->names[cfg->n_names == 1 ? 0 : i];
	else if (!has_params && ci < cfg->n_names)
		name_tmpl = cfg->names[ci];
	p->names[i] = name_tmpl != NULL ? params_substitute(&cfg->params, combo, name_tmpl, eb)
					: strdup(p->cmdlines[i]);
	if (p->names[i] == NULL)
		return errbuf_set(eb, "out of memory");
	p->params[i] = calloc(cfg->params.n_dims ? cfg->params.n_dims : 1, sizeof(**p->params));
	if (p->params[i] == NULL)
		return errbuf_set(eb, "out of memory");
	for (size_t d = 0; d < cfg->params.n_dims; d++) {
		p->params[i][d].name = cfg->params.dims[d].name;
		p->params[i][d].value = strdup(params_value(&cfg->params, combo, d));
		if (p->params[i][d].value == NULL)
			return errbuf_set(eb, "out of memory");
	}
	return 0;
}

/* Benchmark i, command ci of combination combo: its command line, name, parameters, commands. */
static int plan_bench(struct plan *p, const struct config *cfg, size_t combo, size_t ci,
		      const struct proc_opts *run_opts, const struct proc_opts *hook_opts,
		      struct errbuf *eb)
{
	size_t i = combo * cfg->n_commands + ci;
	struct measure_bench *b = &p->benches[i];

	p->cmdlines[i] = params_substitute(&cfg->params, combo, cfg->commands[ci], eb);
	if (p->cmdlines[i] == NULL)
		return -1;
	if (plan_name_and_params(p, cfg, combo, ci, eb) != 0)
		return -1;
	b->name = p->names[i];
	b->group = combo;
	b->cmd = p->cmds[4 * i] =
	    build_cmd(p, cfg, combo, cfg->commands[ci], run_opts, "command", eb);
	if (b->cmd == NULL)
		return -1;
	if (cfg->setup != NULL &&
	    (b->setup = p->cmds[4 * i + 1] =
		 build_cmd(p, cfg, combo, cfg->setup, hook_opts, "--setup", eb)) == NULL)
		return -1;
	if (cfg->n_prepare > 0 && (b->prepare = p->cmds[4 * i + 2] = build_cmd(
				       p, cfg, combo, cfg->prepare[cfg->n_prepare == 1 ? 0 : ci],
				       hook_opts, "--prepare", eb)) == NULL)
		return -1;
	if (cfg->cleanup != NULL &&
	    (b->cleanup = p->cmds[4 * i + 3] =
		 build_cmd(p, cfg, combo, cfg->cleanup, hook_opts, "--cleanup", eb)) == NULL)
		return -1;
	return 0;
}

static int plan_build(struct plan *p, const struct config *cfg, struct errbuf *eb)
{
	size_t combos = params_combinations(&cfg->params);
	struct proc_opts run_opts = {0}, hook_opts = {0};

	p->output_fd = -1;
	if (plan_count(p, cfg, combos, eb) != 0 ||
	    plan_shell_and_user(p, cfg, &run_opts, eb) != 0 ||
	    plan_output(p, cfg, &run_opts, &hook_opts, eb) != 0)
		return -1;
	p->cmdlines = calloc(p->n, sizeof(*p->cmdlines));
	p->names = calloc(p->n, sizeof(*p->names));
	p->benches = calloc(p->n, sizeof(*p->benches));
	p->results = calloc(p->n, sizeof(*p->results));
	p->params = calloc(p->n, sizeof(*p->params));
	p->cmds = calloc(4 * p->n, sizeof(*p->cmds));
	if (!p->cmdlines || !p->names || !p->benches || !p->results || !p->params || !p->cmds)
		return errbuf_set(eb, "out of memory");
	for (size_t combo = 0; combo < combos; combo++)
		for (size_t ci = 0; ci < cfg->n_commands; ci++)
			if (plan_bench(p, cfg, combo, ci, &run_opts, &hook_opts, eb) != 0)
				return -1;
	return 0;
}

struct run_ctx {
	const struct config *cfg;
	struct plan *plan;
	struct report *rep;
	cJSON *extra;
	struct export_extras extras; /* every result's "rarbench" object */
	cJSON **profiles;            /* --profile: plan->n entries, NULL until traced */
};

/* Rewrites every requested export with the benchmarks finished so far. */
static int export_all(struct run_ctx *ctx, struct errbuf *eb)
{
	const struct config *cfg = ctx->cfg;
	struct plan *p = ctx->plan;
	struct export_entry *e;
	struct export_extras *xs;
	size_t m = 0;
	int rc = 0;

	if (!cfg->export_json && !cfg->export_csv && !cfg->export_markdown)
		return 0;
	e = calloc(p->n ? p->n : 1, sizeof(*e));
	xs = calloc(p->n ? p->n : 1, sizeof(*xs));
	if (e == NULL || xs == NULL) {
		free(e);
		free(xs);
		return errbuf_set(eb, "out of memory");
	}
	for (size_t i = 0; i < p->n; i++) {
		if (!p->results[i].complete)
			continue;
		/* Each its own copy: the profile differs per command. */
		xs[m] = ctx->extras;
		xs[m].profile = ctx->profiles != NULL ? ctx->profiles[i] : NULL;
		e[m].command = p->names[i];
		e[m].result = &p->results[i];
		e[m].params = p->params[i];
		e[m].n_params = cfg->params.n_dims;
		e[m].extras = &xs[m];
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
	free(xs);
	return rc;
}

/*
 * --profile: each command traced once, after every timed run, its counts
 * printed on one line each and the exports written again with them.
 */
static int profile_all(struct run_ctx *ctx, const char *tracer, struct errbuf *eb)
{
	struct plan *p = ctx->plan;

	ctx->profiles = calloc(p->n ? p->n : 1, sizeof(cJSON *));
	if (ctx->profiles == NULL)
		return errbuf_set(eb, "out of memory");
	for (size_t i = 0; i < p->n; i++) {
		const cJSON *o;

		if (plain_profile_run(
			tracer, p->benches[i].cmd, ctx->cfg->as_user != NULL ? &p->user : NULL,
			ctx->cfg->as_user != NULL ? p->user_env : NULL, &ctx->profiles[i], eb) != 0)
			return -1;
		o = ctx->profiles[i];
		sanitize_fprintf(
		    stderr,
		    "Profile of %s: %s, %.0f system calls (%.0f failed), %.0f bytes read, "
		    "%.0f written, %.0f programs started\n",
		    p->names[i], cJSON_GetStringValue(jsonget_member(o, "status")),
		    cJSON_GetNumberValue(jsonget_member(o, "calls")),
		    cJSON_GetNumberValue(jsonget_member(o, "failed")),
		    cJSON_GetNumberValue(jsonget_member(o, "bytes_read")),
		    cJSON_GetNumberValue(jsonget_member(o, "bytes_written")),
		    cJSON_GetNumberValue(jsonget_member(o, "execs")));
	}
	return export_all(ctx, eb);
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
	cJSON *extra = cJSON_CreateObject(), *rb = NULL, *machine;

	if (extra == NULL)
		return NULL;
	rb = cJSON_AddObjectToObject(extra, "rarbench");
	if (rb == NULL || !cJSON_AddStringToObject(rb, "version", RARPERF_VERSION) ||
	    !cJSON_AddStringToObject(rb, "order", measure_order_name(cfg->order)) ||
	    !(cfg->have_seed || cfg->order == MEASURE_ORDER_RANDOM
		  ? cJSON_AddNumberToObject(rb, "seed", (double)cfg->seed)
		  : cJSON_AddNullToObject(rb, "seed")) ||
	    !cJSON_AddStringToObject(rb, "shell", cfg->shell != NULL ? cfg->shell : "none") ||
	    !(cfg->as_user != NULL ? cJSON_AddStringToObject(rb, "as_user", cfg->as_user)
				   : cJSON_AddNullToObject(rb, "as_user"))) {
		cJSON_Delete(extra);
		return NULL;
	}
	/* Which machine measured, as manifest mode's meta.machine (rarplot tells hosts apart by
	 * it); rb adopts it. */
	if ((machine = machine_describe()) == NULL) {
		cJSON_Delete(extra);
		return NULL;
	}
	cJSON_AddItemToObject(rb, "machine", machine);
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
static enum measure_outcome calibrate(struct run_ctx *ctx, struct measure_opts *mo,
				      struct errbuf *eb)
{
	struct plan *p = ctx->plan;
	struct proc_opts o = {0};
	struct proc_cmd *sh = NULL;
	char **argv = build_argv(p, "", eb);
	enum measure_outcome rc;

	if (argv == NULL)
		return MEASURE_FAILED;
	o.stdin_null = true;
	if (ctx->cfg->as_user != NULL) {
		o.as = &p->user;
		o.envp = p->user_env;
	}
	sh = proc_cmd_new(argv, &o, eb);
	shellwords_free(argv);
	if (sh == NULL) {
		errbuf_prefix(eb, "--shell");
		return MEASURE_FAILED;
	}
	report_progress(ctx->rep, "Measuring shell spawning time", 0,
			RARBENCH_SHELL_CALIBRATION_RUNS);
	rc = measure_calibrate(sh, RARBENCH_SHELL_CALIBRATION_RUNS, &rarbench_stop, &mo->overhead,
			       eb);
	report_clear(ctx->rep);
	proc_cmd_free(sh);
	return rc;
}

/* --manifest anywhere before "--": the sweep runner (manifest_mode.h) takes the command line. */
/* The most a manifest read to recognise one takes (manifests are a few KiB). */
#define RARBENCH_MANIFEST_PEEK_BYTES (1024 * 1024)

/*
 * A command that is the path of a manifest (a JSON object with "subjects" and "axes"): the
 * --manifest forgotten ("rarbench experiments/quick.json"), which a shell would be asked to run
 * (exit 126). Says so in eb and returns -1; 0 for every other command.
 */
static int refuse_manifest_command(const char *cmdline, struct errbuf *eb)
{
	struct stat st;
	struct errbuf ignored;
	char *text = NULL;
	size_t len = 0;
	cJSON *root;
	bool manifest;

	if (cmdline[strcspn(cmdline, " \t\n")] != '\0' || stat(cmdline, &st) != 0 ||
	    !S_ISREG(st.st_mode) || (st.st_mode & 0111) != 0 ||
	    fileio_read(cmdline, RARBENCH_MANIFEST_PEEK_BYTES, NULL, &text, &len, &ignored) != 0)
		return 0;
	root = cJSON_ParseWithLength(text, len);
	manifest = cJSON_IsObject(root) && jsonget_member(root, "subjects") != NULL &&
		   jsonget_member(root, "axes") != NULL;
	cJSON_Delete(root);
	free(text);
	if (manifest)
		return errbuf_set(eb, "%s is a manifest: use --manifest %s", cmdline, cmdline);
	return 0;
}

static bool wants_manifest_mode(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--manifest") == 0 || strncmp(argv[i], "--manifest=", 11) == 0)
			return true;
		if (strcmp(argv[i], "--") == 0)
			break;
	}
	return false;
}

/* The report, the exports' "rarbench" object and every result's extras. Returns 0, or -1 (OOM). */
static int run_ctx_init(struct run_ctx *ctx, const struct config *cfg, struct plan *plan)
{
	ctx->cfg = cfg;
	ctx->plan = plan;
	ctx->rep = report_new(stdout, stderr, cfg->have_style ? cfg->style : default_style(cfg),
			      cfg->have_unit ? &cfg->unit : NULL);
	ctx->extra = build_extra(cfg);
	ctx->extras.estimator = cfg->estimator;
	ctx->extras.contended = ESTIMATE_CONTENDED_DEFAULT;
	ctx->extras.precision = cfg->precision;
	ctx->extras.contention_limit = RARBENCH_CONTENTION_LIMIT;
	if (ctx->rep == NULL || ctx->extra == NULL)
		return -1;
	report_set_extras(ctx->rep, &ctx->extras);
	return 0;
}

static void run_ctx_clear(struct run_ctx *ctx, const struct plan *plan)
{
	for (size_t i = 0; ctx->profiles != NULL && i < plan->n; i++)
		cJSON_Delete(ctx->profiles[i]);
	free(ctx->profiles);
	report_free(ctx->rep);
	cJSON_Delete(ctx->extra);
}

/* SIGINT and SIGTERM stop the runs (rarbench_stop): the finished benchmarks are still exported. */
static void take_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = rarbench_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static void measure_opts_from_config(struct measure_opts *mo, const struct config *cfg,
				     struct run_ctx *ctx)
{
	measure_opts_init(mo);
	mo->warmup = cfg->warmup;
	mo->min_runs = cfg->min_runs;
	mo->max_runs = cfg->have_max ? cfg->max_runs : 0;
	mo->order = cfg->order;
	mo->seed = cfg->seed;
	mo->ignore_failure = cfg->ignore_failure;
	mo->precision = cfg->precision;
	mo->estimator = cfg->estimator;
	mo->contended = ESTIMATE_CONTENDED_DEFAULT;
	mo->stop = &rarbench_stop;
	mo->on_event = on_event;
	mo->ctx = ctx;
}

/* Interrupted: the benchmarks finished so far exported. Returns the exit status, 128 + signal. */
static int export_what_finished(struct run_ctx *ctx)
{
	struct errbuf eb = {{0}};

	if (export_all(ctx, &eb) != 0)
		sanitize_fprintf(stderr, "rarbench: %s\n", eb.msg);
	fprintf(stderr, "rarbench: interrupted; exported the finished benchmarks\n");
	return EXITCODE_SIGNAL_BASE + (int)rarbench_stop;
}

int main(int argc, char **argv)
{
	struct config cfg;
	struct plan plan = {0};
	struct measure_opts mo;
	struct run_ctx ctx = {0};
	struct errbuf eb = {{0}};
	int status = EXITCODE_BAD_INPUT, rc;
	enum measure_outcome outcome;
	const char *tracer = NULL;

	if (wants_manifest_mode(argc, argv))
		return manifest_mode_main(argc, argv);
	plan.output_fd = -1;
	rc = cli_parse(argc, argv, &cfg, &eb);
	if (rc == NUMARG_HELP || rc == NUMARG_VERSION) {
		if (rc == NUMARG_HELP)
			cli_usage(stdout);
		else
			printf("rarbench %s (%s)\n", RARPERF_VERSION, RARPERF_GIT_COMMIT);
		status = EXITCODE_OK;
		goto out;
	}
	for (size_t i = 0; rc == 0 && i < cfg.n_commands; i++)
		rc = refuse_manifest_command(cfg.commands[i], &eb);
	if (rc != 0) {
		sanitize_fprintf(stderr, "rarbench: %s\n", eb.msg);
		goto out;
	}
	if (cfg.profile && plain_profile_check(&tracer, &eb) != 0) {
		sanitize_fprintf(stderr, "rarbench: %s\n", eb.msg);
		goto out;
	}
	/* Everything is resolved here, before any run: a missing program stops us now. */
	if (plan_build(&plan, &cfg, &eb) != 0) {
		sanitize_fprintf(stderr, "rarbench: %s\n", eb.msg);
		goto out;
	}
	status = EXITCODE_FAILED;
	if (run_ctx_init(&ctx, &cfg, &plan) != 0) {
		fprintf(stderr, "rarbench: out of memory\n");
		goto out;
	}
	take_signals();
	measure_opts_from_config(&mo, &cfg, &ctx);
	outcome = cfg.shell != NULL ? calibrate(&ctx, &mo, &eb) : MEASURE_OK;
	if (outcome == MEASURE_OK)
		outcome = measure_run(plan.benches, plan.n, &mo, plan.results, &eb);
	report_clear(ctx.rep);
	if (outcome == MEASURE_STOPPED) {
		status = export_what_finished(&ctx);
		goto out;
	}
	if (outcome != MEASURE_OK) {
		sanitize_fprintf(stderr, "rarbench: %s\n", eb.msg);
		goto out;
	}
	report_comparison(ctx.rep, (const char *const *)plan.names, plan.results, plan.n);
	if (cfg.profile && profile_all(&ctx, tracer, &eb) != 0) {
		sanitize_fprintf(stderr, "rarbench: %s\n", eb.msg);
		goto out;
	}
	status = EXITCODE_OK;
out:
	run_ctx_clear(&ctx, &plan);
	plan_free(&plan, &cfg);
	cli_config_clear(&cfg);
	return status;
}
