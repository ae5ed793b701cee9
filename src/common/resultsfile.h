/* resultsfile: the results file (results.json, merged.json, a hyperfine export) and its keys. */
/*
 * The one owner of the results file's layout: every writer, reader and
 * rewriter of it (bench's export, the sweep's output and estimate, lab's
 * merge, fit's readers) names its top-level keys through this header, and
 * writes, reads or streams the document with these functions.
 *
 * The document (hyperfine's, with rarbench's and rarlab's additions):
 *   {"results": [ one object per benchmark: "command", "mean", ... ],
 *    "reference": {"command", "units", "results": [...], "kernel"?}?,
 *    "meta": {...}?,
 *    ...}
 * "results" comes first; "reference" is rarbench's calibration workload (its
 * results as a subject's), "meta" what the run was. A reader ignores the keys
 * it does not know, so that a later writer may add some.
 */
#ifndef RARPERF_RESULTSFILE_H
#define RARPERF_RESULTSFILE_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "errbuf.h"
#include "jsonbudget.h"

/*
 * The largest results file written or read whole (STYLE 9): what rarbench
 * writes and rarplot reads back; a larger one is refused, not written.
 */
#define RESULTSFILE_MAX_BYTES (256u * 1024 * 1024)

/* The top-level keys. */
#define RESULTSFILE_RESULTS "results"     /* the array of results, hyperfine's */
#define RESULTSFILE_REFERENCE "reference" /* rarbench's calibration workload */
#define RESULTSFILE_META "meta"           /* what the run was: manifest, host, versions */
/* The keys of the reference object (beside its own RESULTSFILE_RESULTS array). */
#define RESULTSFILE_REFERENCE_COMMAND "command" /* the calibration workload's command */
#define RESULTSFILE_REFERENCE_UNITS "units"     /* its units of work per run */
#define RESULTSFILE_REFERENCE_KERNEL "kernel"   /* rarkref's prices, when measured */
#define RESULTSFILE_REFERENCE_COUNTS "counts"   /* rarref's counted instructions, when counted */

/*
 * The layout of a results file streamed a piece at a time, never held as a
 * tree (rarlab's merged.json): BEGIN, the results (",\n" between two), END_RESULTS;
 * optionally REFERENCE_OPEN, the reference's results (",\n" between),
 * REFERENCE_END; optionally META_OPEN and the meta object; END.
 */
#define RESULTSFILE_STREAM_BEGIN "{\"" RESULTSFILE_RESULTS "\":[\n"
#define RESULTSFILE_STREAM_END_RESULTS "\n]"
#define RESULTSFILE_STREAM_REFERENCE_OPEN                                                          \
	",\n\"" RESULTSFILE_REFERENCE "\":{\"" RESULTSFILE_RESULTS "\":[\n"
#define RESULTSFILE_STREAM_REFERENCE_END "\n]}"
#define RESULTSFILE_STREAM_META_OPEN ",\n\"" RESULTSFILE_META "\":"
#define RESULTSFILE_STREAM_END "}\n"

/* --- writing ---------------------------------------------------------------------------- */

/* A new document {"results": []}; NULL when out of memory. Free with cJSON_Delete. */
cJSON *resultsfile_new(void);

/*
 * The reference object {"command": command, "units": units, "results":
 * results}, which adopts results (deleted too when out of memory); add it to
 * a document under RESULTSFILE_REFERENCE. NULL when out of memory.
 */
cJSON *resultsfile_reference_new(const char *command, double units, cJSON *results);

/* Detaches doc's results array and hands it to the caller; NULL when doc has none. */
cJSON *resultsfile_detach_results(cJSON *doc);

/*
 * Writes doc to path atomically (src/common/atomicfile, mode 0644): serde_json's
 * pretty layout, as hyperfine writes it (jsonw), and a final newline. A text
 * over RESULTSFILE_MAX_BYTES is refused. The file is either the previous
 * version or the new one, never half-written. Returns 0, or -1 with eb filled.
 */
int resultsfile_write(const char *path, const cJSON *doc, struct errbuf *eb)
    __attribute__((warn_unused_result));

/* --- reading ---------------------------------------------------------------------------- */

/*
 * Parses len bytes (need not be NUL-terminated) of the results file named
 * name (for messages): exactly one JSON value, blanks after it allowed.
 * Returns the document (caller deletes), or NULL with eb
 * "NAME: not valid JSON (near byte N)" or "(trailing data at byte N)".
 * Nothing of its content is checked: see resultsfile_require_results.
 */
cJSON *resultsfile_parse(const char *buf, size_t len, const char *name, struct errbuf *eb);

/*
 * Parses a results file in memory bounded by its size (jsonbudget.h: 4 times len and 32 MiB;
 * issue 52, finding 7): counts it first (into *b); when it has a top-level "results" array with
 * elements, returns the document with that array empty (parsed from a copy whose array is
 * blanked, so that offsets stay the file's) and the caller reads the elements one at a time
 * with resultsfile_next_result; else (b->has_results false, or no element) the whole document.
 * keep_bytes is what the caller keeps per element, counted in the bound. NULL with eb:
 * resultsfile_parse's messages, or "NAME: refused: reading it would take about ...".
 */
cJSON *resultsfile_parse_bounded(const char *buf, size_t len, const char *name, size_t keep_bytes,
				 struct jsonbudget *b, struct errbuf *eb);

/*
 * Element k of the results array b describes (resultsfile_parse_bounded with b->has_results
 * and b->nresults > k), parsed into a tree of its own (the caller deletes it before the next:
 * one element's tree at a time); *pos is where the previous one ended (0 before the first).
 * After the last element (k == b->nresults) returns NULL with eb empty when only blanks follow.
 * NULL with eb "NAME: not valid JSON (near byte N)" otherwise.
 */
cJSON *resultsfile_next_result(const char *buf, const struct jsonbudget *b, size_t k, size_t *pos,
			       const char *name, struct errbuf *eb);

/*
 * Reads the file at path (at most max_bytes, fileio_read's messages naming
 * it) and parses it with resultsfile_parse. NULL with eb filled on error.
 */
cJSON *resultsfile_load(const char *path, size_t max_bytes, struct errbuf *eb);

/*
 * The results array of doc, which must have one. NULL with one line in eb
 * naming the file and the key: "NAME: results: missing (not a hyperfine
 * export)", or "NAME: results: not an array" (doc not an object: missing).
 */
cJSON *resultsfile_require_results(const cJSON *doc, const char *name, struct errbuf *eb);

/* doc's results array, or NULL when it has none (or not an array). */
cJSON *resultsfile_results(const cJSON *doc);

/* doc's meta (any JSON value), or NULL when it has none. */
cJSON *resultsfile_meta(const cJSON *doc);

/* doc's reference object, or NULL when it has none (or not an object). */
cJSON *resultsfile_reference(const cJSON *doc);

/* The results array of doc's reference object, or NULL when there is none. */
cJSON *resultsfile_reference_results(const cJSON *doc);

/*
 * The results array of doc's reference object into *arr: 0 with *arr NULL
 * when doc has no reference; -1 with eb "reference: not an object" or
 * "reference.results: missing" (or "not an array") when it has a broken one.
 */
int resultsfile_require_reference_results(const cJSON *doc, cJSON **arr, struct errbuf *eb);

#endif
