/* runner_env: the pinned environment of a manifest run's measured children, checked against
 * this host and recorded. */
#include "runner_env.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"

#define RUNNER_ENV_PATH "PATH=/usr/local/bin:/usr/bin:/bin"

/* A limit's value as JSON: a number, or "unlimited". */
static cJSON *limit_json(rlim_t v)
{
	return v == RLIM_INFINITY ? cJSON_CreateString("unlimited") : cJSON_CreateNumber((double)v);
}

/* Every limit as the children get it (pinned or inherited), the env, umask, cwd, CPUs, ASLR. */
static cJSON *build_record(const struct runner_env *renv, const struct manifest *m)
{
	const struct manifest_env *e = &m->env;
	cJSON *o = cJSON_CreateObject(), *lim, *env, *cpus;
	char buf[32], *aslr = NULL;
	size_t i, k, len = 0;

	if (o == NULL)
		return NULL;
	/* o adopts every item added below. */
	lim = cJSON_AddObjectToObject(o, "limits");
	for (i = 0; lim != NULL && i < manifest_limit_count(); i++) {
		int res;
		const char *name = manifest_limit_name(i, &res);
		struct rlimit rl = {RLIM_INFINITY, RLIM_INFINITY};
		bool pinned = false;
		cJSON *l = cJSON_AddObjectToObject(lim, name);

		getrlimit(res, &rl);
		for (k = 0; k < renv->pin.nlimits; k++) {
			if (renv->pin.limits[k].resource == res) {
				rl.rlim_cur = (rlim_t)renv->pin.limits[k].soft;
				rl.rlim_max = (rlim_t)renv->pin.limits[k].hard;
				pinned = true;
			}
		}
		cJSON_AddItemToObject(l, "soft", limit_json(rl.rlim_cur));
		cJSON_AddItemToObject(l, "hard", limit_json(rl.rlim_max));
		cJSON_AddBoolToObject(l, "pinned", pinned);
	}
	if (e->nlimit_values > 0) {
		/* The limits above hold its first value; each point its own (its id, "limit.*"). */
		cJSON *sw = cJSON_AddObjectToObject(o, "swept_limit"), *vals;

		cJSON_AddStringToObject(sw, "name", e->limits[e->limit_axis].name);
		vals = cJSON_AddArrayToObject(sw, "values");
		for (i = 0; vals != NULL && i < e->nlimit_values; i++)
			cJSON_AddItemToArray(vals, cJSON_CreateNumber((double)e->limit_values[i]));
	}
	env = cJSON_AddArrayToObject(o, "env");
	for (i = 0; env != NULL && renv->envp != NULL && renv->envp[i] != NULL; i++)
		cJSON_AddItemToArray(env, cJSON_CreateString(renv->envp[i]));
	snprintf(buf, sizeof(buf), "%03o", e->umask);
	cJSON_AddStringToObject(o, "umask", buf);
	cJSON_AddStringToObject(o, "cwd", e->cwd);
	if (e->ncpus > 0) {
		cpus = cJSON_AddArrayToObject(o, "cpus");
		for (i = 0; cpus != NULL && i < e->ncpus; i++)
			cJSON_AddItemToArray(cpus, cJSON_CreateNumber(e->cpus[i]));
	} else {
		cJSON_AddNullToObject(o, "cpus");
	}
	/* The interfaces the runs see: a namespace with only lo, whatever the host has. */
	cJSON_AddStringToObject(o, "network",
				renv->pin.net == PROC_NET_LOOPBACK ? "loopback" : "host");
	/* Address-space randomisation moves code and data run to run: recorded, not changed. */
	if (fileio_read("/proc/sys/kernel/randomize_va_space", 64, "cannot open", &aslr, &len,
			&(struct errbuf){{0}}) == 0 &&
	    len > 0 && aslr[0] >= '0' && aslr[0] <= '9')
		cJSON_AddNumberToObject(o, "aslr", aslr[0] - '0');
	else
		cJSON_AddNullToObject(o, "aslr");
	free(aslr);
	return o;
}

int runner_env_apply_point(const struct runner_subjects *sj, const struct sweep_point *pt)
{
	const struct manifest_env *e = &sj->plan->m->env;
	int res;

	if (e->nlimit_values == 0)
		return 0;
	res = e->limits[e->limit_axis].resource;
	for (size_t i = 0; i < sj->nsubjects; i++) {
		struct runner_subject *s = &sj->subjects[i];

		if (s->p->skip_reason != NULL)
			continue;
		if (proc_cmd_set_limit(s->check, res, pt->limit) < 0 ||
		    proc_cmd_set_limit(s->cmd, res, pt->limit) < 0)
			return -1;
	}
	return 0;
}

/* The pin of m->env (the plan checked each limit against this host's hard limit and each CPU:
 * plan_env.h; one that fails those checks is left out). */
static void build_pin(struct runner_env *env, const struct manifest *m)
{
	const struct manifest_env *e = &m->env;
	cpu_set_t online;
	size_t i;

	memset(&env->pin, 0, sizeof(env->pin));
	/* No core file from any child (a manifest may only say 0: manifest_env.c): one would land
	 * in the manifest's cwd, a directory rarbench did not make (issue 52, finding 5). */
	env->pin.limits[0].resource = RLIMIT_CORE;
	env->pin.nlimits = 1;
	for (i = 0; i < e->nlimits && env->pin.nlimits < PROC_PIN_LIMITS_MAX; i++) {
		const struct manifest_limit *l = &e->limits[i];
		struct rlimit rl;
		uint64_t v = l->unlimited ? (uint64_t)RLIM_INFINITY : l->value;

		if (l->resource == RLIMIT_CORE || getrlimit(l->resource, &rl) != 0 ||
		    (rl.rlim_max != RLIM_INFINITY && (l->unlimited || v > (uint64_t)rl.rlim_max)))
			continue;
		env->pin.limits[env->pin.nlimits].resource = l->resource;
		env->pin.limits[env->pin.nlimits].soft = v;
		/* The hard limit too: a tool could otherwise raise its soft limit back. */
		env->pin.limits[env->pin.nlimits].hard = v;
		env->pin.nlimits++;
	}
	env->pin.umask = (int)e->umask;
	env->pin.cwd = e->cwd;
	/* A network of its own with only lo: sudo lists every interface at start (proc.h). */
	env->pin.net = PROC_NET_LOOPBACK;
	if (e->ncpus > 0) {
		if (sched_getaffinity(0, sizeof(online), &online) != 0)
			CPU_ZERO(&online);
		CPU_ZERO(&env->pin_cpus);
		for (i = 0; i < e->ncpus; i++)
			if (CPU_ISSET(e->cpus[i], &online))
				CPU_SET(e->cpus[i], &env->pin_cpus);
		env->pin.cpus = &env->pin_cpus;
	}
}

/* HOME, USER, LOGNAME, SHELL from the bench user; the manifest's env or PATH and LANG=C. */
static int build_envp(struct runner_env *env, const struct manifest *m,
		      const struct proc_user *user, const char *marker, struct errbuf *eb)
{
	const struct manifest_env *e = &m->env;
	const char *fixed[] = {"HOME",    user->home, "USER",  user->name,
			       "LOGNAME", user->name, "SHELL", user->shell};
	char kv[PATH_MAX + 16];
	size_t i;

	env->envp = calloc(1, sizeof(*env->envp));
	if (env->envp == NULL)
		return errbuf_set(eb, "out of memory");
	for (i = 0; i < 8; i += 2) {
		snprintf(kv, sizeof(kv), "%s=%s", fixed[i], fixed[i + 1] ? fixed[i + 1] : "");
		if (proc_env_append(&env->envp, kv, eb) < 0)
			return -1;
	}
	if (e->has_env) {
		for (i = 0; i < e->nenv; i++)
			if (proc_env_append(&env->envp, e->env[i], eb) < 0)
				return -1;
	} else if (proc_env_append(&env->envp, RUNNER_ENV_PATH, eb) < 0 ||
		   proc_env_append(&env->envp, "LANG=C", eb) < 0) {
		return -1;
	}
	return proc_env_append(&env->envp, marker, eb);
}

cJSON *runner_env_record(const struct runner_env *env, bool dry_run)
{
	cJSON *o = cJSON_Duplicate(env->environment, 1), *v;
	struct errbuf eb = {{0}};
	int rc;

	if (o == NULL)
		return NULL;
	/* What judged the runs contended (contention.h); rarlaunch ran them, so asking starts
	 * nothing new. A dry run ran nothing: null. */
	if (dry_run) {
		v = cJSON_CreateNull();
	} else {
		rc = proc_launcher_stall(env->pin.net, &eb);
		v = rc < 0 ? cJSON_CreateNull()
			   : cJSON_CreateString(rc == 0 ? "schedstat" : "off-cpu");
	}
	if (v == NULL || !cJSON_AddItemToObject(o, "contention_source", v)) {
		cJSON_Delete(v);
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

int runner_env_setup(struct runner_env *env, const struct manifest *m, const struct proc_user *user,
		     const char *marker, cJSON *versions, struct errbuf *eb)
{
	build_pin(env, m);
	if (build_envp(env, m, user, marker, eb) < 0)
		return -1;
	cJSON_Delete(env->environment);
	env->environment = build_record(env, m);
	if (env->environment == NULL)
		return errbuf_set(eb, "out of memory");
	/* A resumed sweep must be measured in the same environment: the journal's header
	 * compares it with the versions. */
	if (versions != NULL &&
	    !cJSON_AddItemToObject(versions, "environment", cJSON_Duplicate(env->environment, 1)))
		return errbuf_set(eb, "out of memory");
	return 0;
}

/*
 * The tools' own state in the prefix, emptied before the timed steps and the
 * profile pass: RootAsRole 4.x rewrites its whole timestamp file (one
 * entry per parent process it has seen, serialised a few bytes per
 * write(2)) on every run, so without this its cost per run grows with every
 * sweep ever run on the host (measured: 13 731 write(2) a run after a day of
 * tests on one prefix). sudo's timestamp directory likewise. Relative to
 * the prefix; only regular files directly inside are removed.
 */
static const char *const TOOL_STATE_DIRS[] = {"run/rar/ts", "run/sudo/ts"};

int runner_reset_tool_state(const char *prefix, struct errbuf *eb)
{
	for (size_t i = 0; i < sizeof(TOOL_STATE_DIRS) / sizeof(TOOL_STATE_DIRS[0]); i++) {
		char dir[PATH_MAX], path[PATH_MAX];
		struct dirent *e;
		DIR *d;

		if (fileio_fmt(dir, sizeof(dir), "%s/%s", prefix, TOOL_STATE_DIRS[i]) < 0)
			return errbuf_set(eb, "%s: path too long", prefix);
		if ((d = opendir(dir)) == NULL) {
			if (errno == ENOENT)
				continue;
			return errbuf_set_errno(eb, errno, "%s", dir);
		}
		while ((e = readdir(d)) != NULL) {
			struct stat st;

			if (fileio_fmt(path, sizeof(path), "%s/%s", dir, e->d_name) < 0 ||
			    lstat(path, &st) < 0 || !S_ISREG(st.st_mode))
				continue;
			if (unlink(path) < 0) {
				errbuf_set_errno(eb, errno, "%s: cannot remove", path);
				closedir(d);
				return -1;
			}
		}
		closedir(d);
	}
	return 0;
}

void runner_env_clear(struct runner_env *env)
{
	proc_env_free(env->envp);
	env->envp = NULL;
	cJSON_Delete(env->environment);
	env->environment = NULL;
}
