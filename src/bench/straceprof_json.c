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

struct proc_cmd *straceprof_cmd(const char *tracer, const char *trace, const char *user,
				char *const *argv, const struct proc_opts *opts, struct errbuf *eb)
{
	const char *pre[] = {tracer, "-f", "-qq", "-o", trace, "-u", user};
	size_t npre = user != NULL ? 7 : 5, n = 0;
	struct proc_opts po = *opts;
	struct proc_cmd *cmd;
	char **all;

	while (argv[n] != NULL)
		n++;
	if ((all = calloc(npre + n + 1, sizeof(char *))) == NULL) {
		errbuf_set(eb, "out of memory");
		return NULL;
	}
	memcpy(all, pre, npre * sizeof(char *));
	memcpy(all + npre, argv, n * sizeof(char *));
	po.as = NULL; /* strace -u switches identity itself; without it, strace runs as we do */
	cmd = proc_cmd_new(all, &po, eb); /* copies all */
	free(all);
	return cmd;
}
