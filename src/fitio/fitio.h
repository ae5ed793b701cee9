/* fitio: the folder header of src/fitio (no declarations: each module has its own header). */
/*
 * Layer src/fitio (libfitio.a): the statistics' files. Everything rarplot and rarsite write from
 * what src/fit computed: markdown (report.md's sections, --compare's), TSV (fits.tsv,
 * claims.tsv, between.tsv, profile-fits.tsv, across-hosts.tsv) and the gnuplot data (a series'
 * TSV); and the tables the statistics are checked against, read into src/fit's structs (a claims
 * file, a diary, between.tsv, the published across-hosts.tsv).
 * Files are written through atomicfile (temp file + rename), text from a file or a host through
 * sanitize. It uses src/common, src/results and src/fit (Makefile fitio_USES); the site's writer
 * is src/rarsite, over this layer.
 *
 * Modules, one line each:
 *   fitreport_table fits.tsv and the comparison table (declared with the three below in
 *               fitreport_write.h)
 *   fitreport_markdown report.md in the reader's order
 *   fitreport_counts report.md's counted instructions beside the times
 *   fitreport_daemons report.md's "Where the wait goes": a daemon's CPU per run (pkexec's polkitd)
 *   fitreport_md text from a file or the command line as Markdown, a code span, a link target
 *   reliability_print the report's lines on which fits should not be believed, and why
 *   plotseries_tsv a series as the TSV its figures plot (the gnuplot data)
 *   acrossreport a report's comparisons combined over its hosts (across-hosts.tsv, report.md;
 *               a one-host report's quote of the published across-hosts.tsv)
 *   compare_print --compare's section and TSV (compare_sweeps_print.c: over several sweeps)
 *   countcompare_print the counted instructions compared, --compare --counts's section
 *   claims_file a claims file read; the claims checked as report.md's section and claims.tsv
 *   diary_file  a diary file read
 *   between_file between.tsv written and read back
 *   profilefit_report the profiles' sections of report.md, profile-fits.tsv
 */
#ifndef RARPERF_FITIO_H
#define RARPERF_FITIO_H
#endif
