/* acrossreport: a report's comparisons combined over its hosts (across-hosts.tsv, report.md's
 * first section), and for a one-host report the published spread of the same comparisons. */
#ifndef RARPERF_ACROSSREPORT_H
#define RARPERF_ACROSSREPORT_H

#include <stdio.h>

#include "acrosshosts.h"
#include "errbuf.h"
#include "fitreport.h"

/* The quantities combined, in this order: intercept ratio, slope ratio, crossover size. */
enum acrossreport_quantity {
	ACROSSREPORT_INTERCEPT,
	ACROSSREPORT_SLOPE,
	ACROSSREPORT_CROSSOVER,
	ACROSSREPORT_N_QUANTITIES
};

/*
 * One subject x format against the baseline, one quantity, over the hosts where both were
 * measured (the hosts they share): each host's value and interval (hosts[i], v[i]) and their
 * combination. machines: how many distinct machines the hosts are (hosts that share a boot
 * are one); complete false for a crossover not within the measured sizes on every host (then
 * nothing is combined).
 */
struct acrossreport_row {
	const char *subject, *format, *baseline; /* borrowed from the report */
	enum acrossreport_quantity quantity;
	size_t n;
	const char **hosts;
	struct acrosshosts_value *v;
	struct acrosshosts_summary s;
	size_t machines;
	bool complete;
};

struct acrossreport {
	const struct fitreport *rep; /* borrowed */
	struct acrossreport_row *rows;
	size_t n_rows;
	size_t n_hosts; /* hosts of the report */
};

/* "intercept_ratio", "slope_ratio", "crossover": the TSV's quantity names. */
const char *acrossreport_quantity_name(enum acrossreport_quantity q);

/*
 * Combines every comparison of rep (fitreport_compute, fitreport_pair) over its hosts. Returns 0
 * and *out (free with acrossreport_free), or -1 (out of memory).
 */
int acrossreport_compute(const struct fitreport *rep, struct acrossreport **out, struct errbuf *eb);
void acrossreport_free(struct acrossreport *ar);

/*
 * Writes dir/across-hosts.tsv, one row per subject x quantity: subject baseline quantity hosts
 * mean mean_lo mean_hi between_sd predict_lo predict_hi format within_sd scale machines
 * host_names (sd on the scale: "log", natural logs, for ratios); and dir/across-hosts-values.tsv,
 * each host's value: subject baseline quantity host value lo hi format. Atomic. 0 or -1.
 */
int acrossreport_write_tsv(const struct acrossreport *ar, const char *dir, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * report.md's "Across machines" section: the hosts and their machines (res's records; hosts
 * that share one boot said to be one machine), the combined table, and each subject measured
 * on fewer hosts than the others named with the hosts it is compared on.
 */
void acrossreport_print_markdown(const struct acrossreport *ar, FILE *f);

/*
 * A one-host report's "On another machine" section: its intervals hold for this machine; for
 * each subject of rep, the published across-hosts row of the same subject, baseline and
 * quantity from the file at published (an across-hosts.tsv; NULL or unreadable: said so), named
 * shown in the text.
 */
void acrossreport_print_one_host(const struct fitreport *rep, const char *published,
				 const char *shown, FILE *f);

#endif
