/* runner_setup: prepares a manifest run (manifest, prefix facts, subjects, journal) and frees
 * it. */
#include "jsonget.h"
#include "runner_impl.h"

#include "estimate.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomicfile.h"
#include "fileio.h"
#include "runner_output.h"
#include "trustpath.h"

#define FACTS_MAX_BYTES (1024 * 1024)

/*
 * A prefix is where it was provisioned (issue 46): its tools were configured
 * with the path facts.json records ("prefix", written by every provisioning),
 * so a copy's sudo still reads the original's sudoers. A copy elsewhere is
 * refused, saying how to make one's own; a facts.json without the key is
 * taken as it is. A copy bind-mounted at the original's path passes (its
 * tools read it there); prefixlock tells it from the original by its
 * directory's identity. 0, or -1 (exit 2: the caller's input).
 */
static int check_provisioned_here(const cJSON *facts, const char *prefix, const char *path,
				  struct errbuf *eb)
{
	const cJSON *rec = jsonget_member(facts, "prefix");
	char here[PATH_MAX], there[PATH_MAX];

	if (!cJSON_IsString(rec))
		return 0;
	if (realpath(prefix, here) == NULL)
		return errbuf_set_errno(eb, errno, "%s", prefix);
	if (realpath(rec->valuestring, there) == NULL &&
	    fileio_fmt(there, sizeof(there), "%s", rec->valuestring) < 0)
		return errbuf_set(eb, "%s: prefix: path too long", path);
	if (strcmp(here, there) == 0)
		return 0;
	return errbuf_set(eb,
			  "%s: prefix: provisioned as %s, not %s (a copy: its tools read their "
			  "policies there): provision a prefix of your own with make provision "
			  "RARPERF_PREFIX=%s",
			  path, rec->valuestring, here, here);
}

/* Reads PREFIX/facts.json (doc/interfaces.md §1). */
static int load_facts(struct runner *r, struct errbuf *eb)
{
	char path[PATH_MAX], *buf = NULL;
	size_t len = 0;

	if (fileio_fmt(path, sizeof(path), "%s/facts.json", r->cfg.prefix) < 0)
		return errbuf_set(eb, "%s: path too long", r->cfg.prefix);
	if (fileio_read(path, FACTS_MAX_BYTES,
			"cannot open (provision the prefix first: make provision)", &buf, &len,
			eb) < 0)
		return -1;
	r->facts = cJSON_ParseWithLength(buf, len);
	free(buf);
	if (!cJSON_IsObject(r->facts))
		return errbuf_set(eb, "%s: not a JSON object", path);
	return check_provisioned_here(r->facts, r->cfg.prefix, path, eb);
}

const char *runner_default_prefix(void)
{
	const char *env = getenv("RARPERF_PREFIX");

	return env != NULL && env[0] != '\0' ? env : RUNNER_DEFAULT_PREFIX;
}

/*
 * The versions a resumed journal must match: rarperf's, and each tool's
 * from facts.json ("absent" when not built).
 */
static int build_versions(struct runner *r, struct errbuf *eb)
{
	const cJSON *tools = jsonget_member(r->facts, "tools"), *t;

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

/* Marks the failure in eb as the user's input (exit 2) and returns -1. */
static int bad_input(struct runner *r)
{
	r->sj.bad_input = true;
	return -1;
}

/* facts.json read (a copied prefix is the caller's input: exit 2), then the versions. */
static int build_versions_after_facts(struct runner *r, struct errbuf *eb)
{
	if (load_facts(r, eb) < 0) {
		/* A facts.json that cannot be read is the prefix's fault, a copy the user's. */
		if (r->facts != NULL && cJSON_IsObject(r->facts))
			return bad_input(r);
		return -1;
	}
	return build_versions(r, eb);
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
		if (r->sj.subjects[i].skip_reason != NULL)
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
	if (runner_reference_setup(&r->ref, r->m, &measured, eb) < 0 ||
	    runner_kernel_setup(&r->kernel, r->m, &measured, eb) < 0)
		return -1;
	/* On record before anything of it exists; every policy deny-all from here on. */
	if (arm(r, eb) < 0)
		return -1;
	for (i = 0; i < r->sj.nsubjects; i++) {
		struct runner_subject *s = &r->sj.subjects[i];

		if (s->skip_reason != NULL)
			continue;
		po.mntns = measured.mntns = NULL;
		if (s->ms->policy_mount_at != NULL || s->pam_dir != NULL) {
			char abs[PATH_MAX];

			if (s->ms->policy_mount_at != NULL &&
			    absolute_path(s->policy, abs, sizeof(abs), eb) < 0)
				return errbuf_prefix(eb, "subject %s", s->ms->id);
			/* Its directory joins the record before it exists (a crash between the
			 * two would leave a directory no record names). */
			if (reserve_mntns_dir(r, s, eb) < 0)
				return -1;
			s->mntns = runner_pam_mntns(s, s->ms->policy_mount_at ? abs : NULL,
						    s->mntns_dir, eb);
			if (s->mntns == NULL)
				return errbuf_prefix(eb, "subject %s: %s", s->ms->id,
						     s->ms->policy_mount_at ? "policy_mount_at"
									    : "pam");
			po.mntns = measured.mntns = s->mntns;
		}
		s->check = proc_cmd_new(s->argv, &po, eb);
		if (s->check != NULL)
			s->cmd = proc_cmd_new(s->argv, &measured, eb);
		if (s->cmd == NULL)
			return errbuf_prefix(eb, "subject %s", s->ms->id);
	}
	return 0;
}

static int open_journal(struct runner *r, struct errbuf *eb)
{
	char path[PATH_MAX];
	struct stat st;
	const cJSON *s;

	if (fileio_fmt(path, sizeof(path), "%s/journal.jsonl", r->cfg.out) < 0)
		return errbuf_set(eb, "%s: path too long", r->cfg.out);
	if (stat(path, &st) == 0) {
		if (!r->cfg.resume) {
			errbuf_set(eb,
				   "%s exists: continue it with --resume, or choose another --out",
				   path);
			return bad_input(r);
		}
		if (journal_read(path, &r->done, eb) < 0)
			return bad_input(r);
		if (r->done.header == NULL) {
			/* Not even a whole header: the run died at once; start it again. */
			if (unlink(path) < 0)
				return errbuf_set_errno(eb, errno, "%s: cannot remove", path);
		} else {
			if (journal_check(&r->done, r->manifest_sha, r->versions, eb) < 0) {
				errbuf_prefix(eb, "%s: cannot resume", path);
				return bad_input(r);
			}
			if (runstate_resume(&r->rs, r->sweep, &r->done, eb) < 0) {
				errbuf_prefix(eb, "%s", path);
				return bad_input(r);
			}
			s = jsonget_member(r->done.header, "started");
			if (cJSON_IsString(s))
				snprintf(r->started, sizeof(r->started), "%s", s->valuestring);
			r->journal = journal_reopen(path, r->done.valid_len, eb);
			return r->journal ? 0 : -1;
		}
	}
	r->journal = journal_create(path, r->manifest_sha, r->versions, r->started, eb);
	return r->journal ? 0 : -1;
}

void runner_clear(struct runner *r)
{
	size_t i, k;

	runner_end_guard(r);
	runner_reference_clear(&r->ref);
	runner_kernel_clear(&r->kernel);
	for (i = 0; i < r->sj.nsubjects; i++) {
		struct runner_subject *s = &r->sj.subjects[i];

		proc_cmd_free(s->cmd);
		proc_cmd_free(s->check);
		mntns_free(s->mntns);
		free(s->mntns_dir);
		for (k = 0; k < s->argc; k++)
			free(s->argv[k]);
		free(s->argv);
		free(s->program);
		free(s->policy);
		free(s->policy_data);
		free(s->command_line);
		free(s->skip_reason);
		free(s->pam_dir);
		free(s->pam_service);
		free(s->unsafe);
	}
	free(r->sj.subjects);
	runner_problems_clear(&r->sj);
	runner_notes_clear(&r->notes);
	journal_close(r->journal);
	journal_contents_clear(&r->done);
	runstate_clear(&r->rs);
	runner_precision_free(r->precision);
	runner_env_clear(&r->env);
	proc_user_clear(&r->user);
	cJSON_Delete(r->versions);
	cJSON_Delete(r->facts);
	sweep_free(r->sweep);
	manifest_free(r->m);
}

/* Prefixes eb's message with "rarbench: " (the line main prints); bad_input: exit 2. Returns -1. */
static int fail(struct runner *r, struct errbuf *eb, bool bad_input)
{
	errbuf_prefix(eb, "rarbench");
	r->sj.bad_input = bad_input;
	return -1;
}

/* --out's default: results/<name>, the name reduced to characters safe in a path. */
static void default_out(struct runner *r)
{
	size_t n;

	/* lint: sized to fit (at most 208 bytes of 256) */
	snprintf(r->out_default, sizeof(r->out_default), "results/%.200s", r->m->name);
	for (n = 8; r->out_default[n] != '\0'; n++) {
		char ch = r->out_default[n];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' || ch == '.'))
			r->out_default[n] = '_';
	}
	if (r->out_default[8] == '.')
		r->out_default[8] = '_'; /* never "results/.." */
	r->cfg.out = r->out_default;
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
		const char *files[2] = {r->sj.subjects[i].policy, r->sj.subjects[i].policy_data};

		for (size_t k = 0; k < 2; k++) {
			const char *slash = files[k] != NULL ? strrchr(files[k], '/') : NULL;

			if (slash == NULL || r->sj.subjects[i].skip_reason != NULL)
				continue;
			if (fileio_fmt(dir, sizeof(dir), "%.*s", (int)(slash - files[k]),
				       files[k]) < 0 ||
			    remove_stale(r, dir[0] != '\0' ? dir : "/", eb) < 0)
				return -1;
		}
	}
	return 0;
}

/* The judge of this run's steps (runner_precision.h), fed the journal's steps on --resume. */
static int open_precision(struct runner *r, struct errbuf *eb)
{
	const char *ids[MANIFEST_SUBJECTS_MAX];
	size_t i, k = 0;

	for (i = 0; i < r->sj.nsubjects && k < MANIFEST_SUBJECTS_MAX; i++)
		if (r->sj.subjects[i].skip_reason == NULL)
			ids[k++] = r->sj.subjects[i].ms->id;
	r->precision = runner_precision_new(r->m, sweep_count(r->sweep), ids, k);
	if (r->precision == NULL)
		return errbuf_set(eb, "out of memory");
	return runner_precision_load(r->precision, r->sweep, &r->done, eb);
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

	static const char *const files[] = {"results.json", "results.tsv", "journal.jsonl"};
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

	runner_utc_now(r->started, sizeof(r->started));
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
		return fail(r, eb, r->sj.bad_input);
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

/* The subjects resolved (runner_subjects.h) against what the setup has read so far. */
static int resolve_subjects(struct runner *r, struct errbuf *eb)
{
	r->sj.m = r->m;
	r->sj.manifest = r->cfg.manifest;
	r->sj.prefix = r->cfg.prefix;
	r->sj.guard = r->guard;
	r->sj.facts = r->facts;
	return runner_resolve_subjects(&r->sj, eb);
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
		active[i] = r->sj.subjects[i].skip_reason == NULL;
	if (runstate_setup(&r->rs, r->m, sweep_count(r->sweep), active, r->sj.nsubjects, eb) < 0)
		return -1;
	return runstate_open_stderr(&r->rs, eb);
}

/* What the steps borrow of r (runner_point.h), once the setup has made it. */
static void bind_steps(struct runner *r)
{
	r->steps.m = r->m;
	r->steps.sj = &r->sj;
	r->steps.ref = &r->ref;
	r->steps.kernel = &r->kernel;
	r->steps.guard = r->guard;
	r->steps.precision = r->precision;
	r->steps.journal = r->journal;
	r->steps.state = &r->rs;
	r->steps.stop = r->cfg.stop;
}

/* runner_setup's steps in their order (runner_setup binds the steps after them). */
static int setup(struct runner *r, struct errbuf *eb)
{
	struct manifest_problems problems;

	r->m = manifest_load_all(r->cfg.manifest, 0, &problems, eb);
	if (r->m == NULL && problems.n > 1) {
		/* Every problem, one line each (main prints them), then how many. */
		r->sj.problems = problems.line;
		r->sj.nproblems = problems.n;
		errbuf_set(eb, "%s: %zu problems (above)", r->cfg.manifest, problems.n);
		return bad_input(r);
	}
	manifest_problems_clear(&problems);
	if (r->m == NULL)
		return bad_input(r); /* the message already starts with the file's name */
	digest_sha256_hex(r->m->text, r->m->text_len, r->manifest_sha);
	if (r->m->repetitions > 1)
		/* Allowed (a within-sweep study), but never how to repeat an experiment. */
		fprintf(
		    r->cfg.err,
		    "rarbench: warning: \"repetitions\": %u measures each point %u times in one "
		    "sweep: narrower intervals, still none of the variation between sweeps; to "
		    "repeat an experiment run %u sweeps into %u --out directories and compare "
		    "them (doc/guide-first-comparison.md, step 3)\n",
		    r->m->repetitions, r->m->repetitions, r->m->repetitions, r->m->repetitions);
	if (r->cfg.out == NULL)
		default_out(r);
	r->sweep = sweep_new(r->m, eb);
	if (r->sweep == NULL) {
		errbuf_prefix(eb, "%s", r->cfg.manifest);
		return bad_input(r);
	}
	if (!r->cfg.dry_run && geteuid() != 0) {
		errbuf_set(eb,
			   "--manifest must run as root: it writes the tools' policies (measured "
			   "runs drop to the bench user); --dry-run checks it as any user");
		return fail(r, eb, true);
	}
	/* Everything the user's input can get wrong is checked before anything is touched. */
	r->guard = runner_guard_locate(r->cfg.prefix, eb);
	if (r->guard == NULL || build_versions_after_facts(r, eb) < 0)
		return fail(r, eb, r->sj.bad_input);
	if (resolve_subjects(r, eb) < 0 || runner_plan_check_disk(&r->sj, eb) < 0 ||
	    (!r->cfg.not_this_host && runner_env_check(&r->env, &r->sj, eb) < 0) ||
	    runner_profile_check(r, eb) < 0)
		return fail(r, eb, r->sj.bad_input);
	if (r->cfg.dry_run && !r->cfg.pilot)
		return 0;
	if (!r->cfg.dry_run && check_out_dirs(r, eb) < 0)
		return fail(r, eb, true);
	if (begin_guard(r, eb) < 0 || remove_stale_in_prefix(r, eb) < 0)
		return fail(r, eb, false);
	if (proc_become_subreaper(eb) < 0 || proc_user_lookup(r->m->bench_user, &r->user, eb) < 0 ||
	    runner_env_setup(&r->env, r->m, &r->user, runner_guard_marker(r->guard), r->versions,
			     eb) < 0)
		return fail(r, eb, false);
	if (open_state(r, eb) < 0)
		return fail(r, eb, false);
	if (prepare_subjects(r, eb) < 0)
		return fail(r, eb, r->sj.bad_input);
	if (r->sj.nactive == 0) {
		errbuf_set(eb, "no subject of %s is present under %s (%s)", r->cfg.manifest,
			   r->cfg.prefix, r->sj.subjects[0].skip_reason);
		return fail(r, eb, false);
	}
	if (r->cfg.dry_run)
		return 0; /* the pilot needs the subjects, not the output directory */
	return open_output(r, eb);
}

int runner_setup(struct runner *r, struct errbuf *eb)
{
	int rc = setup(r, eb);

	bind_steps(r);
	return rc;
}
