/* plan: one immutable plan of a manifest run, built once from the manifest, the prefix (read
 * only) and the run's settings; every problem found on the way and the one exit-2 verdict. */
/*
 * Layer src/plan (libplan.a): what a manifest and a prefix, read and never
 * written, say a run would do. It uses src/common, confgen (the policy
 * vocabulary and sizes) and src/bench (the order vocabulary, PAM stacks,
 * trusted paths, the tracer's check) (Makefile plan_USES); src/sweep (the
 * privileged run, which reads the plan as const), src/lab and the programs
 * use it. Nothing here writes a file, takes a lock or needs root:
 * `rarbench --manifest X --dry-run` is this layer alone.
 *
 * Modules, one line each:
 *   plan          the plan (this header), its problems and its one verdict
 *   plan_build    the plan built in two calls (the manifest, then the prefix), freed in one
 *   plan_prefix   the prefix's paths resolved, a policy confined to PREFIX/etc, the default prefix
 *   plan_subjects the subjects resolved against the prefix (plan_trust.c: whose
 *                 programs and PAM files they are; plan_pam.c: each subject's PAM stack)
 *   plan_env      the pinned environment's limits and CPUs checked against this host
 *   plan_estimate the dry run's time estimate from the procedure
 *   plan_print    the plan printed (with a pilot's measured costs, when there are some)
 *   manifest      parse and validate a manifest (manifest_parse.c: the whole file, calling
 *                 manifest_subject.c, manifest_axis.c, manifest_defaults.c, manifest_env.c,
 *                 manifest_precision.c, manifest_size.c, manifest_json.c)
 *   points        the points of the sweep: axes x repetitions in a fixed order, stable ids
 *   profilebudget which traced runs the profile pass can afford
 *   binhint       a program missing from the prefix: its nearest real name there
 *   runcost       what one run of a subject costs, for the dry run's estimate without a pilot
 */
#ifndef RARPERF_PLAN_H
#define RARPERF_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "digest.h"
#include "errbuf.h"
#include "manifest.h"
#include "plan_prefix.h"
#include "plan_subjects.h"
#include "points.h"

/* At most this many problem lines are kept (the first ones). */
#define PLAN_PROBLEMS_MAX 64

/* What a plan is built from; its strings borrowed (they must outlive the plan). */
struct plan_config {
	const char *manifest; /* the manifest's path: names every problem */
	const char *prefix;   /* as given */
	const char *out;      /* --out; NULL: results/<the manifest's name> */
	/* Check the limits and CPUs against this host (false: rarlab's controller, which plans
	 * for other hosts). */
	bool this_host;
	/* The profile pass's strace; NULL: $RARPERF_STRACE, else /usr/bin/strace. */
	const char *tracer;
	/* rarbench --counts: the counted pass whatever the manifest says. */
	bool counts;
};

/*
 * The plan. Built by plan_open and plan_resolve, then read only (const) by
 * whoever runs or prints it; plan_free frees it.
 */
struct plan {
	struct plan_config cfg;
	const char *manifest; /* cfg.manifest */
	const char *prefix;   /* cfg.prefix */
	const char *out;      /* cfg.out, or out_default */
	const char *tracer;   /* the profile pass's strace (checked when the manifest profiles) */
	struct manifest *m;
	struct sweep *sweep;
	char manifest_sha[DIGEST_SHA256_HEX_LEN + 1];
	char out_default[256];
	/* plan_resolve: the prefix, its facts.json, the subjects resolved against both. */
	struct plan_prefix where;
	cJSON *facts;
	struct plan_subject *subjects;
	size_t nsubjects, nactive;
	/* Every problem found with the run's input, one line each, for main. */
	char **problems;
	size_t nproblems, cap_problems;
	bool bad_input; /* the one verdict: the run's input is wrong (exit 2) */
};

/*
 * plan_build.c. The first half: the manifest at cfg->manifest loaded and checked, its
 * points laid out. *pp is the plan, also on failure (its problems and
 * verdict are what main prints), NULL only when out of memory. 0, or -1
 * with eb the line to print and (*pp)->bad_input set when the manifest is
 * at fault.
 */
int plan_open(const struct plan_config *cfg, struct plan **pp, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * The manifest's warning (e.g. "repetitions" above 1, allowed but never how
 * to repeat an experiment) into buf, one line without a newline. Returns
 * whether there is one.
 */
bool plan_warning(const struct plan *p, char *buf, size_t len);

/*
 * plan_build.c. The second half, against the prefix (read only): PREFIX and PREFIX/etc
 * resolved, facts.json read (a copy of a prefix refused), the subjects
 * resolved and checked (plan_subjects.h), the largest point's disk, the
 * environment against this host (cfg.this_host), the profile pass's
 * tracer. 0, or -1 with eb the line to print, p->problems the lines before
 * it, and p->bad_input telling the input's fault (exit 2) from this host's.
 */
int plan_resolve(struct plan *p, struct errbuf *eb) __attribute__((warn_unused_result));

/*
 * Appends one problem line "MANIFEST: PATH: what" (printf-style what) to
 * p->problems, the first PLAN_PROBLEMS_MAX kept. 0, or -1 out of memory.
 */
int plan_problem(struct plan *p, struct errbuf *eb, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/*
 * 0 when p->problems is empty; else -1 with p->bad_input set and eb the
 * one problem (the list emptied), or "MANIFEST: N problems<about> (above)".
 */
int plan_problems_verdict(struct plan *p, const char *about, struct errbuf *eb);

/* Frees p->problems (the verdict stays). */
void plan_problems_clear(struct plan *p);

/*
 * plan_build.c. Refuses (a problem on $.axes) a sweep whose largest point's policies,
 * written beside the previous point's, would not fit in PREFIX/etc's file
 * system. 0, or -1 (eb: the problem, p->bad_input set).
 */
int plan_check_disk(struct plan *p, struct errbuf *eb);

/* plan_build.c. Frees p and everything it owns. NULL is a no-op. */
void plan_free(struct plan *p);

/* bytes as the plan prints a size ("12.3 MiB", "512 B") into buf; returns buf. */
const char *plan_bytes_text(uint64_t bytes, char *buf, size_t len);

#endif
