/* runstate: what changes during a manifest run (runstate.h's design note), and the step's
 * decisions over it. */
#include "runstate.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner_precision.h"

void runstate_init(struct runstate *rs)
{
	memset(rs, 0, sizeof(*rs));
	rs->stderr_fd = -1;
}

int runstate_setup(struct runstate *rs, const struct manifest *m, size_t npoints,
		   const bool *active, size_t nsubjects, struct errbuf *eb)
{
	size_t steps = npoints * m->max_rounds;

	if (nsubjects > MANIFEST_SUBJECTS_MAX)
		return errbuf_set(eb, "%zu subjects, at most %d", nsubjects, MANIFEST_SUBJECTS_MAX);
	free(rs->journalled);
	rs->journalled = calloc(steps > 0 ? steps : 1, sizeof(*rs->journalled));
	if (rs->journalled == NULL)
		return errbuf_set(eb, "out of memory");
	rs->nsubjects = nsubjects;
	memset(rs->active, 0, sizeof(rs->active));
	memset(rs->hung, 0, sizeof(rs->hung));
	memset(rs->refused_now, 0, sizeof(rs->refused_now));
	memset(rs->skipped_now, 0, sizeof(rs->skipped_now));
	memset(rs->refusal, 0, sizeof(rs->refusal));
	rs->try_larger = m->after_refusal == MANIFEST_AFTER_REFUSAL_TRY_LARGER;
	if (nsubjects > 0)
		memcpy(rs->active, active, nsubjects * sizeof(*active));
	rs->npoints = npoints;
	rs->rounds = m->rounds;
	rs->max_rounds = m->max_rounds;
	rs->partial_steps = m->max_rounds == 1 && m->precision <= 0;
	rs->extra_steps = rs->failed_points = rs->hung_runs = 0;
	rs->timed_ns = 0;
	return 0;
}

int runstate_open_stderr(struct runstate *rs, struct errbuf *eb)
{
	char tmpl[] = "/tmp/rarbench-grant-XXXXXX";

	if (rs->stderr_fd >= 0)
		return 0;
	rs->stderr_fd = mkostemp(tmpl, O_CLOEXEC);
	if (rs->stderr_fd < 0)
		return errbuf_set_errno(eb, errno, "%s", tmpl);
	unlink(tmpl);
	return 0;
}

int runstate_resume(struct runstate *rs, const struct sweep *sw,
		    const struct journal_contents *done, struct errbuf *eb)
{
	for (size_t i = 0; i < done->npoints; i++) {
		size_t k;
		uint32_t round;

		if (sweep_parse_step_id(sw, done->points[i].id, rs->max_rounds, &k, &round) < 0 ||
		    k >= rs->npoints)
			return errbuf_set(eb, "point %s is not in this sweep", done->points[i].id);
		rs->journalled[k * rs->max_rounds + round - 1] = true;
	}
	return 0;
}

void runstate_adopt_precision(struct runstate *rs, struct runner_precision *p)
{
	runner_precision_free(rs->precision);
	rs->precision = p;
}

bool runstate_journalled(const struct runstate *rs, size_t point, uint32_t round)
{
	if (rs->journalled == NULL || point >= rs->npoints || round < 1 || round > rs->max_rounds)
		return false;
	return rs->journalled[point * rs->max_rounds + round - 1];
}

void runstate_progress_counts(const struct runstate *rs, size_t *total, size_t *done)
{
	size_t i, extra = 0, n = rs->journalled != NULL ? rs->npoints * rs->max_rounds : 0;

	*done = 0;
	for (i = 0; i < n; i++) {
		*done += rs->journalled[i];
		/* Precision mode: the extra rounds' steps journalled join the planned ones. */
		extra += rs->journalled[i] && i % rs->max_rounds >= rs->rounds;
	}
	*total = rs->npoints * rs->rounds + extra;
}

size_t runstate_pass_steps(struct runstate *rs, uint32_t round, const size_t *order,
			   const bool *more, size_t *todo, size_t *number, bool *last)
{
	bool extra = round > rs->rounds;
	size_t i, k = 0, needing = 0, n = rs->npoints;

	*last = round < 1 || round > rs->max_rounds;
	if (*last)
		return 0;
	for (i = 0; i < n; i++) {
		if (extra && !more[order[i]])
			continue;
		needing++;
		if (runstate_journalled(rs, order[i], round))
			continue;
		todo[k] = order[i];
		/* Extra rounds number their steps after every planned one. */
		number[k] = extra ? n * rs->rounds + rs->extra_steps + k + 1
				  : (size_t)(round - 1) * n + i + 1;
		k++;
	}
	if (extra && needing == 0) {
		*last = true;
		return 0;
	}
	if (extra)
		rs->extra_steps += k;
	return k;
}

void runstate_step_begin(struct runstate *rs)
{
	memset(rs->hung, 0, sizeof(rs->hung));
	memset(rs->refused_now, 0, sizeof(rs->refused_now));
	memset(rs->skipped_now, 0, sizeof(rs->skipped_now));
}

/* Whether a is no larger than b in every axis. */
static bool no_larger(const uint32_t *a, const uint32_t *b)
{
	for (int k = 0; k < MANIFEST_POINT_VALUES; k++)
		if (a[k] > b[k])
			return false;
	return true;
}

bool runstate_refusal_skips(const struct runstate *rs, size_t i, const uint32_t *value)
{
	return i < rs->nsubjects && !rs->try_larger && rs->refusal[i].refused &&
	       no_larger(rs->refusal[i].at, value);
}

size_t runstate_step_skip(struct runstate *rs, const uint32_t *value)
{
	size_t i, n = 0;

	for (i = 0; i < rs->nsubjects; i++) {
		if (!runstate_in_step(rs, i) || !runstate_refusal_skips(rs, i, value))
			continue;
		rs->skipped_now[i] = true;
		rs->refusal[i].skipped_steps++;
		n++;
	}
	return n;
}

/* Records subject i's refusal at point (value): the smallest known kept. */
static void record_refusal(struct runstate *rs, size_t i, size_t point, const uint32_t *value,
			   enum refusal_class cls, const char *line)
{
	struct runstate_refusal *f = &rs->refusal[i];

	f->refused_steps++;
	if (f->refused && !no_larger(value, f->at))
		return;
	f->refused = true;
	f->cls = cls;
	f->point = point;
	memcpy(f->at, value, sizeof(f->at));
	/* Bounded and made safe by refusal_line already; cut again, never overrun. */
	snprintf(f->line, sizeof(f->line), "%s", line != NULL ? line : "");
}

bool runstate_refuse(struct runstate *rs, size_t i, size_t point, const uint32_t *value,
		     enum refusal_class cls, const char *line)
{
	/* A hung subject the check phase left out is still refusing: its time-out is the cause. */
	if (i >= rs->nsubjects || !rs->active[i] || rs->refused_now[i] || rs->skipped_now[i] ||
	    cls == REFUSAL_NONE || (unsigned)cls >= REFUSAL_CLASS_COUNT)
		return false;
	rs->refused_now[i] = true;
	record_refusal(rs, i, point, value, cls, line);
	return true;
}

bool runstate_resume_refusal(struct runstate *rs, size_t i, size_t point, const uint32_t *value,
			     enum refusal_class cls, const char *line)
{
	if (i >= rs->nsubjects || !rs->active[i] || cls == REFUSAL_NONE ||
	    (unsigned)cls >= REFUSAL_CLASS_COUNT)
		return false;
	record_refusal(rs, i, point, value, cls, line);
	return true;
}

size_t runstate_refusals(const struct runstate *rs)
{
	size_t i, n = 0;

	for (i = 0; i < rs->nsubjects; i++)
		n += rs->refusal[i].refused;
	return n;
}

bool runstate_in_step(const struct runstate *rs, size_t i)
{
	return i < rs->nsubjects && rs->active[i] && !rs->hung[i] && !rs->refused_now[i] &&
	       !rs->skipped_now[i];
}

size_t runstate_step_subjects(const struct runstate *rs)
{
	size_t i, n = 0;

	for (i = 0; i < rs->nsubjects; i++)
		n += runstate_in_step(rs, i);
	return n;
}

bool runstate_leave_out(struct runstate *rs, enum runstate_phase phase, size_t i)
{
	/* A hung calibration workload, or a subject of a point whose rounds must agree, costs the
	 * point. */
	if (!rs->partial_steps || !runstate_in_step(rs, i))
		return false;
	/* Measuring: the step is measured again without it, so another subject must remain. */
	if (phase == RUNSTATE_MEASURE && runstate_step_subjects(rs) < 2)
		return false;
	rs->hung[i] = true;
	return true;
}

/* How many active subjects the step under way left out. */
static size_t step_hung(const struct runstate *rs)
{
	size_t i, n = 0;

	for (i = 0; i < rs->nsubjects; i++)
		n += rs->active[i] && rs->hung[i];
	return n;
}

enum runner_step runstate_check_end(const struct runstate *rs)
{
	size_t i, active = 0;

	for (i = 0; i < rs->nsubjects; i++)
		active += rs->active[i];
	/* Every subject hung: the point times out; some refused instead: nothing to measure. */
	return runstate_step_subjects(rs) == 0 && step_hung(rs) == active ? RUNNER_STEP_TIMEDOUT
									  : RUNNER_STEP_OK;
}

enum runstate_next runstate_step_end(struct runstate *rs, enum runner_step outcome)
{
	switch (outcome) {
	case RUNNER_STEP_OK:
		rs->hung_runs += step_hung(rs);
		return RUNSTATE_GO_ON;
	case RUNNER_STEP_REMEASURE:
		/* Later in the pass: a burst of load has a chance to end. */
		return RUNSTATE_AGAIN_LATER;
	case RUNNER_STEP_TIMEDOUT:
		/* A hung or stopped tool costs this point, not the sweep: --resume measures it. */
		rs->failed_points++;
		return RUNSTATE_GO_ON;
	case RUNNER_STEP_FAILED:
		break;
	}
	/* Never measured again: a failure is not contention. */
	return RUNSTATE_STOP;
}

void runstate_add_timed(struct runstate *rs, uint64_t ns)
{
	rs->timed_ns += ns;
}

int runstate_profile_begin(struct runstate *rs, uint32_t pct, uint64_t timed_ns, struct errbuf *eb)
{
	profilebudget_clear(&rs->profile);
	return profilebudget_init(&rs->profile, rs->nsubjects, pct, timed_ns, eb);
}

/* Whether some active subject has not been traced yet (its first point always is). */
static bool profile_unseen(const struct runstate *rs)
{
	for (size_t i = 0; i < rs->nsubjects && i < rs->profile.nsubjects; i++)
		if (rs->active[i] && rs->profile.subjects[i].seen == 0)
			return true;
	return false;
}

bool runstate_profile_affords_point(const struct runstate *rs)
{
	return profile_unseen(rs) || profilebudget_point_allowed(&rs->profile);
}

bool runstate_profile_end(struct runstate *rs, enum runner_step outcome)
{
	switch (outcome) {
	case RUNNER_STEP_OK:
	case RUNNER_STEP_REMEASURE: /* not a profile's outcome */
		return true;
	case RUNNER_STEP_TIMEDOUT:
		rs->failed_points++;
		return true;
	case RUNNER_STEP_FAILED:
		break;
	}
	return false;
}

void runstate_profile_finish(struct runstate *rs)
{
	profilebudget_clear(&rs->profile);
}

enum runstate_verdict runstate_verdict(const struct runstate *rs)
{
	if (rs->failed_points > 0)
		return RUNSTATE_POINTS_UNMEASURED;
	return rs->hung_runs > 0 ? RUNSTATE_SUBJECTS_LEFT_OUT : RUNSTATE_COMPLETE;
}

void runstate_clear(struct runstate *rs)
{
	free(rs->journalled);
	runner_precision_free(rs->precision);
	profilebudget_clear(&rs->profile);
	if (rs->stderr_fd >= 0)
		close(rs->stderr_fd);
	runstate_init(rs);
}
