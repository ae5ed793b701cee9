/* export: hyperfine-format JSON, CSV and Markdown exports of measure results, written atomically.
 */
#ifndef RARPERF_EXPORT_H
#define RARPERF_EXPORT_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "errbuf.h"
#include "estimate.h"
#include "measure.h"

/* One parameter of a result: exported as a string, like hyperfine's. */
struct export_param {
	const char *name;
	const char *value;
};

/*
 * rarbench's additions to one result: the estimate and its 95 % interval,
 * the contention seen and the precision reached, written after hyperfine's
 * keys as "nivcsw" (one count per run, when known) and a "rarbench" object
 * (README.md, rarbench(1)). The manifest runner fills the per-point part.
 */
struct export_extras {
	enum estimate_kind estimator;
	enum estimate_contended contended; /* what the estimate does with contended runs */
	double precision;        /* the target relative half-width; 0: fixed count (null) */
	double contention_limit; /* a point with more contended runs than this fraction is
				    flagged "contended" */
	bool has_reference;      /* runs are judged against min(their own baseline, reference_ns):
				    the subject's reference off-CPU time across the sweep
				    (contention_reference_ns); false: their own baseline */
	int64_t reference_ns;
	bool has_point;          /* manifest mode: the fields below are known */
	uint32_t rounds;         /* steps merged into the result */
	uint32_t remeasured;     /* steps measured again because of contention */
	uint64_t discarded_runs; /* the runs of the attempts measured again */
	double steal;            /* the host's CPU steal over the point's steps (fraction) */
	double load1;            /* the highest 1-minute load average at the end of a step */
	const cJSON *profile;    /* manifest mode: the point's profile of this subject (copied
				    into "profile"); NULL: no such key */
	const cJSON *counts;     /* manifest mode: the point's counts of this subject (copied
				    into "counts"); NULL: no such key */
	const cJSON *counts_instrument; /* the point's instrument (a string), added to "counts" */
	/* A daemon the subject's runs asked (pkexec's polkitd) over the point's steps, exported
	 * as "daemon": its CPU time, the runs it served, its peak resident size; NULL: none. */
	const char *daemon_name;
	uint64_t daemon_cpu_ns, daemon_runs, daemon_maxrss_kib;
};

/* One benchmark to export. Everything is borrowed. */
struct export_entry {
	const char *command;                 /* "command": the name (-n) or the command line */
	const struct measure_result *result; /* must hold at least one run */
	const struct export_param *params;   /* "parameters", sorted by name like hyperfine's
						BTreeMap;   n_params 0: key omitted */
	size_t n_params;
	const struct export_extras *extras; /* NULL: hyperfine's keys only */
	/* With extras: the round of the step each run came from (manifest mode), exported as
	 * "run_rounds" and each round's estimate as rarbench.round_estimates (export_rounds.h);
	 * NULL: neither. */
	const uint32_t *run_round;
};

/*
 * The numbers of a result's "rarbench" object, computed from its samples
 * and extras (what rarbench's console summary shows too). Times in ns.
 */
struct export_summary {
	struct estimate est;
	size_t contended, preempted;
	double reached; /* relative half-width of est, INFINITY when unknown */
	bool fell_back; /* contended runs dropped, fewer than 6 left: the estimate is over every run
			 */
	bool met;       /* precision > 0, reached <= precision, and not fell_back */
	bool contended_point;
};

/*
 * The "rusage" object of r's runs (r->ru must be set): arrays minflt,
 * majflt, maxrss_kib, inblock, nvcsw, one entry per run. NULL when out of
 * memory. Results and journal steps write it alike.
 */
cJSON *export_rusage_json(const struct measure_result *r);

/* Fills *out for result r under extras x. Returns 0, or -1 (out of memory). */
int export_summarize(const struct measure_result *r, const struct export_extras *x,
		     struct export_summary *out, struct errbuf *eb);

enum export_time_unit { EXPORT_UNIT_SECOND, EXPORT_UNIT_MILLISECOND };

/*
 * Builds hyperfine's JSON document (1.15's keys and 1.20's "memory_usage_byte";
 * src/common/resultsfile.h), its results one object per entry:
 *   {"command","mean","stddev","median","user","system","min","max","times",
 *    "memory_usage_byte"?,"exit_codes","parameters"?,"nivcsw"?, "rarbench"?}
 * (the last two only for entries with extras: hyperfine's keys come first,
 * unchanged, in its order)
 * in seconds (stddev null for one run, exit_codes 128+n for signal deaths,
 * memory_usage_byte each run's own peak RSS in bytes, when r->ru is known,
 * numbers always written with a decimal point or exponent, like serde).
 * extra may be NULL; else each member of the extra object is deep-copied,
 * in order, as a top-level key after the results (rarbench's "rarbench"
 * object; manifest mode's "meta"). Returns a new document (caller deletes
 * with cJSON_Delete) or NULL with eb filled.
 */
cJSON *export_json_build(const struct export_entry *entries, size_t n, const cJSON *extra,
			 struct errbuf *eb);

/*
 * export_json_build + resultsfile_write: the pretty printed document and a
 * final newline, written atomically to path, mode 0644 (at most
 * RESULTSFILE_MAX_BYTES). The file is either the previous version or the new
 * one, never half-written.
 */
int export_json(const char *path, const struct export_entry *entries, size_t n, const cJSON *extra,
		struct errbuf *eb) __attribute__((warn_unused_result));

/*
 * hyperfine's CSV: header
 *   command,mean,stddev,median,user,system,min,max[,parameter_<name>...]
 * (parameter columns from the union of names, in first-seen order), values
 * in seconds; commands quoted when needed. Atomic. Returns 0 or -1.
 */
int export_csv(const char *path, const struct export_entry *entries, size_t n, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * hyperfine's Markdown table: | Command | Mean [unit] | Min [unit] | Max [unit] | Relative |
 * with "mean ± stddev" and "ratio ± error" cells; unit chosen like
 * hyperfine (from the first result's mean unless fixed). Atomic.
 */
int export_markdown(const char *path, const struct export_entry *entries, size_t n,
		    const enum export_time_unit *unit, struct errbuf *eb)
    __attribute__((warn_unused_result));

#endif
