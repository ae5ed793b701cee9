/* contention: what the kernel says about interference: which runs waited for a CPU held by
 * others (from their cgroup's CPU pressure, else their off-CPU time), the estimate over the others,
 * and the host's CPU steal and load over a window (/proc/stat, /proc/loadavg). */
#ifndef RARPERF_CONTENTION_H
#define RARPERF_CONTENTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"
#include "estimate.h"
#include "measure.h"

/*
 * A run whose CPU stall is known (schedwait.h: the time the started process was runnable and
 * waited for a CPU something else held, the scheduler's own account) is contended when that
 * stall exceeds max(CONTENTION_STALL_MIN_NS, CONTENTION_STALL_REL x its wall time). The stall
 * does not grow when a tool forks, waits for a child or reads a file, so the rule judges every
 * tool alike, and it is judged against zero, not against the point's best run.
 * doc/precision.md gives the measurement behind the limits (selfbench/contention.sh): on a quiet
 * host a run's stall is 10 to 20 us (a wake-up on an idle CPU) and 1 to 7 % of the runs of
 * sudo, doas and RootAsRole 3.3.4 exceed 200 us; beside a CPU hog on each core the runs
 * that wait lose milliseconds (median 1.8 to 4.5 ms), far above the floor.
 */
#define CONTENTION_STALL_MIN_NS 200000LL
/* A stall this long lost the run measurable time: more than the few microseconds a wake-up on
 * an idle CPU costs (the kernel counts in ns, so nearly every run has some stall). */
#define CONTENTION_PREEMPT_MIN_NS 50000LL
#define CONTENTION_STALL_REL 0.01

/*
 * Without the stall (a kernel without /proc/PID/schedstat, a journal written before it was
 * recorded): a run's off-CPU time is its wall time minus the CPU time of the command
 * and the descendants it reaped (wait4's rusage): exec, wake-ups, I/O and,
 * on a busy host, the time it sat runnable while another task held the CPU.
 * A run is contended when its off-CPU time exceeds the baseline (the
 * smallest off-CPU time among the runs it is judged with: the same subject
 * at the same point) by more than max(CONTENTION_SLACK_NS, CONTENTION_SLACK_REL
 * x its wall time). doc/precision.md shows why this and not ru_nivcsw alone:
 * on this project's 2-CPU host a 17 ms run is preempted 3 to 12 times by
 * kernel threads at a cost of microseconds, while a run that waited behind a
 * compiler loses milliseconds.
 */
#define CONTENTION_SLACK_NS 50000LL
#define CONTENTION_SLACK_REL 0.01
/* A point whose host stole more than this fraction of the CPU time is flagged contended. */
#define CONTENTION_STEAL_LIMIT 0.05

/* wall - user - system, signed (a multi-threaded command can use more CPU than wall time). */
int64_t contention_offcpu_ns(uint64_t wall_ns, uint64_t user_ns, uint64_t system_ns);

/* The smallest off-CPU time of r's runs (0 when r has none). */
int64_t contention_baseline_ns(const struct measure_result *r);

/*
 * The reference off-CPU time of one subject across a sweep: the median of
 * its points' baselines (each point's smallest off-CPU time). A point whose
 * every run waited (a build running throughout it) has a baseline far above
 * it, and is judged against min(its baseline, the reference) instead of
 * against itself. baselines is reordered. INT64_MAX when n is 0.
 */
int64_t contention_reference_ns(int64_t *baselines, size_t n);

/* Whether run i of r has its CPU stall (r->stall_ns non-NULL and that entry >= 0). */
bool contention_stall_known(const struct measure_result *r, size_t i);

/* The stall rule above: a run of wall_ns that waited stall_ns for a CPU is contended. */
bool contention_stall_contended(int64_t stall_ns, uint64_t wall_ns);

/* Whether run i of r is contended: by its stall when known, else against baseline_ns (the
 * off-CPU rule above). */
bool contention_run_contended(const struct measure_result *r, size_t i, int64_t baseline_ns);

/* How many runs of r are contended against baseline_ns. */
size_t contention_count(const struct measure_result *r, int64_t baseline_ns);

/*
 * How many runs of r were preempted and lost measurable time by it. With the stall known: a
 * stall of at least CONTENTION_PREEMPT_MIN_NS. Otherwise at least
 * one involuntary context switch (ru_nivcsw > 0) and an off-CPU time more
 * than the slack above r's own best run's (contention_run_contended against
 * contention_baseline_ns(r)). A switch alone is not counted: kernel threads
 * take the CPU from nearly every run for microseconds (doc/precision.md), and
 * a count of 98-100 % said nothing. 0 when r->nivcsw is NULL.
 */
size_t contention_preempted(const struct measure_result *r);

/*
 * The estimate of kind k over r's wall times (ns) (ESTIMATE_CPU_MEDIAN: over their CPU times,
 * user + system, every run as it is, treat unused), each contended run (with
 * baseline_ns as above: pass contention_baseline_ns(r) to judge r by itself)
 * treated as treat says (estimate.h): corrected (to its wall time minus its stall when
 * known, else to its CPU time plus baseline_ns), left out, or kept. Left out, and fewer than
 * ESTIMATE_PRECISION_MIN_RUNS runs uncontended, the estimate falls back to
 * every run as measured (out->n tells how many it rests on). scratch holds
 * 2 r->n doubles. *contended gets the number of contended runs. Returns true
 * when it fell back (an estimate that then says nothing about an
 * uncontended host, and never meets a precision target).
 */
bool contention_estimate(const struct measure_result *r, enum estimate_kind k,
			 enum estimate_contended treat, int64_t baseline_ns, double *scratch,
			 struct estimate *out, size_t *contended);

/* The host's cumulative counters at one moment (from /proc/stat and /proc/loadavg). */
struct contention_host {
	uint64_t total_ticks; /* every field of the "cpu" line, guest time excluded */
	uint64_t idle_ticks;  /* idle + iowait */
	uint64_t steal_ticks;
	double load1;     /* 1-minute load average */
	unsigned running; /* runnable tasks right now (procs_running) */
};

/* What happened on the host between two snapshots. */
struct contention_window {
	double steal; /* fraction of the CPU time the hypervisor gave to others */
	double busy;  /* fraction of the CPU time spent running anything (all CPUs) */
	double load1; /* the 1-minute load average at the end */
	unsigned running;
};

/*
 * Parses /proc/stat's text (the "cpu " line and "procs_running") and
 * /proc/loadavg's text into *h. Pure. Returns 0, or -1 when a field is
 * missing or malformed.
 */
int contention_parse_stat(const char *text, struct contention_host *h);
int contention_parse_loadavg(const char *text, struct contention_host *h);

/*
 * Reads /proc/stat and /proc/loadavg (never inside a timed region: the
 * runner calls it between steps). Returns 0, or -1 with eb filled.
 */
int contention_read_host(struct contention_host *h, struct errbuf *eb)
    __attribute__((warn_unused_result));

/* The window from a to b (b later). Fractions are 0 when no tick passed. */
void contention_window_of(const struct contention_host *a, const struct contention_host *b,
			  struct contention_window *w);

#endif
