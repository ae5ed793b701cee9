/* manifest_main: rarbench's --manifest mode: generate, check and measure every point of a sweep. */
#include "manifest_main.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "hostfacts.h"
#include "journal.h"
#include "manifest.h"
#include "manifest_output.h"
#include "manifest_progress.h"
#include "measure.h"
#include "policy.h"
#include "policy_doas.h"
#include "policy_rar_cbor.h"
#include "policy_rar_json.h"
#include "policy_sudoers.h"
#include "proc.h"
#include "sweep.h"

#define DEFAULT_PREFIX "/opt/rarperf"
#define FACTS_MAX_BYTES (1024 * 1024)
#define STDERR_SHOWN_BYTES 200

struct config {
	const char *manifest;
	const char *out;
	const char *prefix;
	bool resume;
	enum manifest_progress_mode progress;
};

/* One subject, resolved against the prefix. */
struct subject {
	const struct manifest_subject *ms;
	char *program;
	char **argv; /* NULL-terminated, argv[0] = program */
	size_t argc;
	char *policy;
	char *policy_data;
	char *command_line;     /* "command" in the results */
	char *skip_reason;      /* non-NULL: missing on this host */
	struct proc_cmd *cmd;   /* measured: output to /dev/null */
	struct proc_cmd *check; /* the grant check: output kept to quote it */
};

/* Everything one run owns; freed by run_clear. */
struct run {
	struct config cfg;
	struct manifest *m;
	struct sweep *sweep;
	struct subject *subjects;
	size_t nsubjects, nactive;
	cJSON *facts;
	cJSON *versions;
	struct proc_user user;
	char **envp;
	struct journal *journal;
	struct journal_contents done;
	bool *point_done;
	char manifest_sha[HOSTFACTS_SHA256_HEX_LEN + 1];
	char out_abs[PATH_MAX];
	char started[32];
	char out_default[256];
	struct manifest_progress progress;
	int stderr_fd; /* where the grant check's stderr goes */
};

static volatile sig_atomic_t stop_requested;

/* Only sets a flag: proc's children share our memory until exec (proc.h). */
static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void usage(FILE *f)
{
	fputs("Usage: rarbench --manifest FILE [--out DIR] [--resume] [--progress bar|jsonl|none]\n"
	      "                [--prefix DIR]\n"
	      "Runs the experiment described by the manifest FILE: for every point of its sweep,\n"
	      "writes each subject's policy, checks that it grants the command, and measures\n"
	      "every subject as the bench user. Must run as root (it writes the policies);\n"
	      "measured runs drop to the manifest's bench user.\n"
	      "  --out DIR        output directory (default results/<name>)\n"
	      "  --resume         continue the journal in DIR, skipping finished points\n"
	      "  --progress MODE  bar (default on a terminal), jsonl (events on stdout), none\n"
	      "  --prefix DIR     the provisioned prefix (default " DEFAULT_PREFIX ")\n"
	      "  -h, --help       this help\n"
	      "Writes DIR/results.json, DIR/results.tsv and DIR/journal.jsonl. See rarbench(1).\n",
	      f);
}

static void utc_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Reports a failure on stderr (and as an event). */
static void report(struct run *r, const char *msg)
{
	fprintf(stderr, "%srarbench: %s\n", r->cfg.progress == MANIFEST_PROGRESS_BAR ? "\n" : "",
		msg);
	manifest_progress_error(&r->progress, msg);
}

static int parse_args(int argc, char **argv, struct config *cfg)
{
	static const struct option opts[] = {{"manifest", required_argument, NULL, 'm'},
					     {"out", required_argument, NULL, 'o'},
					     {"resume", no_argument, NULL, 'r'},
					     {"progress", required_argument, NULL, 'p'},
					     {"prefix", required_argument, NULL, 'P'},
					     {"help", no_argument, NULL, 'h'},
					     {NULL, 0, NULL, 0}};
	int c;

	memset(cfg, 0, sizeof(*cfg));
	cfg->prefix = DEFAULT_PREFIX;
	cfg->progress = isatty(STDERR_FILENO) ? MANIFEST_PROGRESS_BAR : MANIFEST_PROGRESS_NONE;
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
		case 'p':
			if (strcmp(optarg, "bar") == 0)
				cfg->progress = MANIFEST_PROGRESS_BAR;
			else if (strcmp(optarg, "jsonl") == 0)
				cfg->progress = MANIFEST_PROGRESS_JSONL;
			else if (strcmp(optarg, "none") == 0)
				cfg->progress = MANIFEST_PROGRESS_NONE;
			else {
				fprintf(stderr,
					"rarbench: --progress: unknown mode \"%s\" (expected "
					"bar, jsonl or none)\n",
					optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "rarbench: --manifest mode takes no operand (got \"%s\")\n",
			argv[optind]);
		return 2;
	}
	if (cfg->manifest == NULL) {
		fputs("rarbench: --manifest FILE is required\n", stderr);
		return 2;
	}
	return -1; /* go on */
}

/* Reads PREFIX/facts.json (doc/interfaces.md §1). */
static int load_facts(struct run *r, struct errbuf *eb)
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
static int build_versions(struct run *r, struct errbuf *eb)
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
static int resolve_subject(struct run *r, const struct manifest_subject *ms, struct subject *s,
			   struct errbuf *eb)
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

static int prepare_subjects(struct run *r, struct errbuf *eb)
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
		struct subject *s = &r->subjects[i];

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

/* Writes every active subject's policy for this point (confgen, in-process, atomic). */
static int write_policies(struct run *r, const struct sweep_point *pt, struct errbuf *eb)
{
	struct policy_shape shape;
	struct policy *p = NULL;
	int rc = -1;
	size_t i;

	policy_shape_init(&shape);
	shape.roles = pt->value[MANIFEST_AXIS_ROLES];
	shape.users = pt->value[MANIFEST_AXIS_USERS];
	shape.tasks = pt->value[MANIFEST_AXIS_TASKS];
	shape.commands = pt->value[MANIFEST_AXIS_COMMANDS];
	shape.uid = (uint32_t)r->m->bench_uid;
	shape.command = r->m->command;
	shape.match = r->m->match == MANIFEST_MATCH_FIRST    ? POLICY_MATCH_FIRST
		      : r->m->match == MANIFEST_MATCH_MIDDLE ? POLICY_MATCH_MIDDLE
							     : POLICY_MATCH_LAST;
	shape.seed_compat = r->m->seed_compat;
	p = policy_build(&shape, eb);
	if (p == NULL)
		goto out;
	for (i = 0; i < r->nsubjects; i++) {
		const struct subject *s = &r->subjects[i];
		int w = 0;

		if (s->skip_reason != NULL)
			continue;
		switch (s->ms->format) {
		case MANIFEST_FORMAT_SUDOERS:
			w = policy_write_sudoers(p, s->policy,
						 r->m->sudoers_layout == MANIFEST_LAYOUT_PER_TASK
						     ? SUDOERS_LAYOUT_PER_TASK
						     : SUDOERS_LAYOUT_PER_ROLE,
						 eb);
			break;
		case MANIFEST_FORMAT_DOAS:
			w = policy_doas_validate(&shape, eb);
			if (w == 0)
				w = policy_write_doas(p, s->policy, eb);
			break;
		case MANIFEST_FORMAT_RAR_JSON:
			w = policy_write_rar_json(p, s->policy, eb);
			break;
		case MANIFEST_FORMAT_RAR_CBOR:
			w = policy_write_rar_cbor(p, s->policy, s->policy_data, eb);
			break;
		}
		if (w < 0) {
			errbuf_prefix(eb, "subject %s", s->ms->id);
			goto out;
		}
	}
	rc = 0;
out:
	policy_free(p);
	return rc;
}

/* The first line of what the grant check's child wrote to stderr, then empties it. */
static void take_stderr(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);

	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
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
static int check_grants(struct run *r, size_t index, struct errbuf *eb)
{
	char out[STDERR_SHOWN_BYTES + 1];
	struct proc_sample sample;
	size_t i;

	for (i = 0; i < r->nsubjects; i++) {
		struct subject *s = &r->subjects[i];

		if (s->skip_reason != NULL)
			continue;
		if (reset_output(r->stderr_fd) < 0)
			return errbuf_set_errno(eb, errno, "grant check: temporary file");
		if (proc_run(s->check, &sample, eb) < 0)
			return errbuf_prefix(eb, "point %zu: subject %s", index, s->ms->id);
		if (sample.exit_code != 0) {
			take_stderr(r->stderr_fd, out, sizeof(out));
			return errbuf_set(eb, "point %zu: subject %s denied %s (exit %d)%s%s",
					  index, s->ms->id, r->m->command, sample.exit_code,
					  out[0] ? ": " : "", out);
		}
	}
	return 0;
}

/* 1/rounds of n, rounded up (each round gets at least one when n > 0). */
static uint64_t per_round(uint64_t n, uint32_t rounds)
{
	return (n + rounds - 1) / rounds;
}

static int measure_point(struct run *r, const struct sweep_point *pt, uint32_t round,
			 struct errbuf *eb)
{
	struct measure_bench *benches = NULL;
	struct measure_result *results = NULL;
	struct journal_subject *js = NULL;
	struct measure_opts opts;
	char id[SWEEP_ID_MAX];
	size_t i, k = 0;
	int rc = -1, mr;

	benches = calloc(r->nactive, sizeof(*benches));
	results = calloc(r->nactive, sizeof(*results));
	js = calloc(r->nactive, sizeof(*js));
	if (benches == NULL || results == NULL || js == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	for (i = 0; i < r->nsubjects; i++) {
		if (r->subjects[i].skip_reason != NULL)
			continue;
		/* One group: the subjects are interleaved (or shuffled) run by run. */
		benches[k] = (struct measure_bench){
		    .name = r->subjects[i].ms->id, .cmd = r->subjects[i].cmd, .group = 0};
		js[k].subject = r->subjects[i].ms->id;
		js[k].format = (char *)manifest_format_name(r->subjects[i].ms->format);
		js[k].command = r->subjects[i].command_line;
		k++;
	}
	measure_opts_init(&opts);
	opts.warmup = per_round(r->m->warmup, r->m->rounds);
	opts.min_runs = per_round(r->m->min_runs, r->m->rounds);
	opts.max_runs = per_round(r->m->max_runs, r->m->rounds);
	opts.min_time_ns = r->m->min_time_ns / r->m->rounds;
	opts.order = r->m->order == MANIFEST_ORDER_SEQUENTIAL ? MEASURE_ORDER_SEQUENTIAL
		     : r->m->order == MANIFEST_ORDER_RANDOM   ? MEASURE_ORDER_RANDOM
							      : MEASURE_ORDER_INTERLEAVED;
	/* A different but reproducible shuffle per point. */
	opts.seed = r->m->seed + pt->index + (uint64_t)(round - 1) * sweep_count(r->sweep);
	opts.stop = &stop_requested;
	mr = measure_run(benches, r->nactive, &opts, results, eb);
	if (mr == MEASURE_STOPPED) {
		errbuf_set(eb, "interrupted");
		goto out;
	}
	if (mr < 0) {
		errbuf_prefix(eb, "point %zu", pt->index + 1);
		goto out;
	}
	for (i = 0; i < r->nactive; i++)
		js[i].result = results[i];
	sweep_step_id(pt, round, r->m->rounds, id, sizeof(id));
	rc = journal_append(r->journal, id, pt->index, js, r->nactive, eb);
out:
	for (i = 0; results != NULL && i < r->nactive; i++)
		measure_result_clear(&results[i]);
	free(results);
	free(benches);
	free(js);
	return rc;
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
static int open_journal(struct run *r, struct errbuf *eb)
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

static cJSON *build_meta(struct run *r)
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

/* Rebuilds results.json and results.tsv from the journal as it is on disk, then reports hashes. */
static int finish(struct run *r, struct errbuf *eb)
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

static void run_clear(struct run *r)
{
	size_t i, k;

	for (i = 0; i < r->nsubjects; i++) {
		struct subject *s = &r->subjects[i];

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

/* One step: a point in one round. Returns 0, or the exit status. */
static int run_step(struct run *r, const struct sweep_point *pt, uint32_t round, size_t step)
{
	char values[MANIFEST_AXIS_COUNT + 2][16];
	const char *names[MANIFEST_AXIS_COUNT + 2], *vals[MANIFEST_AXIS_COUNT + 2];
	struct errbuf eb = {0};
	size_t np = 0;
	int a;

	for (a = 0; a < MANIFEST_AXIS_COUNT; a++, np++) {
		snprintf(values[np], sizeof(values[np]), "%u", pt->value[a]);
		names[np] = manifest_axis_name(a);
		vals[np] = values[np];
	}
	if (r->m->repetitions > 1) {
		snprintf(values[np], sizeof(values[np]), "%u", pt->repetition);
		names[np] = "repetition";
		vals[np] = values[np];
		np++;
	}
	if (r->m->rounds > 1) {
		snprintf(values[np], sizeof(values[np]), "%u", round);
		names[np] = "round";
		vals[np] = values[np];
		np++;
	}
	manifest_progress_point_start(&r->progress, step, names, vals, np);
	if (write_policies(r, pt, &eb) < 0) {
		errbuf_prefix(&eb, "point %zu", pt->index + 1);
		report(r, eb.msg);
		return 1;
	}
	if (check_grants(r, pt->index + 1, &eb) < 0 || measure_point(r, pt, round, &eb) < 0) {
		report(r, stop_requested ? "interrupted; continue with --resume" : eb.msg);
		return 1;
	}
	manifest_progress_point_done(&r->progress, step);
	return 0;
}

/*
 * The measuring loop: rounds passes over the sweep (points shuffled per
 * pass when rounds > 1), skipping steps the journal holds. Returns the
 * exit status.
 */
static int run_points(struct run *r)
{
	size_t n = sweep_count(r->sweep), i, *order = calloc(n, sizeof(size_t));
	uint32_t round;
	int status = 0;

	if (order == NULL) {
		report(r, "out of memory");
		return 1;
	}
	for (round = 1; round <= r->m->rounds && status == 0; round++) {
		sweep_round_order(r->sweep, round, r->m->rounds, r->m->seed, order);
		for (i = 0; i < n && status == 0; i++) {
			if (r->point_done[order[i] * r->m->rounds + round - 1])
				continue;
			if (stop_requested) {
				report(r, "interrupted; continue with --resume");
				status = 1;
				break;
			}
			status = run_step(r, sweep_at(r->sweep, order[i]), round,
					  (size_t)(round - 1) * n + i + 1);
		}
	}
	free(order);
	return status;
}

/* Everything before the first point; returns -1 to go on, or an exit status. */
static int setup(struct run *r, struct errbuf *eb)
{
	char tmpl[] = "/tmp/rarbench-grant-XXXXXX";
	const char **ids = NULL;
	size_t i, k = 0, done = 0;
	int j;

	r->m = manifest_load(r->cfg.manifest, eb);
	if (r->m == NULL) {
		fprintf(stderr, "%s\n", eb->msg);
		return 2;
	}
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
		fprintf(stderr, "%s: %s\n", r->cfg.manifest, eb->msg);
		return 2;
	}
	if (geteuid() != 0) {
		fputs("rarbench: --manifest must run as root: it writes the tools' policies "
		      "(measured runs drop to the bench user)\n",
		      stderr);
		return 2;
	}
	if (load_facts(r, eb) < 0 || build_versions(r, eb) < 0 ||
	    proc_user_lookup(r->m->bench_user, &r->user, eb) < 0 ||
	    (r->envp = proc_env_for_user(&r->user, eb)) == NULL) {
		fprintf(stderr, "rarbench: %s\n", eb->msg);
		return 1;
	}
	r->stderr_fd = mkstemp(tmpl);
	if (r->stderr_fd < 0) {
		fprintf(stderr, "rarbench: %s: %s\n", tmpl, strerror(errno));
		return 1;
	}
	unlink(tmpl);
	if (prepare_subjects(r, eb) < 0) {
		fprintf(stderr, "rarbench: %s\n", eb->msg);
		return 1;
	}
	if (r->nactive == 0) {
		fprintf(stderr, "rarbench: no subject of %s is present under %s (%s)\n",
			r->cfg.manifest, r->cfg.prefix, r->subjects[0].skip_reason);
		return 1;
	}
	utc_now(r->started, sizeof(r->started));
	if (mkdir_p(r->cfg.out, eb) < 0) {
		fprintf(stderr, "rarbench: %s\n", eb->msg);
		return 1;
	}
	j = open_journal(r, eb);
	if (j < 0) {
		fprintf(stderr, "rarbench: %s\n", eb->msg);
		return j == -2 ? 2 : 1;
	}
	if (realpath(r->cfg.out, r->out_abs) == NULL)
		snprintf(r->out_abs, sizeof(r->out_abs), "%s", r->cfg.out);
	for (i = 0; i < sweep_count(r->sweep) * r->m->rounds; i++)
		done += r->point_done[i];
	manifest_progress_init(&r->progress, r->cfg.progress, sweep_count(r->sweep) * r->m->rounds,
			       done);
	ids = calloc(r->nsubjects, sizeof(*ids));
	if (ids == NULL) {
		fputs("rarbench: out of memory\n", stderr);
		return 1;
	}
	for (i = 0; i < r->nsubjects; i++)
		if (r->subjects[i].skip_reason == NULL)
			ids[k++] = r->subjects[i].ms->id;
	manifest_progress_start(&r->progress, r->m->name, ids, k, r->out_abs);
	free(ids);
	for (i = 0; i < r->nsubjects; i++) {
		if (r->subjects[i].skip_reason == NULL)
			continue;
		fprintf(stderr, "rarbench: warning: skipping subject %s: %s\n",
			r->subjects[i].ms->id, r->subjects[i].skip_reason);
		manifest_progress_skip(&r->progress, r->subjects[i].ms->id,
				       r->subjects[i].skip_reason);
	}
	return -1;
}

int manifest_main(int argc, char **argv)
{
	struct errbuf eb = {0};
	struct sigaction sa;
	struct run r;
	int status;

	memset(&r, 0, sizeof(r));
	r.stderr_fd = -1;
	status = parse_args(argc, argv, &r.cfg);
	if (status >= 0)
		return status;
	status = setup(&r, &eb);
	if (status < 0) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		status = run_points(&r);
		if (status == 0 && finish(&r, &eb) < 0) {
			report(&r, eb.msg);
			status = 1;
		}
		if (status != 0)
			manifest_progress_done(&r.progress, status, NULL, NULL, 0);
		else if (r.cfg.progress != MANIFEST_PROGRESS_JSONL)
			fprintf(stderr, "rarbench: %zu points of %s written to %s\n",
				sweep_count(r.sweep), r.m->name, r.out_abs);
	}
	run_clear(&r);
	return status;
}
