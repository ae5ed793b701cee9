/* runner_setup: prepares a manifest run (manifest, prefix facts, subjects, journal) and finishes
 * it. */
#include "jsonget.h"
#include "runner_impl.h"

#include "estimate.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "atomicfile.h"
#include "fileio.h"
#include "runner_output.h"

#define FACTS_MAX_BYTES (1024 * 1024)

static void utc_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
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
	return 0;
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
	r->bad_input = true;
	return -1;
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
	return runner_guard_arm(r, eb);
}

static int prepare_subjects(struct runner *r, struct errbuf *eb)
{
	struct proc_opts po = {.envp = r->envp,
			       .as = &r->user,
			       .output = PROC_OUTPUT_STDERR_FD,
			       .output_fd = r->stderr_fd,
			       .stdin_null = true,
			       .timeout_ms = r->m->run_timeout_ms,
			       .stop = r->cfg.stop,
			       .pin = &r->pin};
	struct proc_opts measured = po;
	size_t i;

	measured.output = PROC_OUTPUT_NULL;

	if (r->nactive == 0)
		return 0;
	if (runner_reference_setup(r, &measured, eb) < 0)
		return -1;
	/* On record before anything of it exists; every policy deny-all from here on. */
	if (runner_guard_arm(r, eb) < 0)
		return -1;
	for (i = 0; i < r->nsubjects; i++) {
		struct runner_subject *s = &r->subjects[i];

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
	size_t i;

	if (fileio_fmt(path, sizeof(path), "%s/journal.jsonl", r->cfg.out) < 0)
		return errbuf_set(eb, "%s: path too long", r->cfg.out);
	r->point_done = calloc(sweep_count(r->sweep) * r->m->max_rounds, sizeof(bool));
	if (r->point_done == NULL)
		return errbuf_set(eb, "out of memory");
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
			for (i = 0; i < r->done.npoints; i++) {
				size_t k;
				uint32_t round;

				if (sweep_parse_step_id(r->sweep, r->done.points[i].id,
							r->m->max_rounds, &k, &round) < 0) {
					errbuf_set(eb, "%s: point %s is not in this sweep", path,
						   r->done.points[i].id);
					return bad_input(r);
				}
				r->point_done[k * r->m->max_rounds + round - 1] = true;
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

static cJSON *build_meta(struct runner *r)
{
	struct hostfacts hf;
	cJSON *meta = cJSON_CreateObject(), *o, *skipped;
	char finished[32];
	size_t i;

	if (meta == NULL)
		return NULL;
	hostfacts_collect(&hf);
	utc_now(finished, sizeof(finished));
	/* meta adopts every item added below. */
	cJSON_AddStringToObject(meta, "name", r->m->name);
	if (r->m->description != NULL)
		cJSON_AddStringToObject(meta, "description", r->m->description);
	cJSON_AddStringToObject(meta, "manifest_path", r->cfg.manifest);
	cJSON_AddStringToObject(meta, "manifest_sha256", r->manifest_sha);
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
	cJSON_AddItemToObject(meta, "environment", runner_env_record(r));
	cJSON_AddStringToObject(meta, "prefix", r->cfg.prefix);
	cJSON_AddItemToObject(meta, "prefix_facts", cJSON_Duplicate(r->facts, 1));
	cJSON_AddItemToObject(meta, "pam", runner_pam_meta(r));
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
	cJSON_AddNumberToObject(meta, "points", (double)sweep_count(r->sweep));
	if (r->failed_points > 0) /* left out of the results: a run passed run_timeout_s */
		cJSON_AddNumberToObject(meta, "unmeasured_points", (double)r->failed_points);
	cJSON_AddStringToObject(meta, "started", r->started);
	cJSON_AddStringToObject(meta, "finished", finished);
	skipped = cJSON_AddArrayToObject(meta, "skipped_subjects");
	for (i = 0; skipped != NULL && i < r->nsubjects; i++) {
		if (r->subjects[i].skip_reason == NULL)
			continue;
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "id", r->subjects[i].ms->id);
		cJSON_AddStringToObject(o, "reason", r->subjects[i].skip_reason);
		cJSON_AddItemToArray(skipped, o);
	}
	return meta;
}

int runner_finish(struct runner *r, struct errbuf *eb)
{
	static const char *const names[] = {"results.json", "results.tsv", "journal.jsonl"};
	char sums[3][DIGEST_SHA256_HEX_LEN + 1], path[PATH_MAX];
	const char *sum_ptrs[3] = {sums[0], sums[1], sums[2]};
	struct journal_contents c;
	cJSON *meta = NULL;
	int rc = -1;
	size_t i;

	if (fileio_fmt(path, sizeof(path), "%s/journal.jsonl", r->cfg.out) < 0)
		return errbuf_set(eb, "%s: path too long", r->cfg.out);
	if (journal_read(path, &c, eb) < 0)
		return -1;
	meta = build_meta(r);
	if (meta == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	if (runner_output_write(r->cfg.out, r->m, r->sweep, &c, r->failed_points > 0, meta, eb) < 0)
		goto out;
	for (i = 0; i < 3; i++) {
		if (fileio_fmt(path, sizeof(path), "%s/%s", r->cfg.out, names[i]) < 0) {
			errbuf_set(eb, "%s: path too long", r->cfg.out);
			goto out;
		}
		if (digest_sha256_file(path, sums[i], eb) < 0)
			goto out;
	}
	progress_done(&r->progress, 0, names, sum_ptrs, 3);
	rc = 0;
out:
	cJSON_Delete(meta);
	journal_contents_clear(&c);
	return rc;
}

void runner_clear(struct runner *r)
{
	size_t i, k;

	runner_guard_end(r);
	runner_reference_clear(r);
	for (i = 0; i < r->nsubjects; i++) {
		struct runner_subject *s = &r->subjects[i];

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
	free(r->subjects);
	runner_problems_clear(r);
	journal_close(r->journal);
	journal_contents_clear(&r->done);
	free(r->point_done);
	runner_acc_clear(r);
	proc_env_free(r->envp);
	proc_user_clear(&r->user);
	cJSON_Delete(r->environment);
	cJSON_Delete(r->versions);
	cJSON_Delete(r->facts);
	sweep_free(r->sweep);
	manifest_free(r->m);
	if (r->stderr_fd >= 0)
		close(r->stderr_fd);
}

/* Prefixes eb's message with "rarbench: " (the line main prints); bad_input: exit 2. Returns -1. */
static int fail(struct runner *r, struct errbuf *eb, bool bad_input)
{
	errbuf_prefix(eb, "rarbench");
	r->bad_input = bad_input;
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
		runner_notice(r, "removed %zu temporary file(s) that a killed write left in %s", n,
			      dir);
	return 0;
}

/* The same in the directories of every subject's policy files and in PREFIX/run (lock held). */
static int remove_stale_in_prefix(struct runner *r, struct errbuf *eb)
{
	char dir[PATH_MAX];

	if (fileio_fmt(dir, sizeof(dir), "%s/run", r->prefix_real) < 0 ||
	    remove_stale(r, dir, eb) < 0)
		return -1;
	for (size_t i = 0; i < r->nsubjects; i++) {
		const char *files[2] = {r->subjects[i].policy, r->subjects[i].policy_data};

		for (size_t k = 0; k < 2; k++) {
			const char *slash = files[k] != NULL ? strrchr(files[k], '/') : NULL;

			if (slash == NULL || r->subjects[i].skip_reason != NULL)
				continue;
			if (fileio_fmt(dir, sizeof(dir), "%.*s", (int)(slash - files[k]),
				       files[k]) < 0 ||
			    remove_stale(r, dir[0] != '\0' ? dir : "/", eb) < 0)
				return -1;
		}
	}
	return 0;
}

/*
 * After the checks (not in a dry run): the output directory made, the
 * journal opened or resumed (r->point_done: its steps), the resumed
 * precision state rebuilt, and the progress counted from what is done.
 */
static int open_output(struct runner *r, struct errbuf *eb)
{
	size_t i, done = 0, extra = 0;
	char profile_dir[PATH_MAX];

	utc_now(r->started, sizeof(r->started));
	if (fileio_mkdirs(r->cfg.out, eb) < 0)
		return fail(r, eb, false);
	if (fileio_fmt(profile_dir, sizeof(profile_dir), "%s/profile", r->cfg.out) < 0 ||
	    remove_stale(r, r->cfg.out, eb) < 0 || remove_stale(r, profile_dir, eb) < 0)
		return fail(r, eb, false);
	if (open_journal(r, eb) < 0)
		return fail(r, eb, r->bad_input);
	if (realpath(r->cfg.out, r->out_abs) == NULL &&
	    fileio_fmt(r->out_abs, sizeof(r->out_abs), "%s", r->cfg.out) < 0) {
		errbuf_set(eb, "%s: path too long", r->cfg.out);
		return fail(r, eb, true);
	}
	if (runner_acc_init(r, eb) < 0)
		return fail(r, eb, true);
	/* Precision mode: the planned steps, and the extra ones already journalled. */
	for (i = 0; i < sweep_count(r->sweep) * r->m->max_rounds; i++) {
		done += r->point_done[i];
		extra += r->point_done[i] && i % r->m->max_rounds >= r->m->rounds;
	}
	progress_init(&r->progress, r->cfg.progress, sweep_count(r->sweep) * r->m->rounds + extra,
		      done);
	return 0;
}

int runner_setup(struct runner *r, struct errbuf *eb)
{
	struct manifest_problems problems;
	char tmpl[] = "/tmp/rarbench-grant-XXXXXX";

	r->m = manifest_load_all(r->cfg.manifest, 0, &problems, eb);
	if (r->m == NULL && problems.n > 1) {
		/* Every problem, one line each (main prints them), then how many. */
		r->problems = problems.line;
		r->nproblems = problems.n;
		errbuf_set(eb, "%s: %zu problems (above)", r->cfg.manifest, problems.n);
		return bad_input(r);
	}
	manifest_problems_clear(&problems);
	if (r->m == NULL)
		return bad_input(r); /* the message already starts with the file's name */
	digest_sha256_hex(r->m->text, r->m->text_len, r->manifest_sha);
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
	if (runner_guard_locate(r, eb) < 0 || load_facts(r, eb) < 0 || build_versions(r, eb) < 0)
		return fail(r, eb, false);
	if (runner_resolve_subjects(r, eb) < 0 || runner_plan_check_disk(r, eb) < 0 ||
	    (!r->cfg.not_this_host && runner_env_check(r, eb) < 0) ||
	    runner_profile_check(r, eb) < 0)
		return fail(r, eb, r->bad_input);
	if (r->cfg.dry_run && !r->cfg.pilot)
		return 0;
	if (runner_guard_begin(r, eb) < 0 || remove_stale_in_prefix(r, eb) < 0)
		return fail(r, eb, false);
	if (proc_become_subreaper(eb) < 0 || proc_user_lookup(r->m->bench_user, &r->user, eb) < 0 ||
	    runner_env_setup(r, eb) < 0)
		return fail(r, eb, false);
	/* Close-on-exec and unlinked at once: only a grant check's stderr (dup2'd) reaches it. */
	r->stderr_fd = mkostemp(tmpl, O_CLOEXEC);
	if (r->stderr_fd < 0) {
		errbuf_set_errno(eb, errno, "%s", tmpl);
		return fail(r, eb, false);
	}
	unlink(tmpl);
	if (prepare_subjects(r, eb) < 0)
		return fail(r, eb, r->bad_input);
	if (r->nactive == 0) {
		errbuf_set(eb, "no subject of %s is present under %s (%s)", r->cfg.manifest,
			   r->cfg.prefix, r->subjects[0].skip_reason);
		return fail(r, eb, false);
	}
	if (r->cfg.dry_run)
		return 0; /* the pilot needs the subjects, not the output directory */
	return open_output(r, eb);
}
