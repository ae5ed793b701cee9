/* runner_point: one step of a manifest run: write the policies, check the grants, measure. */
#include "runner_impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "contention.h"
#include "measure.h"
#include "policy.h"
#include "policy_doas.h"
#include "policy_rar_cbor.h"
#include "policy_rar_json.h"
#include "policy_sudoers.h"
#include "policyset.h"
#include "sanitize.h"

#define STDERR_SHOWN_BYTES 200
/* busy_throughout judges the host on at least this many attempts. */
#define RUNNER_BUSY_MIN_ATTEMPTS 8

/*
 * Writes one policy per target for shape (confgen, in-process) as one
 * transaction: all written whole before any is renamed into place.
 */
int runner_write_targets(const struct policy_shape *shape, const struct runner_target *t, size_t n,
			 struct errbuf *eb)
{
	struct policyset_target *set = calloc(n > 0 ? n : 1, sizeof(*set));
	size_t failed = n;
	int rc;

	if (set == NULL)
		return errbuf_set(eb, "out of memory");
	for (size_t i = 0; i < n; i++)
		/* A doas policy's rule count was checked once for the whole sweep, at its
		 * largest point (manifest_check_sizes), not per point and doas subject. */
		set[i] = (struct policyset_target){.format = t[i].format,
						   .policy = t[i].policy,
						   .policy_data = t[i].policy_data,
						   .rar_version = t[i].rar_version,
						   .layout = t[i].layout};
	rc = policyset_write(shape, set, n, false, &failed, eb);
	if (rc < 0 && failed < n)
		errbuf_prefix(eb, "subject %s", t[failed].id);
	free(set);
	return rc;
}

/* The active subjects' policies as write targets, into t (r->nactive entries). */
static void runner_targets(const struct runner *r, struct runner_target *t)
{
	size_t i, k = 0;

	for (i = 0; i < r->nsubjects; i++) {
		const struct runner_subject *s = &r->subjects[i];

		if (s->skip_reason != NULL)
			continue;
		t[k].id = s->ms->id;
		t[k].format = s->ms->format;
		t[k].policy = s->policy;
		t[k].policy_data = s->policy_data;
		t[k].rar_version = s->ms->rar_version;
		t[k].layout =
		    s->ms->has_sudoers_layout ? s->ms->sudoers_layout : r->m->sudoers_layout;
		k++;
	}
}

int runner_point_write_policies(struct runner *r, const struct sweep_point *pt, struct errbuf *eb)
{
	struct runner_target t[MANIFEST_SUBJECTS_MAX];
	struct policy_shape shape;

	policy_shape_init(&shape);
	shape.roles = pt->value[MANIFEST_AXIS_ROLES];
	shape.users = pt->value[MANIFEST_AXIS_USERS];
	shape.tasks = pt->value[MANIFEST_AXIS_TASKS];
	shape.commands = pt->value[MANIFEST_AXIS_COMMANDS];
	shape.uid = (uint32_t)r->m->bench_uid;
	shape.command = r->m->command;
	shape.match = r->m->match;
	shape.seed_compat = r->m->seed_compat;
	runner_targets(r, t);
	return runner_write_targets(&shape, t, r->nactive, eb);
}

int runner_point_write_denial(struct runner *r, struct errbuf *eb)
{
	struct runner_target t[MANIFEST_SUBJECTS_MAX];
	struct policy_shape shape;
	size_t i;
	int rc = 0;

	policy_shape_init(&shape);
	shape.uid = (uint32_t)r->m->bench_uid;
	shape.command = r->m->command;
	shape.deny_all = true;
	runner_targets(r, t);
	/* One file at a time, every one tried: a file that cannot be written (another hard link
	 * keeps it immutable) must not leave the others granting. The first error is kept. */
	for (i = 0; i < r->nactive; i++) {
		struct errbuf one = {{0}};

		if (runner_write_targets(&shape, &t[i], 1, &one) < 0 && rc == 0) {
			*eb = one;
			rc = -1;
		}
	}
	return rc;
}

/*
 * The first non-empty line of what the grant check's child wrote to stderr,
 * at most len - 1 bytes once sanitised (sanitize_text): the tool's bytes
 * reach a terminal and a JSON event.
 */
static void take_stderr(int fd, char *buf, size_t len)
{
	char raw[STDERR_SHOWN_BYTES];
	ssize_t n = pread(fd, raw, len - 1 < sizeof(raw) ? len - 1 : sizeof(raw), 0);
	size_t start = 0, end;

	if (n < 0)
		n = 0;
	while (start < (size_t)n && (raw[start] == '\n' || raw[start] == '\r'))
		start++;
	for (end = start; end < (size_t)n && raw[end] != '\n'; end++)
		;
	while (end > start && raw[end - 1] == '\r')
		end--;
	sanitize_text(buf, len, raw + start, end - start);
}

/* Empties the grant check's output file and rewinds it (the fd is not O_APPEND). */
static int reset_output(int fd)
{
	if (ftruncate(fd, 0) != 0 || lseek(fd, 0, SEEK_SET) != 0)
		return -1;
	return 0;
}

/*
 * Whether a subject that hangs may be left out of a step, its other subjects kept: only when
 * every point has one step (one round, no precision mode), so that no point's rounds differ in
 * their subjects.
 */
static bool partial_steps(const struct runner *r)
{
	return r->m->max_rounds == 1 && r->m->precision <= 0;
}

/* How many active subjects a step measures (the hung ones left out). */
static size_t step_subjects(const struct runner *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->nsubjects; i++)
		n += r->subjects[i].skip_reason == NULL && !r->subjects[i].hung;
	return n;
}

/*
 * Runs each subject once as the bench user: a denied command exits fast and
 * non-zero, and would poison the figure, so the point fails here.
 */
enum runner_step runner_point_check_grants(struct runner *r, size_t index, struct errbuf *eb)
{
	char out[STDERR_SHOWN_BYTES + 1];
	struct proc_sample sample;
	size_t i;

	/* A new step: every active subject is in it until it hangs. */
	for (i = 0; i < r->nsubjects; i++)
		r->subjects[i].hung = false;
	for (i = 0; i < r->nsubjects; i++) {
		struct runner_subject *s = &r->subjects[i];

		if (s->skip_reason != NULL)
			continue;
		if (reset_output(r->stderr_fd) < 0) {
			errbuf_set_errno(eb, errno, "grant check: temporary file");
			return RUNNER_STEP_FAILED;
		}
		if (proc_run(s->check, &sample, eb) < 0) {
			errbuf_prefix(eb, "point %zu: subject %s", index, s->ms->id);
			return RUNNER_STEP_FAILED;
		}
		if (sample.stopped) {
			errbuf_set(eb, "interrupted");
			return RUNNER_STEP_FAILED;
		}
		if (sample.timed_out) {
			errbuf_set(eb,
				   "point %zu: subject %s: the grant check passed run_timeout_s "
				   "(%u s) and was killed with its process group",
				   index, s->ms->id, r->m->run_timeout_ms / 1000u);
			/* Left out of the step, the others measured (partial_steps). */
			if (!partial_steps(r))
				return RUNNER_STEP_TIMEDOUT;
			s->hung = true;
			eb->msg[0] = '\0';
			continue;
		}
		if (sample.exit_code != 0) {
			char pam[PATH_MAX + 256];

			take_stderr(r->stderr_fd, out, sizeof(out));
			runner_pam_explain(s, pam, sizeof(pam));
			errbuf_set(eb, "point %zu: subject %s denied %s (exit %d)%s%s%s", index,
				   s->ms->id, r->m->command, sample.exit_code, out[0] ? ": " : "",
				   out, pam);
			return RUNNER_STEP_FAILED;
		}
	}
	if (step_subjects(r) == 0) {
		errbuf_set(eb,
			   "point %zu: every subject's grant check passed run_timeout_s (%u s) and "
			   "was killed with its process group",
			   index, r->m->run_timeout_ms / 1000u);
		return RUNNER_STEP_TIMEDOUT;
	}
	return runner_reference_check(r, eb) < 0 ? RUNNER_STEP_FAILED : RUNNER_STEP_OK;
}

/* 1/rounds of n, rounded up (each round gets at least one when n > 0). */
static uint64_t per_round(uint64_t n, uint32_t rounds)
{
	return (n + rounds - 1) / rounds;
}

/*
 * Whether the step's runs call for measuring it again: a subject with more
 * contended runs than the manifest's limit, judged against the best
 * baseline the point has shown so far (a step contended throughout would
 * otherwise be its own clean reference).
 */
static bool step_contended(const struct runner *r, size_t idx, const struct measure_result *res,
			   size_t nsub)
{
	for (size_t k = 0; k < nsub; k++) {
		int64_t base = contention_baseline_ns(&res[k]), before;

		before = runner_acc_baseline(r, idx, k);
		if (before < base)
			base = before;
		if ((double)contention_count(&res[k], base) > r->m->contention_limit * res[k].n)
			return true;
	}
	return false;
}

/*
 * Re-measuring helps against a burst of load (a build's link step, another
 * benchmark), not against a host busy all along: once more than a quarter of
 * the attempts so far (at least 8 of them) were flagged, steps are kept as
 * they are, flagged, and precision mode's extra rounds gather the clean runs.
 */
static bool busy_throughout(const struct runner *r)
{
	return r->attempts >= RUNNER_BUSY_MIN_ATTEMPTS && 4 * r->flagged > r->attempts;
}

/*
 * Precision mode: measuring the step again must keep the point within
 * max_runs, counting what it has kept, what this step has cost (thrown away
 * included) and another attempt of the same size.
 */
static bool remeasure_affordable(const struct runner *r, size_t idx, uint64_t step_cost,
				 uint64_t again)
{
	if (r->m->precision <= 0 || r->m->max_runs == 0)
		return true;
	return runner_acc_spent(r, idx) + step_cost + again <= r->m->max_runs;
}

/* The step's benches and their journal entries: the active subjects not left out of it (hung),
 * then the reference (when measured). Returns how many benches. */
static size_t step_benches(struct runner *r, struct measure_bench *benches,
			   struct journal_subject *js)
{
	size_t i, k = 0;

	for (i = 0; i < r->nsubjects; i++) {
		if (r->subjects[i].skip_reason != NULL || r->subjects[i].hung)
			continue;
		/* One group: the subjects are interleaved (or shuffled) run by run. */
		benches[k] = (struct measure_bench){
		    .name = r->subjects[i].ms->id, .cmd = r->subjects[i].cmd, .group = 0};
		js[k].subject = r->subjects[i].ms->id;
		js[k].format = (char *)policy_format_name(r->subjects[i].ms->format);
		js[k].command = r->subjects[i].command_line;
		k++;
	}
	if (r->ref_cmd != NULL) {
		benches[k] = (struct measure_bench){
		    .name = RUNNER_REFERENCE_ID, .cmd = r->ref_cmd, .group = 0};
		js[k].subject = RUNNER_REFERENCE_ID;
		js[k].format = (char *)"reference";
		js[k].command = r->ref_command;
		k++;
	}
	return k;
}

/* The active subject whose name starts msg ("ID: ..."), as measure_run names a hung bench;
 * NULL when none (the reference). */
static struct runner_subject *named_subject(struct runner *r, const char *msg)
{
	for (size_t i = 0; i < r->nsubjects; i++) {
		const char *id = r->subjects[i].ms->id;
		size_t len = strlen(id);

		if (r->subjects[i].skip_reason == NULL && !r->subjects[i].hung &&
		    strncmp(msg, id, len) == 0 && msg[len] == ':')
			return &r->subjects[i];
	}
	return NULL;
}

/* What measure_run does in the step: 1/rounds of the manifest's runs, a reproducible shuffle. */
static void step_opts(const struct runner *r, const struct sweep_point *pt, uint32_t round,
		      uint32_t attempt, struct measure_opts *o)
{
	measure_opts_init(o);
	o->warmup = per_round(r->m->warmup, r->m->rounds);
	o->min_runs = per_round(r->m->min_runs, r->m->rounds);
	o->max_runs = per_round(r->m->max_runs, r->m->rounds);
	o->min_time_ns = r->m->min_time_ns / r->m->rounds;
	if (r->m->precision > 0) {
		/* Every round, the extra ones too, takes the same runs; precision counts rounds. */
		o->max_runs = o->min_runs;
		o->min_time_ns = 0;
	}
	o->order = r->m->order;
	/* A different but reproducible shuffle per point (and per attempt). */
	o->seed = r->m->seed + pt->index + (uint64_t)(round - 1) * sweep_count(r->sweep) +
		  (uint64_t)attempt * 7919u;
	o->stop = r->cfg.stop;
}

/* After the step: the host's counters since h0 (read before it) into info; unreadable: none. */
static void step_host_after(struct journal_step_info *info, const struct contention_host *h0)
{
	struct errbuf heb = {{0}};
	struct contention_host h1;
	struct contention_window w;

	if (info->has_host && contention_read_host(&h1, &heb) == 0) {
		contention_window_of(h0, &h1, &w);
		info->steal = w.steal;
		info->busy = w.busy;
		info->load1 = w.load1;
		info->running = w.running;
	} else {
		info->has_host = false;
	}
}

/*
 * measure_run over the step's benches (step_benches) into results; a subject
 * whose run passes run_timeout_s is marked hung and the step measured again
 * without it, while partial steps are allowed and another subject remains
 * (a hung subject costs its own runs of the point, not the others'; run_step
 * reports it). *nb and *nsub: the benches and subjects of the last attempt.
 * Returns measure_run's value.
 */
static int measure_step(struct runner *r, const struct measure_opts *opts,
			struct measure_bench *benches, struct journal_subject *js,
			struct measure_result *results, size_t *nb, size_t *nsub, struct errbuf *eb)
{
	struct runner_subject *hung;
	int mr;

	for (;;) {
		*nb = step_benches(r, benches, js);
		*nsub = step_subjects(r);
		mr = measure_run(benches, *nb, opts, results, eb);
		if (mr != MEASURE_TIMEOUT || !partial_steps(r) || *nsub < 2 ||
		    (hung = named_subject(r, eb->msg)) == NULL)
			return mr;
		hung->hung = true;
		for (size_t i = 0; i < *nb; i++)
			measure_result_clear(&results[i]);
		memset(results, 0, *nb * sizeof(*results));
		eb->msg[0] = '\0';
	}
}

enum runner_step runner_point_measure(struct runner *r, const struct sweep_point *pt,
				      uint32_t round, uint32_t attempt, uint64_t *discarded,
				      struct errbuf *eb)
{
	struct measure_bench *benches = NULL;
	struct measure_result *results = NULL;
	struct journal_subject *js = NULL;
	struct journal_step_info info;
	struct contention_host h0;
	struct measure_opts opts;
	struct errbuf heb = {{0}};
	char id[SWEEP_ID_MAX];
	size_t i, nb, nsub;
	bool flagged;
	enum runner_step rc = RUNNER_STEP_FAILED;
	int mr;

	/* The reference, when measured, is the last bench: interleaved with the subjects. */
	nb = r->nactive + (r->ref_cmd != NULL);
	benches = calloc(nb, sizeof(*benches));
	results = calloc(nb, sizeof(*results));
	js = calloc(nb, sizeof(*js));
	if (benches == NULL || results == NULL || js == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	step_opts(r, pt, round, attempt, &opts);
	memset(&info, 0, sizeof(info));
	/* The host's counters around the step, never inside a timed run; unreadable: unknown. */
	info.has_host = contention_read_host(&h0, &heb) == 0;
	mr = measure_step(r, &opts, benches, js, results, &nb, &nsub, eb);
	if (mr == MEASURE_STOPPED) {
		errbuf_set(eb, "interrupted");
		goto out;
	}
	if (mr == MEASURE_TIMEOUT) {
		errbuf_prefix(eb, "point %zu (run_timeout_s %u)", pt->index + 1,
			      r->m->run_timeout_ms / 1000u);
		rc = RUNNER_STEP_TIMEDOUT;
		goto out;
	}
	if (mr < 0) {
		errbuf_prefix(eb, "point %zu", pt->index + 1);
		goto out;
	}
	step_host_after(&info, &h0);
	flagged = step_contended(r, pt->index, results, nsub);
	r->attempts++;
	r->flagged += flagged;
	if (flagged && attempt < r->m->remeasure && !busy_throughout(r) &&
	    remeasure_affordable(r, pt->index, *discarded / r->nactive + results[0].n,
				 results[0].n)) {
		for (i = 0; i < nsub; i++)
			*discarded += results[i].n;
		rc = RUNNER_STEP_REMEASURE;
		goto out;
	}
	info.remeasured = attempt;
	info.discarded_runs = *discarded;
	for (i = 0; i < nb; i++)
		js[i].result = results[i];
	sweep_step_id(pt, round, r->m->max_rounds, id, sizeof(id));
	if (journal_append_step(r->journal, id, pt->index, js, nb, &info, eb) < 0 ||
	    runner_acc_add(r, pt->index, js, nb, *discarded, eb) < 0)
		goto out;
	for (i = 0; i < nb; i++)
		r->timed_ns += measure_result_wall_sum(&js[i].result);
	rc = RUNNER_STEP_OK;
out:
	for (i = 0; results != NULL && i < nb; i++)
		measure_result_clear(&results[i]);
	free(results);
	free(benches);
	free(js);
	return rc;
}
