/* kernelcost: a host's kernel-side prices (results.json's "reference"."kernel") and what they
 * predict of a subject's time from its profile. */
#ifndef RARPERF_KERNELCOST_H
#define RARPERF_KERNELCOST_H

#include <stdbool.h>
#include <stddef.h>

#include "errbuf.h"

/* The kinds rarkref prices (src/sweep/runner_kernel.h), in its order. */
enum kernelcost_kind {
	KERNELCOST_EXEC,
	KERNELCOST_FAULTS,
	KERNELCOST_EXECVE,
	KERNELCOST_GETPPID,
	KERNELCOST_CLOSE,
	KERNELCOST_READ,
	KERNELCOST_OPENAT,
	KERNELCOST_NEWFSTATAT,
	KERNELCOST_MMAP,
	KERNELCOST_KINDS
};

/* The kind's name as results.json writes it ("exec", "faults", ...). */
const char *kernelcost_kind_name(enum kernelcost_kind k);

/*
 * One host's prices: each kind's median over the sweep's points (ns per
 * unit), the spread of its per-point prices (CV, NaN with fewer than two
 * points) and rarref's user time per run (ns, the median over points of
 * its points' mean user time; NaN when the file has no reference).
 */
struct kernelcost_prices {
	double ns[KERNELCOST_KINDS];
	double cv[KERNELCOST_KINDS];
	size_t points[KERNELCOST_KINDS]; /* points that priced the kind */
	double ref_user_ns;
	double ref_wall_ns; /* rarref's wall time per run, likewise */
};

/* What a results file says of this host's kernel prices (kernelcost_read). */
enum kernelcost_found {
	KERNELCOST_MALFORMED = -1, /* eb: "reference.kernel.unit_costs[i].field: what" */
	KERNELCOST_NONE = 0,  /* none: a results file before the key, or a manifest without it */
	KERNELCOST_PRICED = 1 /* read into p */
};

/*
 * Reads root's (a parsed results.json, cJSON) "reference"."kernel".unit_costs
 * and "reference".results into p (left unset unless KERNELCOST_PRICED).
 */
enum kernelcost_found kernelcost_read(const void *root, struct kernelcost_prices *p,
				      struct errbuf *eb);

/*
 * A run's CPU time split by what the host's prices say its kernel work costs:
 * each process it made at the bare run's price (created, executed, reaped)
 * and each further exec at execve's, its minor faults, its calls of each
 * priced kind (read with pread64; an mmap and a munmap make one priced pair;
 * openat without the close its price holds), every other call at getppid's
 * floor; kernel is their sum. user is what is left of the run's CPU time
 * (cpu_ns: user + system, whose total the kernel counts exactly though it
 * splits it between the two by samples: on this project's VMs a static
 * program that does nothing in user space is charged 94 % user), never below
 * 0. All in ns.
 */
struct kernelcost_parts {
	double exec, faults;
	double calls[KERNELCOST_KINDS]; /* the priced calls' (exec, faults, execve unused) */
	double other_calls;
	double kernel;
	double user;
};

/*
 * The parts of one run whose profile (a result's "profile" object, cJSON,
 * status "ok") made those calls, with cpu_ns of CPU time, at prices p.
 * Returns 0, or -1 when the profile lacks its counts (eb says which).
 */
int kernelcost_predict(const struct kernelcost_prices *p, const void *profile, double cpu_ns,
		       struct kernelcost_parts *out, struct errbuf *eb);

/* rarref's work without its exec, ns per run (its wall time less the bare run's): the unit of
 * user CPU across hosts; NaN when unknown. */
double kernelcost_ref_work_ns(const struct kernelcost_prices *p);

#endif
