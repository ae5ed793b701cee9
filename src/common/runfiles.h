/* runfiles: the names of a run directory's files: the results file and its companions, what a
 * sweep writes beside it and what rarplot writes from it; their one owner (resultsfile.h owns the
 * results file's keys). A name is a literal, so "%s/" RUNFILES_RESULTS is a format too. */
#ifndef RARPERF_RUNFILES_H
#define RARPERF_RUNFILES_H

/* What a sweep writes in its DIR (rarbench --out DIR; each host's directory of a lab). */
#define RUNFILES_RESULTS "results.json"            /* the results file (resultsfile.h) */
#define RUNFILES_POINTS "results.tsv"              /* one line per point */
#define RUNFILES_JOURNAL "journal.jsonl"           /* the steps done, to resume */
#define RUNFILES_PROFILE "profile.tsv"             /* the profile pass's counters */
#define RUNFILES_PROFILE_COSTS "profile-costs.tsv" /* this host's price of a few calls */
#define RUNFILES_MANIFEST "manifest.json"          /* a published run's manifest */
#define RUNFILES_FACTS "facts.json"                /* a published run's facts */
/* The three a finished sweep always holds, in the order they are listed and checked. */
#define RUNFILES_SWEEP {RUNFILES_RESULTS, RUNFILES_POINTS, RUNFILES_JOURNAL}

/* What rarplot writes from results files (in -o DIR). */
#define RUNFILES_FITS "fits.tsv"
#define RUNFILES_REPORT "report.md"
#define RUNFILES_CLAIMS "claims.tsv"
#define RUNFILES_ACROSS "across-hosts.tsv"
#define RUNFILES_ACROSS_VALUES "across-hosts-values.tsv"
#define RUNFILES_ACROSS_REPORT "across-hosts.md" /* tools/across-hosts.sh's copy of report.md */
#define RUNFILES_PROFILE_FITS "profile-fits.tsv"
#define RUNFILES_PREDICTED "predicted.tsv"
#define RUNFILES_PREDICTED_REPORT "predicted.md"
#define RUNFILES_COUNTS_PRICES "counts-prices.tsv" /* predicted.md's counts x prices */
#define RUNFILES_COUNTS_FITS "counts-fits.tsv" /* a published counted run's fits.tsv, renamed */
#define RUNFILES_FITS_NORMALISED "fits-normalised.tsv"
#define RUNFILES_NORMALISED_REPORT "normalised.md"
#define RUNFILES_COMPARISON "comparison.md" /* --compare -o DIR */
#define RUNFILES_COMPARISON_TSV "comparison.tsv"
#define RUNFILES_COMPARISON_RATIO "comparison-ratio.tsv"
#define RUNFILES_BETWEEN "between.tsv" /* --compare over several sweeps */
#define RUNFILES_HISTORY "history.tsv" /* --history */
#define RUNFILES_HISTORY_STEPS "history-steps.tsv"
#define RUNFILES_HISTORY_DIARY "history-diary.tsv"
#define RUNFILES_RARPLOT_OUT "rarplot.out" /* a published run's rarplot output, kept */

#endif
