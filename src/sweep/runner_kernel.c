/*
 * runner_kernel: the kernel-side calibration of a manifest run (manifest "kernel_reference"):
 * rarkref's kinds, found beside this executable, run as the bench user in every step beside the
 * subjects and rarref, and their unit prices per point and round for results.json's
 * "reference"."kernel" (runner_kernel.h says how a price is made).
 */
#include "runner_kernel.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "runner_reference.h"
#include "stats.h"

/* Each kind: rarkref's argument, N, and what one unit is. "exec" first: the others' base. */
static const struct {
	const char *kind;
	const char *arg; /* NULL: the bare run */
	unsigned count;
	const char *prices;
} kinds[RUNNER_KERNEL_KINDS] = {
    {"exec", NULL, 0, "a static program created, executed and reaped (fork, execve, exit, wait4)"},
    {"faults", "faults", 1024, "one minor page fault: a fresh anonymous page touched"},
    {"execve", "execve", 8,
     "execve(2) of a static program by itself: an exec without fork or reap"},
    {"getppid", "getppid", 4096, "getppid(2): entry and exit, the floor of any call"},
    {"close", "close", 4096, "close(2) of a descriptor that is not open (EBADF)"},
    {"read", "read", 2048, "pread(2) of one byte from a file in the page cache"},
    {"openat", "openat", 512, "openat(2) of /etc/passwd, with its close(2)"},
    {"newfstatat", "stat", 1024, "newfstatat(2) of /etc/passwd"},
    {"mmap", "mmap", 1024, "mmap(2) of one anonymous page, untouched, with its munmap(2)"},
};

bool runner_is_kernel(const char *subject)
{
	return strncmp(subject, RUNNER_KERNEL_PREFIX, strlen(RUNNER_KERNEL_PREFIX)) == 0;
}

bool runner_is_calibration(const char *subject)
{
	return strcmp(subject, RUNNER_REFERENCE_ID) == 0 || runner_is_kernel(subject);
}

/* The directory of this executable, into dir. 0 or -1. */
static int self_dir(char *dir, size_t len, struct errbuf *eb)
{
	ssize_t n = readlink("/proc/self/exe", dir, len - 1);
	char *slash;

	if (n < 0)
		return errbuf_set_errno(eb, errno, "kernel reference: /proc/self/exe");
	if ((size_t)n >= len - 1)
		return errbuf_set(eb, "kernel reference: /proc/self/exe: path too long");
	dir[n] = '\0';
	slash = strrchr(dir, '/');
	if (slash == NULL)
		return errbuf_set(eb, "kernel reference: /proc/self/exe: %s is not a path", dir);
	*slash = '\0';
	return 0;
}

int runner_kernel_setup(struct runner_kernel *k, const struct manifest *m,
			const struct proc_opts *opts, struct errbuf *eb)
{
	char dir[PATH_MAX];

	if (!m->kernel_reference)
		return 0;
	if (self_dir(dir, sizeof(dir), eb) < 0)
		return -1;
	if (fileio_fmt(k->program, sizeof(k->program), "%s/rarkref", dir) < 0)
		return errbuf_set(eb, "kernel reference: %s: path too long", dir);
	if (access(k->program, X_OK) != 0)
		return errbuf_set_errno(eb, errno,
					"kernel reference: %s (rarkref, built by make beside "
					"rarbench)",
					k->program);
	for (size_t i = 0; i < RUNNER_KERNEL_KINDS; i++) {
		snprintf(k->id[i], sizeof(k->id[i]), "%s%s", RUNNER_KERNEL_PREFIX, kinds[i].kind);
		snprintf(k->count[i], sizeof(k->count[i]), "%u", kinds[i].count);
		k->argv[i][0] = k->program;
		k->argv[i][1] = kinds[i].arg == NULL ? NULL : (char *)kinds[i].arg;
		k->argv[i][2] = kinds[i].arg == NULL ? NULL : k->count[i];
		k->argv[i][3] = NULL;
		if (kinds[i].arg == NULL)
			snprintf(k->command[i], sizeof(k->command[i]), "%s", k->program);
		else
			snprintf(k->command[i], sizeof(k->command[i]), "%s %s %u", k->program,
				 kinds[i].arg, kinds[i].count);
		k->cmd[i] = proc_cmd_new(k->argv[i], opts, eb);
		if (k->cmd[i] == NULL) {
			runner_kernel_clear(k);
			return errbuf_prefix(eb, "kernel reference");
		}
	}
	return 0;
}

int runner_kernel_check(const struct runner_kernel *k, struct errbuf *eb)
{
	struct proc_sample s;

	for (size_t i = 0; i < RUNNER_KERNEL_KINDS && k->cmd[i] != NULL; i++) {
		if (proc_run(k->cmd[i], &s, eb) < 0)
			return errbuf_prefix(eb, "kernel reference %s", k->command[i]);
		if (s.stopped)
			return errbuf_set(eb, "interrupted");
		if (s.timed_out || s.exit_code != 0)
			return errbuf_set(eb, "kernel reference %s: %s (exit %d) as the bench user",
					  k->command[i], s.timed_out ? "timed out" : "failed",
					  s.exit_code);
	}
	return 0;
}

size_t runner_kernel_count(const struct runner_kernel *k)
{
	return k->cmd[0] != NULL ? RUNNER_KERNEL_KINDS : 0;
}

void runner_kernel_benches(const struct runner_kernel *k, struct measure_bench *b,
			   struct journal_subject *js, size_t *n)
{
	for (size_t i = 0; i < runner_kernel_count(k); i++) {
		/* Paced like rarref: each run follows a subject's (measure.h). */
		b[*n] = (struct measure_bench){
		    .name = k->id[i], .cmd = k->cmd[i], .group = 0, .paced = true};
		/* Read only: the journal writes these strings, it frees only what it read. */
		js[*n].subject = (char *)k->id[i];
		js[*n].format = (char *)"kernel";
		js[*n].command = (char *)k->command[i];
		(*n)++;
	}
}

/* The median wall time of the runs of r in round (0: all), or NaN when none. */
static double median_in(const struct measure_result *r, const uint32_t *run_round, uint32_t round,
			double *scratch)
{
	size_t m = 0;

	for (size_t i = 0; i < r->n; i++)
		if (round == 0 || (run_round != NULL && run_round[i] == round))
			scratch[m++] = (double)r->wall_ns[i];
	if (m == 0)
		return NAN;
	stats_sort(scratch, m);
	return stats_quantile_sorted(scratch, m, 0.5);
}

/* Kind i's price from its median and the bare run's (ns). */
static double price(size_t i, double kind_ns, double exec_ns)
{
	return kinds[i].count == 0 ? exec_ns : (kind_ns - exec_ns) / kinds[i].count;
}

/* The index of "@kernel.KIND" among subjects, or n. */
static size_t find_kind(const struct journal_subject *subjects, size_t n, size_t kind)
{
	char id[32];

	snprintf(id, sizeof(id), "%s%s", RUNNER_KERNEL_PREFIX, kinds[kind].kind);
	for (size_t i = 0; i < n; i++)
		if (strcmp(subjects[i].subject, id) == 0)
			return i;
	return n;
}

/* Adds the point's axes to o. false when out of memory. */
static bool add_axes(cJSON *o, const struct sweep_point *sp)
{
	for (int a = 0; a < MANIFEST_AXIS_COUNT; a++)
		if (cJSON_AddNumberToObject(o, manifest_axis_name(a), sp->value[a]) == NULL)
			return false;
	return true;
}

/* One kind's price at the point, its rounds', into a new object added to arr. 0 or -1. */
static int add_cost(cJSON *arr, const struct sweep_point *sp, size_t kind,
		    const struct measure_result *r, const uint32_t *rr,
		    const struct measure_result *bare, const uint32_t *bare_rr, uint32_t max_rounds,
		    double *scratch)
{
	cJSON *o = cJSON_CreateObject(), *rounds;

	/* arr adopts o first: whatever fails below, nothing leaks. */
	if (o == NULL || !cJSON_AddItemToArray(arr, o)) {
		cJSON_Delete(o);
		return -1;
	}
	if (!add_axes(o, sp) || cJSON_AddStringToObject(o, "kind", kinds[kind].kind) == NULL ||
	    cJSON_AddNumberToObject(o, "count", kinds[kind].count) == NULL ||
	    cJSON_AddNumberToObject(o, "ns",
				    price(kind, median_in(r, rr, 0, scratch),
					  median_in(bare, bare_rr, 0, scratch))) == NULL ||
	    (rounds = cJSON_AddArrayToObject(o, "rounds")) == NULL)
		return -1;
	for (uint32_t round = 1; round <= max_rounds; round++) {
		double k = median_in(r, rr, round, scratch),
		       e = median_in(bare, bare_rr, round, scratch);
		cJSON *ro;

		if (isnan(k) || isnan(e))
			continue;
		ro = cJSON_CreateObject();
		if (ro == NULL || !cJSON_AddItemToArray(rounds, ro)) {
			cJSON_Delete(ro);
			return -1;
		}
		if (cJSON_AddNumberToObject(ro, "round", round) == NULL ||
		    cJSON_AddNumberToObject(ro, "ns", price(kind, k, e)) == NULL)
			return -1;
	}
	return 0;
}

int runner_kernel_costs(cJSON *arr, const struct sweep_point *sp,
			const struct journal_subject *subjects, uint32_t *const *run_round,
			size_t n, uint32_t max_rounds, struct errbuf *eb)
{
	size_t bare = find_kind(subjects, n, 0), most = 0;
	double *scratch;
	int rc = 0;

	if (bare == n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (subjects[i].result.n > most)
			most = subjects[i].result.n;
	if ((scratch = malloc((most ? most : 1) * sizeof(*scratch))) == NULL)
		return errbuf_set(eb, "out of memory");
	for (size_t kind = 0; kind < RUNNER_KERNEL_KINDS && rc == 0; kind++) {
		size_t i = find_kind(subjects, n, kind);

		if (i == n || subjects[i].result.n == 0)
			continue;
		if (add_cost(arr, sp, kind, &subjects[i].result, run_round ? run_round[i] : NULL,
			     &subjects[bare].result, run_round ? run_round[bare] : NULL, max_rounds,
			     scratch) < 0)
			rc = errbuf_set(eb, "out of memory");
	}
	free(scratch);
	return rc;
}

cJSON *runner_kernel_object(const char *program)
{
	cJSON *o = cJSON_CreateObject(), *arr;

	if (o == NULL || cJSON_AddStringToObject(o, "program", program) == NULL ||
	    (arr = cJSON_AddArrayToObject(o, "kinds")) == NULL)
		goto fail;
	for (size_t i = 0; i < RUNNER_KERNEL_KINDS; i++) {
		cJSON *k = cJSON_CreateObject();

		if (k == NULL || !cJSON_AddItemToArray(arr, k)) {
			cJSON_Delete(k);
			goto fail;
		}
		if (cJSON_AddStringToObject(k, "kind", kinds[i].kind) == NULL ||
		    cJSON_AddNumberToObject(k, "count", kinds[i].count) == NULL ||
		    cJSON_AddStringToObject(k, "prices", kinds[i].prices) == NULL)
			goto fail;
	}
	if (cJSON_AddArrayToObject(o, "unit_costs") == NULL)
		goto fail;
	return o;
fail:
	cJSON_Delete(o);
	return NULL;
}

void runner_kernel_clear(struct runner_kernel *k)
{
	for (size_t i = 0; i < RUNNER_KERNEL_KINDS; i++) {
		proc_cmd_free(k->cmd[i]);
		k->cmd[i] = NULL;
	}
}
