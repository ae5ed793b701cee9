/* runcost: what one run of a subject costs, for the dry run's estimate without a pilot. */
/*
 * A cost is a line, time of one run = intercept + slope x size, where size is
 * the policy's entries at a point, R x T x C + R x U (nb_roles, nb_tasks,
 * nb_commands, nb_users), the size the pilot also interpolates along. It comes
 * from one of three sources, in the order plan_estimate.c asks them:
 *   facts   the prefix's facts.json records it for the tool
 *           (tools.NAME.run_cost: {"intercept_ms", "slope_us"});
 *   sweep   the last sweep's results.json in the run's output directory
 *           (its points of the same subject id, least squares);
 *   prior   a built-in line per tool (runcost_prior), measured on a 2-core
 *           Debian 12 VM (doc/results/2026-12-01-debian12-2core).
 */
#ifndef RARPERF_RUNCOST_H
#define RARPERF_RUNCOST_H

#include <stdbool.h>
#include <stddef.h>

#include "errbuf.h"

/* At most this many points of a results.json are read (the rest are ignored). */
#define RUNCOST_MAX_POINTS 100000u
/* A results.json larger than this is not read (the estimate falls back to the priors). */
#define RUNCOST_MAX_BYTES (64u * 1024 * 1024)

enum runcost_source { RUNCOST_NONE, RUNCOST_FACTS, RUNCOST_SWEEP, RUNCOST_PRIOR };

struct runcost {
	double intercept_s; /* one run at size 0 */
	double slope_s;     /* each more entry of the policy */
	enum runcost_source source;
};

/* One run of c at size entries, in seconds (never below 0). */
double runcost_at(const struct runcost *c, double entries);

/* The size of a point: R x T x C + R x U. */
double runcost_entries(double roles, double users, double tasks, double commands);

/*
 * The built-in line of the tool whose program is named program (its basename,
 * "dosr-4.0.3-cbor", "sudo-pam"): always fills *out (an unknown tool gets a
 * generic line) and returns whether the tool was known.
 */
bool runcost_prior(const char *program, struct runcost *out);

/* The calibration workload rarref of units units, one run. */
void runcost_reference_prior(unsigned units, struct runcost *out);

/*
 * The cost a facts.json tool entry records (tool: a cJSON object, its
 * "run_cost": {"intercept_ms": number >= 0, "slope_us": number >= 0}).
 * Returns true and fills *out, false when it records none.
 */
bool runcost_from_facts(const void *tool, struct runcost *out);

/* The points of a sweep's results.json, per subject (opaque). */
struct runcost_sweep;

/*
 * Parses len bytes of a rarbench results.json (or any hyperfine-format
 * export: its results (resultsfile.h), entries with "parameters"; each point's time is its
 * "rarbench" estimate, else its median, else its mean). Points without a
 * subject or a positive time are skipped. Returns 0 and *out (free with
 * runcost_sweep_free), or -1 with eb saying why (not JSON, no results array).
 */
int runcost_sweep_parse(const char *buf, size_t len, struct runcost_sweep **out, struct errbuf *eb);

/*
 * The line of subject's points (lsq_fit in size; one size: its mean,
 * slope 0; negative parts clamped to 0), source RUNCOST_SWEEP; the reference's
 * for subject NULL (its top-level "reference"). False when it has no point.
 */
bool runcost_sweep_line(const struct runcost_sweep *sw, const char *subject, struct runcost *out);

void runcost_sweep_free(struct runcost_sweep *sw);

#endif
