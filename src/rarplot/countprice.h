/* countprice: each subject's counted instructions at each point, from the timed results file
 * itself or from a counted run of the same machine (--counts-from), and the host's price of one
 * instruction: rarref's timed work over its counted work (doc/counts.md, "Time as counts ×
 * prices"). */
#ifndef RARPERF_COUNTPRICE_H
#define RARPERF_COUNTPRICE_H

#include <stddef.h>

#include "errbuf.h"

/* One point's count: the subject, its x along the axis, its instructions. */
struct countprice_point {
	char subject[96];
	double x, instructions;
};

/* What a counted results file holds: its points' counts, rarref's work in instructions (the
 * calibration run's less the bare run's; NaN when rarref was not counted) and its machine. */
struct countprice_source {
	const char *path;
	struct countprice_point *points;
	size_t n, cap;
	double ref_instructions;
	char machine[512]; /* countprice_machine's; "" unknown */
};

/*
 * Reads the counts of a results file (a parsed results.json, cJSON root) along axis into src:
 * every result whose "counts" has status "ok", and rarref's counts ("reference"."counts").
 * 0, or -1 (eb: out of memory).
 */
int countprice_add_file(struct countprice_source *src, const void *root, const char *axis,
			struct errbuf *eb);

/* Reads path (a results.json) into src as countprice_add_file. 0, or -1 (eb naming path). */
int countprice_load(struct countprice_source *src, const char *path, const char *axis,
		    struct errbuf *eb);

/* The instructions of subject at x in src, or NaN. */
double countprice_find(const struct countprice_source *src, const char *subject, double x);

/* root's machine as one string: meta.machine's machine_id_sha256 with the CPU (vendor, family,
 * model, stepping, name) and the kernel's release, since clones of one VM image share a machine
 * id; "" when it has no machine id. */
void countprice_machine(const void *root, char *dst, size_t size);

/*
 * Whether src may give its counts to a timed file of machine timed_machine: the same known
 * machine (counts from another machine are never pooled with its times, even though counts
 * should not depend on it: that is a claim to check, not to assume). 0, or -1 (eb naming
 * both).
 */
int countprice_same_machine(const struct countprice_source *src, const char *timed_path,
			    const char *timed_machine, struct errbuf *eb);

void countprice_clear(struct countprice_source *src);

/* Before anything is written: counts_from can be read and every input is of its machine
 * (countprice_same_machine). 0, or -1 (eb, one line). */
int countprice_check_inputs(const char *counts_from, const char *const *inputs, size_t n,
			    const char *axis, struct errbuf *eb);

#endif
