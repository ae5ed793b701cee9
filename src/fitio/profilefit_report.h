/* profilefit_report: the profiles' fits written: profile-fits.tsv and report.md's sections
 * (src/fit/profilefit.h fits them). */
#ifndef RARPERF_PROFILEFIT_REPORT_H
#define RARPERF_PROFILEFIT_REPORT_H

#include <stdio.h>

#include "claims.h"
#include "errbuf.h"
#include "profilefit.h"

/*
 * Writes profile-fits.tsv: subject counter n slope intercept r2 min max
 * (names sanitised). Atomic. 0 or -1.
 */
int profilefit_write_tsv(const struct profilefit *pf, const char *path, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * Prints the report's profile sections to f (Markdown, names sanitised):
 * per subject the counters with the largest slope and intercept, the share
 * of its time slope and intercept the counted calls account for at this
 * host's prices, and findings in words; then the counts that differ
 * between repetitions or hosts. times: n_times entries (may be 0).
 */
void profilefit_print_markdown(const struct profilefit *pf, const struct profilefit_time *times,
			       size_t n_times, FILE *f);

/*
 * Prints the report's section "The claims, explained by the profiles": for
 * each measured claim whose two subjects were profiled, the difference of
 * their fitted counters (slope, or intercept for raw cost), the calls that
 * weigh most at this host's prices, and their sum against the measured
 * difference of time (times). Nothing when no claim qualifies.
 */
void profilefit_explain_claims(const struct profilefit *pf, const struct claims_check *checks,
			       size_t n_checks, const struct profilefit_time *times, size_t n_times,
			       FILE *f);

#endif
