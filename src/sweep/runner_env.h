/* runner_env: the pinned environment of a manifest run's measured children (limits, umask, cwd,
 * CPUs, network, the environment strings), built and recorded. */
#ifndef RARPERF_RUNNER_ENV_H
#define RARPERF_RUNNER_ENV_H

#include <sched.h>
#include <stdbool.h>

#include <cjson/cJSON.h>

#include "errbuf.h"
#include "manifest.h"
#include "proc.h"
#include "points.h"
#include "runner_subjects.h"

/* What every measured child gets; freed by runner_env_clear. */
struct runner_env {
	struct proc_pin pin;
	cpu_set_t pin_cpus;
	char **envp;
	cJSON *environment; /* the record: results' meta, the journal's versions */
};

/*
 * After the bench user is looked up: builds env->pin from m's limits, umask, cwd and cpus
 * (checked against this host by the plan: plan_env.h), env->envp (user's HOME, USER,
 * LOGNAME, SHELL; m's env or PATH and LANG=C; the run's marker; nothing
 * inherited) and the record env->environment (every limit as the children
 * get it, pinned or not, the env, umask, cwd, CPUs and ASLR), added to
 * versions (NULL: none). 0 or -1.
 */
int runner_env_setup(struct runner_env *env, const struct manifest *m, const struct proc_user *user,
		     const char *marker, cJSON *versions, struct errbuf *eb);

/*
 * results.json's meta.environment: env->environment and "contention_source", what judged the
 * runs contended: "schedstat" (their CPU stall) or "off-cpu" (the host gave no stall;
 * contention.h), null in a dry run. Asked of rarlaunch at the end, so it starts where the runs did
 * (inside any cgroup the sweep moved into). NULL when out of memory.
 */
cJSON *runner_env_record(const struct runner_env *env, bool dry_run);

/* Gives every active subject's grant check and measured command the swept limit's value at pt
 * (a no-op without a swept limit). 0, or -1 when a command has no pin for it (cannot happen). */
int runner_env_apply_point(const struct runner_subjects *sj, const struct sweep_point *pt);

/*
 * Empties the tools' own state in the prefix (RootAsRole's and sudo's
 * timestamp files; prefix resolved), so that what a run costs does not
 * depend on the sweeps run before it. 0 or -1.
 */
int runner_reset_tool_state(const char *prefix, struct errbuf *eb);

/* Frees what env holds. */
void runner_env_clear(struct runner_env *env);

#endif
