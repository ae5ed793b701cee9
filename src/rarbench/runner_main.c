/* runner_main: rarbench's --manifest mode: generate, check and measure every point of a sweep. */
#include "runner_main.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "runner.h"

static volatile sig_atomic_t stop_requested;

/* Only sets a flag: proc's children share our memory until exec (proc.h). */
static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void usage(FILE *f)
{
	fputs(
	    "Usage: rarbench --manifest FILE [--out DIR] [--resume] [--progress bar|jsonl|none]\n"
	    "                [--prefix DIR] [--wait] [--dry-run [--pilot | --not-this-host]]\n"
	    "Runs the experiment described by the manifest FILE: for every point of its sweep,\n"
	    "writes each subject's policy, checks that it grants the command, and measures\n"
	    "every subject as the bench user. Must run as root (it writes the policies);\n"
	    "measured runs drop to the manifest's bench user.\n"
	    "  --out DIR        output directory (default results/<name>)\n"
	    "  --resume         continue the journal in DIR, skipping finished points\n"
	    "  --progress MODE  bar (default on a terminal), jsonl (events on stdout), none\n"
	    "  --prefix DIR     the provisioned prefix (default " RUNNER_DEFAULT_PREFIX ")\n"
	    "  --wait           wait while another run holds the prefix (else exit 3)\n"
	    "  --dry-run        check the manifest against the prefix and print the plan\n"
	    "                   (subjects, points, runs, policy bytes, disk); writes nothing\n"
	    "  --pilot          --dry-run plus a few measured runs at the smallest and largest\n"
	    "                   point, to estimate the wall time (as root; policies end deny-all)\n"
	    "  --not-this-host  with --dry-run: leave out what only this host decides (limits\n"
	    "                   against its hard limits, its CPUs): rarlab checks a manifest so,\n"
	    "                   each lab host then checks its own environment\n"
	    "  -h, --help       this help\n"
	    "Writes DIR/results.json, DIR/results.tsv and DIR/journal.jsonl. See rarbench(1).\n",
	    f);
}

/* Reports a failure on stderr (and as an event). */
static void report(struct runner *r, const char *msg)
{
	fprintf(stderr, "%srarbench: %s\n", r->cfg.progress == PROGRESS_BAR ? "\n" : "", msg);
	progress_error(&r->progress, msg);
}

/* Returns 0 to go on, 1 when --help was printed, -1 on a usage error (printed). */
static int parse_args(int argc, char **argv, struct runner_config *cfg)
{
	static const struct option opts[] = {{"manifest", required_argument, NULL, 'm'},
					     {"out", required_argument, NULL, 'o'},
					     {"resume", no_argument, NULL, 'r'},
					     {"progress", required_argument, NULL, 'p'},
					     {"prefix", required_argument, NULL, 'P'},
					     {"wait", no_argument, NULL, 'W'},
					     {"dry-run", no_argument, NULL, 'n'},
					     {"pilot", no_argument, NULL, 'L'},
					     {"not-this-host", no_argument, NULL, 'H'},
					     {"help", no_argument, NULL, 'h'},
					     {NULL, 0, NULL, 0}};
	int c;

	memset(cfg, 0, sizeof(*cfg));
	cfg->prefix = RUNNER_DEFAULT_PREFIX;
	cfg->progress = isatty(STDERR_FILENO) ? PROGRESS_BAR : PROGRESS_NONE;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
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
		case 'p':
			if (strcmp(optarg, "bar") == 0)
				cfg->progress = PROGRESS_BAR;
			else if (strcmp(optarg, "jsonl") == 0)
				cfg->progress = PROGRESS_JSONL;
			else if (strcmp(optarg, "none") == 0)
				cfg->progress = PROGRESS_NONE;
			else {
				fprintf(stderr,
					"rarbench: --progress: unknown mode \"%s\" (expected "
					"bar, jsonl or none)\n",
					optarg);
				return -1;
			}
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "rarbench: --manifest mode takes no operand (got \"%s\")\n",
			argv[optind]);
		return -1;
	}
	if (cfg->manifest == NULL) {
		fputs("rarbench: --manifest FILE is required\n", stderr);
		return -1;
	}
	if (cfg->not_this_host && (!cfg->dry_run || cfg->pilot)) {
		fputs("rarbench: --not-this-host goes with --dry-run alone (a run or a pilot "
		      "happens on this host)\n",
		      stderr);
		return -1;
	}
	return 0;
}

/*
 * One step: a point in one round; attempt counts the times it was measured
 * again (contention), *discarded their runs. Returns 0, RUNNER_REMEASURE, or
 * the exit status.
 */
static int run_step(struct runner *r, const struct sweep_point *pt, uint32_t round, size_t step,
		    uint32_t attempt, uint64_t *discarded)
{
	char values[MANIFEST_AXIS_COUNT + 3][24];
	const char *names[MANIFEST_AXIS_COUNT + 3], *vals[MANIFEST_AXIS_COUNT + 3];
	struct errbuf eb = {0}, deny = {0};
	size_t np = 0;
	int a, rc;

	for (a = 0; a < MANIFEST_AXIS_COUNT; a++, np++) {
		snprintf(values[np], sizeof(values[np]), "%u", pt->value[a]);
		names[np] = manifest_axis_name(a);
		vals[np] = values[np];
	}
	if (r->m->env.nlimit_values > 0) {
		snprintf(values[np], sizeof(values[np]), "%llu", (unsigned long long)pt->limit);
		names[np] = r->m->env.limits[r->m->env.limit_axis].name;
		vals[np] = values[np];
		np++;
	}
	if (r->m->repetitions > 1) {
		snprintf(values[np], sizeof(values[np]), "%u", pt->repetition);
		names[np] = "repetition";
		vals[np] = values[np];
		np++;
	}
	if (r->m->max_rounds > 1) {
		snprintf(values[np], sizeof(values[np]), "%u", round);
		names[np] = "round";
		vals[np] = values[np];
		np++;
	}
	if (attempt == 0)
		progress_point_start(&r->progress, step, names, vals, np);
	else
		progress_remeasure(&r->progress, step,
				   "more contended runs than contention_limit; measured again");
	if (runner_point_write_policies(r, pt, &eb) < 0) {
		errbuf_prefix(&eb, "point %zu", pt->index + 1);
		report(r, eb.msg);
		runner_point_write_denial(r, &eb);
		return 1;
	}
	if (runner_env_apply_point(r, pt) < 0) {
		report(r, "a swept limit without its pin");
		runner_point_write_denial(r, &eb);
		return 1;
	}
	rc = runner_point_check_grants(r, pt->index + 1, &eb);
	if (rc == 0)
		rc = runner_point_measure(r, pt, round, attempt, discarded, &eb);
	/* The grant lasts as long as the step: whatever happened, the policies deny again. */
	if (runner_point_write_denial(r, &deny) < 0) {
		report(r, deny.msg);
		return 1;
	}
	if (rc == RUNNER_REMEASURE)
		return RUNNER_REMEASURE;
	if (rc == RUNNER_TIMEOUT) {
		/* A hung or stopped tool costs this point, not the sweep: --resume measures it. */
		report(r, eb.msg);
		r->failed_points++;
		return 0;
	}
	if (rc < 0) {
		report(r, stop_requested ? "interrupted; continue with --resume" : eb.msg);
		return 1;
	}
	progress_point_done(&r->progress, step);
	return 0;
}

/*
 * One pass: the points todo[0..n) (sweep indices) in round, numbered
 * steps[0..n) in the progress events. A step measured under contention
 * goes to the end of the pass, at most remeasure times. Returns the exit
 * status.
 */
static int run_pass(struct runner *r, const size_t *todo, const size_t *steps, size_t n,
		    uint32_t round)
{
	size_t cap = n * (r->m->remeasure + 1) + 1, len = n, i;
	size_t *queue = calloc(cap, sizeof(size_t)), *step = calloc(cap, sizeof(size_t));
	uint32_t *attempt = calloc(cap, sizeof(uint32_t));
	uint64_t *discarded = calloc(cap, sizeof(uint64_t));
	int status = 0, rc;

	if (queue == NULL || step == NULL || attempt == NULL || discarded == NULL) {
		report(r, "out of memory");
		status = 1;
		goto out;
	}
	memcpy(queue, todo, n * sizeof(size_t));
	memcpy(step, steps, n * sizeof(size_t));
	for (i = 0; i < len && status == 0; i++) {
		if (stop_requested) {
			report(r, "interrupted; continue with --resume");
			status = 1;
			break;
		}
		rc = run_step(r, sweep_at(r->sweep, queue[i]), round, step[i], attempt[i],
			      &discarded[i]);
		if (rc == RUNNER_REMEASURE && len < cap) {
			/* Later in the pass: a burst of load has a chance to end. */
			queue[len] = queue[i];
			step[len] = step[i];
			attempt[len] = attempt[i] + 1;
			discarded[len] = discarded[i];
			len++;
		} else if (rc != 0) {
			status = 1;
		}
	}
out:
	free(queue);
	free(step);
	free(attempt);
	free(discarded);
	return status;
}

/*
 * The measuring loop: rounds passes over the sweep (points shuffled per
 * pass when rounds > 1), skipping steps the journal holds; in precision
 * mode, then passes over the points short of the precision, until none is
 * or max_rounds (runner_precision.c). Returns the exit status.
 */
static int run_points(struct runner *r)
{
	size_t n = sweep_count(r->sweep), i, k, needing, extra_steps = 0;
	size_t *order = calloc(n, sizeof(size_t)), *todo = calloc(n, sizeof(size_t));
	size_t *steps = calloc(n, sizeof(size_t));
	uint32_t round, mr = r->m->max_rounds;
	int status = 0;

	if (order == NULL || todo == NULL || steps == NULL) {
		report(r, "out of memory");
		status = 1;
		goto out;
	}
	for (round = 1; round <= mr && status == 0; round++) {
		bool extra = round > r->m->rounds;

		/* The subjects' references as of the pass's start (runner_precision.c). */
		runner_acc_refresh(r);
		sweep_round_order(r->sweep, round, mr, r->m->seed, order);
		k = needing = 0;
		for (i = 0; i < n; i++) {
			if (extra && !runner_acc_needs_more(r, order[i]))
				continue;
			needing++;
			if (r->point_done[order[i] * mr + round - 1])
				continue;
			todo[k] = order[i];
			/* Extra rounds number their steps after every planned one. */
			steps[k] = extra ? n * r->m->rounds + extra_steps + k + 1
					 : (size_t)(round - 1) * n + i + 1;
			k++;
		}
		if (extra && needing == 0)
			break;
		if (extra) {
			progress_grow(&r->progress, k);
			extra_steps += k;
		}
		status = run_pass(r, todo, steps, k, round);
	}
out:
	free(order);
	free(todo);
	free(steps);
	return status;
}

/* Prints and forgets what the guard said (runner_guard.c). */
static void print_notices(struct runner *r)
{
	for (size_t i = 0; i < r->nnotices; i++) {
		fprintf(stderr, "rarbench: %s\n", r->notices[i]);
		free(r->notices[i]);
	}
	free(r->notices);
	r->notices = NULL;
	r->nnotices = 0;
}

/* The start event (or line), then a warning and an event per skipped subject. */
static void announce(struct runner *r)
{
	const char *ids[MANIFEST_SUBJECTS_MAX];
	size_t i, k = 0;

	for (i = 0; i < r->nsubjects && k < MANIFEST_SUBJECTS_MAX; i++)
		if (r->subjects[i].skip_reason == NULL)
			ids[k++] = r->subjects[i].ms->id;
	progress_start(&r->progress, r->m->name, ids, k, r->out_abs);
	for (i = 0; i < r->nsubjects; i++) {
		if (r->subjects[i].skip_reason == NULL)
			continue;
		fprintf(stderr, "rarbench: warning: skipping subject %s: %s\n",
			r->subjects[i].ms->id, r->subjects[i].skip_reason);
		progress_skip(&r->progress, r->subjects[i].ms->id, r->subjects[i].skip_reason);
	}
}

int runner_main(int argc, char **argv)
{
	struct errbuf eb = {0};
	struct sigaction sa, old_hup;
	struct runner r;
	int status;

	memset(&r, 0, sizeof(r));
	r.stderr_fd = -1;
	status = parse_args(argc, argv, &r.cfg);
	if (status != 0)
		return status > 0 ? RUNNER_EXIT_OK : RUNNER_EXIT_USAGE;
	r.stop = &stop_requested;
	/* Before the setup: waiting for the prefix's lock, and every later step, can be
	 * interrupted; no SA_RESTART, so a blocking wait returns EINTR and sees the flag. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* A hangup stops the run too, unless it was started to outlive its terminal (nohup). */
	if (sigaction(SIGHUP, NULL, &old_hup) == 0 && old_hup.sa_handler != SIG_IGN)
		sigaction(SIGHUP, &sa, NULL);
	status = runner_setup(&r, &eb);
	print_notices(&r);
	if (status < 0) {
		for (size_t i = 0; i < r.nproblems; i++)
			fprintf(stderr, "%s\n", r.problems[i]);
		fprintf(stderr, "%s\n", eb.msg);
		status = r.busy        ? RUNNER_EXIT_BUSY
			 : r.bad_input ? RUNNER_EXIT_USAGE
				       : RUNNER_EXIT_FAIL;
	} else if (r.cfg.dry_run) {
		status = RUNNER_EXIT_OK;
		if ((r.cfg.pilot && runner_plan_pilot(&r, &eb) < 0) ||
		    runner_plan_print(&r, stdout, &eb) < 0) {
			fprintf(stderr, "rarbench: %s\n", eb.msg);
			status = RUNNER_EXIT_FAIL;
		}
	} else {
		announce(&r);
		uint64_t t0 = clock_now_ns(), t1;

		if (runner_reset_tool_state(&r, &eb) < 0) {
			report(&r, eb.msg);
			status = 1;
		} else {
			status = run_points(&r);
		}
		t1 = clock_now_ns();
		if (status == 0 && runner_profile_pass(&r, &eb) < 0) {
			report(&r, stop_requested ? "interrupted; continue with --resume" : eb.msg);
			status = 1;
		}
		if (status == 0 && r.m->profile && r.cfg.progress != PROGRESS_JSONL)
			/* The pass's cost beside the timed steps (selfbench/profile.sh). */
			fprintf(stderr,
				"rarbench: profile pass %.1f s after %.1f s of timed steps\n",
				(double)(clock_now_ns() - t1) / 1e9, (double)(t1 - t0) / 1e9);
		if (status == 0 && runner_finish(&r, &eb) < 0) {
			report(&r, eb.msg);
			status = 1;
		}
		if (status == 0 && r.failed_points > 0) {
			/* results.json holds the points measured; --resume measures the rest. */
			fprintf(stderr,
				"rarbench: %zu point(s) of %s left unmeasured (a run passed "
				"run_timeout_s); measure them with --resume\n",
				r.failed_points, r.m->name);
			status = 1;
		} else if (status != 0)
			progress_done(&r.progress, status, NULL, NULL, 0);
		else if (r.cfg.progress != PROGRESS_JSONL)
			fprintf(stderr, "rarbench: %zu points of %s written to %s\n",
				sweep_count(r.sweep), r.m->name, r.out_abs);
	}
	/* The guard's end before the clear, so that what it says is printed. */
	runner_guard_end(&r);
	print_notices(&r);
	runner_clear(&r);
	return status;
}
