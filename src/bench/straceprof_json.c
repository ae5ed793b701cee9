/* straceprof_json: a trace's counts as the "profile" object of rarbench's results. */
#include "straceprof.h"

#include <stdlib.h>
#include <string.h>

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
static const char *const tracer_env[] = {STRACEPROF_TRACER_PATH};

/* The length of kv's name ("NAME=value"), 0 for an entry without '='. */
static size_t name_len(const char *kv)
{
	const char *eq = strchr(kv, '=');

	return eq != NULL ? (size_t)(eq - kv) : 0;
}

struct proc_cmd *straceprof_cmd(const char *tracer, const char *trace, const char *user,
				const char *keep, char *const *argv, const struct proc_opts *opts,
				struct errbuf *eb)
{
	extern char **environ;
	const char *pre[] = {tracer, "-f", "-qq", "-o", trace, "-u", user};
	size_t npre = user != NULL ? 7 : 5, n = 0, ntracee = 0, ntenv = 0, k;
	char *const *tracee = opts->envp != NULL ? opts->envp : environ;
	const char *tenv[3] = {NULL};
	struct proc_opts po = *opts;
	struct proc_cmd *cmd;
	char **all;

	while (argv[n] != NULL)
		n++;
	while (tracee[ntracee] != NULL)
		ntracee++;
	for (k = 0; k < sizeof(tracer_env) / sizeof(tracer_env[0]); k++)
		tenv[ntenv++] = tracer_env[k];
	if (keep != NULL)
		tenv[ntenv++] = keep;
	/* argv: the options, -E NAME for each of the tracer's own variables (the tracee starts
	 * without them), -E NAME=value for each of the tracee's in its order, then the command:
	 * the tracee's environment is exactly opts->envp, as the timed runs', and strace's own is
	 * tenv. strace applies -E to the tracee only (its test strace-E-unset). */
	if ((all = calloc(npre + 2 * (ntenv + ntracee) + n + 1, sizeof(char *))) == NULL) {
		errbuf_set(eb, "out of memory");
		return NULL;
	}
	memcpy(all, pre, npre * sizeof(char *));
	k = npre;
	for (size_t i = 0; i < ntenv; i++) {
		all[k++] = "-E";
		if ((all[k++] = strndup(tenv[i], name_len(tenv[i]))) == NULL)
			goto oom;
	}
	for (size_t i = 0; i < ntracee; i++) {
		if (name_len(tracee[i]) == 0)
			continue; /* no name: nothing the tracee could read */
		all[k++] = "-E";
		all[k++] = tracee[i];
	}
	memcpy(all + k, argv, n * sizeof(char *));
	po.as = NULL; /* strace -u switches identity itself; without it, strace runs as we do */
	po.envp = (char *const *)tenv;
	cmd = proc_cmd_new(all, &po, eb); /* copies all and tenv */
	for (size_t i = 0; i < ntenv; i++)
		free(all[npre + 2 * i + 1]);
	free(all);
	return cmd;
oom:
	for (size_t i = npre + 1; i < k; i += 2)
		free(all[i]);
	free(all);
	errbuf_set(eb, "out of memory");
	return NULL;
}
