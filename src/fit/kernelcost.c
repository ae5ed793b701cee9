/*
 * kernelcost: a host's kernel-side prices, read from results.json's "reference"."kernel" (rarkref
 * run beside the subjects: src/sweep/runner_kernel.h), and a run's time split by them.
 */
#include "kernelcost.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "jsonget.h"
#include "resultsfile.h"

static const char *const kind_names[KERNELCOST_KINDS] = {
    "exec", "faults", "execve", "getppid", "close", "read", "openat", "newfstatat", "mmap"};

const char *kernelcost_kind_name(enum kernelcost_kind k)
{
	return k < KERNELCOST_KINDS ? kind_names[k] : "?";
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of v[0..n) (sorted in place), NaN for none. */
static double median_of(double *v, size_t n)
{
	if (n == 0)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The CV of v[0..n), NaN with fewer than two. */
static double cv_of(const double *v, size_t n)
{
	double mean = 0, ss = 0;

	if (n < 2)
		return NAN;
	for (size_t i = 0; i < n; i++)
		mean += v[i] / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	return mean != 0 ? sqrt(ss / (double)(n - 1)) / fabs(mean) : NAN;
}

/* rarref's per-run user and wall time (arr: the reference's results), each the median over its
 * points' means. 0 or -1. */
static int read_reference(const cJSON *arr, struct kernelcost_prices *p, struct errbuf *eb)
{
	const cJSON *e;
	size_t n = 0, i = 0, cap = (size_t)cJSON_GetArraySize(arr);
	double *user = calloc(cap ? cap : 1, sizeof(*user));
	double *wall = calloc(cap ? cap : 1, sizeof(*wall));
	int rc = -1;

	p->ref_user_ns = p->ref_wall_ns = NAN;
	if (user == NULL || wall == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	cJSON_ArrayForEach(e, arr)
	{
		char path[JSONGET_PATH_MAX_CHARS];
		double u, w;

		jsonget_index(path, "reference.results", i++);
		if (jsonget_double(e, path, "user", JSONGET_REQUIRED, 0, 1e6, &u, eb) < 0 ||
		    jsonget_double(e, path, "median", JSONGET_REQUIRED, 0, 1e6, &w, eb) < 0)
			goto out;
		user[n] = u * 1e9;
		wall[n++] = w * 1e9;
	}
	p->ref_user_ns = median_of(user, n);
	p->ref_wall_ns = median_of(wall, n);
	rc = 0;
out:
	free(user);
	free(wall);
	return rc;
}

enum kernelcost_found kernelcost_read(const void *root, struct kernelcost_prices *p,
				      struct errbuf *eb)
{
	const cJSON *ref = resultsfile_reference(root);
	const cJSON *arr =
	    jsonget_member(jsonget_member(ref, RESULTSFILE_REFERENCE_KERNEL), "unit_costs");
	const cJSON *e;
	size_t cap, i = 0;
	double *v[KERNELCOST_KINDS] = {NULL};
	enum kernelcost_found rc = KERNELCOST_MALFORMED;

	if (arr == NULL)
		return KERNELCOST_NONE;
	if (!cJSON_IsArray(arr)) {
		errbuf_set(eb, "reference.kernel.unit_costs: not an array");
		return KERNELCOST_MALFORMED;
	}
	memset(p, 0, sizeof(*p));
	cap = (size_t)cJSON_GetArraySize(arr);
	for (int k = 0; k < KERNELCOST_KINDS; k++)
		if ((v[k] = calloc(cap ? cap : 1, sizeof(double))) == NULL) {
			errbuf_set(eb, "out of memory");
			goto out;
		}
	cJSON_ArrayForEach(e, arr)
	{
		char path[JSONGET_PATH_MAX_CHARS];
		const char *kind = NULL;
		double ns;
		int k;

		jsonget_index(path, "reference.kernel.unit_costs", i++);
		if (jsonget_string(e, path, "kind", JSONGET_REQUIRED, 32, &kind, eb) < 0 ||
		    jsonget_double(e, path, "ns", JSONGET_REQUIRED, -1e9, 1e9, &ns, eb) < 0)
			goto out;
		for (k = 0; k < KERNELCOST_KINDS && strcmp(kind, kind_names[k]) != 0; k++)
			;
		/* A kind this reader does not know (a later rarkref's) is left out. */
		if (k < KERNELCOST_KINDS)
			v[k][p->points[k]++] = ns;
	}
	for (int k = 0; k < KERNELCOST_KINDS; k++) {
		p->cv[k] = cv_of(v[k], p->points[k]);
		p->ns[k] = median_of(v[k], p->points[k]);
	}
	if (read_reference(resultsfile_reference_results(root), p, eb) < 0)
		goto out;
	rc = KERNELCOST_PRICED;
out:
	for (int k = 0; k < KERNELCOST_KINDS; k++)
		free(v[k]);
	return rc;
}

/* The profile's count of syscall name (0 when it made none). */
static double calls_of(const cJSON *profile, const char *name)
{
	const cJSON *c =
	    jsonget_member(jsonget_member(jsonget_member(profile, "syscalls"), name), "calls");

	return cJSON_IsNumber(c) ? c->valuedouble : 0;
}

/* count units at price: 0 when none were made (a kind the file does not price is NaN). */
static double cost(double count, double price)
{
	return count > 0 ? count * price : 0;
}

/* A count the profile must have (a number >= 0) into *out. 0 or -1. */
static int need(const cJSON *obj, const char *path, const char *key, double *out, struct errbuf *eb)
{
	return jsonget_double(obj, path, key, JSONGET_REQUIRED, 0, 1e15, out, eb);
}

double kernelcost_ref_work_ns(const struct kernelcost_prices *p)
{
	double w = p->ref_wall_ns - p->ns[KERNELCOST_EXEC];

	return p->points[KERNELCOST_EXEC] > 0 && w > 0 ? w : NAN;
}

int kernelcost_predict(const struct kernelcost_prices *p, const void *profile, double cpu_ns,
		       struct kernelcost_parts *out, struct errbuf *eb)
{
	const cJSON *pr = profile;
	double execs, procs, calls, minflt, priced;
	const double *c = p->ns;

	memset(out, 0, sizeof(*out));
	if (need(pr, "profile", "execs", &execs, eb) < 0 ||
	    need(pr, "profile", "processes", &procs, eb) < 0 ||
	    need(pr, "profile", "calls", &calls, eb) < 0 ||
	    need(jsonget_member(pr, "rusage"), "profile.rusage", "minflt", &minflt, eb) < 0)
		return -1;
	/* A process is the bare run's life cycle; each exec beyond one per process an execve. */
	out->exec = cost(procs, c[KERNELCOST_EXEC]) +
		    cost(execs > procs ? execs - procs : 0, c[KERNELCOST_EXECVE]);
	out->faults = cost(minflt, c[KERNELCOST_FAULTS]);
	out->calls[KERNELCOST_GETPPID] = cost(calls_of(pr, "getppid"), c[KERNELCOST_GETPPID]);
	out->calls[KERNELCOST_CLOSE] = cost(calls_of(pr, "close"), c[KERNELCOST_CLOSE]);
	out->calls[KERNELCOST_READ] =
	    cost(calls_of(pr, "read") + calls_of(pr, "pread64"), c[KERNELCOST_READ]);
	/* rarkref's openat price holds its close: the subject's closes are counted as theirs. */
	out->calls[KERNELCOST_OPENAT] =
	    cost(calls_of(pr, "openat"), c[KERNELCOST_OPENAT] - c[KERNELCOST_CLOSE]);
	out->calls[KERNELCOST_NEWFSTATAT] =
	    cost(calls_of(pr, "newfstatat"), c[KERNELCOST_NEWFSTATAT]);
	/* Its mmap price is a pair, mmap and munmap: half for each call of either. */
	out->calls[KERNELCOST_MMAP] =
	    cost(calls_of(pr, "mmap") + calls_of(pr, "munmap"), c[KERNELCOST_MMAP] / 2);
	priced = calls_of(pr, "getppid") + calls_of(pr, "close") + calls_of(pr, "read") +
		 calls_of(pr, "pread64") + calls_of(pr, "openat") + calls_of(pr, "newfstatat") +
		 calls_of(pr, "mmap") + calls_of(pr, "munmap") + calls_of(pr, "execve") +
		 calls_of(pr, "exit_group");
	out->other_calls = cost(calls > priced ? calls - priced : 0, c[KERNELCOST_GETPPID]);
	out->kernel = out->exec + out->faults + out->other_calls;
	for (int k = 0; k < KERNELCOST_KINDS; k++)
		out->kernel += out->calls[k];
	out->user = cpu_ns > out->kernel ? cpu_ns - out->kernel : 0;
	return 0;
}
