/* measure: hyperfine's warmup / min-runs / max-runs / min-time loop over several commands, in an
 * order. */
#ifndef RARPERF_MEASURE_H
#define RARPERF_MEASURE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"
#include "estimate.h"
#include "proc.h"

/* hyperfine's defaults. */
#define MEASURE_DEFAULT_MIN_RUNS 10
#define MEASURE_DEFAULT_MIN_TIME_NS 3000000000ULL
/* Hard cap on the timing runs of one benchmark (the sample arrays stay bounded). */
#define MEASURE_MAX_RUNS_CAP 100000000ULL

/* What measure_run and measure_calibrate came to: one value per outcome, none of them an exit
 * status or a plain -1, so that no caller can take one for another. */
enum measure_outcome {
	MEASURE_OK,      /* every benchmark finished */
	MEASURE_FAILED,  /* eb says why */
	MEASURE_STOPPED, /* *opts->stop became non-zero (SIGINT) */
	MEASURE_TIMEOUT  /* a run passed its command's timeout (proc_opts.timeout_ms) and was
			    killed: eb names the benchmark */
};

/* The order of the runs; named by measure_order_name (the table lists them in enum order). */
enum measure_order {
	MEASURE_ORDER_INTERLEAVED, /* within a group, one run of each benchmark in turn: A B A B ...
				    */
	MEASURE_ORDER_SEQUENTIAL,  /* hyperfine's: each benchmark runs all its runs before the next
				    */
	MEASURE_ORDER_RANDOM /* within a group, each round runs every benchmark once, shuffled */
};
#define MEASURE_ORDER_COUNT 3

/*
 * One benchmark: a measured command and its optional hooks. All proc_cmd
 * pointers are borrowed (the caller frees them after measure_run). Hooks are
 * never timed; a hook exiting non-zero is an error (hyperfine's rule).
 */
struct measure_bench {
	const char *name;         /* for messages ("command" in exports) */
	struct proc_cmd *cmd;     /* the measured command */
	struct proc_cmd *setup;   /* once, before the warmup runs; NULL: none */
	struct proc_cmd *prepare; /* before every warmup and timing run; NULL: none */
	struct proc_cmd *cleanup; /* once, after the last run; NULL: none */
	size_t group; /* consecutive benchmarks with equal group are interleaved/shuffled together
			 (the rarbench CLI uses the parameter-combination index) */
	/* Runs only beside another bench of its group: once every bench of the group that is not
	 * paced has its runs, the paced ones stop, wherever their own count stands. A calibration
	 * workload measured among subjects is paced, so that each of its runs follows a subject's,
	 * as at every size: run back to back with itself it ran 15 % faster (issue 43, item 5). A
	 * group of paced benches only runs as if none were. */
	bool paced;
};

/*
 * The samples of one benchmark, owned by the caller's array of results and
 * filled by measure_run. Times are after subtracting opts->overhead (clamped
 * at 0). Free with measure_result_clear.
 */
struct measure_result {
	size_t n;          /* timing runs recorded */
	uint64_t *wall_ns; /* n entries each */
	uint64_t *user_ns;
	uint64_t *system_ns;
	int *exit_codes;  /* exit status, or 128+signal */
	uint32_t *nivcsw; /* involuntary context switches of each run (proc_sample.nivcsw); NULL
			     when unknown (a journal written before they were recorded) */
	/* How long each run waited for a CPU (proc_sample.stall_ns, -1: unknown for that run);
	 * NULL when unknown for all (a journal written before it was recorded) */
	int64_t *stall_ns;
	struct proc_rusage *ru; /* wait4's counters of each run (page faults, peak RSS, blocks
				   read, voluntary switches); NULL when unknown (older journals) */
	bool all_succeeded;     /* every exit code was 0 */
	bool complete;          /* the benchmark finished (false when stopped or failed midway) */
	size_t cap;             /* allocated entries (internal) */
};

void measure_result_clear(struct measure_result *r);

/* The wall times of r's runs, summed (ns). */
uint64_t measure_result_wall_sum(const struct measure_result *r);

/*
 * Appends src's runs to dst's (the arrays grow; dst->n changes only on success): the runs of
 * one subject gathered over several rounds or journal steps. nivcsw is kept only while every
 * part has it (old journals lack it); all_succeeded holds when it held for every part.
 * Returns 0, or -1 when out of memory (dst then keeps its runs).
 */
int measure_result_append(struct measure_result *dst, const struct measure_result *src);

enum measure_event_kind {
	MEASURE_EV_START,  /* a benchmark is about to run its setup (events of one group come
			      together) */
	MEASURE_EV_WARMUP, /* after each warmup run */
	MEASURE_EV_RUN,    /* after each timing run (result->n grew by one) */
	MEASURE_EV_DONE    /* a benchmark finished, cleanup done; result is complete */
};

struct measure_event {
	enum measure_event_kind kind;
	size_t bench;                    /* index into the benches array */
	size_t group_first, group_count; /* the benches run together with this one */
	uint64_t done, total; /* runs done / planned in this phase, summed over the group;
				 total is 0 while the run count is still unknown */
	const struct measure_result *result; /* samples of `bench` so far */
};

struct measure_opts {
	uint64_t warmup;   /* warmup runs per benchmark (-w) */
	uint64_t min_runs; /* -m, default MEASURE_DEFAULT_MIN_RUNS */
	uint64_t max_runs; /* -M, 0 = unbounded (-r N sets min = max = N) */
	uint64_t
	    min_time_ns; /* run at least this long (estimated from the first run), default 3 s */
	enum measure_order order;
	uint64_t seed;       /* PRNG seed for MEASURE_ORDER_RANDOM */
	bool ignore_failure; /* -i: a non-zero exit of the measured command is recorded, not an
				error */
	struct proc_sample
	    overhead; /* subtracted from every timing run (shell spawn calibration) */
	/*
	 * Run to a precision: 0 keeps hyperfine's count. Else each benchmark
	 * takes min_runs runs, then more (in growing batches, interleaved within
	 * its group) until the 95 % interval of its estimate (estimator, contended
	 * runs treated as contended says; contention.h) is within precision
	 * of it relative (0.01 = 1 %), or it has max_runs runs, or, without
	 * max_runs, as many as hyperfine's min_time rule would have given it.
	 */
	double precision;
	enum estimate_kind estimator;
	enum estimate_contended contended;
	const volatile sig_atomic_t *stop; /* checked between runs; NULL: never stop */
	/*
	 * Called between runs (never inside the timed window). A non-zero return
	 * stops measure_run, which returns -1 with the callback's eb message
	 * (e.g. an export that cannot be written). NULL: no callback.
	 */
	int (*on_event)(void *ctx, const struct measure_event *ev, struct errbuf *eb);
	void *ctx;
};

/* "interleaved", "sequential" or "random"; "?" for a value out of range. */
const char *measure_order_name(enum measure_order o);

/* Parses an order's name into *o. Returns 0, or -1 when s names none. */
int measure_order_parse(const char *s, enum measure_order *o);

/* Fills opts with hyperfine's defaults (min 10 runs, no max, 3 s, sequential, seed 0). */
void measure_opts_init(struct measure_opts *opts);

/*
 * Validates opts (min_runs >= 1, min_runs <= max_runs when max is set).
 * Returns 0 or -1 with eb ("--min-runs 5 is greater than --max-runs 3").
 */
int measure_opts_validate(const struct measure_opts *opts, struct errbuf *eb);

/*
 * Runs n benchmarks in opts->order and fills results[0..n) (zeroed by the
 * caller beforehand). For each benchmark: setup, warmup runs, one timing run
 * whose wall time (+ prepare time + overhead) estimates how many runs fit in
 * min_time_ns, bounded by min_runs and max_runs, then the remaining runs,
 * then cleanup. Sequential order treats each benchmark as its own group.
 *
 * Returns MEASURE_OK when all finished; MEASURE_STOPPED when *opts->stop became
 * non-zero (results[i].complete tells which finished); MEASURE_TIMEOUT (eb
 * filled) when a run passed its command's timeout; MEASURE_FAILED with eb filled on
 * a spawn failure, a failing hook, a failing measured command without
 * ignore_failure ("Command terminated with non-zero exit code: 3. Use the
 * '-i'/'--ignore-failure' option ..."), or a callback error. The results of
 * the benchmarks that finished before an error stay complete.
 */
enum measure_outcome measure_run(const struct measure_bench *benches, size_t n,
				 const struct measure_opts *opts, struct measure_result *results,
				 struct errbuf *eb);

/*
 * hyperfine's shell calibration: runs shell_cmd (e.g. `sh -c ""`) count
 * times (hyperfine: 50) and stores the mean wall/user/system into *out
 * (exit_code 0). Returns MEASURE_OK, MEASURE_STOPPED, or MEASURE_FAILED with eb filled
 * ("Could not measure shell execution time...").
 */
enum measure_outcome measure_calibrate(struct proc_cmd *shell_cmd, unsigned count,
				       const volatile sig_atomic_t *stop, struct proc_sample *out,
				       struct errbuf *eb);

#endif
