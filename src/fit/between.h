/*
 * between: the between-sweep variation of a comparison, stored (between.tsv, written by
 * rarplot --compare over several sweeps) and used to widen one sweep's paired intervals into
 * intervals for the next sweep (rarplot --compare --between FILE).
 */
#ifndef RARPERF_BETWEEN_H
#define RARPERF_BETWEEN_H

#include <stddef.h>
#include <stdio.h>

#include "compare.h"
#include "errbuf.h"

#define BETWEEN_MAX_ROWS (2 + PAIRED_MAX_AT)
#define BETWEEN_FILE_MAX_BYTES 65536u
#define BETWEEN_HEADER "quantity\tsweeps\tbetween_log_sd\twithin_log_sd"

/* One quantity: how much ln(ratio) varies between sweeps beyond the sweeps' own intervals. */
struct between_row {
	char name[COMPARE_NAME_MAX];
	size_t sweeps;         /* K sweeps it was measured over (2..COMPARE_MAX_SWEEPS) */
	double between_log_sd; /* sqrt(max(0, var(ln r_i) - mean(w_i^2))) */
	double within_log_sd;  /* sqrt(mean(w_i^2)), w_i a sweep's half-width in logs / 1.96 */
};

struct between {
	struct between_row rows[BETWEEN_MAX_ROWS];
	size_t n;
};

/*
 * Fills b from the K sweeps' comparisons (compare_sweeps: per[i], k >= 2), each quantity from
 * its paired ratios (unpaired when a sweep is not paired).
 */
void between_from_sweeps(const struct compare_outcome *per, size_t k, struct between *b);

/*
 * Parses len bytes of between.tsv named name: "#" lines, the header, rows
 * of a quantity name (printable ASCII, no tab, shorter than
 * COMPARE_NAME_MAX), sweeps (2..COMPARE_MAX_SWEEPS) and two numbers in
 * [0, 10); at most BETWEEN_MAX_ROWS, names distinct. 0, or -1 with
 * "NAME:LINE: what" in eb.
 */
int between_parse(const char *buf, size_t len, const char *name, struct between *b,
		  struct errbuf *eb);

/* between_sweeps_needed's "no number of sweeps would do", and the most it looks at. */
#define BETWEEN_NEVER ((size_t)-1)
#define BETWEEN_MAX_NEEDED 1000

/*
 * How many sweeps a between.tsv needs for a widened interval of log half-width
 * t(K-1) spread (spread: sqrt(2 (h/1.96)^2 + 2 s_b^2), between_widen's) to fit
 * within ±noise around a ratio of 1 (sinh(t(K-1) spread) <= noise): the
 * smallest K >= 2; BETWEEN_NEVER when even t = 1.96 (K without end) is too
 * wide, or more than BETWEEN_MAX_NEEDED would be needed.
 */
size_t between_sweeps_needed(double spread, double noise);

/*
 * Widens out's paired intervals (a paired comparison; else nothing) into
 * intervals for the next sweep: for a quantity found in b, with h the
 * sweep's own half-width in logs, ln r ± t(K-1) sqrt(2 (h/1.96)^2 + 2 s_b^2)
 * (this sweep's and the next sweep's own noise, and each one's between-sweep
 * deviation; t for the K sweeps s_b came from). Keeps the within-sweep
 * interval in q->within, judges the widened one with noise, sets
 * q->between_k and q->needed (between_sweeps_needed) and out->widened with
 * the smallest K. Returns how many quantities were
 * widened.
 */
size_t between_widen(struct compare_outcome *out, const struct between *b, double noise);

#endif
