/* runner: a manifest run's life cycle (runner.h's design note): open, plan or run, finish,
 * close. */
#include "runner.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "clock.h"
#include "digest.h"
#include "fileio.h"
#include "hostfacts.h"
#include "machine.h"
#include "runner_output.h"
#include "runner_pilot.h"
#include "runner_point.h"
#include "runner_precision.h"
#include "runner_counts.h"
#include "runner_profile.h"
#include "runner_refusal.h"
#include "runner_setup.h"
#include "sanitize.h"
#include "runfiles.h"

/* Whether the caller's signal handler asked the run to stop. */
static bool stopped(const struct runner *r)
{
	return r->cfg.stop != NULL && *r->cfg.stop != 0;
}

/* Reports a failure on cfg.err (and as an event). */
static void report(struct runner *r, const char *msg)
{
	sanitize_fprintf(r->cfg.err, "%srarbench: %s\n",
			 r->cfg.progress == PROGRESS_BAR ? "\n" : "", msg);
	progress_error(&r->progress, msg);
}

/* The subjects left out of a step they hung at, one line each: the point's others are kept. */
static void report_hung(struct runner *r, const struct sweep_point *pt)
{
	char line[ERRBUF_MSG_MAX];

	for (size_t i = 0; i < r->sj.nsubjects; i++) {
		if (!r->rs.hung[i])
			continue;
		snprintf(
		    line, sizeof(line),
		    "point %zu: subject %s timed out (a run passed run_timeout_s, %u s, and was "
		    "killed with its process group); its runs of this point are left out, the "
		    "other subjects' kept",
		    pt->index + 1, r->sj.subjects[i].p->ms->id, r->m->run_timeout_ms / 1000u);
		report(r, line);
	}
}

/* The subjects that refused their policy at this step, one line and one skip_subject event
 * each: a result, not a failure (runstate.h, "Refusals"). */
static void report_refused(struct runner *r)
{
	char words[1024];

	for (size_t i = 0; i < r->sj.nsubjects; i++) {
		if (!r->rs.refused_now[i] || r->rs.hung[i])
			continue;
		runner_refusal_words(r->m, r->sj.subjects[i].p->ms->id, &r->rs.refusal[i], words,
				     sizeof(words));
		sanitize_fprintf(r->cfg.err, "%srarbench: %s\n",
				 r->cfg.progress == PROGRESS_BAR ? "\n" : "", words);
		progress_skip(&r->progress, r->sj.subjects[i].p->ms->id, words);
	}
}

/*
 * One step of run_pass: the progress event, the step (runner_run_step, which
 * ends with the policies denying again), then what failed or timed out
 * reported here and the outcome recorded (runstate_step_end: what the pass
 * does next); attempt counts the times it was measured again (contention),
 * *discarded their runs.
 */
static enum runstate_next pass_step(struct runner *r, const struct sweep_point *pt, uint32_t round,
				    size_t step, uint32_t attempt, uint64_t *discarded)
{
	char values[MANIFEST_AXIS_COUNT + 4][24];
	const char *names[MANIFEST_AXIS_COUNT + 4], *vals[MANIFEST_AXIS_COUNT + 4];
	struct runner_step_end end;
	enum runner_step rc;
	size_t np = 0;
	int a;

	for (a = 0; a < MANIFEST_AXIS_COUNT; a++, np++) {
		snprintf(values[np], sizeof(values[np]), "%u", pt->value[a]);
		names[np] = manifest_axis_name(a);
		vals[np] = values[np];
	}
	if (r->m->files.n > 0) {
		snprintf(values[np], sizeof(values[np]), "%u", pt->value[MANIFEST_VALUE_FILES]);
		names[np] = MANIFEST_FILES_AXIS;
		vals[np] = values[np];
		np++;
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
	rc = runner_run_step(&r->sj, &r->rs, r->journal, r->guard, pt, round, attempt, discarded,
			     &end);
	if (end.superseded)
		report(r, stopped(r) ? "interrupted; continue with --resume" : end.first.msg);
	if (rc == RUNNER_STEP_OK) {
		report_hung(r, pt);
		report_refused(r);
	}
	switch (rc) {
	case RUNNER_STEP_OK:
		progress_point_done(&r->progress, step);
		break;
	case RUNNER_STEP_REMEASURE:
		break;
	case RUNNER_STEP_TIMEDOUT:
		report(r, end.eb.msg);
		break;
	case RUNNER_STEP_FAILED:
		/* A denial that failed is said as such, even after a stop. */
		report(r, stopped(r) && end.denied ? "interrupted; continue with --resume"
						   : end.eb.msg);
		break;
	}
	return runstate_step_end(&r->rs, rc);
}

/*
 * One pass: the points todo[0..n) (sweep indices) in round, numbered
 * steps[0..n) in the progress events. A step measured under contention
 * goes to the end of the pass, at most remeasure times. Returns RUNNER_DONE
 * or why the pass stopped.
 */
static enum runner_outcome run_pass(struct runner *r, const size_t *todo, const size_t *steps,
				    size_t n, uint32_t round)
{
	size_t cap = n * (r->m->remeasure + 1) + 1, len = n, i;
	size_t *queue = calloc(cap, sizeof(size_t)), *step = calloc(cap, sizeof(size_t));
	uint32_t *attempt = calloc(cap, sizeof(uint32_t));
	uint64_t *discarded = calloc(cap, sizeof(uint64_t));
	enum runner_outcome status = RUNNER_DONE;

	if (queue == NULL || step == NULL || attempt == NULL || discarded == NULL) {
		report(r, "out of memory");
		status = RUNNER_HOST_FAILED;
		goto out;
	}
	memcpy(queue, todo, n * sizeof(size_t));
	memcpy(step, steps, n * sizeof(size_t));
	for (i = 0; i < len && status == RUNNER_DONE; i++) {
		if (stopped(r)) {
			report(r, "interrupted; continue with --resume");
			status = RUNNER_INTERRUPTED;
			break;
		}
		switch (pass_step(r, sweep_at(r->sweep, queue[i]), round, step[i], attempt[i],
				  &discarded[i])) {
		case RUNSTATE_GO_ON:
			break;
		case RUNSTATE_AGAIN_LATER:
			if (len == cap)
				break; /* cannot happen: cap counts every attempt remeasure allows
					*/
			queue[len] = queue[i];
			step[len] = step[i];
			attempt[len] = attempt[i] + 1;
			discarded[len] = discarded[i];
			len++;
			break;
		case RUNSTATE_STOP:
			/* Never measured again: a failure is not contention. */
			status = stopped(r) ? RUNNER_INTERRUPTED : RUNNER_POINT_FAILED;
			break;
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
 * or max_rounds (runner_precision.c). Returns RUNNER_DONE or why it stopped.
 */
static int evict_programs(struct runner *r, struct errbuf *eb);

static enum runner_outcome run_points(struct runner *r)
{
	size_t n = sweep_count(r->sweep), i, k;
	size_t *order = calloc(n, sizeof(size_t)), *todo = calloc(n, sizeof(size_t));
	size_t *steps = calloc(n, sizeof(size_t));
	bool *more = calloc(n ? n : 1, sizeof(bool)), last = false;
	uint32_t round, mr = r->m->max_rounds;
	enum runner_outcome status = RUNNER_DONE;

	if (order == NULL || todo == NULL || steps == NULL || more == NULL) {
		report(r, "out of memory");
		status = RUNNER_HOST_FAILED;
		goto out;
	}
	for (round = 1; round <= mr && status == RUNNER_DONE; round++) {
		bool extra = round > r->m->rounds;

		/* The subjects' references as of the pass's start (runner_precision.c). */
		runner_precision_refresh(r->rs.precision);
		sweep_round_order(r->sweep, round, mr, r->m->seed, order);
		for (i = 0; extra && i < n; i++)
			more[i] = runner_precision_needs_more(r->rs.precision, i);
		k = runstate_pass_steps(&r->rs, round, order, more, todo, steps, &last);
		if (last)
			break;
		if (extra)
			progress_grow(&r->progress, k);
		/* The sweep's start evicted once (runner_run); each later round reads anew. */
		if (round > 1 && k > 0 && r->m->env.page_cache_each_round) {
			struct errbuf eb = {0};

			if (evict_programs(r, &eb) < 0) {
				report(r, eb.msg);
				status = RUNNER_HOST_FAILED;
				break;
			}
		}
		status = run_pass(r, todo, steps, k, round);
	}
out:
	free(order);
	free(todo);
	free(steps);
	free(more);
	return status;
}

/* Prints and forgets what the guard said (runner_guard.c). */
static void print_notices(struct runner *r)
{
	for (size_t i = 0; i < r->notes.n; i++)
		sanitize_fprintf(r->cfg.err, "rarbench: %s\n", r->notes.line[i]);
	runner_notes_clear(&r->notes);
}

/* The start event (or line), then a warning and an event per skipped subject. */
static void announce(struct runner *r)
{
	const char *ids[MANIFEST_SUBJECTS_MAX];
	size_t i, k = 0;

	for (i = 0; i < r->sj.nsubjects && k < MANIFEST_SUBJECTS_MAX; i++)
		if (r->sj.subjects[i].p->skip_reason == NULL)
			ids[k++] = r->sj.subjects[i].p->ms->id;
	progress_start(&r->progress, r->m->name, ids, k, r->out_abs);
	/* What the manifest asked for with unsafe_program / unsafe_pam, as the plan says it. */
	for (i = 0; i < r->sj.nsubjects; i++) {
		const char *line = r->sj.subjects[i].p->unsafe, *nl;

		for (; line != NULL && (nl = strchr(line, '\n')) != NULL; line = nl + 1)
			sanitize_fprintf(r->cfg.err, "rarbench: %.*s\n", (int)(nl - line), line);
	}
	for (i = 0; i < r->sj.nsubjects; i++) {
		if (r->sj.subjects[i].p->skip_reason == NULL)
			continue;
		sanitize_fprintf(r->cfg.err, "rarbench: warning: skipping subject %s: %s\n",
				 r->sj.subjects[i].p->ms->id, r->sj.subjects[i].p->skip_reason);
		progress_skip(&r->progress, r->sj.subjects[i].p->ms->id,
			      r->sj.subjects[i].p->skip_reason);
	}
}

enum runner_outcome runner_open(const struct runner_config *cfg, struct runner **rp)
{
	struct errbuf eb = {0};
	struct runner *r = calloc(1, sizeof(*r));

	*rp = r;
	if (r == NULL) {
		fputs("rarbench: out of memory\n", cfg->err);
		return RUNNER_HOST_FAILED;
	}
	r->cfg = *cfg;
	runstate_init(&r->rs);
	if (runner_setup(r, &eb) == 0) {
		print_notices(r);
		return RUNNER_DONE;
	}
	print_notices(r);
	for (size_t i = 0; r->plan != NULL && i < r->plan->nproblems; i++)
		sanitize_fprintf(r->cfg.err, "%s\n", r->plan->problems[i]);
	sanitize_fprintf(r->cfg.err, "%s\n", eb.msg);
	if (r->busy)
		return RUNNER_BUSY;
	return (r->plan != NULL && r->plan->bad_input) || r->bad_args ? RUNNER_BAD_INPUT
								      : RUNNER_HOST_FAILED;
}

enum runner_outcome runner_plan(struct runner *r, FILE *out)
{
	struct errbuf eb = {0};

	if ((r->cfg.pilot && runner_pilot_measure(&r->sj, &r->rs, r->guard, r->pilot, &eb) < 0) ||
	    plan_print(r->plan, r->cfg.pilot ? r->pilot : NULL, out, &eb) < 0) {
		sanitize_fprintf(r->cfg.err, "rarbench: %s\n", eb.msg);
		return RUNNER_HOST_FAILED;
	}
	return RUNNER_DONE;
}

/* The network interfaces this host shows (/sys/class/net), 0 when unknown. */
static size_t count_net_interfaces(void)
{
	DIR *d = opendir("/sys/class/net");
	struct dirent *e;
	size_t n = 0;

	while (d != NULL && (e = readdir(d)) != NULL)
		n += e->d_name[0] != '.';
	if (d != NULL)
		closedir(d);
	return n;
}

/* meta.machine: this machine's identity and description (machine.h), and the load and steal
 * before the sweep and at its steps (the journal's per-step records, c). NULL out of memory. */
static cJSON *build_machine(const struct runner *r, const struct journal_contents *c)
{
	cJSON *m = machine_describe();
	double *load1 = malloc((c->npoints ? c->npoints : 1) * sizeof(*load1));
	double *steal = malloc((c->npoints ? c->npoints : 1) * sizeof(*steal));
	size_t i, n = 0;

	if (m == NULL || load1 == NULL || steal == NULL)
		goto oom;
	for (i = 0; i < c->npoints; i++)
		if (c->points[i].info.has_host) {
			load1[n] = c->points[i].info.load1;
			steal[n++] = c->points[i].info.steal;
		}
	if (machine_add_load(m, &r->load_before, r->has_load_before, load1, steal, n) != 0)
		goto oom;
	free(load1);
	free(steal);
	return m;
oom:
	free(load1);
	free(steal);
	cJSON_Delete(m);
	return NULL;
}

static cJSON *build_meta(struct runner *r, const struct journal_contents *c)
{
	struct hostfacts hf;
	cJSON *meta = cJSON_CreateObject(), *o, *skipped;
	char finished[32];
	size_t i;

	if (meta == NULL)
		return NULL;
	hostfacts_collect(&hf);
	clock_utc_now(finished, sizeof(finished));
	/* meta adopts every item added below. */
	cJSON_AddStringToObject(meta, "name", r->m->name);
	if (r->m->description != NULL)
		cJSON_AddStringToObject(meta, "description", r->m->description);
	cJSON_AddStringToObject(meta, "manifest_path", r->cfg.manifest);
	cJSON_AddStringToObject(meta, "manifest_sha256", r->plan->manifest_sha);
	cJSON_AddItemToObject(meta, "manifest", cJSON_ParseWithLength(r->m->text, r->m->text_len));
	cJSON_AddStringToObject(meta, "manifest_text", r->m->text);
	o = cJSON_AddObjectToObject(meta, "rarperf");
	cJSON_AddStringToObject(o, "version", RARPERF_VERSION);
	cJSON_AddStringToObject(o, "commit", RARPERF_GIT_COMMIT);
	o = hostfacts_to_json(&hf);
	/* sudo lists every interface's addresses at start: its cost follows their number
	 * (doc/precision.md), so the number is part of what a run was measured in. */
	if (o != NULL)
		cJSON_AddNumberToObject(o, "net_interfaces", (double)count_net_interfaces());
	cJSON_AddItemToObject(meta, "host", o);
	cJSON_AddItemToObject(meta, "machine", build_machine(r, c));
	cJSON_AddItemToObject(meta, "environment", runner_env_record(&r->env, r->cfg.dry_run));
	cJSON_AddStringToObject(meta, "prefix", r->cfg.prefix);
	cJSON_AddItemToObject(meta, "prefix_facts", cJSON_Duplicate(r->plan->facts, 1));
	cJSON_AddItemToObject(meta, "pam", plan_pam_meta(r->plan));
	o = cJSON_AddObjectToObject(meta, "bench_user");
	cJSON_AddStringToObject(o, "name", r->m->bench_user);
	cJSON_AddNumberToObject(o, "uid", (double)r->m->bench_uid);
	o = cJSON_AddObjectToObject(meta, "measure");
	cJSON_AddNumberToObject(o, "warmup", r->m->warmup);
	cJSON_AddNumberToObject(o, "min_runs", r->m->min_runs);
	if (r->m->max_runs != 0)
		cJSON_AddNumberToObject(o, "max_runs", r->m->max_runs);
	else
		cJSON_AddNullToObject(o, "max_runs");
	cJSON_AddNumberToObject(o, "min_time_s", (double)r->m->min_time_ns / 1e9);
	cJSON_AddStringToObject(o, "order", measure_order_name(r->m->order));
	cJSON_AddNumberToObject(o, "seed", (double)r->m->seed);
	cJSON_AddNumberToObject(o, "repetitions", r->m->repetitions);
	cJSON_AddNumberToObject(o, "rounds", r->m->rounds);
	if (r->m->precision > 0)
		cJSON_AddNumberToObject(o, "precision", r->m->precision);
	else
		cJSON_AddNullToObject(o, "precision");
	cJSON_AddStringToObject(o, "estimator", estimate_kind_name(r->m->estimator));
	cJSON_AddStringToObject(o, "contended", estimate_contended_name(r->m->contended));
	cJSON_AddNumberToObject(o, "contention_limit", r->m->contention_limit);
	cJSON_AddNumberToObject(o, "remeasure", r->m->remeasure);
	cJSON_AddNumberToObject(o, "max_rounds", r->m->max_rounds);
	/* How the programs came into the page cache: read back from disk at the sweep's start. */
	o = cJSON_AddObjectToObject(o, "page_cache");
	if (r->m->env.page_cache_as_found) {
		cJSON_AddStringToObject(o, "method", "as_found");
	} else {
		cJSON_AddStringToObject(
		    o, "method", r->m->env.page_cache_each_round ? "evict_each_round" : "evict");
		if (r->m->env.page_cache_each_round)
			cJSON_AddNumberToObject(o, "evictions", (double)r->evictions);
		cJSON_AddNumberToObject(o, "files", (double)r->evicted.files);
		cJSON_AddNumberToObject(o, "pages", (double)r->evicted.pages);
		cJSON_AddNumberToObject(o, "resident_after", (double)r->evicted.resident);
	}
	cJSON_AddNumberToObject(meta, "points", (double)sweep_count(r->sweep));
	if (r->rs.failed_points > 0) /* left out of the results: a run passed run_timeout_s */
		cJSON_AddNumberToObject(meta, "unmeasured_points", (double)r->rs.failed_points);
	cJSON_AddStringToObject(meta, "started", r->started);
	cJSON_AddStringToObject(meta, "finished", finished);
	skipped = cJSON_AddArrayToObject(meta, "skipped_subjects");
	for (i = 0; skipped != NULL && i < r->sj.nsubjects; i++) {
		if (r->sj.subjects[i].p->skip_reason == NULL)
			continue;
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "id", r->sj.subjects[i].p->ms->id);
		cJSON_AddStringToObject(o, "reason", r->sj.subjects[i].p->skip_reason);
		cJSON_AddItemToArray(skipped, o);
	}
	/* A subject that refused its policy at some size: measured below it only. */
	if (skipped != NULL) {
		const char *ids[MANIFEST_SUBJECTS_MAX];

		for (i = 0; i < r->sj.nsubjects && i < MANIFEST_SUBJECTS_MAX; i++)
			ids[i] = r->sj.subjects[i].p->ms->id;
		if (runner_refusal_meta(r->m, &r->rs, ids, skipped) < 0) {
			cJSON_Delete(meta);
			return NULL;
		}
	}
	return meta;
}

/*
 * Rebuilds results.json and results.tsv from the journal on disk and emits
 * the "done" event with the files' SHA-256. Returns 0, or -1 with eb filled.
 */
static int finish(struct runner *r, struct errbuf *eb)
{
	static const char *const names[] = RUNFILES_SWEEP;
	char sums[3][DIGEST_SHA256_HEX_LEN + 1], path[PATH_MAX];
	const char *sum_ptrs[3] = {sums[0], sums[1], sums[2]};
	struct journal_contents c;
	cJSON *meta = NULL;
	int rc = -1;
	size_t i;

	if (fileio_fmt(path, sizeof(path), "%s/" RUNFILES_JOURNAL, r->cfg.out) < 0)
		return errbuf_set(eb, "%s: path too long", r->cfg.out);
	if (journal_read(path, &c, eb) < 0)
		return -1;
	meta = build_meta(r, &c);
	if (meta == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	if (runner_output_write(r->cfg.out, r->m, r->sweep, &c, r->rs.failed_points > 0, meta, eb) <
	    0)
		goto out;
	for (i = 0; i < 3; i++) {
		if (fileio_fmt(path, sizeof(path), "%s/%s", r->cfg.out, names[i]) < 0) {
			errbuf_set(eb, "%s: path too long", r->cfg.out);
			goto out;
		}
		if (digest_sha256_file(path, sums[i], eb) < 0)
			goto out;
	}
	progress_done(&r->progress, true, names, sum_ptrs, 3);
	rc = 0;
out:
	cJSON_Delete(meta);
	journal_contents_clear(&c);
	return rc;
}

/* After the timed steps: the profile pass (with the manifest's "profile") and what it cost. */
static enum runner_outcome run_profile(struct runner *r, uint64_t t0, uint64_t t1)
{
	struct errbuf eb = {0};

	if (runner_profile_pass(r, &eb) < 0) {
		report(r, stopped(r) ? "interrupted; continue with --resume" : eb.msg);
		return stopped(r) ? RUNNER_INTERRUPTED : RUNNER_PROFILE_FAILED;
	}
	if (r->m->profile)
		/* What the pass costs beside the timed steps (selfbench/profile.sh reads it; so does
		 * a publication's log, tools/publish-results.sh, whose terminal gets the events):
		 * a human message, on stderr in every progress mode. */
		sanitize_fprintf(r->cfg.err,
				 "rarbench: profile pass %.1f s after %.1f s of timed steps\n",
				 (double)(clock_now_ns() - t1) / 1e9, (double)(t1 - t0) / 1e9);
	return RUNNER_DONE;
}

/* After the profile pass: the counted pass (the manifest's "counts", --counts) and its time. */
static enum runner_outcome run_counts(struct runner *r)
{
	struct errbuf eb = {0};
	uint64_t t = clock_now_ns();

	if (runner_counts_pass(r, &eb) < 0) {
		report(r, stopped(r) ? "interrupted; continue with --resume" : eb.msg);
		return stopped(r) ? RUNNER_INTERRUPTED : RUNNER_PROFILE_FAILED;
	}
	if (r->m->counts && r->cfg.progress != PROGRESS_JSONL)
		/* selfbench/counts-cost.sh reads it. */
		sanitize_fprintf(r->cfg.err, "rarbench: counted pass %.1f s\n",
				 (double)(clock_now_ns() - t) / 1e9);
	return RUNNER_DONE;
}

/*
 * Takes every measured program out of the page cache (pagecache.h), so that each one's first
 * exec of the sweep reads it back from disk alike: the prefix's programs and libraries, each
 * subject's program (which may live elsewhere) and the calibration workloads. A program installed
 * at provisioning and one copied an hour ago otherwise start 4-5 % apart (doc/guide-ci.md, A/A).
 */
static int evict_programs(struct runner *r, struct errbuf *eb)
{
	static const char *const trees[] = {"bin", "sbin", "libexec"};
	const char *prefix = runner_guard_prefix(r->guard);
	char dir[PATH_MAX];
	size_t i;

	memset(&r->evicted, 0, sizeof(r->evicted));
	r->evictions++;
	for (i = 0; i < sizeof(trees) / sizeof(trees[0]); i++) {
		if (fileio_fmt(dir, sizeof(dir), "%s/%s", prefix, trees[i]) < 0)
			return errbuf_set(eb, "%s/%s: path too long", prefix, trees[i]);
		if (pagecache_evict_tree(dir, &r->evicted, eb) < 0)
			return -1;
	}
	for (i = 0; i < r->sj.nsubjects; i++) {
		const struct plan_subject *p = r->sj.subjects[i].p;

		if (p->skip_reason == NULL && pagecache_evict_file(p->program, &r->evicted, eb) < 0)
			return -1;
	}
	if (r->sj.ref.cmd != NULL && pagecache_evict_file(r->sj.ref.program, &r->evicted, eb) < 0)
		return -1;
	if (r->sj.kernel.program[0] != '\0' &&
	    pagecache_evict_file(r->sj.kernel.program, &r->evicted, eb) < 0)
		return -1;
	return 0;
}

enum runner_outcome runner_run(struct runner *r)
{
	struct errbuf eb = {0};
	uint64_t t0, t1;
	enum runner_outcome status;

	announce(r);
	t0 = clock_now_ns();
	if (runner_reset_tool_state(runner_guard_prefix(r->guard), &eb) < 0 ||
	    (!r->m->env.page_cache_as_found && evict_programs(r, &eb) < 0)) {
		report(r, eb.msg);
		status = RUNNER_HOST_FAILED;
	} else {
		status = run_points(r);
	}
	t1 = clock_now_ns();
	if (status == RUNNER_DONE)
		status = run_profile(r, t0, t1);
	if (status == RUNNER_DONE)
		status = run_counts(r);
	if (status == RUNNER_DONE && finish(r, &eb) < 0) {
		report(r, eb.msg);
		status = RUNNER_HOST_FAILED;
	}
	if (status == RUNNER_DONE && runstate_verdict(&r->rs) == RUNSTATE_SUBJECTS_LEFT_OUT) {
		fprintf(r->cfg.err,
			"rarbench: %zu subject(s) of %s timed out at a point and were left out of "
			"it (run_timeout_s); the other subjects' results are in %s\n",
			r->rs.hung_runs, r->m->name, r->out_abs);
		status = RUNNER_SUBJECTS_TIMED_OUT;
	} else if (status == RUNNER_DONE &&
		   runstate_verdict(&r->rs) == RUNSTATE_POINTS_UNMEASURED) {
		/* results.json holds the points measured; --resume measures the rest. */
		sanitize_fprintf(r->cfg.err,
				 "rarbench: %zu point(s) of %s left unmeasured (a run passed "
				 "run_timeout_s); measure them with --resume\n",
				 r->rs.failed_points, r->m->name);
		status = RUNNER_POINTS_UNMEASURED;
	} else if (status != RUNNER_DONE) {
		progress_done(&r->progress, false, NULL, NULL, 0);
	} else if (r->cfg.progress != PROGRESS_JSONL) {
		sanitize_fprintf(r->cfg.err, "rarbench: %zu points of %s written to %s\n",
				 sweep_count(r->sweep), r->m->name, r->out_abs);
	}
	return status;
}

void runner_close(struct runner *r)
{
	if (r == NULL)
		return;
	/* The guard's end before the clear, so that what it says is printed. */
	runner_end_guard(r);
	print_notices(r);
	runner_clear(r);
	free(r);
}
