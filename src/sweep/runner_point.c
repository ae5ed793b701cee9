/* runner_point: one step of a manifest run: write the policies, check the grants, measure. */
#include "runner_point.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "contention.h"
#include "measure.h"
#include "policy.h"
#include "runner_env.h"
#include "runner_precision.h"
#include "runner_reference.h"
#include "refusal.h"

/* The most bytes of a grant check's stderr read for its first line. */
#define STDERR_READ_BYTES 512

/* The active subjects' policies as write targets, into t (sj->nactive entries). */
void runner_targets(const struct runner_subjects *sj, struct runner_target *t)
{
	size_t i, k = 0;

	for (i = 0; i < sj->nsubjects; i++) {
		const struct runner_subject *s = &sj->subjects[i];

		if (s->p->skip_reason != NULL)
			continue;
		t[k].id = s->p->ms->id;
		t[k].format = s->p->ms->format;
		t[k].policy = s->p->policy;
		t[k].policy_data = s->p->policy_data;
		t[k].rar_version = s->p->ms->rar_version;
		t[k].layout = s->p->ms->has_sudoers_layout ? s->p->ms->sudoers_layout
							   : sj->plan->m->sudoers_layout;
		k++;
	}
}

/* Starts the step's daemons (pkexec's bus and polkitd) after its policies are written. */
static int start_daemons(const struct runner_subjects *sj, const struct sweep_point *pt,
			 struct errbuf *eb)
{
	for (size_t i = 0; i < sj->nsubjects; i++) {
		const struct runner_subject *s = &sj->subjects[i];

		if (s->polkit == NULL || s->p->skip_reason != NULL)
			continue;
		if (runner_polkit_start(s->polkit, mntns_fd(s->mntns), eb) < 0)
			return errbuf_prefix(eb, "point %zu: subject %s", pt->index + 1,
					     s->p->ms->id);
	}
	return 0;
}

void runner_point_stop_daemons(const struct runner_subjects *sj)
{
	for (size_t i = 0; i < sj->nsubjects; i++)
		runner_polkit_stop(sj->subjects[i].polkit);
}

int runner_point_write_policies(const struct runner_subjects *sj, const struct sweep_point *pt,
				struct errbuf *eb)
{
	const struct manifest *m = sj->plan->m;
	struct runner_target t[MANIFEST_SUBJECTS_MAX];
	struct policy_shape shape;

	policy_shape_init(&shape);
	shape.roles = pt->value[MANIFEST_AXIS_ROLES];
	shape.users = pt->value[MANIFEST_AXIS_USERS];
	shape.tasks = pt->value[MANIFEST_AXIS_TASKS];
	shape.commands = pt->value[MANIFEST_AXIS_COMMANDS];
	shape.uid = (uint32_t)m->bench_uid;
	shape.command = m->command;
	shape.match = m->match;
	shape.seed_compat = m->seed_compat;
	shape.user = m->bench_user; /* please matches the user by name */
	runner_targets(sj, t);
	for (size_t i = 0; i < sj->nactive; i++)
		t[i].files = pt->value[MANIFEST_VALUE_FILES];
	if (runner_write_targets(&shape, t, sj->nactive, eb) < 0)
		return -1;
	return start_daemons(sj, pt, eb);
}

/* Empties the grant check's output file and rewinds it (the fd is not O_APPEND). */
static int reset_output(int fd)
{
	if (ftruncate(fd, 0) != 0 || lseek(fd, 0, SEEK_SET) != 0)
		return -1;
	return 0;
}

/*
 * Runs each subject once as the bench user: a denied command exits fast and
 * non-zero, and would poison the figure, so the point fails here.
 */
/* The check's first stderr line (the fd's start), made safe and bounded (refusal_line). */
static void check_stderr_line(int fd, char *out, size_t cap)
{
	char raw[STDERR_READ_BYTES];
	ssize_t n = pread(fd, raw, sizeof(raw), 0);

	refusal_line(out, cap, raw, n > 0 ? (size_t)n : 0);
}

enum runner_step runner_point_check_grants(const struct runner_subjects *sj, struct runstate *rs,
					   const struct sweep_point *pt, struct errbuf *eb)
{
	const struct manifest *m = sj->plan->m;
	char out[REFUSAL_LINE_MAX];
	struct proc_sample sample;
	int fd = rs->stderr_fd;
	size_t i, index = pt->index + 1;

	runstate_step_begin(rs);
	runstate_step_skip(rs, pt->value);
	for (i = 0; i < sj->nsubjects; i++) {
		const struct runner_subject *s = &sj->subjects[i];

		if (s->p->skip_reason != NULL || !runstate_in_step(rs, i))
			continue;
		if (reset_output(fd) < 0) {
			errbuf_set_errno(eb, errno, "grant check: temporary file");
			return RUNNER_STEP_FAILED;
		}
		if (proc_run(s->check, &sample, eb) < 0) {
			errbuf_prefix(eb, "point %zu: subject %s", index, s->p->ms->id);
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
				   index, s->p->ms->id, m->run_timeout_ms / 1000u);
			/* Left out of the step, the others measured (partial steps). Not a
			 * refusal: a hang need not come from the policy's size, so the larger
			 * sizes are still measured (45-leave-nothing.sh pins it). */
			if (!runstate_leave_out(rs, RUNSTATE_CHECK, i))
				return RUNNER_STEP_TIMEDOUT;
			eb->msg[0] = '\0';
			continue;
		}
		if (sample.exit_code != 0) {
			char pam[PATH_MAX + 256];

			check_stderr_line(fd, out, sizeof(out));
			/* The tool says the policy is too much for it: a result, not a failure. */
			if (runstate_refuse(rs, i, pt->index, pt->value,
					    refusal_classify(sample.status, false, out), out))
				continue;
			plan_pam_explain(s->p, pam, sizeof(pam));
			errbuf_set(eb, "point %zu: subject %s denied %s (exit %d)%s%s%s", index,
				   s->p->ms->id, m->command, sample.exit_code, out[0] ? ": " : "",
				   out, pam);
			return RUNNER_STEP_FAILED;
		}
	}
	if (runstate_check_end(rs) == RUNNER_STEP_TIMEDOUT) {
		errbuf_set(eb,
			   "point %zu: every subject's grant check passed run_timeout_s (%u s) and "
			   "was killed with its process group",
			   index, m->run_timeout_ms / 1000u);
		return RUNNER_STEP_TIMEDOUT;
	}
	return runner_reference_check(&sj->ref, eb) < 0 || runner_kernel_check(&sj->kernel, eb) < 0
		   ? RUNNER_STEP_FAILED
		   : RUNNER_STEP_OK;
}

/* 1/rounds of n, rounded up (each round gets at least one when n > 0). */
static uint64_t per_round(uint64_t n, uint32_t rounds)
{
	return (n + rounds - 1) / rounds;
}

/* The step's benches and their journal entries: the active subjects not left out of it (hung),
 * then the reference and rarkref's kinds (when measured). Returns how many benches. */
static size_t step_benches(const struct runner_subjects *sj, const struct runstate *rs,
			   struct measure_bench *benches, struct journal_subject *js)
{
	size_t i, k = 0;

	for (i = 0; i < sj->nsubjects; i++) {
		if (!runstate_in_step(rs, i))
			continue;
		/* One group: the subjects are interleaved (or shuffled) run by run. */
		benches[k] = (struct measure_bench){
		    .name = sj->subjects[i].p->ms->id, .cmd = sj->subjects[i].cmd, .group = 0};
		js[k].subject = sj->subjects[i].p->ms->id;
		js[k].format = (char *)policy_format_name(sj->subjects[i].p->ms->format);
		js[k].command = sj->subjects[i].p->command_line;
		k++;
	}
	if (sj->ref.cmd != NULL) {
		/* Paced: each of its runs follows a subject's, at every size (measure.h). */
		benches[k] = (struct measure_bench){
		    .name = RUNNER_REFERENCE_ID, .cmd = sj->ref.cmd, .group = 0, .paced = true};
		js[k].subject = RUNNER_REFERENCE_ID;
		js[k].format = (char *)"reference";
		js[k].command = (char *)sj->ref.command;
		k++;
	}
	runner_kernel_benches(&sj->kernel, benches, js, &k);
	return k;
}

/* The subject of the step whose name starts msg ("ID: ..."), as measure_run names a hung
 * bench; SIZE_MAX when none (the reference). */
static size_t named_subject(const struct runner_subjects *sj, const struct runstate *rs,
			    const char *msg)
{
	for (size_t i = 0; i < sj->nsubjects; i++) {
		const char *id = sj->subjects[i].p->ms->id;
		size_t len = strlen(id);

		if (runstate_in_step(rs, i) && strncmp(msg, id, len) == 0 && msg[len] == ':')
			return i;
	}
	return SIZE_MAX;
}

/* What measure_run does in the step: 1/rounds of the manifest's runs, a reproducible shuffle. */
static void step_opts(const struct runner_subjects *sj, const struct runstate *rs,
		      const struct sweep_point *pt, uint32_t round, uint32_t attempt,
		      struct measure_opts *o)
{
	const struct manifest *m = sj->plan->m;

	measure_opts_init(o);
	o->warmup = per_round(m->warmup, m->rounds);
	o->min_runs = per_round(m->min_runs, m->rounds);
	o->max_runs = per_round(m->max_runs, m->rounds);
	o->min_time_ns = m->min_time_ns / m->rounds;
	if (m->precision > 0) {
		/* Every round, the extra ones too, takes the same runs; precision counts rounds. */
		o->max_runs = o->min_runs;
		o->min_time_ns = 0;
	}
	o->order = m->order;
	/* A different but reproducible shuffle per point (and per attempt). */
	o->seed =
	    m->seed + pt->index + (uint64_t)(round - 1) * rs->npoints + (uint64_t)attempt * 7919u;
	o->stop = sj->stop;
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
 * whose run passes run_timeout_s is left out and the step measured again
 * without it, when runstate_leave_out says so (a hung subject costs its own
 * runs of the point, not the others'; the pass reports it). *nb and *nsub:
 * the benches and subjects of the last attempt. Returns measure_run's value.
 */
static enum measure_outcome measure_step(const struct runner_subjects *sj, struct runstate *rs,
					 const struct measure_opts *opts,
					 struct measure_bench *benches, struct journal_subject *js,
					 struct measure_result *results, size_t *nb, size_t *nsub,
					 struct errbuf *eb)
{
	enum measure_outcome mr;

	for (;;) {
		*nb = step_benches(sj, rs, benches, js);
		*nsub = runstate_step_subjects(rs);
		mr = measure_run(benches, *nb, opts, results, eb);
		if (mr != MEASURE_TIMEOUT ||
		    !runstate_leave_out(rs, RUNSTATE_MEASURE, named_subject(sj, rs, eb->msg)))
			return mr;
		for (size_t i = 0; i < *nb; i++)
			measure_result_clear(&results[i]);
		memset(results, 0, *nb * sizeof(*results));
		eb->msg[0] = '\0';
	}
}

/* The step's refusals into info (refused: room for MANIFEST_SUBJECTS_MAX), so that --resume
 * knows them (journal.h). */
static void step_refusals(const struct runner_subjects *sj, const struct runstate *rs,
			  struct journal_step_info *info, struct journal_refusal *refused)
{
	for (size_t i = 0; i < sj->nsubjects && info->nrefused < MANIFEST_SUBJECTS_MAX; i++)
		if (rs->refused_now[i])
			refused[info->nrefused++] = (struct journal_refusal){
			    .subject = sj->subjects[i].p->ms->id,
			    .cls = (char *)refusal_class_name(rs->refusal[i].cls),
			    .error = (char *)rs->refusal[i].line};
	info->refused = refused;
}

/*
 * A step where every subject refused its policy or was skipped for an earlier refusal: nothing
 * is measured (not even the calibration, which only serves the subjects), but the step is
 * journalled, with its refusals when it has any, so that the results have the point and
 * --resume knows it was taken (a sweep of one subject past its limit exits 0).
 */
static enum runner_step journal_unmeasured(const struct runner_subjects *sj,
					   const struct runstate *rs, struct journal *journal,
					   const struct sweep_point *pt, uint32_t round,
					   struct errbuf *eb)
{
	struct journal_refusal refused[MANIFEST_SUBJECTS_MAX];
	struct journal_step_info info;
	char id[SWEEP_ID_MAX];

	memset(&info, 0, sizeof(info));
	step_refusals(sj, rs, &info, refused);
	sweep_step_id(pt, round, sj->plan->m->max_rounds, id, sizeof(id));
	return journal_append_step(journal, id, pt->index, NULL, 0, &info, eb) < 0
		   ? RUNNER_STEP_FAILED
		   : RUNNER_STEP_OK;
}

/*
 * The daemons' cost over the step's runs (polkitd, for each pkexec subject measured): its CPU
 * time from the mark before the warm-up to the end of the timed runs, and the runs it served
 * (warm-up and timed) into d (borrowing the subjects' ids). Returns how many.
 */
static size_t step_daemons(const struct runner_subjects *sj, const struct journal_subject *js,
			   size_t nb, uint64_t warmup, struct journal_daemon *d)
{
	size_t i, k, n = 0;

	for (i = 0; i < sj->nsubjects; i++) {
		const struct runner_subject *s = &sj->subjects[i];
		struct runner_polkit_cost cost;

		if (s->polkit == NULL || runner_polkit_sample(s->polkit, &cost) < 0)
			continue;
		for (k = 0; k < nb; k++)
			if (js[k].subject != NULL && strcmp(js[k].subject, s->p->ms->id) == 0)
				break;
		if (k == nb)
			continue;
		d[n++] = (struct journal_daemon){.subject = (char *)s->p->ms->id,
						 .name = "polkitd",
						 .cpu_ns = cost.cpu_ns,
						 .runs = js[k].result.n + warmup,
						 .maxrss_kib = cost.maxrss_kib};
	}
	return n;
}

enum runner_step runner_point_measure(const struct runner_subjects *sj, struct runstate *rs,
				      struct journal *journal, const struct sweep_point *pt,
				      uint32_t round, uint32_t attempt, uint64_t *discarded,
				      struct errbuf *eb)
{
	struct measure_bench *benches = NULL;
	struct measure_result *results = NULL;
	struct journal_subject *js = NULL;
	struct journal_step_info info;
	struct journal_refusal refused[MANIFEST_SUBJECTS_MAX];
	struct journal_daemon daemons[MANIFEST_SUBJECTS_MAX];
	struct contention_host h0;
	struct measure_opts opts;
	struct errbuf heb = {{0}};
	char id[SWEEP_ID_MAX];
	size_t i, nb, nsub;
	enum runner_step rc = RUNNER_STEP_FAILED;
	enum measure_outcome mr;

	/* The reference, when measured, is the last bench: interleaved with the subjects. */
	nb = sj->nactive + (sj->ref.cmd != NULL) + runner_kernel_count(&sj->kernel);
	benches = calloc(nb, sizeof(*benches));
	results = calloc(nb, sizeof(*results));
	js = calloc(nb, sizeof(*js));
	if (benches == NULL || results == NULL || js == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	step_opts(sj, rs, pt, round, attempt, &opts);
	memset(&info, 0, sizeof(info));
	/* The host's counters around the step, never inside a timed run; unreadable: unknown. */
	info.has_host = contention_read_host(&h0, &heb) == 0;
	for (i = 0; i < sj->nsubjects; i++)
		if (sj->subjects[i].polkit != NULL)
			runner_polkit_mark(sj->subjects[i].polkit);
	mr = measure_step(sj, rs, &opts, benches, js, results, &nb, &nsub, eb);
	if (mr == MEASURE_STOPPED) {
		errbuf_set(eb, "interrupted");
		goto out;
	}
	if (mr == MEASURE_TIMEOUT) {
		errbuf_prefix(eb, "point %zu (run_timeout_s %u)", pt->index + 1,
			      sj->plan->m->run_timeout_ms / 1000u);
		rc = RUNNER_STEP_TIMEDOUT;
		goto out;
	}
	if (mr != MEASURE_OK) {
		errbuf_prefix(eb, "point %zu", pt->index + 1);
		goto out;
	}
	step_host_after(&info, &h0);
	for (i = 0; i < nb; i++)
		js[i].result = results[i];
	info.daemons = daemons;
	info.ndaemons = step_daemons(sj, js, nb, opts.warmup, daemons);
	/* The point's results, once, to the accumulator: it judges the attempt and keeps it. */
	switch (runner_precision_offer(rs->precision, pt->index, js, nb, nsub, attempt, discarded,
				       eb)) {
	case RUNNER_PRECISION_REMEASURE:
		rc = RUNNER_STEP_REMEASURE;
		goto out;
	case RUNNER_PRECISION_FAILED:
		goto out;
	case RUNNER_PRECISION_KEPT:
		break;
	}
	info.remeasured = attempt;
	info.discarded_runs = *discarded;
	step_refusals(sj, rs, &info, refused);
	sweep_step_id(pt, round, sj->plan->m->max_rounds, id, sizeof(id));
	if (journal_append_step(journal, id, pt->index, js, nb, &info, eb) < 0)
		goto out;
	for (i = 0; i < nb; i++)
		runstate_add_timed(rs, measure_result_wall_sum(&js[i].result));
	rc = RUNNER_STEP_OK;
out:
	for (i = 0; results != NULL && i < nb; i++)
		measure_result_clear(&results[i]);
	free(results);
	free(benches);
	free(js);
	return rc;
}

enum runner_step runner_run_step(const struct runner_subjects *sj, struct runstate *rs,
				 struct journal *journal, struct runner_guard *guard,
				 const struct sweep_point *pt, uint32_t round, uint32_t attempt,
				 uint64_t *discarded, struct runner_step_end *end)
{
	struct errbuf deny = {{0}};
	enum runner_step rc;

	memset(end, 0, sizeof(*end));
	end->denied = true;
	if (runner_point_write_policies(sj, pt, &end->eb) < 0) {
		errbuf_prefix(&end->eb, "point %zu", pt->index + 1);
		rc = RUNNER_STEP_FAILED;
	} else if (runner_env_apply_point(sj, pt) < 0) {
		errbuf_set(&end->eb, "point %zu: a swept limit without its pin", pt->index + 1);
		rc = RUNNER_STEP_FAILED;
	} else {
		rc = runner_point_check_grants(sj, rs, pt, &end->eb);
		/* Every subject refused (or was skipped for it): nothing to measure at this point.
		 */
		if (rc == RUNNER_STEP_OK && runstate_step_subjects(rs) > 0)
			rc = runner_point_measure(sj, rs, journal, pt, round, attempt, discarded,
						  &end->eb);
		else if (rc == RUNNER_STEP_OK)
			rc = journal_unmeasured(sj, rs, journal, pt, round, &end->eb);
	}
	runner_point_stop_daemons(sj);
	/* The grant lasts as long as the step: whatever happened, the policies deny again, and
	 * what it started dies with it. A denial that cannot be written ends the sweep. */
	if (runner_guard_deny(guard, &deny) < 0) {
		if (rc == RUNNER_STEP_FAILED) {
			end->first = end->eb;
			end->superseded = true;
		}
		end->eb = deny;
		rc = RUNNER_STEP_FAILED;
		end->denied = false;
	}
	runner_guard_point_end(guard);
	return rc;
}
