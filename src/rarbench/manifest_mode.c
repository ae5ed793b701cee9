/* manifest_mode: rarbench's --manifest mode: its command line and signals over src/sweep's runner.
 */
#include "manifest_mode.h"

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <limits.h>

#include "cliopt.h"
#include "plan.h"
#include "plan_prefix.h"
#include "plan_print.h"
#include "exitcode.h"
#include "numarg.h"
#include "runner.h"
#include "runner_fault.h"
#include "sanitize.h"

/* How often a pending stop interrupts the waits (on_signal). */
#define STOP_TICK_NS 100000000L

static volatile sig_atomic_t stop_requested;
/* Interrupts every blocking wait while a stop is pending (on_signal arms it). */
static timer_t stop_timer;
static bool have_stop_timer;

/* Every catchable signal whose default action ends the process, beside INT, TERM and ALRM
 * (catch_signals): each stops the run through the main loop, which writes the policies
 * deny-all and ends what the sweep started. */
static const int STOP_SIGNALS[] = {SIGHUP,    SIGQUIT, SIGXCPU, SIGXFSZ, SIGUSR1, SIGUSR2,
				   SIGVTALRM, SIGPROF, SIGPIPE, SIGPWR,  SIGIO,   SIGSTKFLT};
/* Faults cannot return to the main loop: the guard's async-signal-safe deny-all, then death. */
static const int FAULT_SIGNALS[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGSYS, SIGTRAP};

/*
 * Only sets a flag: proc's children share our memory until exec (proc.h). A
 * signal that lands between a wait's check of the flag and the wait itself
 * (poll, flock) would otherwise leave it blocked until the run's timeout, so
 * the flag also starts a 100 ms periodic timer whose SIGALRM (this handler
 * again) interrupts whatever wait comes next (timer_settime is
 * async-signal-safe).
 */
static void on_signal(int sig)
{
	static const struct itimerspec every = {{0, STOP_TICK_NS}, {0, STOP_TICK_NS}};

	(void)sig;
	stop_requested = 1;
	if (have_stop_timer)
		timer_settime(stop_timer, 0, &every, NULL);
}

/* A synchronous fault: policies deny-all from what the guard prepared, then the default death. */
static void on_fault(int sig)
{
	runner_fault_deny();
	raise(sig); /* SA_RESETHAND: the default action now, with its core dump */
}

/*
 * Installs on_signal and on_fault. INT, TERM and ALRM (the stop timer's) always; any other
 * signal ignored at start stays ignored (nohup's SIGHUP, a script's background job's SIGQUIT):
 * it cannot end the run, so no deny-all is skipped.
 */
static void catch_signals(void)
{
	struct sigevent sev;
	struct sigaction sa, old;
	size_t i;

	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_SIGNAL;
	sev.sigev_signo = SIGALRM;
	have_stop_timer = timer_create(CLOCK_MONOTONIC, &sev, &stop_timer) == 0;
	/* No SA_RESTART: a blocking wait returns EINTR and sees the flag. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigfillset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	for (i = 0; i < sizeof(STOP_SIGNALS) / sizeof(STOP_SIGNALS[0]); i++)
		if (sigaction(STOP_SIGNALS[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(STOP_SIGNALS[i], &sa, NULL);
	/* The real-time signals end a process by default too. */
	for (int rt = SIGRTMIN; rt <= SIGRTMAX; rt++)
		if (sigaction(rt, NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(rt, &sa, NULL);
	sa.sa_handler = on_fault;
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	for (i = 0; i < sizeof(FAULT_SIGNALS) / sizeof(FAULT_SIGNALS[0]); i++)
		sigaction(FAULT_SIGNALS[i], &sa, NULL);
}

static void usage(FILE *f)
{
	fputs(
	    "Usage: rarbench --manifest FILE [--out DIR] [--resume] [--progress bar|jsonl|none]\n"
	    "                [--prefix DIR] [--wait] [--counts]\n"
	    "                [--dry-run [--pilot | --not-this-host]]\n"
	    "Runs the experiment described by the manifest FILE: for every point of its sweep,\n"
	    "writes each subject's policy, checks that it grants the command, and measures\n"
	    "every subject as the bench user. Must run as root (it writes the policies);\n"
	    "measured runs drop to the manifest's bench user.\n"
	    "  --out DIR        output directory (default results/<name>)\n"
	    "  --resume         continue the journal in DIR, skipping finished points\n"
	    "  --progress MODE  bar (default on a terminal), jsonl (events on stdout), none\n"
	    "  --prefix DIR     the provisioned prefix (default $RARPERF_PREFIX, else\n"
	    "                   " PLAN_PREFIX_DEFAULT ")\n"
	    "  --wait           wait while another run holds the prefix (else exit 3)\n"
	    "  --counts         the counted pass, as the manifest's \"counts\": true: each\n"
	    "                   subject's instructions per point, under valgrind's callgrind\n"
	    "  --dry-run        check the manifest against the prefix and print the plan\n"
	    "                   (subjects, points, runs, policy bytes, disk, the wall time from\n"
	    "                   the last sweep in DIR or per-tool costs); writes nothing\n"
	    "  --pilot          --dry-run plus a few measured runs at the smallest and largest\n"
	    "                   point, to estimate the wall time (as root; policies end deny-all)\n"
	    "  --not-this-host  with --dry-run: leave out what only this host decides (limits\n"
	    "                   against its hard limits, its CPUs): rarlab checks a manifest so,\n"
	    "                   each lab host then checks its own environment\n"
	    "  -h, --help       this help\n"
	    "Writes DIR/results.json, DIR/results.tsv and DIR/journal.jsonl. See rarbench(1).\n",
	    f);
}

/* parse_args's absolute form of a relative --prefix: cfg points into it for the whole run. */
static char absolute_prefix[PATH_MAX];

/*
 * Returns 0 to go on, NUMARG_HELP or NUMARG_VERSION when the text was printed,
 * NUMARG_ERROR on a usage error (printed).
 * Over 80 lines: one flat getopt_long switch, a case per option.
 */
static int parse_args(int argc, char **argv, struct runner_config *cfg)
{
	static const struct option opts[] = {
	    {"manifest", required_argument, NULL, 'm'}, {"out", required_argument, NULL, 'o'},
	    {"resume", no_argument, NULL, 'r'},         {"progress", required_argument, NULL, 'p'},
	    {"prefix", required_argument, NULL, 'P'},   {"wait", no_argument, NULL, 'W'},
	    {"dry-run", no_argument, NULL, 'n'},        {"pilot", no_argument, NULL, 'L'},
	    {"not-this-host", no_argument, NULL, 'H'},  {"help", no_argument, NULL, 'h'},
	    {"version", no_argument, NULL, 'V'},        {"counts", no_argument, NULL, 'C'},
	    {NULL, 0, NULL, 0}};
	struct cliopt_seen seen;
	struct errbuf eb;
	int c;

	memset(cfg, 0, sizeof(*cfg));
	cfg->prefix = plan_prefix_default();
	cfg->progress = isatty(STDERR_FILENO) ? PROGRESS_BAR : PROGRESS_NONE;
	optind = 1;
	while ((c = cliopt_next(argc, argv, ":hV", opts, &seen)) != -1) {
		switch (c) {
		case 'm':
			cfg->manifest = optarg;
			break;
		case 'o':
			cfg->out = optarg;
			break;
		case 'r':
			cfg->resume = true;
			break;
		case 'P':
			cfg->prefix = optarg;
			break;
		case 'W':
			cfg->wait = true;
			break;
		case 'n':
			cfg->dry_run = true;
			break;
		case 'L':
			cfg->dry_run = cfg->pilot = true;
			break;
		case 'H':
			cfg->not_this_host = true;
			break;
		case 'C':
			cfg->counts = true;
			break;
		case 'p':
			if (strcmp(optarg, "bar") == 0)
				cfg->progress = PROGRESS_BAR;
			else if (strcmp(optarg, "jsonl") == 0)
				cfg->progress = PROGRESS_JSONL;
			else if (strcmp(optarg, "none") == 0)
				cfg->progress = PROGRESS_NONE;
			else {
				sanitize_fprintf(
				    stderr,
				    "rarbench: --progress: unknown mode \"%s\" (expected "
				    "bar, jsonl or none)\n",
				    optarg);
				return NUMARG_ERROR;
			}
			break;
		case 'h':
			usage(stdout);
			return NUMARG_HELP;
		case 'V':
			printf("rarbench %s (%s)\n", RARPERF_VERSION, RARPERF_GIT_COMMIT);
			return NUMARG_VERSION;
		case ':':
			sanitize_fprintf(stderr, "rarbench: option '%s' needs a value\n",
					 seen.typed);
			return NUMARG_ERROR;
		default:
			/* One line: the option as written and the nearest name (the plain mode's
			 * names are not offered: with --manifest they mean nothing). */
			cliopt_unknown("rarbench --manifest FILE", seen.typed, opts, NULL, &eb);
			sanitize_fprintf(stderr, "rarbench: %s\n", eb.msg);
			return NUMARG_ERROR;
		}
	}
	if (optind < argc) {
		sanitize_fprintf(stderr,
				 "rarbench: --manifest mode takes no operand (got \"%s\")\n",
				 argv[optind]);
		return NUMARG_ERROR;
	}
	if (cfg->manifest == NULL) {
		fputs("rarbench: --manifest FILE is required\n", stderr);
		return NUMARG_ERROR;
	}
	if (cfg->not_this_host && (!cfg->dry_run || cfg->pilot)) {
		fputs("rarbench: --not-this-host goes with --dry-run alone (a run or a pilot "
		      "happens on this host)\n",
		      stderr);
		return NUMARG_ERROR;
	}
	/* A relative prefix, made absolute here: its {prefix}/... paths are opened by the tools
	 * from the manifest's cwd, not from this one (a missing prefix is said later, by name). */
	if (cfg->prefix != NULL && cfg->prefix[0] != '/' &&
	    realpath(cfg->prefix, absolute_prefix) != NULL)
		cfg->prefix = absolute_prefix;
	return 0;
}

int manifest_mode_exit_status(enum runner_outcome outcome)
{
	switch (outcome) {
	case RUNNER_DONE:
		return EXITCODE_OK;
	case RUNNER_BAD_INPUT:
		return EXITCODE_BAD_INPUT;
	case RUNNER_BUSY:
		return EXITCODE_BUSY;
	case RUNNER_HOST_FAILED:
	case RUNNER_POINT_FAILED:
	case RUNNER_INTERRUPTED: /* the run stops as a failure: --resume continues it */
	case RUNNER_POINTS_UNMEASURED:
	case RUNNER_SUBJECTS_TIMED_OUT:
	case RUNNER_PROFILE_FAILED:
		break;
	}
	return EXITCODE_FAILED;
}

/*
 * --dry-run without a pilot: the plan layer alone (src/plan), which reads the manifest and the
 * prefix and writes nothing, so any user who can read the prefix gets root's plan. The same
 * lines and exit statuses as a run's setup: the manifest's warning, then the plan, or every
 * problem and the line that ends them.
 */
static int dry_run(const struct runner_config *cfg)
{
	const struct plan_config pc = {.manifest = cfg->manifest,
				       .prefix = cfg->prefix,
				       .out = cfg->out,
				       .this_host = !cfg->not_this_host,
				       .tracer = NULL,
				       .counts = cfg->counts};
	char warning[ERRBUF_MSG_MAX];
	struct errbuf eb = {{0}};
	struct plan *p = NULL;
	int rc = plan_open(&pc, &p, &eb), status = EXITCODE_OK;

	if (plan_warning(p, warning, sizeof(warning)))
		fprintf(stderr, "rarbench: %s\n", warning);
	if (rc == 0 && plan_resolve(p, &eb) < 0) {
		errbuf_prefix(&eb, "rarbench");
		rc = -1;
	}
	if (rc < 0) {
		for (size_t i = 0; p != NULL && i < p->nproblems; i++)
			sanitize_fprintf(stderr, "%s\n", p->problems[i]);
		sanitize_fprintf(stderr, "%s\n", eb.msg);
		status = p != NULL && p->bad_input ? EXITCODE_BAD_INPUT : EXITCODE_FAILED;
	} else if (plan_print(p, NULL, stdout, &eb) < 0) {
		sanitize_fprintf(stderr, "rarbench: %s\n", eb.msg);
		status = EXITCODE_FAILED;
	}
	plan_free(p);
	return status;
}

int manifest_mode_main(int argc, char **argv)
{
	struct runner_config cfg;
	struct runner *r = NULL;
	enum runner_outcome outcome;
	int rc;

	rc = parse_args(argc, argv, &cfg);
	if (rc != 0)
		return rc == NUMARG_ERROR ? EXITCODE_BAD_INPUT : EXITCODE_OK;
	if (cfg.dry_run && !cfg.pilot)
		return dry_run(&cfg);
	cfg.stop = &stop_requested;
	cfg.err = stderr;
	/* Before the setup: waiting for the prefix's lock, and every later step, can be
	 * interrupted. */
	catch_signals();
	outcome = runner_open(&cfg, &r);
	if (outcome == RUNNER_DONE)
		outcome = cfg.dry_run ? runner_plan(r, stdout) : runner_run(r);
	runner_close(r);
	return manifest_mode_exit_status(outcome);
}
