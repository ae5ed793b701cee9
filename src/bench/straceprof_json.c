/* straceprof_json: a trace's counts as the "profile" object of rarbench's results. */
#include "straceprof.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* Adds n (a count) to o under key; o adopts it. */
static void add_count(cJSON *o, const char *key, uint64_t n)
{
	cJSON_AddNumberToObject(o, key, (double)n);
}

static int cmp_syscall(const void *a, const void *b)
{
	return strcmp(((const struct straceprof_syscall *)a)->name,
		      ((const struct straceprof_syscall *)b)->name);
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(((const struct straceprof_path *)a)->path,
		      ((const struct straceprof_path *)b)->path);
}

void straceprof_json(struct straceprof *p, cJSON *o)
{
	cJSON *sys, *files, *progs;

	add_count(o, "calls", p->calls);
	add_count(o, "failed", p->failed);
	add_count(o, "bytes_read", p->bytes_read);
	add_count(o, "bytes_written", p->bytes_written);
	add_count(o, "execs", p->execs);
	add_count(o, "processes", p->processes);
	qsort(p->syscalls, p->nsyscalls, sizeof(*p->syscalls), cmp_syscall);
	qsort(p->paths, p->npaths, sizeof(*p->paths), cmp_path);
	sys = cJSON_AddObjectToObject(o, "syscalls");
	for (size_t i = 0; sys != NULL && i < p->nsyscalls; i++) {
		cJSON *c = cJSON_AddObjectToObject(sys, p->syscalls[i].name);

		add_count(c, "calls", p->syscalls[i].calls);
		add_count(c, "failed", p->syscalls[i].failed);
	}
	files = cJSON_AddObjectToObject(o, "files");
	progs = cJSON_AddObjectToObject(o, "programs");
	for (size_t i = 0; files != NULL && progs != NULL && i < p->npaths; i++) {
		cJSON *c =
		    cJSON_AddObjectToObject(p->paths[i].exec ? progs : files, p->paths[i].path);

		add_count(c, "count", p->paths[i].count);
		add_count(c, "failed", p->paths[i].failed);
	}
}

/* The environment strace itself runs in, as root: fixed, nothing from the manifest or the
 * caller (issue 45, finding 1: a manifest's LD_PRELOAD was loaded into root's strace). */
static const char tracer_path[] = STRACEPROF_TRACER_PATH;

/*
 * The pin the traced program gets: opts's (pin may be NULL), completed with what it would have
 * inherited from this process and the tracer no longer passes on (the tracer's limits, umask and
 * cwd are its own now): the core limit, the umask, the working directory (into cwd, cap bytes).
 */
static int tracee_pin(const struct proc_pin *pin, struct proc_pin *out, char *cwd, size_t cap,
		      struct errbuf *eb)
{
	bool has_core = false;

	if (pin != NULL)
		*out = *pin;
	else
		*out = (struct proc_pin){.umask = -1};
	for (size_t i = 0; i < out->nlimits; i++)
		has_core |= out->limits[i].resource == RLIMIT_CORE;
	if (!has_core && out->nlimits < PROC_PIN_LIMITS_MAX) {
		struct rlimit rl;

		if (getrlimit(RLIMIT_CORE, &rl) != 0)
			return errbuf_set_errno(eb, errno, "getrlimit core");
		out->limits[out->nlimits].resource = RLIMIT_CORE;
		out->limits[out->nlimits].soft = rl.rlim_cur;
		out->limits[out->nlimits].hard = rl.rlim_max;
		out->nlimits++;
	}
	if (out->umask < 0) {
		mode_t m = umask(077);

		umask(m);
		out->umask = (int)m;
	}
	if (out->cwd == NULL) {
		if (getcwd(cwd, cap) == NULL)
			return errbuf_set_errno(eb, errno, "the working directory");
		out->cwd = cwd;
	}
	return 0;
}

struct proc_cmd *straceprof_cmd(const char *tracer, const char *trace, const char *keep,
				char *const *argv, const struct proc_opts *opts, struct errbuf *eb)
{
	const char *pre[] = {tracer, "-f", "-qq", "-o", trace};
	const size_t npre = sizeof(pre) / sizeof(pre[0]);
	const char *tenv[3] = {tracer_path, keep, NULL};
	struct proc_pin tp, rp;
	struct rlimit core;
	struct proc_opts to = *opts, ro = *opts;
	struct proc_cmd *tracee = NULL, *cmd = NULL;
	char **exec = NULL, **all = NULL, cwd[PATH_MAX];
	size_t n = 0;

	if (tracee_pin(opts->pin, &tp, cwd, sizeof(cwd), eb) < 0)
		return NULL;
	/* The traced program: the identity, environment and pin the timed runs get, applied by
	 * rarlaunch --exec to itself (proc_cmd_exec_argv); descriptors and mount namespace are
	 * the tracer's, which it inherits. */
	to.pin = &tp;
	to.mntns = NULL;
	to.timeout_ms = 0;
	to.stop = NULL;
	to.output = PROC_OUTPUT_INHERIT;
	to.stdin_null = false;
	if ((tracee = proc_cmd_new(argv, &to, eb)) == NULL ||
	    (exec = proc_cmd_exec_argv(tracee, eb)) == NULL)
		goto out;
	while (exec[n] != NULL)
		n++;
	if ((all = calloc(npre + n + 1, sizeof(*all))) == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	memcpy(all, pre, sizeof(pre));
	memcpy(all + npre, exec, n * sizeof(*all));
	/* The tracer, root: root's own limits but no core file (soft core limit 0; the hard one
	 * as ours, which rarlaunch --exec may need to give the traced program its own back when
	 * not root), a umask of its own and / as its working directory, whatever the manifest
	 * says (issue 52, finding 5); the CPUs and the network view stay the run's (neither
	 * writes anything). */
	if (getrlimit(RLIMIT_CORE, &core) != 0) {
		errbuf_set_errno(eb, errno, "getrlimit core");
		goto out;
	}
	rp = (struct proc_pin){
	    .limits = {{.resource = RLIMIT_CORE, .soft = 0, .hard = core.rlim_max}},
	    .nlimits = 1,
	    .umask = 077,
	    .cwd = "/",
	    .cpus = opts->pin != NULL ? opts->pin->cpus : NULL,
	    .net = opts->pin != NULL ? opts->pin->net : PROC_NET_HOST};
	ro.as = NULL; /* the tracer stays root: rarlaunch --exec switches the traced program */
	ro.envp = (char *const *)tenv;
	ro.pin = &rp;
	cmd = proc_cmd_new(all, &ro, eb); /* copies all and tenv */
out:
	free(all);
	proc_env_free(exec);
	proc_cmd_free(tracee);
	return cmd;
}
