/* manifest_env: the pinned environment of a manifest's measured runs (limits, env, umask, cwd,
 * cpus, page_cache), parsed and checked; what the host allows is checked by the plan (plan_env.c).
 */
#include "jsonget.h"
#include "manifest_impl.h"
#include "numarg.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* The resource limits by their manifest names (getrlimit(2) without RLIMIT_). */
static const struct {
	const char *name;
	int resource;
} env_limits[] = {
    {"as", RLIMIT_AS},           {"core", RLIMIT_CORE},         {"cpu", RLIMIT_CPU},
    {"data", RLIMIT_DATA},       {"fsize", RLIMIT_FSIZE},       {"locks", RLIMIT_LOCKS},
    {"memlock", RLIMIT_MEMLOCK}, {"msgqueue", RLIMIT_MSGQUEUE}, {"nice", RLIMIT_NICE},
    {"nofile", RLIMIT_NOFILE},   {"nproc", RLIMIT_NPROC},       {"rss", RLIMIT_RSS},
    {"rtprio", RLIMIT_RTPRIO},   {"rttime", RLIMIT_RTTIME},     {"sigpending", RLIMIT_SIGPENDING},
    {"stack", RLIMIT_STACK},
};
#define ENV_LIMITS_COUNT (sizeof(env_limits) / sizeof(env_limits[0]))

size_t manifest_limit_count(void)
{
	return ENV_LIMITS_COUNT;
}

const char *manifest_limit_name(size_t i, int *resource)
{
	if (i >= ENV_LIMITS_COUNT)
		return NULL;
	if (resource != NULL)
		*resource = env_limits[i].resource;
	return env_limits[i].name;
}

/* A limit given as an array: the sweep's limit axis, numbers ascending as written. */
static int parse_limit_axis(struct manifest_ctx *c, const cJSON *arr, const char *p,
			    struct manifest_env *e)
{
	char q[MANIFEST_PATH_MAX_CHARS];
	const cJSON *v;
	size_t i = 0;

	if (e->nlimit_values > 0)
		return manifest_fail(c, p, "only one limit may be swept (%s already is)",
				     e->limits[e->limit_axis].name);
	if (cJSON_GetArraySize(arr) < 1 || cJSON_GetArraySize(arr) > MANIFEST_LIMIT_VALUES_MAX)
		return manifest_fail(c, p, "expected 1 to %d values", MANIFEST_LIMIT_VALUES_MAX);
	cJSON_ArrayForEach(v, arr)
	{
		uint64_t x = 0;

		manifest_index_path(q, p, i);
		if (manifest_as_uint(c, v, q, 1, 9007199254740991.0, &x) < 0)
			return -1;
		if (i > 0 && x <= e->limit_values[i - 1])
			return manifest_fail(c, q, "%llu: expected values in increasing order",
					     (unsigned long long)x);
		e->limit_values[i++] = x;
	}
	e->nlimit_values = i;
	e->limit_axis = e->nlimits;
	return 0;
}

static int parse_limits(struct manifest_ctx *c, const cJSON *root, struct manifest_env *e)
{
	const cJSON *lim = jsonget_member(root, "limits"), *it;
	char p[MANIFEST_PATH_MAX_CHARS], b[48];
	size_t i;

	/* The kernel's default soft limit: a shell, an SSH session or a CI runner may have raised
	 * it, and a tool that closes every possible descriptor pays for each (issue 19). */
	e->limits[0] = (struct manifest_limit){
	    .resource = RLIMIT_NOFILE, .name = "nofile", .value = MANIFEST_NOFILE_DEFAULT};
	e->nlimits = 1;
	if (lim == NULL)
		return 0;
	if (!cJSON_IsObject(lim))
		return manifest_fail(c, "$.limits", "expected an object, got %s",
				     manifest_type_name(lim));
	e->nlimits = 0;
	cJSON_ArrayForEach(it, lim)
	{
		struct manifest_limit *l;

		manifest_child_path(p, "$.limits", manifest_shown(it->string, b));
		for (i = 0; i < ENV_LIMITS_COUNT; i++)
			if (strcmp(env_limits[i].name, it->string) == 0)
				break;
		if (i == ENV_LIMITS_COUNT)
			return manifest_fail(c, p,
					     "unknown limit (expected as, core, cpu, data, fsize, "
					     "locks, memlock, msgqueue, nice, nofile, nproc, rss, "
					     "rtprio, rttime, sigpending or stack)");
		for (size_t k = 0; k < e->nlimits; k++)
			if (strcmp(e->limits[k].name, it->string) == 0)
				return manifest_fail(c, p, "duplicate key");
		l = &e->limits[e->nlimits];
		l->resource = env_limits[i].resource;
		l->name = env_limits[i].name;
		if (cJSON_IsString(it) && strcmp(it->valuestring, "unlimited") == 0) {
			l->unlimited = true;
		} else if (cJSON_IsArray(it)) {
			if (parse_limit_axis(c, it, p, e) < 0)
				return -1;
			l->value = e->limit_values[0];
		} else {
			uint64_t v = 0;

			if (manifest_as_uint(c, it, p, 0, 9007199254740991.0, &v) < 0)
				return -1;
			l->value = v;
		}
		/* Every child of a run has core files off (runner_env's pin): a core would land in
		 * the manifest's cwd, a directory rarbench did not make, and root's tracer dumped
		 * one there (issue 52, finding 5). */
		if (l->resource == RLIMIT_CORE &&
		    (l->unlimited || l->value != 0 || cJSON_IsArray(it)))
			return manifest_fail(c, p,
					     "only 0: every child of a run has core files off (a "
					     "core file would land in the run's cwd, a directory "
					     "rarbench did not make)");
		e->nlimits++;
	}
	return 0;
}

/* NAME=value with NAME a shell identifier. */
static bool env_entry_ok(const char *s)
{
	size_t i = 0;

	if (!((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') || s[0] == '_'))
		return false;
	while ((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') ||
	       (s[i] >= '0' && s[i] <= '9') || s[i] == '_')
		i++;
	return s[i] == '=';
}

/* The variables a manifest may set (manifest_env_name_allowed). The LC_ names are glibc's
 * categories; anything else a measured tool reads from its environment is not the manifest's
 * to choose (issue 45, finding 1). */
static const char *const env_allowed[] = {
    "PATH",
    "HOME",
    "LANG",
    "TZ",
    "TERM",
    "USER",
    "LOGNAME",
    "SHELL",
    "LC_ALL",
    "LC_ADDRESS",
    "LC_COLLATE",
    "LC_CTYPE",
    "LC_IDENTIFICATION",
    "LC_MEASUREMENT",
    "LC_MESSAGES",
    "LC_MONETARY",
    "LC_NAME",
    "LC_NUMERIC",
    "LC_PAPER",
    "LC_TELEPHONE",
    "LC_TIME",
};

bool manifest_env_name_allowed(const char *kv)
{
	size_t n = strcspn(kv, "=");

	for (size_t i = 0; i < sizeof(env_allowed) / sizeof(env_allowed[0]); i++)
		if (strlen(env_allowed[i]) == n && strncmp(env_allowed[i], kv, n) == 0)
			return true;
	return false;
}

/* The length of kv's name as shown in a message (a shell identifier, cut at 64). */
static int name_len(const char *kv)
{
	size_t n = strcspn(kv, "=");

	return n > 64 ? 64 : (int)n;
}

static int parse_env(struct manifest_ctx *c, const cJSON *root, struct manifest_env *e)
{
	const cJSON *env = jsonget_member(root, "env"), *it;
	char p[MANIFEST_PATH_MAX_CHARS], b[48];
	size_t i = 0;

	if (env == NULL)
		return 0;
	if (!cJSON_IsArray(env))
		return manifest_fail(c, "$.env", "expected an array of \"NAME=value\", got %s",
				     manifest_type_name(env));
	if (cJSON_GetArraySize(env) > MANIFEST_ENV_MAX)
		return manifest_fail(c, "$.env", "more than %d variables", MANIFEST_ENV_MAX);
	e->env = calloc((size_t)cJSON_GetArraySize(env) + 1, sizeof(*e->env));
	if (e->env == NULL)
		return manifest_fail(c, "$.env", "out of memory");
	cJSON_ArrayForEach(it, env)
	{
		manifest_index_path(p, "$.env", i++);
		if (!cJSON_IsString(it) || !env_entry_ok(it->valuestring) ||
		    strlen(it->valuestring) > MANIFEST_STRING_MAX)
			return manifest_fail(c, p, "expected \"NAME=value\", got %s",
					     cJSON_IsString(it) ? manifest_shown(it->valuestring, b)
								: manifest_type_name(it));
		if (!manifest_env_name_allowed(it->valuestring))
			return manifest_fail(
			    c, p,
			    "%.*s is not allowed (a manifest's env may set only "
			    "%s: the others, LD_PRELOAD or GCONV_PATH among them, can "
			    "steer the loader or an interpreter of a set-user-ID tool)",
			    name_len(it->valuestring), it->valuestring, MANIFEST_ENV_ALLOWED_TEXT);
		if ((e->env[e->nenv++] = strdup(it->valuestring)) == NULL)
			return manifest_fail(c, p, "out of memory");
	}
	e->has_env = true;
	return 0;
}

static int parse_cpus(struct manifest_ctx *c, const cJSON *root, struct manifest_env *e)
{
	const cJSON *cpus = jsonget_member(root, "cpus"), *it;
	char p[MANIFEST_PATH_MAX_CHARS];
	size_t i = 0;

	if (cpus == NULL)
		return 0;
	if (!cJSON_IsArray(cpus) || cJSON_GetArraySize(cpus) == 0)
		return manifest_fail(c, "$.cpus", "expected a non-empty array of CPU numbers");
	cJSON_ArrayForEach(it, cpus)
	{
		uint64_t v = 0;

		manifest_index_path(p, "$.cpus", i++);
		if (manifest_as_uint(c, it, p, 0, CPU_SETSIZE - 1, &v) < 0)
			return -1;
		for (size_t k = 0; k < e->ncpus; k++)
			if (e->cpus[k] == v)
				return manifest_fail(c, p, "CPU %u given twice", (unsigned)v);
		if (e->ncpus == MANIFEST_CPUS_MAX)
			return manifest_fail(c, p, "more than %d CPUs", MANIFEST_CPUS_MAX);
		e->cpus[e->ncpus++] = (uint32_t)v;
	}
	return 0;
}

int manifest_parse_env(struct manifest_ctx *c, const cJSON *root, struct manifest *m)
{
	struct manifest_env *e = &m->env;
	const cJSON *j;

	e->umask = MANIFEST_UMASK_DEFAULT;
	if (parse_limits(c, root, e) < 0 || parse_env(c, root, e) < 0 || parse_cpus(c, root, e) < 0)
		return -1;
	j = jsonget_member(root, "umask");
	if (j != NULL) {
		const char *end = NULL;
		uint64_t v;

		if (!cJSON_IsString(j) || j->valuestring[0] == '\0')
			return manifest_fail(c, "$.umask",
					     "expected an octal string such as \"022\"");
		(void)numarg_u64_prefix(j->valuestring, 8, &v, &end);
		if (*end != '\0' || v > 0777)
			return manifest_fail(c, "$.umask", "\"%.16s\" is not an octal mode 000-777",
					     j->valuestring);
		e->umask = (unsigned)v;
	}
	if (manifest_get_string(c, root, "$", "cwd", false, &e->cwd) < 0)
		return -1;
	if (e->cwd == NULL && (e->cwd = strdup("/")) == NULL)
		return manifest_fail(c, "$.cwd", "out of memory");
	if (e->cwd[0] != '/')
		return manifest_fail(c, "$.cwd", "must be an absolute path");
	j = jsonget_member(root, "page_cache");
	if (j != NULL && !(cJSON_IsString(j) && (strcmp(j->valuestring, "evict") == 0 ||
						 strcmp(j->valuestring, "evict_each_round") == 0 ||
						 strcmp(j->valuestring, "as_found") == 0)))
		return manifest_fail(c, "$.page_cache",
				     "expected \"evict\", \"evict_each_round\" or \"as_found\"");
	e->page_cache_as_found = j != NULL && strcmp(j->valuestring, "as_found") == 0;
	e->page_cache_each_round = j != NULL && strcmp(j->valuestring, "evict_each_round") == 0;
	return 0;
}

void manifest_env_clear(struct manifest_env *e)
{
	for (size_t i = 0; i < e->nenv; i++)
		free(e->env[i]);
	free(e->env);
	free(e->cwd);
	memset(e, 0, sizeof(*e));
}
