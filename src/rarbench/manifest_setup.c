/* manifest_setup: prepares a manifest run (manifest, prefix facts, subjects, journal) and finishes
 * it. */
#include "manifest_run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "manifest_output.h"

#define FACTS_MAX_BYTES (1024 * 1024)

static void utc_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Reads PREFIX/facts.json (doc/interfaces.md §1). */
static int load_facts(struct manifest_run *r, struct errbuf *eb)
{
	char path[PATH_MAX], *buf = NULL;
	size_t len = 0, n;
	FILE *f;
	int rc = -1;

	snprintf(path, sizeof(path), "%s/facts.json", r->cfg.prefix);
	f = fopen(path, "r");
	if (f == NULL)
		return errbuf_set_errno(eb, errno,
					"%s: cannot open (provision the prefix first: "
					"make provision)",
					path);
	buf = malloc(FACTS_MAX_BYTES + 1);
	if (buf == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	while ((n = fread(buf + len, 1, FACTS_MAX_BYTES + 1 - len, f)) > 0 &&
	       len <= FACTS_MAX_BYTES)
		len += n;
	if (len > FACTS_MAX_BYTES) {
		errbuf_set(eb, "%s: larger than %d bytes", path, FACTS_MAX_BYTES);
		goto out;
	}
	r->facts = cJSON_ParseWithLength(buf, len);
	if (!cJSON_IsObject(r->facts)) {
		errbuf_set(eb, "%s: not a JSON object", path);
		goto out;
	}
	rc = 0;
out:
	free(buf);
	fclose(f);
	return rc;
}

/*
 * The versions a resumed journal must match: rarperf's, and each tool's
 * from facts.json ("absent" when not built).
 */
static int build_versions(struct manifest_run *r, struct errbuf *eb)
{
	const cJSON *tools = cJSON_GetObjectItemCaseSensitive(r->facts, "tools"), *t;

	r->versions = cJSON_CreateObject();
	if (r->versions == NULL)
		return errbuf_set(eb, "out of memory");
	cJSON_AddStringToObject(r->versions, "rarperf", RARPERF_VERSION);
	cJSON_ArrayForEach(t, tools)
	{
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(t, "version");

		cJSON_AddStringToObject(r->versions, t->string,
					cJSON_IsString(v) ? v->valuestring : "absent");
	}
	return 0;
}

static char *join_words(char *const *words, size_t n)
{
	size_t len = 1, i, off = 0, w;
	char *s;

	for (i = 0; i < n; i++)
		len += strlen(words[i]) + 1;
	s = calloc(1, len);
	if (s == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		if (i > 0)
			s[off++] = ' ';
		w = strlen(words[i]);
		memcpy(s + off, words[i], w);
		off += w;
	}
	return s;
}

/* Expands one subject's strings against the prefix and checks its program. */
static int resolve_subject(struct manifest_run *r, const struct manifest_subject *ms,
			   struct manifest_run_subject *s, struct errbuf *eb)
{
	const char *prefix = r->cfg.prefix, *cmd = r->m->command;
	size_t i;

	s->ms = ms;
	s->program = manifest_expand(ms->program, prefix, cmd, eb);
	s->policy = s->program ? manifest_expand(ms->policy, prefix, cmd, eb) : NULL;
	if (s->policy == NULL)
		return -1;
	if (ms->policy_data != NULL &&
	    (s->policy_data = manifest_expand(ms->policy_data, prefix, cmd, eb)) == NULL)
		return -1;
	s->argv = calloc(ms->nargs + 2, sizeof(*s->argv));
	if (s->argv == NULL || (s->argv[0] = strdup(s->program)) == NULL)
		return errbuf_set(eb, "out of memory");
	s->argc = 1;
	for (i = 0; i < ms->nargs; i++) {
		s->argv[s->argc] = manifest_expand(ms->args[i], prefix, cmd, eb);
		if (s->argv[s->argc] == NULL)
			return -1;
		s->argc++;
	}
	s->command_line = join_words(s->argv, s->argc);
	if (s->command_line == NULL)
		return errbuf_set(eb, "out of memory");
	if (access(s->program, X_OK) != 0) {
		char reason[PATH_MAX + 64];

		snprintf(reason, sizeof(reason), "%s is missing", s->program);
		if (errno != ENOENT)
			snprintf(reason, sizeof(reason), "%s is not executable: %s", s->program,
				 strerror(errno));
		s->skip_reason = strdup(reason);
		if (s->skip_reason == NULL)
			return errbuf_set(eb, "out of memory");
	}
	return 0;
}

static int prepare_subjects(struct manifest_run *r, struct errbuf *eb)
{
	struct proc_opts po = {.envp = r->envp,
			       .as = &r->user,
			       .output = PROC_OUTPUT_FD,
			       .output_fd = r->stderr_fd,
			       .stdin_null = true};
	struct proc_opts measured = po;
	size_t i;

	measured.output = PROC_OUTPUT_NULL;

	r->subjects = calloc(r->m->nsubjects, sizeof(*r->subjects));
	if (r->subjects == NULL)
		return errbuf_set(eb, "out of memory");
	r->nsubjects = r->m->nsubjects;
	for (i = 0; i < r->nsubjects; i++) {
		struct manifest_run_subject *s = &r->subjects[i];

		if (resolve_subject(r, &r->m->subjects[i], s, eb) < 0)
			return errbuf_prefix(eb, "subject %s", r->m->subjects[i].id);
		if (s->skip_reason != NULL)
			continue;
		s->check = proc_cmd_new(s->argv, &po, eb);
		if (s->check != NULL)
			s->cmd = proc_cmd_new(s->argv, &measured, eb);
		if (s->cmd == NULL)
			return errbuf_prefix(eb, "subject %s", s->ms->id);
		r->nactive++;
	}
	return 0;
}

static int mkdir_p(const char *dir, struct errbuf *eb)
{
	char buf[PATH_MAX], *p;

	if (snprintf(buf, sizeof(buf), "%s", dir) >= (int)sizeof(buf))
		return errbuf_set(eb, "%s: path too long", dir);
	for (p = buf + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return errbuf_set_errno(eb, errno, "%s: cannot create", buf);
		*p = '/';
	}
	if (mkdir(buf, 0755) < 0 && errno != EEXIST)
		return errbuf_set_errno(eb, errno, "%s: cannot create", buf);
	return 0;
}

/* Opens (or, with --resume, continues) DIR/journal.jsonl. Returns 0, -1 (exit 1) or -2 (exit 2). */
static int open_journal(struct manifest_run *r, struct errbuf *eb)
{
	char path[PATH_MAX];
	struct stat st;
	const cJSON *s;
	size_t i;

	snprintf(path, sizeof(path), "%s/journal.jsonl", r->cfg.out);
	r->point_done = calloc(sweep_count(r->sweep) * r->m->rounds, sizeof(bool));
	if (r->point_done == NULL)
		return errbuf_set(eb, "out of memory");
	if (stat(path, &st) == 0) {
		if (!r->cfg.resume) {
			errbuf_set(eb,
				   "%s exists: continue it with --resume, or choose another --out",
				   path);
			return -2;
		}
		if (journal_read(path, &r->done, eb) < 0)
			return -2;
		if (r->done.header == NULL) {
			/* Not even a whole header: the run died at once; start it again. */
			if (unlink(path) < 0)
				return errbuf_set_errno(eb, errno, "%s: cannot remove", path);
		} else {
			if (journal_check(&r->done, r->manifest_sha, r->versions, eb) < 0) {
				errbuf_prefix(eb, "%s: cannot resume", path);
				return -2;
			}
			for (i = 0; i < r->done.npoints; i++) {
				size_t k;
				uint32_t round;

				if (sweep_parse_step_id(r->sweep, r->done.points[i].id,
							r->m->rounds, &k, &round) < 0) {
					errbuf_set(eb, "%s: point %s is not in this sweep", path,
						   r->done.points[i].id);
					return -2;
				}
				r->point_done[k * r->m->rounds + round - 1] = true;
			}
			s = cJSON_GetObjectItemCaseSensitive(r->done.header, "started");
			if (cJSON_IsString(s))
				snprintf(r->started, sizeof(r->started), "%s", s->valuestring);
			r->journal = journal_reopen(path, r->done.valid_len, eb);
			return r->journal ? 0 : -1;
		}
	}
	r->journal = journal_create(path, r->manifest_sha, r->versions, r->started, eb);
	return r->journal ? 0 : -1;
}

static cJSON *build_meta(struct manifest_run *r)
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
	cJSON_AddItemToObject(meta, "host", hostfacts_to_json(&hf));
	cJSON_AddStringToObject(meta, "prefix", r->cfg.prefix);
	cJSON_AddItemToObject(meta, "prefix_facts", cJSON_Duplicate(r->facts, 1));
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
	cJSON_AddStringToObject(o, "order",
				r->m->order == MANIFEST_ORDER_SEQUENTIAL ? "sequential"
				: r->m->order == MANIFEST_ORDER_RANDOM   ? "random"
									 : "interleaved");
	cJSON_AddNumberToObject(o, "seed", (double)r->m->seed);
	cJSON_AddNumberToObject(o, "repetitions", r->m->repetitions);
	cJSON_AddNumberToObject(o, "rounds", r->m->rounds);
	cJSON_AddNumberToObject(meta, "points", (double)sweep_count(r->sweep));
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

int manifest_run_finish(struct manifest_run *r, struct errbuf *eb)
{
	static const char *const names[] = {"results.json", "results.tsv", "journal.jsonl"};
	char sums[3][HOSTFACTS_SHA256_HEX_LEN + 1], path[PATH_MAX];
	const char *sum_ptrs[3] = {sums[0], sums[1], sums[2]};
	struct journal_contents c;
	cJSON *meta = NULL;
	int rc = -1;
	size_t i;

	snprintf(path, sizeof(path), "%s/journal.jsonl", r->cfg.out);
	if (journal_read(path, &c, eb) < 0)
		return -1;
	meta = build_meta(r);
	if (meta == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	if (manifest_output_write(r->cfg.out, r->m, r->sweep, &c, meta, eb) < 0)
		goto out;
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", r->cfg.out, names[i]);
		if (hostfacts_sha256_file(path, sums[i], eb) < 0)
			goto out;
	}
	manifest_progress_done(&r->progress, 0, names, sum_ptrs, 3);
	rc = 0;
out:
	cJSON_Delete(meta);
	journal_contents_clear(&c);
	return rc;
}

void manifest_run_clear(struct manifest_run *r)
{
	size_t i, k;

	for (i = 0; i < r->nsubjects; i++) {
		struct manifest_run_subject *s = &r->subjects[i];

		proc_cmd_free(s->cmd);
		proc_cmd_free(s->check);
		for (k = 0; k < s->argc; k++)
			free(s->argv[k]);
		free(s->argv);
		free(s->program);
		free(s->policy);
		free(s->policy_data);
		free(s->command_line);
		free(s->skip_reason);
	}
	free(r->subjects);
	journal_close(r->journal);
	journal_contents_clear(&r->done);
	free(r->point_done);
	proc_env_free(r->envp);
	proc_user_clear(&r->user);
	cJSON_Delete(r->versions);
	cJSON_Delete(r->facts);
	sweep_free(r->sweep);
	manifest_free(r->m);
	if (r->stderr_fd >= 0)
		close(r->stderr_fd);
}

/* Prefixes eb's message with "rarbench: " (the line main prints) and returns status. */
static int fail(struct errbuf *eb, int status)
{
	errbuf_prefix(eb, "rarbench");
	return status;
}

int manifest_run_setup(struct manifest_run *r, struct errbuf *eb)
{
	char tmpl[] = "/tmp/rarbench-grant-XXXXXX";
	size_t i, done = 0;
	int j;

	r->m = manifest_load(r->cfg.manifest, eb);
	if (r->m == NULL)
		return 2; /* the message already starts with the file's name */
	hostfacts_sha256_hex(r->m->text, r->m->text_len, r->manifest_sha);
	if (r->cfg.out == NULL) {
		size_t n;

		/* results/<name>, the name reduced to characters safe in a path */
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
	r->sweep = sweep_new(r->m, eb);
	if (r->sweep == NULL) {
		errbuf_prefix(eb, "%s", r->cfg.manifest);
		return 2;
	}
	if (geteuid() != 0) {
		errbuf_set(eb,
			   "--manifest must run as root: it writes the tools' policies (measured "
			   "runs drop to the bench user)");
		return fail(eb, 2);
	}
	if (load_facts(r, eb) < 0 || build_versions(r, eb) < 0 ||
	    proc_user_lookup(r->m->bench_user, &r->user, eb) < 0 ||
	    (r->envp = proc_env_for_user(&r->user, eb)) == NULL)
		return fail(eb, 1);
	r->stderr_fd = mkstemp(tmpl);
	if (r->stderr_fd < 0) {
		errbuf_set_errno(eb, errno, "%s", tmpl);
		return fail(eb, 1);
	}
	unlink(tmpl);
	if (prepare_subjects(r, eb) < 0)
		return fail(eb, 1);
	if (r->nactive == 0) {
		errbuf_set(eb, "no subject of %s is present under %s (%s)", r->cfg.manifest,
			   r->cfg.prefix, r->subjects[0].skip_reason);
		return fail(eb, 1);
	}
	utc_now(r->started, sizeof(r->started));
	if (mkdir_p(r->cfg.out, eb) < 0)
		return fail(eb, 1);
	j = open_journal(r, eb);
	if (j < 0)
		return fail(eb, j == -2 ? 2 : 1);
	if (realpath(r->cfg.out, r->out_abs) == NULL)
		snprintf(r->out_abs, sizeof(r->out_abs), "%s", r->cfg.out);
	for (i = 0; i < sweep_count(r->sweep) * r->m->rounds; i++)
		done += r->point_done[i];
	manifest_progress_init(&r->progress, r->cfg.progress, sweep_count(r->sweep) * r->m->rounds,
			       done);
	return -1;
}
