/* sitebmf: a report's fits as Bencher Metric Format JSON (https://bencher.dev/docs/reference/
 * bencher-metric-format): one benchmark per subject x format (x host), one measure per fitted
 * quantity with its 95 % interval. */
#ifndef RARPERF_SITEBMF_H
#define RARPERF_SITEBMF_H

#include "errbuf.h"
#include "fitreport.h"

/*
 * Writes path (atomically):
 *   {"NAME/SUBJECT/FORMAT[/HOST]": {
 *      "intercept-ms": {"value": V, "lower_value": LO, "upper_value": HI},
 *      "slope-us-per-UNIT": {...}}, ...}
 * NAME the sweep's name (meta.name, or "rarperf"); HOST only for a host other than "-"; UNIT
 * the axis' unit ("task", "role", "role-task"); the values and bounds those of fits.tsv
 * (value -/+ t95(n - 2) x standard error). A bound that is not finite is left out, and so is a
 * measure whose value is not. Returns 0, or -1 with eb.
 */
int sitebmf_write(const struct fitreport *rep, const char *name, const char *path,
		  struct errbuf *eb) __attribute__((warn_unused_result));

#endif
