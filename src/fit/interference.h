/* interference: whether the host took the CPU from a sweep, from the spread of the calibration
 * workload's runs (rarref: the same work at every point), and the words that say so. */
#ifndef RARPERF_INTERFERENCE_H
#define RARPERF_INTERFERENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "results.h"
#include "slowruns.h"

/*
 * Design. rarref does the same fixed work at every point, run by run beside the subjects. On a
 * quiet machine its runs stay near their floor: the published sweeps of doc/results (30 sweeps,
 * 2026-12-01 to 12-04, 2-core VMs) had at most 1.6 % of its runs above twice the point's fastest
 * tenth (0.0-0.4 % in the 17 A/A sweeps of 2026-12-04), although in an interleaved order its runs
 * fall in two groups 1.3 times apart (where it runs after a large subject). A host that takes
 * the CPU away for milliseconds at a time (a 1 ms loop taking 1 to 7.8 ms, issue 51) puts a
 * run past twice its 2-3 ms floor whenever it strikes; other work on the machine, which the
 * guest's scheduler sees, does the same (36 % in a guide's sweep beside a build). A sweep is
 * named interfered when more than INTERFERENCE_SLOW_SHARE of the reference's runs are slow.
 *
 * Which: a steal (what /proc/stat says the hypervisor took) above INTERFERENCE_STEAL_LIMIT
 * names the hypervisor. Other work on this machine when at least a third of the slow runs are
 * explained by their CPU stall (the run delay of /proc/PID/schedstat, their wait on this
 * machine's run queue): measured beside other sessions' builds, 38-78 % were; with the sweep's
 * cgroup frozen (tests/integration/67), 7-17 %. Else the host, unseen: the runs were slow
 * without waiting on the guest's run queue; a load average above the machine's CPUs during the
 * sweep (the sweep alone keeps about one task runnable: 1.3 on the quiet 2-CPU sweeps) is said
 * beside it. Without the stall, the load alone decides.
 *
 * What it cannot see: a host that slows every run alike (the whole sweep at half speed) leaves
 * the spread as it was; the reference units (normalised.md) divide that out.
 */

/* A run slower than this many times its point's fastest tenth (the 10th percentile) is slow. */
#define INTERFERENCE_SLOW_FACTOR SLOWRUNS_FACTOR
/* A sweep whose reference has more than this share of slow runs was interfered with. */
#define INTERFERENCE_SLOW_SHARE 0.10
/* A mean steal above this names the hypervisor (contention.h flags a point at the same 5 %). */
#define INTERFERENCE_STEAL_LIMIT 0.05

enum interference_cause {
	INTERFERENCE_NONE,   /* quiet, or no reference to tell */
	INTERFERENCE_UNSEEN, /* the host took the CPU and the guest did not see it */
	INTERFERENCE_STEAL,  /* the hypervisor said it took it (steal) */
	INTERFERENCE_LOCAL,  /* other work on this machine held the CPU (the runs waited for it) */
};

struct interference {
	size_t points;     /* reference points looked at (0: nothing to tell) */
	size_t runs, slow; /* the reference's runs, and how many of them were slow */
	size_t unseen;     /* slow runs that stay slow without their CPU stall */
	bool stall_known;  /* every point said its runs' stalls */
	double steal;      /* the points' mean steal (0 when none said) */
	double load1;      /* the points' mean 1-minute load average (NaN when none said) */
	unsigned cpus;     /* the machine's CPUs (0 when not said) */
	bool busy;         /* load1 above cpus: other work ran on this machine too */
	enum interference_cause cause;
};

/* A point's slow runs are counted as its file is read (slowruns.h; results.h's ref_slow). */

/* The reference points of res from file source (SIZE_MAX: every file) judged together. */
void interference_of(const struct results *res, size_t source, struct interference *out);

/* Whether out names an interference (a cause other than INTERFERENCE_NONE). */
bool interference_named(const struct interference *in);

/*
 * One sentence, no newline: "The host interfered: ... wall times here are not the tools' cost;
 * counts are ..." naming the cause and the remedy, or "The host was quiet: ..." with the share,
 * or "" when there is no reference (in->points 0). Into buf (size bytes, truncated).
 */
void interference_sentence(const struct interference *in, char *buf, size_t size);

/*
 * The figure's line under its caption, no newline: "The host interfered (...): wall times here are
 * not the tools' cost; counts are", short enough for a title; "" when none is named.
 */
void interference_figure_line(const struct interference *in, char *buf, size_t size);

/* The remedy for intervals too wide on such a host, a phrase: "counts (...) or another machine". */
const char *interference_remedy(const struct interference *in);

#endif
