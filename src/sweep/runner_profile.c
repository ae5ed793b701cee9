/* runner_profile: the profile pass of a manifest run: each subject traced once per point. */
/*
 * Design. After every timed step of the sweep (run_points), the pass walks
 * the points in sweep order. For a point whose OUT/profile/point-N.json is
 * missing it writes the point's policies, checks the grants, and for each
 * active subject runs
 *   strace -f -qq -o OUT/profile/trace RARLAUNCH --exec HEX... (PROGRAM ARGS...)
 * as root, strace with root's own limits (no core file), umask and / as its
 * cwd, its environment fixed, in the subject's mount namespace; rarlaunch
 * gives itself exactly what the timed runs get (the pin's limits, umask,
 * cwd and CPUs, the bench user's identity and environment) and executes the
 * program, so setuid and file-capability programs run as they do for the
 * user (straceprof_cmd; issue 52, finding 5), then one untraced run for wait4's counters (page
 * faults and peak RSS of the traced run would include strace's). The
 * policies deny again, and point-N.json is written whole (temp + rename):
 * it is the pass's journal, so --resume traces only what is missing.
 * The pass has a budget (the manifest's profile_budget, a share of the
 * time the timed runs took): a subject whose traced run at a point is
 * predicted to overrun it (profilebudget) gets only its untraced run there,
 * and its profile says "skipped" and why: dosr-json 3.3.4 makes 3.5 million
 * read(2) at 10 000 tasks, 200 s traced against 16 s timed.
 * runner_output reads the files back into results.json and profile.tsv.
 */
#include "runner_profile.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomicfile.h"
#include "clock.h"
#include "fileio.h"
#include "jsonget.h"
#include "profilebudget.h"
#include "runner_passfile.h"
#include "runner_point.h"
#include "runner_profile_files.h"
#include "straceprof.h"
#include "syscost.h"
#include "tracedrun.h"
#include "trustpath.h"
#include "runfiles.h"

#define PROFILE_TIMEOUT_FACTOR 10u
#define PROFILE_TIMEOUT_MAX_MS (3600u * 1000u)

/*
 * A traced run stops at every system call: dosr-json 3.3.4 at 10 000 tasks
 * makes 3.5 million read(2) and took more than 60 s under strace on a
 * loaded 2-CPU host. It gets PROFILE_TIMEOUT_FACTOR times run_timeout_s,
 * at most PROFILE_TIMEOUT_MAX_MS.
 */
static uint32_t traced_timeout_ms(uint32_t run_timeout_ms)
{
	uint64_t t = (uint64_t)run_timeout_ms * PROFILE_TIMEOUT_FACTOR;

	return t > PROFILE_TIMEOUT_MAX_MS ? PROFILE_TIMEOUT_MAX_MS : (uint32_t)t;
}

/*
 * The traced command of subject s at pt: strace, as root, runs rarlaunch --exec, which gives
 * itself the pin (with the point's value of a swept limit, as its timed runs had:
 * runner_env_apply_point), the bench user's identity and environment, and executes the
 * subject's program. strace keeps root's own limits (no core file) and / as its cwd.
 */
static struct proc_cmd *traced_cmd(struct runner *r, const struct runner_subject *s,
				   const struct sweep_point *pt, const char *trace,
				   struct errbuf *eb)
{
	struct proc_pin pin = r->env.pin;
	struct proc_opts po = {.envp = r->env.envp,
			       .as = &r->user,
			       .output = PROC_OUTPUT_STDERR_FD,
			       .output_fd = r->rs.stderr_fd,
			       .stdin_null = true,
			       .timeout_ms = traced_timeout_ms(r->m->run_timeout_ms),
			       .stop = r->cfg.stop,
			       .pin = &pin,
			       .mntns = s->mntns};

	if (r->m->env.nlimit_values > 0) {
		int res = r->m->env.limits[r->m->env.limit_axis].resource;

		for (size_t i = 0; i < pin.nlimits; i++)
			if (pin.limits[i].resource == res)
				pin.limits[i].soft = pin.limits[i].hard = pt->limit;
	}
	/* strace's own environment is fixed (and the run's marker, so that a crash's leftovers are
	 * found); the pinned one goes to the traced program alone. */
	return straceprof_cmd(r->cfg.tracer, trace, runner_guard_marker(r->guard), s->p->argv, &po,
			      eb);
}

/*
 * The trace file, made empty by root before strace runs: 0600, O_EXCL and O_NOFOLLOW, so that
 * strace (which keeps the manifest's umask for its tracee) opens a file that exists and
 * creates none: with "umask": "000" it made it 0666 (issue 45, finding 7). A leftover of an
 * earlier subject is removed first. 0 or -1.
 */
static int make_trace(const char *trace, struct errbuf *eb)
{
	int fd;

	if (unlink(trace) != 0 && errno != ENOENT)
		return errbuf_set_errno(eb, errno, "profile: %s", trace);
	fd = open(trace, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return errbuf_set_errno(eb, errno, "profile: %s", trace);
	/* The mode whatever this process's umask. */
	if (fchmod(fd, 0600) != 0) {
		int e = errno;

		close(fd);
		return errbuf_set_errno(eb, e, "profile: %s", trace);
	}
	return close(fd) == 0 ? 0 : errbuf_set_errno(eb, errno, "profile: %s", trace);
}

/* Adds n (a count) to o under key; o adopts it. */
static void add_count(cJSON *o, const char *key, uint64_t n)
{
	cJSON_AddNumberToObject(o, key, (double)n);
}

/* The bytes of s's policy files at this point (what a read per byte would read). */
static uint64_t policy_bytes(const struct runner_subject *s)
{
	struct stat st;
	uint64_t n = 0;

	if (stat(s->p->policy, &st) == 0)
		n += (uint64_t)st.st_size;
	if (s->p->policy_data != NULL && stat(s->p->policy_data, &st) == 0)
		n += (uint64_t)st.st_size;
	return n;
}

/* The untraced run of s at this point, its wait4 counters into o's "rusage". 0 or -1. */
static int rusage_run(const struct runner_subject *s, cJSON *o, struct proc_sample *us,
		      struct errbuf *eb)
{
	cJSON *ru;

	if (proc_run(s->cmd, us, eb) < 0)
		return -1;
	if (us->stopped)
		return errbuf_set(eb, "interrupted");
	ru = cJSON_AddObjectToObject(o, "rusage");
	add_count(ru, "minflt", us->ru.minflt);
	add_count(ru, "majflt", us->ru.majflt);
	add_count(ru, "maxrss_kib", us->ru.maxrss_kib);
	add_count(ru, "inblock", us->ru.inblock);
	add_count(ru, "nvcsw", us->ru.nvcsw);
	/* The least maxrss_kib a run can report: rarlaunch's own peak (proc.h), not rarbench's. */
	add_count(o, "rss_floor_kib", proc_cmd_floor_kib(s->cmd));
	return 0;
}

/*
 * One subject at one point: the traced run (into *tsp), then the untraced one (*usp). Fills o;
 * a subject that cannot be traced, or exits otherwise when traced, gets a
 * "status" saying so (its timing stands). -1 only when the run must stop
 * (interrupted, out of memory, a spawn failure of the untraced run).
 */
static int profile_subject(struct runner *r, const struct runner_subject *s,
			   const struct sweep_point *pt, const char *trace, cJSON *o,
			   struct proc_sample *tsp, struct proc_sample *usp, struct errbuf *eb)
{
	struct proc_cmd *cmd = NULL;
	struct proc_sample us = {0};
	struct tracedrun t = {0};
	int rc = -1;

	if (make_trace(trace, eb) < 0 || (cmd = traced_cmd(r, s, pt, trace, eb)) == NULL)
		goto out;
	if (tracedrun_run(&t, cmd, trace, r->rs.stderr_fd, traced_timeout_ms(r->m->run_timeout_ms),
			  eb) < 0)
		goto out;
	tracedrun_json_status(&t, o);
	add_count(o, "policy_bytes", policy_bytes(s));
	tracedrun_json_counts(&t, o);
	if (rusage_run(s, o, &us, eb) < 0)
		goto out;
	*tsp = t.sample;
	*usp = us;
	rc = 0;
out:
	unlink(trace);
	proc_cmd_free(cmd);
	tracedrun_clear(&t);
	return rc;
}

/* The number at o.key, or 0 when it has none. */
static uint64_t count_of(const cJSON *o, const char *key)
{
	const cJSON *j = jsonget_member(o, key);

	return cJSON_IsNumber(j) && j->valuedouble > 0 ? (uint64_t)j->valuedouble : 0;
}

/*
 * Subject i (s) at pt within the pass's budget (r->rs.profile): traced when
 * its prediction fits what is left, else only its untraced run, with
 * "skipped" and the reason. What the profile took is recorded in o
 * ("profile_ns") and spent. 0 or -1.
 */
static int budgeted_subject(struct runner *r, size_t i, const struct runner_subject *s,
			    const struct sweep_point *pt, const char *trace, cJSON *o,
			    uint64_t *spent_ns, struct errbuf *eb)
{
	struct profilebudget *b = &r->rs.profile;
	struct proc_sample ts = {0}, us = {0};
	uint64_t bytes = policy_bytes(s);
	double predicted, left = b->limit_ns - b->spent_ns;
	char why[200];

	if (!profilebudget_allows(b, i, bytes, &predicted)) {
		snprintf(why, sizeof(why),
			 "not traced: predicted %.1f s, %.1f s left of the profile budget (%u %% "
			 "of %.1f s of timed runs)",
			 predicted / 1e9, left > 0 ? left / 1e9 : 0.0, r->m->profile_budget_pct,
			 b->limit_ns * 100.0 / r->m->profile_budget_pct / 1e9);
		cJSON_AddStringToObject(o, "status", "skipped");
		cJSON_AddStringToObject(o, "reason", "profile_budget");
		cJSON_AddStringToObject(o, "message", why);
		add_count(o, "policy_bytes", bytes);
		if (rusage_run(s, o, &us, eb) < 0)
			return -1;
		add_count(o, "profile_ns", us.wall_ns);
		profilebudget_spend(b, us.wall_ns);
		*spent_ns += us.wall_ns;
		return 0;
	}
	if (profile_subject(r, s, pt, trace, o, &ts, &us, eb) < 0)
		return -1;
	add_count(o, "profile_ns", ts.wall_ns + us.wall_ns);
	*spent_ns += ts.wall_ns + us.wall_ns;
	if (count_of(o, "calls") > 0)
		profilebudget_record(b, i, bytes, count_of(o, "calls"), ts.wall_ns + us.wall_ns);
	else
		profilebudget_spend(b, ts.wall_ns + us.wall_ns);
	return 0;
}

/* Writes doc to OUT/profile/point-N.json whole. 0 or -1. */
static int write_point(struct runner *r, size_t index, const cJSON *doc, struct errbuf *eb)
{
	char path[PATH_MAX];

	if (runner_profile_point_path(r->cfg.out, index, path, sizeof(path), eb) < 0)
		return -1;
	return runner_passfile_write(path, doc, eb);
}

/*
 * A point the budget cannot afford at all: every active subject "skipped" with its reason, no
 * policy written, no run made (they would cost what the budget has not got). 0 or -1.
 */
static int budget_skip_point(struct runner *r, const struct profilebudget *b, cJSON *subjects,
			     struct errbuf *eb)
{
	char why[200];

	profilebudget_explain(b, r->m->profile_budget_pct, why, sizeof(why));
	for (size_t i = 0; i < r->sj.nsubjects; i++) {
		cJSON *o;

		if (r->sj.subjects[i].p->skip_reason != NULL)
			continue;
		o = cJSON_AddObjectToObject(subjects, r->sj.subjects[i].p->ms->id);
		if (o == NULL || cJSON_AddStringToObject(o, "status", "skipped") == NULL ||
		    cJSON_AddStringToObject(o, "reason", "profile_budget") == NULL ||
		    cJSON_AddStringToObject(o, "message", why) == NULL)
			return errbuf_set(eb, "out of memory");
		add_count(o, "profile_ns", 0);
	}
	return 0;
}

/* Profiles every active subject at pt within the pass's budget (r->rs.profile), policies
 * granting throughout; what the grant started is killed after. Everything it costs (policy
 * writes, grant checks, traced and untraced runs) is spent from the budget. RUNNER_STEP_OK,
 * _TIMEDOUT or _FAILED. */
static enum runner_step profile_point(struct runner *r, const struct sweep_point *pt,
				      struct errbuf *eb)
{
	struct profilebudget *b = &r->rs.profile;
	char trace[PATH_MAX];
	cJSON *doc = cJSON_CreateObject(), *subjects;
	struct errbuf deny = {{0}};
	uint64_t t0 = clock_now_ns(), runs_ns = 0;
	enum runner_step rc = RUNNER_STEP_FAILED;

	if (doc == NULL) {
		errbuf_set(eb, "out of memory");
		return RUNNER_STEP_FAILED;
	}
	cJSON_AddStringToObject(doc, "point", pt->id);
	cJSON_AddStringToObject(doc, "tracer", "strace -f -qq rarlaunch --exec (as USER)");
	subjects = cJSON_AddObjectToObject(doc, "subjects");
	/* Absolute: the pin may change the working directory of strace. */
	if (subjects == NULL ||
	    runner_profile_path(r->out_abs, "trace", trace, sizeof(trace), eb) < 0)
		goto out;
	if (!runstate_profile_affords_point(&r->rs)) {
		if (budget_skip_point(r, b, subjects, eb) == 0 &&
		    write_point(r, pt->index, doc, eb) == 0)
			rc = RUNNER_STEP_OK;
		goto out;
	}
	if (runner_env_apply_point(&r->sj, pt) < 0) {
		errbuf_set(eb, "point %zu: its limit", pt->index + 1);
		goto out;
	}
	if (runner_point_write_policies(&r->sj, pt, eb) < 0)
		goto deny;
	rc = runner_point_check_grants(&r->sj, &r->rs, pt, eb);
	for (size_t i = 0; rc == RUNNER_STEP_OK && i < r->sj.nsubjects; i++) {
		const struct runner_subject *s = &r->sj.subjects[i];
		cJSON *o;

		/* A subject that hung in its grant check is left out of the point's profile. */
		if (!runstate_in_step(&r->rs, i))
			continue;
		o = cJSON_AddObjectToObject(subjects, s->p->ms->id);
		if (o == NULL || budgeted_subject(r, i, s, pt, trace, o, &runs_ns, eb) < 0) {
			errbuf_prefix(eb, "profile of point %zu: subject %s", pt->index + 1,
				      s->p->ms->id);
			rc = RUNNER_STEP_FAILED;
		}
	}
deny:
	runner_point_stop_daemons(&r->sj);
	/* Whatever happened, the policies deny again before anything else. */
	if (runner_guard_deny(r->guard, &deny) < 0) {
		*eb = deny;
		rc = RUNNER_STEP_FAILED;
	}
	runner_guard_point_end(r->guard);
	/* The policies' writing and denial, the grant checks: the point's cost beyond its runs. */
	profilebudget_point_done(b, clock_now_ns() - t0, runs_ns);
	if (rc == RUNNER_STEP_OK && write_point(r, pt->index, doc, eb) < 0)
		rc = RUNNER_STEP_FAILED;
out:
	cJSON_Delete(doc);
	return rc;
}

/*
 * OUT/profile-costs.tsv: this host's price of the calls the report weighs
 * counts with (syscost), measured once per output directory, between
 * runs, never inside one. 0 or -1.
 */
static int write_costs(struct runner *r, struct errbuf *eb)
{
	struct syscost c[SYSCOST_COUNT];
	struct atomicfile *af;
	char path[PATH_MAX];
	struct stat st;
	FILE *f;

	if (fileio_fmt(path, sizeof(path), "%s/" RUNFILES_PROFILE_COSTS, r->cfg.out) < 0)
		return errbuf_set(eb, "%s: path too long", r->cfg.out);
	if (stat(path, &st) == 0)
		return 0;
	if (syscost_measure(r->cfg.out, c, eb) < 0 ||
	    (af = atomicfile_open_regular(path, 0644, eb)) == NULL)
		return -1;
	f = atomicfile_stream(af);
	fprintf(f, "syscall\tns\tmeasured\n");
	for (size_t i = 0; i < SYSCOST_COUNT; i++)
		fprintf(f, "%s\t%.1f\t%s\n", c[i].name, c[i].ns, c[i].what);
	return atomicfile_rename(af, eb);
}

/*
 * The wall time of every timed run, summed (the budget's base): this
 * invocation's (r->rs.timed_ns) and, after --resume, the journalled ones it
 * read at its start. Not read again from the journal: a run's peak RSS
 * counts rarbench's own (clone(CLONE_VM) shares its pages until exec), so
 * the pass keeps rarbench small.
 */
static uint64_t timed_runs_ns(const struct runner *r)
{
	uint64_t ns = r->rs.timed_ns;

	for (size_t p = 0; p < r->done.npoints; p++)
		for (size_t k = 0; k < r->done.points[p].nsubjects; k++)
			ns += measure_result_wall_sum(&r->done.points[p].subjects[k].result);
	return ns;
}

/* What an earlier invocation's point (--resume) traced and spent, into b. */
static void budget_resumed(struct runner *r, struct profilebudget *b, const cJSON *doc)
{
	const cJSON *subjects = jsonget_member(doc, "subjects");

	for (size_t i = 0; i < r->sj.nsubjects; i++) {
		const cJSON *o = jsonget_member(subjects, r->sj.subjects[i].p->ms->id);
		uint64_t calls = count_of(o, "calls"), ns = count_of(o, "profile_ns");

		if (calls > 0)
			profilebudget_record(b, i, count_of(o, "policy_bytes"), calls, ns);
		else
			profilebudget_spend(b, ns);
	}
}

/* Profiles every point not yet profiled, in sweep order, within the pass's budget. 0 or -1. */
static int profile_points(struct runner *r, struct errbuf *eb)
{
	char path[PATH_MAX];
	size_t n = sweep_count(r->sweep);
	struct stat st;

	for (size_t i = 0; i < n; i++) {

		if (runner_profile_point_path(r->cfg.out, i, path, sizeof(path), eb) < 0)
			return -1;
		if (stat(path, &st) == 0) {
			/* Traced by an earlier invocation (--resume): what it spent counts. */
			cJSON *doc = runner_profile_read(r->cfg.out, i, eb);

			if (doc == NULL && eb->msg[0] != '\0')
				return -1;
			budget_resumed(r, &r->rs.profile, doc);
			cJSON_Delete(doc);
			continue;
		}
		if (r->cfg.stop != NULL && *r->cfg.stop)
			return errbuf_set(eb, "interrupted");
		if (!runstate_profile_end(&r->rs, profile_point(r, sweep_at(r->sweep, i), eb)))
			return -1;
	}
	return 0;
}

int runner_profile_pass(struct runner *r, struct errbuf *eb)
{
	char dir[PATH_MAX];
	uint64_t t0 = clock_now_ns();
	int rc;

	if (!r->m->profile)
		return 0;
	if (fileio_fmt(dir, sizeof(dir), "%s/%s", r->cfg.out, RUNNER_PROFILE_DIR) < 0)
		return errbuf_set(eb, "%s: path too long", r->cfg.out);
	/* Every point's counts from the same tool state, whatever the timed steps left. */
	if (runner_reset_tool_state(runner_guard_prefix(r->guard), eb) < 0 ||
	    trustpath_make_dir(dir, eb) < 0 || write_costs(r, eb) < 0 ||
	    runstate_profile_begin(&r->rs, r->m->profile_budget_pct, timed_runs_ns(r), eb) < 0)
		return -1;
	/* Resetting the tools' state and pricing the calls are the pass's costs too. */
	profilebudget_spend(&r->rs.profile, clock_now_ns() - t0);
	rc = profile_points(r, eb);
	runstate_profile_finish(&r->rs);
	return rc;
}
