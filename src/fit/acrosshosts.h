/* acrosshosts: one comparison measured on several hosts, combined: the mean over hosts, the
 * spread between hosts beyond each host's own noise, and an interval for a new machine (pure). */
/*
 * Design. A ratio subject / baseline measured on host i is y_i (on the log scale for ratios:
 * a host k % faster scales both tools alike, and a ratio's interval is symmetric in logs) with
 * its 95 % interval, whose half-width over 1.96 is that host's within-host standard error w_i.
 * Over k hosts:
 *   mean        ȳ, with ȳ ± t(k-1) s / √k (s: the sample sd of the y_i; the observed spread
 *               holds both the host effects and each host's noise, so it needs no w_i);
 *   between_sd  √max(0, s² − mean w_i²): the hosts' own differences beyond their noise (the
 *               method of moments of a random-effects model);
 *   prediction  ȳ ± t(k-1) s √(1 + 1/k): where a new machine's measured value falls with 95 %
 *               probability. Exact when the y_i are independent normal draws with a common
 *               variance (host effect plus noise of a like-sized sweep), and it already holds
 *               the new machine's own noise.
 * One host: the mean is its value and interval; no spread, no prediction (NaN).
 */
#ifndef RARPERF_ACROSSHOSTS_H
#define RARPERF_ACROSSHOSTS_H

#include <stdbool.h>
#include <stddef.h>

/* One host's value of a quantity and its 95 % interval (lo, hi NaN when unknown). */
struct acrosshosts_value {
	double value, lo, hi;
};

/*
 * The combination of k hosts' values. mean, mean_lo, mean_hi, predict_lo, predict_hi are on
 * the quantity's own scale (back from logs for ratios: mean is the geometric mean); sd,
 * within_sd and between_sd on the scale the work was done on (natural logs for ratios).
 * within_sd and between_sd are NaN when a host's interval is unknown; sd, between_sd and the
 * prediction NaN for one host.
 */
struct acrosshosts_summary {
	size_t hosts;
	bool log_scale;
	double mean, mean_lo, mean_hi;
	double sd, within_sd, between_sd;
	double predict_lo, predict_hi;
};

/*
 * Combines v[0..k) (design above) into *out, on the log scale when log_scale. Returns 0, or -1
 * when k is 0, a value is not finite, or on the log scale a value or bound is not > 0.
 */
int acrosshosts_combine(const struct acrosshosts_value *v, size_t k, bool log_scale,
			struct acrosshosts_summary *out);

#endif
