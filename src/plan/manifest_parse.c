/* manifest_parse: an experiment manifest read and checked whole (manifest_parse_all,
 * manifest_load_all): its JSON syntax errors located, the root's own keys (user, command, counts,
 * orders) and each part's parser (manifest_*.c) called in turn, every problem kept. Above the
 * part parsers, which share the vocabulary of manifest.c, so that none of them calls back up. */
#include "jsonget.h"
#include "jsonbudget.h"
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
static const char *match_name(int i)
{
	return policy_match_name((enum policy_match)i);
}

static const char *order_name(int i)
{
	return measure_order_name((enum measure_order)i);
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

/* The keys a manifest may have at its top level. */
static const char *const root_keys[] = {"name",
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
					"counts",
					"reference",
					"kernel_reference",
					"page_cache",
					"after_refusal",
					NULL};

/* "command" (set) and "unsafe_command": the command must be absolute, and safe unless the manifest
 * says otherwise. 0, or -1 with every problem kept. */
static int parse_command(struct manifest_ctx *c, const cJSON *root, struct manifest *m)
{
	const cJSON *j;
	int bad = 0;

	j = jsonget_member(root, "unsafe_command");
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
	return bad;
}

/* The counted pass's instruments, as the manifest names them (enum manifest_instrument). */
static const char *instrument_name(int i)
{
	return manifest_instrument_name((enum manifest_instrument)i);
}

/*
 * "counts": true, false, or {"instrument": "callgrind" | "perf" | "auto"}: the counted pass
 * (runner_counts.c). Absent: false. 0, or -1 with every problem kept.
 */
static int parse_counted(struct manifest_ctx *c, const cJSON *root, struct manifest *m)
{
	static const char *const keys[] = {"instrument", NULL};
	const cJSON *j = jsonget_member(root, "counts");
	int e = MANIFEST_INSTRUMENT_CALLGRIND;
	int bad = 0;

	m->counts = false;
	m->counts_instrument = MANIFEST_INSTRUMENT_CALLGRIND;
	if (j == NULL)
		return 0;
	if (cJSON_IsBool(j)) {
		m->counts = cJSON_IsTrue(j);
		return 0;
	}
	if (!cJSON_IsObject(j))
		return manifest_fail(c, "$.counts", "expected a boolean or an object, got %s",
				     manifest_type_name(j));
	bad |= manifest_check_keys(c, j, "$.counts", keys);
	bad |= manifest_get_enum(c, j, "$.counts", "instrument", instrument_name,
				 MANIFEST_INSTRUMENT_COUNT, &e);
	m->counts = true;
	m->counts_instrument = (enum manifest_instrument)e;
	return bad;
}

/* $.key, an integer in [lo, hi], into *field (kept when absent). 0, or -1 with the problem kept. */
static int get_u32(struct manifest_ctx *c, const cJSON *root, const char *key, double lo, double hi,
		   uint32_t *field)
{
	uint64_t v = *field;
	int bad = manifest_get_uint(c, root, "$", key, lo, hi, &v);

	*field = (uint32_t)v;
	return bad;
}

/* The run counts and bounds: warmup, min/max_runs, seed, rounds, repetitions, min_time_s,
 * max_policy_bytes. 0, or -1 with every problem kept. */
static int parse_counts(struct manifest_ctx *c, const cJSON *root, struct manifest *m)
{
	const cJSON *j;
	uint64_t v;
	int bad = 0;

	bad |= get_u32(c, root, "warmup", 0, 1e6, &m->warmup);
	bad |= get_u32(c, root, "min_runs", 1, 1e7, &m->min_runs);
	bad |= get_u32(c, root, "max_runs", 1, 1e7, &m->max_runs);
	bad |= manifest_get_uint(c, root, "$", "seed", 0, 9007199254740991.0, &m->seed);
	bad |= get_u32(c, root, "rounds", 1, 1000, &m->rounds);
	bad |= get_u32(c, root, "repetitions", 1, 1000, &m->repetitions);
	j = jsonget_member(root, "min_time_s");
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
	return bad;
}

/* What depends on several keys, once each is sound; the policy size last. 0 or -1. */
static int check_across(struct manifest_ctx *c, const cJSON *root, struct manifest *m)
{
	const cJSON *j = jsonget_member(root, "min_time_s");

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

static int parse_root(struct manifest_ctx *c, const cJSON *root, struct manifest *m)
{
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
	bad |= manifest_check_keys(c, root, "$", root_keys);
	bad |= manifest_get_string(c, root, "$", "name", true, &m->name);
	bad |= manifest_get_string(c, root, "$", "description", false, &m->description);
	bad |= manifest_get_string(c, root, "$", "command", false, &m->command);
	bad |= manifest_get_string(c, root, "$", "bench_user", false, &m->bench_user);
	bad |= manifest_parse_subjects(c, root, m);
	bad |= manifest_parse_axes(c, root, m);
	/* Before the counts below: precision mode changes their defaults. */
	bad |= manifest_parse_precision(c, root, m);
	if (m->command == NULL && (m->command = strdup("/usr/bin/true")) == NULL)
		return manifest_fail(c, "$.command", "out of memory");
	if (m->bench_user == NULL && (m->bench_user = strdup("rarperf")) == NULL)
		return manifest_fail(c, "$.bench_user", "out of memory");
	bad |= parse_command(c, root, m);
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
	bad |= manifest_get_enum(c, root, "$", "sudoers_layout", manifest_layout_name,
				 SUDOERS_LAYOUT_COUNT, &e);
	m->sudoers_layout = (enum sudoers_layout)e;
	e = (int)m->after_refusal;
	bad |= manifest_get_enum(c, root, "$", "after_refusal", manifest_after_refusal_name,
				 MANIFEST_AFTER_REFUSAL_COUNT, &e);
	m->after_refusal = (enum manifest_after_refusal)e;

	j = jsonget_member(root, "seed_compat");
	if (j != NULL && !cJSON_IsBool(j))
		bad = manifest_fail(c, "$.seed_compat", "expected a boolean, got %s",
				    manifest_type_name(j));
	m->seed_compat = j != NULL && cJSON_IsTrue(j);
	j = jsonget_member(root, "profile");
	if (j != NULL && !cJSON_IsBool(j))
		bad = manifest_fail(c, "$.profile", "expected a boolean, got %s",
				    manifest_type_name(j));
	m->profile = j != NULL && cJSON_IsTrue(j);
	m->profile_budget_pct = MANIFEST_PROFILE_BUDGET_DEFAULT_PCT;
	bad |= get_u32(c, root, "profile_budget", 0, 1000, &m->profile_budget_pct);

	bad |= parse_counted(c, root, m);
	bad |= parse_counts(c, root, m);
	bad |= manifest_parse_env(c, root, m);
	if (bad)
		return -1;

	return check_across(c, root, m);
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

/* The 1-based column of off on its line, in bytes (what an editor's "go to column" takes). */
static size_t column_of(const char *text, size_t len, size_t off)
{
	size_t i = off < len ? off : len;

	while (i > 0 && text[i - 1] != '\n')
		i--;
	return (off < len ? off : len) - i + 1;
}

/* Whether the text ends inside a string or with more brackets opened than closed. */
static bool brackets_left_open(const char *text, size_t len)
{
	long depth = 0;
	bool in_string = false;

	for (size_t i = 0; i < len; i++) {
		if (in_string) {
			if (text[i] == '\\')
				i++;
			else if (text[i] == '"')
				in_string = false;
		} else if (text[i] == '"') {
			in_string = true;
		} else if (text[i] == '{' || text[i] == '[') {
			depth++;
		} else if (text[i] == '}' || text[i] == ']') {
			depth--;
		}
	}
	return in_string || depth > 0;
}

/*
 * Why cJSON stopped at *off, when the text says it plainly: a comma before a closing bracket
 * (JSON has no trailing comma, the mistake an editor of the shipped manifests makes most), or
 * the end of the file (a bracket left open). "" otherwise. cJSON may point one past the
 * bracket it refused; *off is moved back onto it so that the column names the bracket.
 */
static const char *json_error_hint(const char *text, size_t len, size_t *off)
{
	size_t at = *off, i;

	if (at < len && text[at] != '}' && text[at] != ']' && at > 0 &&
	    (text[at - 1] == '}' || text[at - 1] == ']'))
		at--;
	if (at < len && (text[at] == '}' || text[at] == ']')) {
		for (i = at; i > 0 && strchr(" \t\r\n", text[i - 1]) != NULL; i--)
			;
		if (i > 0 && text[i - 1] == ',') {
			*off = at;
			return " (a comma before a closing bracket: JSON allows no trailing comma, "
			       "remove it)";
		}
	}
	return brackets_left_open(text, len)
		   ? " (the file ends with a bracket or a quote left open: close it)"
		   : "";
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
	/* a stranger's file: its tree within 4 times its size (jsonbudget.h; issue 52, finding 7)
	 */
	if (jsonbudget_check(text, len, source, eb) < 0)
		goto out;
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
		const char *hint = json_error_hint(text, len, &off);

		errbuf_set(eb, "%s: line %zu, column %zu: not valid JSON%s", source,
			   line_of(text, len, off), column_of(text, len, off), hint);
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

struct manifest *manifest_load_all(const char *path, unsigned flags,
				   struct manifest_problems *problems, struct errbuf *eb)
{
	struct manifest *m;
	char *buf = NULL;
	size_t len = 0;

	if (problems != NULL)
		*problems = (struct manifest_problems){NULL, 0};
	if (fileio_read(path, MANIFEST_FILE_MAX_BYTES, "cannot open", &buf, &len, eb) < 0) {
		size_t n = strlen(eb->msg);

		/* The path is relative to where rarbench runs: say where the shipped ones are. */
		if (errno == ENOENT && n + 1 < sizeof(eb->msg))
			snprintf(eb->msg + n, sizeof(eb->msg) - n, /* lint: not a path */
				 " (the shipped manifests are rarperf's experiments/*.json)");
		return NULL;
	}
	m = manifest_parse_all(buf, len, path, flags, problems, eb);
	free(buf);
	return m;
}
