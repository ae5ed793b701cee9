/* common: the folder header of src/common — what the layer is for, what it may use, its modules. */
/*
 * Layer src/common (libcommon.a): what every other layer shares. It uses
 * nothing of rarperf's (Makefile common_USES is empty); every folder may use
 * it. Nothing here knows about policies, sweeps or hosts, except what two
 * layers must spell the same way: the names of the policy formats
 * (policy_format), which confgen and the readers of results share; the
 * results file (resultsfile), which bench and the sweep write, lab rewrites
 * and fit reads; the progress events (events), which the sweep writes and lab
 * reads.
 *
 * Modules, one line each:
 *   errbuf        the caller-owned error message every library function fills
 *   atomicfile    a file written through a temporary sibling, fsync'd, renamed
 *   fileio        capped whole-file reads, mkdir -p, path formatting that refuses truncation
 *   growbuf       the one way to grow memory: a capped byte buffer and growarray
 *   clock         now on CLOCK_MONOTONIC, in integer ns or ms; now as a UTC stamp
 *   digest        SHA-256 of a buffer or a file, as hex
 *   template      "{name}" placeholder expansion
 *   sanitize      host or file text made safe for a terminal, a TSV or Markdown
 *   student       Student's t and binomial quantiles for 95 % intervals (pure)
 *   policy_format the four policy formats' names, and the tool and storage each implies
 *   jsonget       checked JSON getters over cJSON: the value's path, bounds, one error wording
 *   jsonbudget    what a JSON text would cost as a cJSON tree, counted first; the readers' bound
 *   jsonw         the one JSON writer (a stream, or a capped growbuf): policies, the export
 *   numarg        every command line's number parsers and the one parse_args contract
 *   trustpath     whether a file a root process reads or runs can have been written by root alone
 *   suggest       "did you mean": the nearest name of a list by edit distance (pure)
 *   cliopt        getopt_long with long options written in full; one line for an unknown one
 *   resultsfile   the results file (results.json, merged.json): its keys, written, read, streamed
 *   events        the reader of rarbench's progress events, and the events' names
 *   lsq           the one straight-line least squares (pure): fit's lines, runcost's estimate
 *   slowruns      a calibration point's runs slow against their own floor (pure): the results
 *                 reader counts them, src/fit's interference judges them
 *
 * Headers alone (no module): exitcode.h, the exit statuses of the programs' mains.
 *
 * This header declares nothing: include the module's own header.
 */
#ifndef RARPERF_COMMON_H
#define RARPERF_COMMON_H
#endif
