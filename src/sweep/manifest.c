/* manifest: parse and validate an experiment manifest (the JSON file behind `rarbench --manifest`).
 */
#include "manifest.h"
#include "fileio.h"
#include "manifest_impl.h"
#include "template.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The vocabulary's owners, indexed for manifest_get_enum. */
static const char *format_name(int i)
{
	return policy_format_name((enum policy_format)i);
}

static const char *match_name(int i)
{
	return policy_match_name((enum policy_match)i);
}

static const char *layout_name(int i)
{
	return policy_sudoers_layout_name((enum sudoers_layout)i);
}

static const char *order_name(int i)
{
	return measure_order_name((enum measure_order)i);
}

/* Checks a template's placeholders by expanding it with dummy values. */
static int check_template(struct manifest_ctx *c, const char *tmpl, const char *p)
{
	struct errbuf eb = {0};
	char *s = manifest_expand(tmpl, "/p", "/c", &eb);

	if (s == NULL)
		return manifest_fail(c, p, "%s", eb.msg);
	free(s);
	return 0;
}

/* "pam": true (the prefix's files), false (the host's), or a directory; absent: AUTO. */
static int parse_subject_pam(struct manifest_ctx *c, const cJSON *j, const char *p,
			     struct manifest_subject *s)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(j, "pam");
	char q[MANIFEST_PATH_MAX_CHARS], b[48];

	s->pam = MANIFEST_PAM_AUTO;
	if (it == NULL)
		return 0;
	manifest_child_path(q, p, "pam");
	if (cJSON_IsFalse(it)) {
		s->pam = MANIFEST_PAM_OFF;
		return 0;
	}
	if (!cJSON_IsTrue(it) && !cJSON_IsString(it))
		return manifest_fail(c, q, "expected true, false or a directory, got %s",
				     manifest_type_name(it));
	s->pam = MANIFEST_PAM_ON;
	s->pam_dir = strdup(cJSON_IsTrue(it) ? MANIFEST_PAM_DIR_DEFAULT : it->valuestring);
	if (s->pam_dir == NULL)
		return manifest_fail(c, q, "out of memory");
	if (s->pam_dir[0] != '/' && strncmp(s->pam_dir, "{prefix}", 8) != 0)
		return manifest_fail(c, q, "\"%s\": expected an absolute directory or {prefix}/...",
				     manifest_shown(s->pam_dir, b));
	return check_template(c, s->pam_dir, q);
}

static int parse_subject(struct manifest_ctx *c, const cJSON *j, const char *p,
			 struct manifest_subject *s)
{
	static const char *const keys[] = {
	    "id",          "format",          "program",        "args",     "policy", "policy_data",
	    "rar_version", "policy_mount_at", "sudoers_layout", "optional", "build",  "pam",
	    NULL};
	const cJSON *args, *it;
	char q[MANIFEST_PATH_MAX_CHARS], r[MANIFEST_PATH_MAX_CHARS], b[48];
	int fmt = -1;
	size_t i;

	if (!cJSON_IsObject(j))
		return manifest_fail(c, p, "expected an object, got %s", manifest_type_name(j));
	if (manifest_check_keys(c, j, p, keys) < 0 ||
	    manifest_get_string(c, j, p, "id", true, &s->id) < 0)
		return -1;
	for (i = 0; s->id[i] != '\0'; i++) {
		char ch = s->id[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' || ch == '.')) {
			manifest_child_path(q, p, "id");
			return manifest_fail(c, q,
					     "\"%s\": use only letters, digits, '-', '_' and '.'",
					     manifest_shown(s->id, b));
		}
	}
	manifest_child_path(q, p, "format");
	if (cJSON_GetObjectItemCaseSensitive(j, "format") == NULL)
		return manifest_fail(c, q, "missing (sudoers, doas, rar-json or rar-cbor)");
	if (manifest_get_enum(c, j, p, "format", format_name, POLICY_FORMAT_COUNT, &fmt) < 0)
		return -1;
	s->format = (enum policy_format)fmt;
	if (manifest_get_string(c, j, p, "program", false, &s->program) < 0 ||
	    manifest_get_string(c, j, p, "policy", false, &s->policy) < 0 ||
	    manifest_get_string(c, j, p, "policy_data", false, &s->policy_data) < 0)
		return -1;
	if (s->policy_data != NULL && s->format != POLICY_FORMAT_RAR_CBOR) {
		manifest_child_path(q, p, "policy_data");
		return manifest_fail(c, q, "only a rar-cbor subject has a separate data file");
	}
	it = cJSON_GetObjectItemCaseSensitive(j, "optional");
	if (it != NULL && !cJSON_IsBool(it)) {
		manifest_child_path(q, p, "optional");
		return manifest_fail(c, q, "expected a boolean, got %s", manifest_type_name(it));
	}
	s->optional = it != NULL && cJSON_IsTrue(it);
	if (parse_subject_pam(c, j, p, s) < 0)
		return -1;
	if (manifest_get_string(c, j, p, "rar_version", false, &s->rar_version) < 0 ||
	    manifest_get_string(c, j, p, "policy_mount_at", false, &s->policy_mount_at) < 0)
		return -1;
	manifest_child_path(q, p, "rar_version");
	if (s->rar_version != NULL) {
		struct errbuf veb = {0};

		if (s->format != POLICY_FORMAT_RAR_JSON && s->format != POLICY_FORMAT_RAR_CBOR)
			return manifest_fail(c, q, "only a rar-json or rar-cbor subject has one");
		if (policy_rar_version_check(s->rar_version, &veb) != 0)
			return manifest_fail(c, q, "%s", veb.msg);
	}
	if (cJSON_GetObjectItemCaseSensitive(j, "sudoers_layout") != NULL) {
		int e = 0;

		manifest_child_path(q, p, "sudoers_layout");
		if (s->format != POLICY_FORMAT_SUDOERS)
			return manifest_fail(c, q, "only a sudoers subject has one");
		if (manifest_get_enum(c, j, p, "sudoers_layout", layout_name, SUDOERS_LAYOUT_COUNT,
				      &e) < 0)
			return -1;
		s->has_sudoers_layout = true;
		s->sudoers_layout = (enum sudoers_layout)e;
	}
	manifest_child_path(q, p, "policy_mount_at");
	if (s->policy_mount_at != NULL &&
	    (s->policy_mount_at[0] != '/' ||
	     strcspn(s->policy_mount_at, ",:\\") != strlen(s->policy_mount_at)))
		return manifest_fail(c, q,
				     "\"%s\": expected an absolute path without ',', ':' or '\\'",
				     manifest_shown(s->policy_mount_at, b));
	if (manifest_get_string(c, j, p, "build", false, &s->build) < 0)
		return -1;
	manifest_child_path(q, p, "build");
	if (s->build != NULL && manifest_check_build(c, s->build, q) < 0)
		return -1;
	if (manifest_subject_defaults(c, s, p) < 0)
		return -1;
	manifest_child_path(q, p, "program");
	if (check_template(c, s->program, q) < 0)
		return -1;
	manifest_child_path(q, p, "policy");
	if (check_template(c, s->policy, q) < 0)
		return -1;
	manifest_child_path(q, p, "policy_data");
	if (s->policy_data != NULL && check_template(c, s->policy_data, q) < 0)
		return -1;

	args = cJSON_GetObjectItemCaseSensitive(j, "args");
	manifest_child_path(q, p, "args");
	if (args == NULL) {
		/* sudo and doas get -n: a policy that asks for a password fails instead of hanging.
		 */
		bool nonint = s->format == POLICY_FORMAT_SUDOERS || s->format == POLICY_FORMAT_DOAS;

		s->args = calloc(2, sizeof(*s->args));
		if (s->args == NULL)
			return manifest_fail(c, q, "out of memory");
		if (nonint && (s->args[s->nargs++] = strdup("-n")) == NULL)
			return manifest_fail(c, q, "out of memory");
		if ((s->args[s->nargs++] = strdup("{command}")) == NULL)
			return manifest_fail(c, q, "out of memory");
		return 0;
	}
	if (!cJSON_IsArray(args))
		return manifest_fail(c, q, "expected an array of strings, got %s",
				     manifest_type_name(args));
	if (cJSON_GetArraySize(args) > 64)
		return manifest_fail(c, q, "more than 64 arguments");
	s->args = calloc((size_t)cJSON_GetArraySize(args) + 1, sizeof(*s->args));
	if (s->args == NULL)
		return manifest_fail(c, q, "out of memory");
	i = 0;
	cJSON_ArrayForEach(it, args)
	{
		manifest_index_path(r, q, i++);
		if (!cJSON_IsString(it))
			return manifest_fail(c, r, "expected a string, got %s",
					     manifest_type_name(it));
		if (strlen(it->valuestring) > MANIFEST_STRING_MAX)
			return manifest_fail(c, r, "longer than %d bytes", MANIFEST_STRING_MAX);
		if (check_template(c, it->valuestring, r) < 0)
			return -1;
		if ((s->args[s->nargs++] = strdup(it->valuestring)) == NULL)
			return manifest_fail(c, r, "out of memory");
	}
	return 0;
}

static int parse_subjects(struct manifest_ctx *c, const cJSON *root, struct manifest *m)
{
	const cJSON *subj = cJSON_GetObjectItemCaseSensitive(root, "subjects"), *it;
	char p[MANIFEST_PATH_MAX_CHARS], b[48];
	size_t i, k, n;
	int bad = 0;

	if (subj == NULL)
		return manifest_fail(c, "$.subjects", "missing (an array of subjects is required)");
	if (!cJSON_IsArray(subj))
		return manifest_fail(c, "$.subjects", "expected an array, got %s",
				     manifest_type_name(subj));
	n = (size_t)cJSON_GetArraySize(subj);
	if (n == 0)
		return manifest_fail(c, "$.subjects", "empty (give at least one subject)");
	if (n > MANIFEST_SUBJECTS_MAX)
		return manifest_fail(c, "$.subjects", "more than %d subjects",
				     MANIFEST_SUBJECTS_MAX);
	m->subjects = calloc(n, sizeof(*m->subjects));
	if (m->subjects == NULL)
		return manifest_fail(c, "$.subjects", "out of memory");
	i = 0;
	cJSON_ArrayForEach(it, subj)
	{
		manifest_index_path(p, "$.subjects", i);
		m->nsubjects = i + 1; /* so manifest_free sees a partly filled subject */
		/* Each subject's problems are its own: the next ones are still read. */
		if (parse_subject(c, it, p, &m->subjects[i]) < 0) {
			bad = -1;
			i++;
			continue;
		}
		for (k = 0; k < i; k++) {
			if (m->subjects[k].id != NULL &&
			    strcmp(m->subjects[k].id, m->subjects[i].id) == 0) {
				char q[MANIFEST_PATH_MAX_CHARS];

				manifest_child_path(q, p, "id");
				bad = manifest_fail(c, q, "duplicate subject id \"%s\"",
						    manifest_shown(m->subjects[i].id, b));
				break;
			}
		}
		i++;
	}
	return bad;
}

static int parse_user(struct manifest_ctx *c, struct manifest *m)
{
	char b[48];
	struct passwd *pw;

	if (c->remote)
		return 0; /* the hosts look it up (and refuse root) */
	errno = 0;
	pw = getpwnam(m->bench_user);
	if (pw == NULL)
		return manifest_fail(
		    c, "$.bench_user", "no such user \"%s\"%s", manifest_shown(m->bench_user, b),
		    errno != 0 && errno != ENOENT ? " (passwd lookup failed)" : "");
	if (pw->pw_uid == 0)
		return manifest_fail(c, "$.bench_user",
				     "\"%s\" is root; measured runs must not be root",
				     manifest_shown(m->bench_user, b));
	m->bench_uid = pw->pw_uid;
	m->bench_gid = pw->pw_gid;
	return 0;
}

static int parse_root(struct manifest_ctx *c, const cJSON *root, struct manifest *m)
{
	static const char *const keys[] = {"name",
					   "description",
					   "subjects",
					   "axes",
					   "match",
					   "command",
					   "bench_user",
					   "warmup",
					   "min_runs",
					   "max_runs",
					   "min_time_s",
					   "order",
					   "seed",
					   "repetitions",
					   "sudoers_layout",
					   "seed_compat",
					   "rounds",
					   "max_policy_bytes",
					   "precision",
					   "precision_baseline",
					   "estimator",
					   "contention_limit",
					   "contended",
					   "remeasure",
					   "run_timeout_s",
					   "unsafe_command",
					   "limits",
					   "env",
					   "umask",
					   "cwd",
					   "cpus",
					   "profile",
					   "profile_budget",
					   "reference",
					   NULL};
	const cJSON *j;
	uint64_t v;
	int e, bad = 0;

	if (!cJSON_IsObject(root))
		return manifest_fail(c, "$", "expected an object, got %s",
				     manifest_type_name(root));
	/*
	 * Every key on its own first, so that one pass reports every problem (bad collects
	 * them; manifest_fail keeps each line); then what depends on several keys, once they
	 * are all sound.
	 */
	bad |= manifest_check_keys(c, root, "$", keys);
	bad |= manifest_get_string(c, root, "$", "name", true, &m->name);
	bad |= manifest_get_string(c, root, "$", "description", false, &m->description);
	bad |= manifest_get_string(c, root, "$", "command", false, &m->command);
	bad |= manifest_get_string(c, root, "$", "bench_user", false, &m->bench_user);
	bad |= parse_subjects(c, root, m);
	bad |= manifest_parse_axes(c, root, m);
	/* Before the counts below: precision mode changes their defaults. */
	bad |= manifest_parse_precision(c, root, m);
	if (m->command == NULL && (m->command = strdup("/usr/bin/true")) == NULL)
		return manifest_fail(c, "$.command", "out of memory");
	if (m->bench_user == NULL && (m->bench_user = strdup("rarperf")) == NULL)
		return manifest_fail(c, "$.bench_user", "out of memory");
	j = cJSON_GetObjectItemCaseSensitive(root, "unsafe_command");
	if (j != NULL && !cJSON_IsBool(j))
		bad = manifest_fail(c, "$.unsafe_command", "expected a boolean, got %s",
				    manifest_type_name(j));
	m->unsafe_command = j != NULL && cJSON_IsTrue(j);
	if (m->command[0] != '/') {
		bad = manifest_fail(c, "$.command", "must be an absolute path");
	} else if (!m->unsafe_command && !manifest_command_is_safe(m->command)) {
		char b[48];

		bad = manifest_fail(
		    c, "$.command",
		    "\"%s\" would be granted to the bench user as root with any arguments; only "
		    "/usr/bin or /bin's true, false, id, whoami, echo, printf and sleep are safe "
		    "(set \"unsafe_command\": true to grant it anyway)",
		    manifest_shown(m->command, b));
	}
	v = MANIFEST_RUN_TIMEOUT_DEFAULT_S;
	bad |= manifest_get_uint(c, root, "$", "run_timeout_s", 1, MANIFEST_RUN_TIMEOUT_MAX_S, &v);
	m->run_timeout_ms = (uint32_t)v * 1000u;

	e = (int)m->match;
	bad |= manifest_get_enum(c, root, "$", "match", match_name, POLICY_MATCH_COUNT, &e);
	m->match = (enum policy_match)e;
	e = (int)m->order;
	bad |= manifest_get_enum(c, root, "$", "order", order_name, MEASURE_ORDER_COUNT, &e);
	m->order = (enum measure_order)e;
	e = (int)m->sudoers_layout;
	bad |= manifest_get_enum(c, root, "$", "sudoers_layout", layout_name, SUDOERS_LAYOUT_COUNT,
				 &e);
	m->sudoers_layout = (enum sudoers_layout)e;

	j = cJSON_GetObjectItemCaseSensitive(root, "seed_compat");
	if (j != NULL && !cJSON_IsBool(j))
		bad = manifest_fail(c, "$.seed_compat", "expected a boolean, got %s",
				    manifest_type_name(j));
	m->seed_compat = j != NULL && cJSON_IsTrue(j);
	j = cJSON_GetObjectItemCaseSensitive(root, "profile");
	if (j != NULL && !cJSON_IsBool(j))
		bad = manifest_fail(c, "$.profile", "expected a boolean, got %s",
				    manifest_type_name(j));
	m->profile = j != NULL && cJSON_IsTrue(j);
	v = MANIFEST_PROFILE_BUDGET_DEFAULT_PCT;
	bad |= manifest_get_uint(c, root, "$", "profile_budget", 0, 1000, &v);
	m->profile_budget_pct = (uint32_t)v;

	v = m->warmup;
	bad |= manifest_get_uint(c, root, "$", "warmup", 0, 1e6, &v);
	m->warmup = (uint32_t)v;
	v = m->min_runs;
	bad |= manifest_get_uint(c, root, "$", "min_runs", 1, 1e7, &v);
	m->min_runs = (uint32_t)v;
	v = m->max_runs;
	bad |= manifest_get_uint(c, root, "$", "max_runs", 1, 1e7, &v);
	m->max_runs = (uint32_t)v;
	v = m->seed;
	bad |= manifest_get_uint(c, root, "$", "seed", 0, 9007199254740991.0, &v);
	m->seed = v;
	v = m->rounds;
	bad |= manifest_get_uint(c, root, "$", "rounds", 1, 1000, &v);
	m->rounds = (uint32_t)v;
	v = m->repetitions;
	bad |= manifest_get_uint(c, root, "$", "repetitions", 1, 1000, &v);
	m->repetitions = (uint32_t)v;
	j = cJSON_GetObjectItemCaseSensitive(root, "min_time_s");
	if (j != NULL && !cJSON_IsNumber(j))
		bad = manifest_fail(c, "$.min_time_s", "expected a number, got %s",
				    manifest_type_name(j));
	else if (j != NULL && !(j->valuedouble >= 0 && j->valuedouble <= 86400))
		bad = manifest_fail(c, "$.min_time_s", "%g is out of range (0 to 86400)",
				    j->valuedouble);
	else if (j != NULL)
		m->min_time_ns = (uint64_t)llround(j->valuedouble * 1e9);
	v = m->max_policy_bytes;
	bad |=
	    manifest_get_uint(c, root, "$", "max_policy_bytes", (double)MANIFEST_POLICY_BYTES_MIN,
			      (double)MANIFEST_POLICY_BYTES_MAX, &v);
	m->max_policy_bytes = v;
	bad |= manifest_parse_env(c, root, m);
	if (bad)
		return -1;

	/* What depends on several keys. */
	if (manifest_check_sizes(c, m) < 0)
		return -1;
	if (m->max_runs != 0 && m->max_runs < m->min_runs)
		return manifest_fail(c, "$.max_runs", "%u is below min_runs (%u)", m->max_runs,
				     m->min_runs);
	if (m->rounds > m->min_runs)
		return manifest_fail(c, "$.rounds",
				     "%u is above min_runs (%u): each round needs a run", m->rounds,
				     m->min_runs);
	if ((uint64_t)m->repetitions * m->axes[0].n * m->axes[1].n * m->axes[2].n * m->axes[3].n *
		(m->env.nlimit_values > 0 ? m->env.nlimit_values : 1) >
	    MANIFEST_POINTS_MAX)
		return manifest_fail(c, "$.repetitions", "more than %u points in all",
				     MANIFEST_POINTS_MAX);
	/* Without max_runs nothing bounds a fast command's runs, each sample kept. */
	if (j != NULL && m->max_runs == 0 &&
	    j->valuedouble > (double)MANIFEST_MIN_TIME_UNBOUNDED_MAX_S)
		return manifest_fail(
		    c, "$.min_time_s",
		    "%g s without max_runs: a fast command would run for that long at "
		    "every point, each run's sample kept; give max_runs, or at most %d s",
		    j->valuedouble, MANIFEST_MIN_TIME_UNBOUNDED_MAX_S);
	if (manifest_finish_precision(c, root, m) < 0 || parse_user(c, m) < 0)
		return -1;
	/* Last: a policy's size depends on nearly every key above, the bench uid included. */
	return manifest_check_policy_bytes(c, m);
}

bool manifest_command_is_safe(const char *command)
{
	static const char *const dirs[] = {"/usr/bin/", "/bin/"};
	static const char *const names[] = {"true", "false",  "id",   "whoami",
					    "echo", "printf", "sleep"};
	size_t d, k;

	for (d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		size_t len = strlen(dirs[d]);

		if (strncmp(command, dirs[d], len) != 0)
			continue;
		for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			if (strcmp(command + len, names[k]) == 0)
				return true;
	}
	return false;
}

/* The 1-based line of offset off in text, for JSON syntax errors. */
static size_t line_of(const char *text, size_t len, size_t off)
{
	size_t i, line = 1;

	for (i = 0; i < off && i < len; i++)
		if (text[i] == '\n')
			line++;
	return line;
}

struct manifest *manifest_parse(const char *text, size_t len, const char *source, struct errbuf *eb)
{
	return manifest_parse_for(text, len, source, 0, eb);
}

struct manifest *manifest_parse_for(const char *text, size_t len, const char *source,
				    unsigned flags, struct errbuf *eb)
{
	return manifest_parse_all(text, len, source, flags, NULL, eb);
}

void manifest_problems_clear(struct manifest_problems *pr)
{
	if (pr == NULL)
		return;
	for (size_t i = 0; i < pr->n; i++)
		free(pr->line[i]);
	free(pr->line);
	pr->line = NULL;
	pr->n = 0;
}

struct manifest *manifest_parse_all(const char *text, size_t len, const char *source,
				    unsigned flags, struct manifest_problems *problems,
				    struct errbuf *eb)
{
	struct manifest_ctx c = {.source = source, .eb = eb, .remote = flags & MANIFEST_REMOTE};
	struct manifest *m = NULL, *ret = NULL;
	cJSON *root = NULL;
	const char *end = NULL;

	if (len > MANIFEST_FILE_MAX_BYTES) {
		errbuf_set(eb, "%s: larger than %d bytes", source, MANIFEST_FILE_MAX_BYTES);
		goto out;
	}
	if (memchr(text, '\0', len) != NULL) {
		errbuf_set(
		    eb, "%s: line %zu: NUL byte in the file", source,
		    line_of(text, len, (size_t)((const char *)memchr(text, '\0', len) - text)));
		goto out;
	}
	root = cJSON_ParseWithLengthOpts(text, len, &end, false);
	if (root != NULL) { /* only whitespace may follow the value */
		size_t off = (size_t)(end - text);

		while (off < len && strchr(" \t\r\n", text[off]) != NULL)
			off++;
		if (off < len) {
			errbuf_set(eb, "%s: line %zu: text after the JSON value", source,
				   line_of(text, len, off));
			goto out;
		}
	} else {
		size_t off = end != NULL && end >= text ? (size_t)(end - text) : 0;

		if (end == NULL && cJSON_GetErrorPtr() != NULL)
			off = (size_t)(cJSON_GetErrorPtr() - text);
		errbuf_set(eb, "%s: line %zu: not valid JSON", source, line_of(text, len, off));
		goto out;
	}
	m = calloc(1, sizeof(*m));
	if (m == NULL) {
		errbuf_set(eb, "%s: out of memory", source);
		goto out;
	}
	m->min_runs = 10;
	m->min_time_ns = 3000000000ull; /* hyperfine's defaults */
	m->max_policy_bytes = MANIFEST_POLICY_BYTES_DEFAULT;
	m->match = POLICY_MATCH_LAST;
	m->sudoers_layout = SUDOERS_LAYOUT_PER_ROLE;
	m->order = MEASURE_ORDER_INTERLEAVED;
	m->seed = 1;
	m->repetitions = 1;
	m->rounds = 1;
	m->text = malloc(len + 1);
	if (m->text == NULL) {
		errbuf_set(eb, "%s: out of memory", source);
		goto out;
	}
	memcpy(m->text, text, len);
	m->text[len] = '\0';
	m->text_len = len;
	if (parse_root(&c, root, m) < 0)
		goto out;
	ret = m;
	m = NULL;
out:
	if (problems != NULL) {
		problems->line = c.problems;
		problems->n = c.nproblems;
	} else {
		struct manifest_problems mine = {c.problems, c.nproblems};

		manifest_problems_clear(&mine);
	}
	manifest_free(m);
	cJSON_Delete(root);
	return ret;
}

struct manifest *manifest_load(const char *path, struct errbuf *eb)
{
	return manifest_load_for(path, 0, eb);
}

struct manifest *manifest_load_for(const char *path, unsigned flags, struct errbuf *eb)
{
	return manifest_load_all(path, flags, NULL, eb);
}

struct manifest *manifest_load_all(const char *path, unsigned flags,
				   struct manifest_problems *problems, struct errbuf *eb)
{
	struct manifest *m;
	char *buf = NULL;
	size_t len = 0;

	if (problems != NULL)
		*problems = (struct manifest_problems){NULL, 0};
	if (fileio_read(path, MANIFEST_FILE_MAX_BYTES, "cannot open", &buf, &len, eb) < 0)
		return NULL;
	m = manifest_parse_all(buf, len, path, flags, problems, eb);
	free(buf);
	return m;
}

void manifest_free(struct manifest *m)
{
	size_t i, k;

	if (m == NULL)
		return;
	manifest_env_clear(&m->env);
	for (i = 0; i < m->nsubjects; i++) {
		struct manifest_subject *s = &m->subjects[i];

		free(s->id);
		free(s->program);
		for (k = 0; k < s->nargs; k++)
			free(s->args[k]);
		free(s->args);
		free(s->policy);
		free(s->policy_data);
		free(s->rar_version);
		free(s->build);
		free(s->policy_mount_at);
		free(s->pam_dir);
	}
	free(m->subjects);
	for (i = 0; i < MANIFEST_AXIS_COUNT; i++)
		free(m->axes[i].values);
	free(m->name);
	free(m->description);
	free(m->command);
	free(m->bench_user);
	free(m->precision_baseline);
	free(m->text);
	free(m);
}

char *manifest_expand(const char *tmpl, const char *prefix, const char *command, struct errbuf *eb)
{
	const struct template_var vars[] = {{"prefix", prefix}, {"command", command}};
	const char *unknown = NULL;
	char *out = template_expand(tmpl, vars, 2, &unknown, eb);
	char b[48];

	if (out == NULL && unknown != NULL)
		errbuf_set(eb, "unknown placeholder in \"%s\" (expected {prefix} or {command})",
			   manifest_shown(tmpl, b));
	return out;
}
