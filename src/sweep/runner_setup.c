/* runner_setup: prepares a manifest run (manifest, prefix facts, subjects, journal) and frees
 * it. */
#include "runner_setup.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomicfile.h"
#include "clock.h"
#include "fileio.h"
#include "jsonget.h"
#include "runner_point.h"
#include "runner_precision.h"
#include "trustpath.h"
#include "runfiles.h"

/*
 * The versions a resumed journal must match: rarperf's, and each tool's
 * from facts.json ("absent" when not built).
 */
static int build_versions(struct runner *r, struct errbuf *eb)
{
	const cJSON *tools = jsonget_member(r->plan->facts, "tools"), *t;

	r->versions = cJSON_CreateObject();
	if (r->versions == NULL)
		return errbuf_set(eb, "out of memory");
	cJSON_AddStringToObject(r->versions, "rarperf", RARPERF_VERSION);
	cJSON_ArrayForEach(t, tools)
	{
		const cJSON *v = jsonget_member(t, "version");

		cJSON_AddStringToObject(r->versions, t->string,
					cJSON_IsString(v) ? v->valuestring : "absent");
	}
	return 0;
}

/* path made absolute against the working directory (the policy may not exist yet). */
static int absolute_path(const char *path, char *out, size_t size, struct errbuf *eb)
{
	char cwd[PATH_MAX];
	int rc;

	if (path[0] == '/')
		rc = fileio_fmt(out, size, "%s", path);
	else if (getcwd(cwd, sizeof(cwd)) == NULL)
		return errbuf_set_errno(eb, errno, "getcwd");
	else
		rc = fileio_fmt(out, size, "%s/%s", cwd, path);
	if (rc < 0)
		return errbuf_set(eb, "%s: path too long", path);
	return 0;
}

/*
 * What the guard records and writes deny-all: every active subject's policy
 * files and namespace (runner_targets), the manifest's bench user and
 * command.
 */
static void armed_policies(const struct runner *r, struct runner_guard_policies *p)
{
	size_t i, k = 0;

	memset(p, 0, sizeof(*p));
	runner_targets(&r->sj, p->t);
	for (i = 0; i < r->sj.nsubjects; i++) {
		if (r->sj.subjects[i].p->skip_reason != NULL)
			continue;
		p->mntns_dir[k] = r->sj.subjects[i].mntns_dir;
		p->ns[k] = &r->sj.subjects[i].mntns;
		k++;
	}
	p->n = k;
	p->uid = (uint32_t)r->m->bench_uid;
	p->command = r->m->command;
}

/* The guard's record of the active subjects, saved, and their policies deny-all. 0 or -1. */
static int arm(struct runner *r, struct errbuf *eb)
{
	struct runner_guard_policies p;

	armed_policies(r, &p);
	return runner_guard_arm(r->guard, &p, eb);
}

void runner_end_guard(struct runner *r)
{
	runner_guard_end(r->guard, &r->notes);
	r->guard = NULL;
}

/* Chooses subject s's namespace directory and saves the record naming it. 0 or -1. */
static int reserve_mntns_dir(struct runner *r, struct runner_subject *s, struct errbuf *eb)
{
	char dir[PATH_MAX];

	if (mntns_reserve_dir(dir, sizeof(dir), eb) < 0)
		return -1;
	free(s->mntns_dir);
	s->mntns_dir = strdup(dir);
	if (s->mntns_dir == NULL)
		return errbuf_set(eb, "out of memory");
	return arm(r, eb);
}

static int prepare_subjects(struct runner *r, struct errbuf *eb)
{
	static struct plan_pam_files shown; /* large: its paths */
	struct proc_opts po = {.envp = r->env.envp,
			       .as = &r->user,
			       .output = PROC_OUTPUT_STDERR_FD,
			       .output_fd = r->rs.stderr_fd,
			       .stdin_null = true,
			       .timeout_ms = r->m->run_timeout_ms,
			       .stop = r->cfg.stop,
			       .pin = &r->env.pin};
	struct proc_opts measured = po;
	size_t i;

	measured.output = PROC_OUTPUT_NULL;

	if (r->sj.nactive == 0)
		return 0;
	if (runner_reference_setup(&r->sj.ref, r->m, &measured, eb) < 0 ||
	    runner_kernel_setup(&r->sj.kernel, r->m, &measured, eb) < 0)
		return -1;
	/* On record before anything of it exists; every policy deny-all from here on. */
	if (arm(r, eb) < 0)
		return -1;
	for (i = 0; i < r->sj.nsubjects; i++) {
		struct runner_subject *s = &r->sj.subjects[i];

		if (s->p->skip_reason != NULL)
			continue;
		po.mntns = measured.mntns = NULL;
		if (s->p->ms->format == POLICY_FORMAT_POLKIT) {
			/* pkexec: polkit's compiled-in paths show the prefix's (runner_polkit.h).
			 */
			static struct runner_polkit_files pf;

			if (reserve_mntns_dir(r, s, eb) < 0)
				return -1;
			if (runner_polkit_files(r->plan->where.real, &pf, eb) == 0 &&
			    (s->polkit = runner_polkit_new(r->plan->where.real, eb)) != NULL)
				s->mntns = mntns_show_files_at(pf.file, RUNNER_POLKIT_FILES,
							       s->mntns_dir, eb);
			if (s->mntns == NULL)
				return errbuf_prefix(eb, "subject %s: polkit", s->p->ms->id);
			po.mntns = measured.mntns = s->mntns;
		} else if (s->p->ms->policy_mount_at != NULL || s->p->pam_dir != NULL) {
			char abs[PATH_MAX];

			if (s->p->ms->policy_mount_at != NULL &&
			    absolute_path(s->p->policy, abs, sizeof(abs), eb) < 0)
				return errbuf_prefix(eb, "subject %s", s->p->ms->id);
			/* Its directory joins the record before it exists (a crash between the
			 * two would leave a directory no record names). */
			if (reserve_mntns_dir(r, s, eb) < 0)
				return -1;
			if (plan_pam_files(s->p, s->p->ms->policy_mount_at ? abs : NULL, &shown,
					   eb) == 0)
				s->mntns =
				    mntns_show_files_at(shown.file, shown.n, s->mntns_dir, eb);
			if (s->mntns == NULL)
				return errbuf_prefix(eb, "subject %s: %s", s->p->ms->id,
						     s->p->ms->policy_mount_at ? "policy_mount_at"
									       : "pam");
			po.mntns = measured.mntns = s->mntns;
		}
		/* please says why it refuses a policy on stdout ("Exiting as too much config has
		 * already been read."): its grant check keeps both streams, to quote and classify.
		 */
		po.output = s->p->ms->format == POLICY_FORMAT_PLEASE ? PROC_OUTPUT_BOTH_FD
								     : PROC_OUTPUT_STDERR_FD;
		s->check = proc_cmd_new(s->p->argv, &po, eb);
		if (s->check != NULL)
			s->cmd = proc_cmd_new(s->p->argv, &measured, eb);
		if (s->cmd == NULL)
			return errbuf_prefix(eb, "subject %s", s->p->ms->id);
	}
	return 0;
}

/* Marks the failure in eb as the command line's (exit 2) and returns -1. */
static int bad_args(struct runner *r)
{
	r->bad_args = true;
	return -1;
}

/* The refusals the resumed journal's steps hold (journal.h), known again (runstate.h): the
 * larger sizes stay skipped and the first refused size is the one said. */
static void resume_refusals(struct runner *r)
{
	for (size_t k = 0; k < r->done.npoints; k++) {
		const struct journal_point *jp = &r->done.points[k];

		if (jp->index >= sweep_count(r->sweep))
			continue;
		for (size_t f = 0; f < jp->info.nrefused; f++)
			for (size_t i = 0; i < r->sj.nsubjects; i++)
				if (strcmp(r->sj.subjects[i].p->ms->id,
					   jp->info.refused[f].subject) == 0)
					runstate_resume_refusal(
					    &r->rs, i, jp->index,
					    sweep_at(r->sweep, jp->index)->value,
					    refusal_class_parse(jp->info.refused[f].cls),
					    jp->info.refused[f].error);
	}
}

static int open_journal(struct runner *r, struct errbuf *eb)
{
	char path[PATH_MAX];
	struct stat st;
	const cJSON *s;

	if (fileio_fmt(path, sizeof(path), "%s/" RUNFILES_JOURNAL, r->cfg.out) < 0)
		return errbuf_set(eb, "%s: path too long", r->cfg.out);
	if (stat(path, &st) == 0) {
		if (!r->cfg.resume) {
			errbuf_set(eb,
				   "%s exists: continue it with --resume, or choose another --out",
				   path);
			return bad_args(r);
		}
		if (journal_read(path, &r->done, eb) < 0)
			return bad_args(r);
		if (r->done.header == NULL) {
			/* Not even a whole header: the run died at once; start it again. */
			if (unlink(path) < 0)
				return errbuf_set_errno(eb, errno, "%s: cannot remove", path);
		} else {
			if (journal_check(&r->done, r->plan->manifest_sha, r->versions, eb) < 0) {
				errbuf_prefix(eb, "%s: cannot resume", path);
				return bad_args(r);
			}
			if (runstate_resume(&r->rs, r->sweep, &r->done, eb) < 0) {
				errbuf_prefix(eb, "%s", path);
				return bad_args(r);
			}
			resume_refusals(r);
			s = jsonget_member(r->done.header, "started");
			if (cJSON_IsString(s))
				snprintf(r->started, sizeof(r->started), "%s", s->valuestring);
			r->journal = journal_reopen(path, r->done.valid_len, eb);
			return r->journal ? 0 : -1;
		}
	}
	r->journal = journal_create(path, r->plan->manifest_sha, r->versions, r->started, eb);
	return r->journal ? 0 : -1;
}

void runner_clear(struct runner *r)
{
	size_t i;

	runner_end_guard(r);
	runner_reference_clear(&r->sj.ref);
	runner_kernel_clear(&r->sj.kernel);
	for (i = 0; i < r->sj.nsubjects; i++) {
		struct runner_subject *s = &r->sj.subjects[i];

		proc_cmd_free(s->cmd);
		proc_cmd_free(s->check);
		runner_polkit_free(s->polkit);
		mntns_free(s->mntns);
		free(s->mntns_dir);
	}
	free(r->sj.subjects);
	runner_notes_clear(&r->notes);
	journal_close(r->journal);
	journal_contents_clear(&r->done);
	runstate_clear(&r->rs);
	runner_env_clear(&r->env);
	proc_user_clear(&r->user);
	cJSON_Delete(r->versions);
	plan_free(r->plan);
}

/* Prefixes eb's message with "rarbench: " (the line main prints); bad_args: the command line's
 * fault (exit 2; the plan's own is plan->bad_input). Returns -1. */
static int fail(struct runner *r, struct errbuf *eb, bool bad_args)
{
	errbuf_prefix(eb, "rarbench");
	r->bad_args = bad_args;
	return -1;
}

/*
 * Removes the temporary files a write killed midway (SIGKILL, a crash) left
 * in dir (atomicfile_remove_stale: ours by name and owner, old, open in no
 * process), saying so in a notice. 0 or -1.
 */
static int remove_stale(struct runner *r, const char *dir, struct errbuf *eb)
{
	size_t n = 0;

	if (atomicfile_remove_stale(dir, ATOMICFILE_STALE_MIN_AGE_S, &n, eb) < 0)
		return -1;
	if (n > 0)
		runner_notes_add(&r->notes,
				 "removed %zu temporary file(s) that a killed write left in %s", n,
				 dir);
	return 0;
}

/* The same in the directories of every subject's policy files and in PREFIX/run (lock held). */
static int remove_stale_in_prefix(struct runner *r, struct errbuf *eb)
{
	char dir[PATH_MAX];

	if (fileio_fmt(dir, sizeof(dir), "%s/run", runner_guard_prefix(r->guard)) < 0 ||
	    remove_stale(r, dir, eb) < 0)
		return -1;
	for (size_t i = 0; i < r->sj.nsubjects; i++) {
		const char *files[2] = {r->sj.subjects[i].p->policy,
					r->sj.subjects[i].p->policy_data};

		for (size_t k = 0; k < 2; k++) {
			const char *slash = files[k] != NULL ? strrchr(files[k], '/') : NULL;

			if (slash == NULL || r->sj.subjects[i].p->skip_reason != NULL)
				continue;
			if (fileio_fmt(dir, sizeof(dir), "%.*s", (int)(slash - files[k]),
				       files[k]) < 0 ||
			    remove_stale(r, dir[0] != '\0' ? dir : "/", eb) < 0)
				return -1;
		}
	}
	return 0;
}

/* The judge of this run's steps (runner_precision.h), fed the journal's steps on --resume, in
 * the run's state. */
static int open_precision(struct runner *r, struct errbuf *eb)
{
	const char *ids[MANIFEST_SUBJECTS_MAX];
	struct runner_precision *p;
	size_t i, k = 0;

	for (i = 0; i < r->sj.nsubjects && k < MANIFEST_SUBJECTS_MAX; i++)
		if (r->sj.subjects[i].p->skip_reason == NULL)
			ids[k++] = r->sj.subjects[i].p->ms->id;
	p = runner_precision_new(r->m, sweep_count(r->sweep), ids, k);
	if (p == NULL)
		return errbuf_set(eb, "out of memory");
	runstate_adopt_precision(&r->rs, p);
	return runner_precision_load(p, r->sweep, &r->done, eb);
}

/*
 * The output directory, made or taken only when nobody but root can change
 * what it holds (issue 45 finding 4: in a directory the bench user made, a
 * link at OUT/profile/trace let root's strace create or truncate any file,
 * and a FIFO at OUT/results.json held rarbench, the prefix locked). With
 * make false, only checked (before the lock: a run refused, or busy, writes
 * nothing); with make true, made and checked whole (before the first file).
 * 0, or -1 (the user's input: exit 2).
 */
static int make_out_dir(const char *dir, bool make, struct errbuf *eb)
{
	struct errbuf why = {{0}};

	if ((make ? trustpath_make_dir(dir, &why) : trustpath_check_out_dir(dir, &why)) == 0)
		return 0;
	return errbuf_set(eb,
			  "--out %s: %s: rarbench writes only in a directory that is root's along "
			  "its whole path, or one it makes (e.g. --out /tmp/NAME)",
			  dir, why.msg);
}

/* The output directory, its files and its profile/ (with a profile pass) checked, nothing made. */
static int check_out_dirs(struct runner *r, struct errbuf *eb)
{
	char profile_dir[PATH_MAX];

	static const char *const files[] = RUNFILES_SWEEP;
	struct stat st;

	if (make_out_dir(r->cfg.out, false, eb) < 0)
		return -1;
	/* Said now, before the lock and the runs, rather than when the file is written. */
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		if (fileio_fmt(profile_dir, sizeof(profile_dir), "%s/%s", r->cfg.out, files[i]) < 0)
			return errbuf_set(eb, "%s: path too long", r->cfg.out);
		if (lstat(profile_dir, &st) == 0 && !S_ISREG(st.st_mode))
			return errbuf_set(eb, "--out %s: %s is not a regular file (%s): remove it",
					  r->cfg.out, files[i],
					  S_ISFIFO(st.st_mode)  ? "a FIFO"
					  : S_ISLNK(st.st_mode) ? "a symbolic link"
								: "not a file");
	}
	if (!r->m->profile)
		return 0;
	if (fileio_fmt(profile_dir, sizeof(profile_dir), "%s/profile", r->cfg.out) < 0)
		return errbuf_set(eb, "%s: path too long", r->cfg.out);
	return make_out_dir(profile_dir, false, eb);
}

/*
 * After the checks (not in a dry run): the output directory made, the
 * journal opened or resumed (runstate_resume: its steps), the resumed
 * precision state rebuilt, and the progress counted from what is done.
 */
static int open_output(struct runner *r, struct errbuf *eb)
{
	size_t total, done;
	char profile_dir[PATH_MAX];

	clock_utc_now(r->started, sizeof(r->started));
	{
		struct errbuf unread; /* no load known: the meta says nothing of it */

		r->has_load_before = contention_read_host(&r->load_before, &unread) == 0;
	}
	if (make_out_dir(r->cfg.out, true, eb) < 0)
		return fail(r, eb, true);
	if (fileio_fmt(profile_dir, sizeof(profile_dir), "%s/profile", r->cfg.out) < 0 ||
	    remove_stale(r, r->cfg.out, eb) < 0 || remove_stale(r, profile_dir, eb) < 0)
		return fail(r, eb, false);
	if (open_journal(r, eb) < 0)
		return fail(r, eb, r->bad_args);
	if (realpath(r->cfg.out, r->out_abs) == NULL &&
	    fileio_fmt(r->out_abs, sizeof(r->out_abs), "%s", r->cfg.out) < 0) {
		errbuf_set(eb, "%s: path too long", r->cfg.out);
		return fail(r, eb, true);
	}
	if (open_precision(r, eb) < 0)
		return fail(r, eb, true);
	/* Precision mode: the planned steps, and the extra ones already journalled. */
	runstate_progress_counts(&r->rs, &total, &done);
	progress_init(&r->progress, r->cfg.progress, total, done);
	return 0;
}

/* The run's subjects (runner_subjects.h), one beside each of the plan's. 0 or -1. */
static int bind_subjects(struct runner *r, struct errbuf *eb)
{
	const struct plan *p = r->plan;

	r->sj.plan = p;
	r->sj.subjects = calloc(p->nsubjects ? p->nsubjects : 1, sizeof(*r->sj.subjects));
	if (r->sj.subjects == NULL)
		return errbuf_set(eb, "out of memory");
	for (size_t i = 0; i < p->nsubjects; i++)
		r->sj.subjects[i].p = &p->subjects[i];
	r->sj.nsubjects = p->nsubjects;
	r->sj.nactive = p->nactive;
	r->sj.stop = r->cfg.stop;
	return 0;
}

/* The plan (plan.h) of r->cfg: the manifest (its warning to cfg.err), the command line's root
 * check, then the prefix. 0, or -1 with eb the line to print. */
static int make_plan(struct runner *r, struct errbuf *eb)
{
	const struct plan_config pc = {.manifest = r->cfg.manifest,
				       .prefix = r->cfg.prefix,
				       .out = r->cfg.out,
				       .this_host = !r->cfg.not_this_host,
				       .tracer = NULL,
				       .counts = r->cfg.counts};
	char warning[ERRBUF_MSG_MAX];
	int rc = plan_open(&pc, &r->plan, eb);

	if (plan_warning(r->plan, warning, sizeof(warning)))
		fprintf(r->cfg.err, "rarbench: %s\n", warning);
	if (rc < 0)
		return -1; /* the message already starts with the file's name */
	r->m = r->plan->m;
	r->sweep = r->plan->sweep;
	r->cfg.out = r->plan->out;
	if (!r->cfg.dry_run && geteuid() != 0) {
		errbuf_set(eb,
			   "--manifest must run as root: it writes the tools' policies (measured "
			   "runs drop to the bench user); --dry-run checks it as any user");
		return fail(r, eb, true);
	}
	/* Everything the user's input can get wrong is checked before anything is touched. */
	if (plan_resolve(r->plan, eb) < 0)
		return fail(r, eb, false);
	r->cfg.tracer = r->plan->tracer;
	return 0;
}

/* The prefix's lock taken and a dead run's state undone (runner_guard_begin), with the record
 * of this run's subjects. 0 or -1 (r->busy: another run holds the prefix). */
static int begin_guard(struct runner *r, struct errbuf *eb)
{
	struct runner_guard_policies p;

	armed_policies(r, &p);
	return runner_guard_begin(r->guard, r->cfg.manifest, r->cfg.wait, r->cfg.stop, &p,
				  &r->notes, &r->busy, eb);
}

/* What changes during the run (runstate.h), shaped by the subjects resolved, and the grant
 * checks' stderr file. 0 or -1. */
static int open_state(struct runner *r, struct errbuf *eb)
{
	bool active[MANIFEST_SUBJECTS_MAX];
	size_t i;

	for (i = 0; i < r->sj.nsubjects && i < MANIFEST_SUBJECTS_MAX; i++)
		active[i] = r->sj.subjects[i].p->skip_reason == NULL;
	if (runstate_setup(&r->rs, r->m, sweep_count(r->sweep), active, r->sj.nsubjects, eb) < 0)
		return -1;
	return runstate_open_stderr(&r->rs, eb);
}

int runner_setup(struct runner *r, struct errbuf *eb)
{
	if (make_plan(r, eb) < 0)
		return -1;
	if (bind_subjects(r, eb) < 0 || build_versions(r, eb) < 0)
		return fail(r, eb, false);
	if (r->cfg.dry_run && !r->cfg.pilot)
		return 0;
	if (!r->cfg.dry_run && check_out_dirs(r, eb) < 0)
		return fail(r, eb, true);
	r->guard = runner_guard_locate(&r->plan->where, eb);
	if (r->guard == NULL || begin_guard(r, eb) < 0 || remove_stale_in_prefix(r, eb) < 0)
		return fail(r, eb, false);
	if (proc_become_subreaper(eb) < 0 || proc_user_lookup(r->m->bench_user, &r->user, eb) < 0 ||
	    runner_env_setup(&r->env, r->m, &r->user, runner_guard_marker(r->guard), r->versions,
			     eb) < 0)
		return fail(r, eb, false);
	if (open_state(r, eb) < 0)
		return fail(r, eb, false);
	if (prepare_subjects(r, eb) < 0)
		return fail(r, eb, false);
	if (r->sj.nactive == 0) {
		errbuf_set(eb, "no subject of %s is present under %s (%s)", r->cfg.manifest,
			   r->cfg.prefix, r->sj.subjects[0].p->skip_reason);
		return fail(r, eb, false);
	}
	if (r->cfg.dry_run)
		return 0; /* the pilot needs the subjects, not the output directory */
	return open_output(r, eb);
}
