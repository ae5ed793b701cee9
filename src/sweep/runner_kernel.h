/* runner_kernel: the kernel-side calibration of a manifest run (manifest "kernel_reference"). */
#ifndef RARPERF_RUNNER_KERNEL_H
#define RARPERF_RUNNER_KERNEL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "errbuf.h"
#include "journal.h"
#include "manifest.h"
#include "measure.h"
#include "proc.h"
#include "points.h"

/*
 * rarkref (src/rarref/rarkref.c), found beside this executable, in RUNNER_KERNEL_KINDS benches:
 * its bare run (kind "exec": a static program created, executed and reaped), N execs of itself
 * in one process ("execve"), N fresh pages touched ("faults") and N system calls of one kind.
 * Each is journalled as the pseudo-subject "@kernel.KIND" and measured paced (measure.h) in
 * every step beside the subjects and rarref. A unit's price at a point is (the kind's median
 * wall time - the bare run's) / N, the bare run's own for "exec"; each round's from that
 * round's runs alone.
 */
#define RUNNER_KERNEL_PREFIX MANIFEST_KERNEL_PREFIX
#define RUNNER_KERNEL_KINDS MANIFEST_KERNEL_KINDS

struct runner_kernel {
	struct proc_cmd *cmd[RUNNER_KERNEL_KINDS]; /* all NULL: the manifest has none */
	char *argv[RUNNER_KERNEL_KINDS][4];
	char count[RUNNER_KERNEL_KINDS][16];
	char id[RUNNER_KERNEL_KINDS][32];
	char command[RUNNER_KERNEL_KINDS][PATH_MAX + 32];
	char program[PATH_MAX];
};

/* Whether subject is a calibration workload's pseudo-subject (rarref's or rarkref's). */
bool runner_is_calibration(const char *subject);

/* Whether subject is one of rarkref's pseudo-subjects ("@kernel.KIND"). */
bool runner_is_kernel(const char *subject);

/*
 * With m's "kernel_reference": finds rarkref beside this executable (else -1,
 * eb naming the path) and prepares its kinds in k as measured commands with
 * opts. A no-op without the key. 0 or -1.
 */
int runner_kernel_setup(struct runner_kernel *k, const struct manifest *m,
			const struct proc_opts *opts, struct errbuf *eb);

/* Runs each kind once: each must exit 0 as the bench user. 0 or -1 (eb). */
int runner_kernel_check(const struct runner_kernel *k, struct errbuf *eb);

/* Appends k's kinds to a step's benches and journal entries at b[*n], js[*n] (*n grows). */
void runner_kernel_benches(const struct runner_kernel *k, struct measure_bench *b,
			   struct journal_subject *js, size_t *n);

/* How many benches k adds to a step. */
size_t runner_kernel_count(const struct runner_kernel *k);

/*
 * The unit prices at point sp into arr (one object per kind: the point's
 * axes, "kind", "count", "ns" over all its runs, "rounds": [{"round", "ns"}]),
 * from the point's merged subjects (subjects[i], run_round[i]: each run's
 * round). A point without the bare run adds nothing. 0 or -1 (out of memory).
 */
int runner_kernel_costs(cJSON *arr, const struct sweep_point *sp,
			const struct journal_subject *subjects, uint32_t *const *run_round,
			size_t n, uint32_t max_rounds, struct errbuf *eb);

/*
 * The object results.json's "reference" holds as "kernel": {"program",
 * "kinds": [{"kind", "count", "prices"}], "unit_costs": []}; unit_costs is
 * filled by runner_kernel_costs. NULL when out of memory.
 */
cJSON *runner_kernel_object(const char *program);

/* Frees k's commands (NULL-safe). */
void runner_kernel_clear(struct runner_kernel *k);

#endif
