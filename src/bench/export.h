/* export: hyperfine-format JSON, CSV and Markdown exports of measure results, written atomically.
 */
#ifndef RARPERF_EXPORT_H
#define RARPERF_EXPORT_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "errbuf.h"
#include "measure.h"

/* One parameter of a result: exported as a string, like hyperfine's. */
struct export_param {
	const char *name;
	const char *value;
};

/* One benchmark to export. Everything is borrowed. */
struct export_entry {
	const char *command;                 /* "command": the name (-n) or the command line */
	const struct measure_result *result; /* must hold at least one run */
	const struct export_param *params;   /* "parameters", sorted by name like hyperfine's
						BTreeMap;   n_params 0: key omitted */
	size_t n_params;
};

enum export_time_unit { EXPORT_UNIT_SECOND, EXPORT_UNIT_MILLISECOND };

/*
 * Builds hyperfine 1.15's JSON document:
 *   {"results":[{"command","mean","stddev","median","user","system","min",
 *                "max","times","exit_codes","parameters"?}, ...], <extra>...}
 * in seconds (stddev null for one run, exit_codes 128+n for signal deaths,
 * numbers always written with a decimal point or exponent, like serde).
 * extra may be NULL; else each member of the extra object is deep-copied,
 * in order, as a top-level key after "results" (rarbench's "rarbench"
 * object; manifest mode's "meta"). Returns a new document (caller deletes
 * with cJSON_Delete) or NULL with eb filled.
 */
cJSON *export_json_build(const struct export_entry *entries, size_t n, const cJSON *extra,
			 struct errbuf *eb);

/*
 * export_json_build + an atomic write (src/common/atomicfile) of the pretty
 * printed document and a final newline to path, mode 0644. The file is either
 * the previous version or the new one, never half-written.
 */
int export_json(const char *path, const struct export_entry *entries, size_t n, const cJSON *extra,
		struct errbuf *eb);

/*
 * hyperfine's CSV: header
 *   command,mean,stddev,median,user,system,min,max[,parameter_<name>...]
 * (parameter columns from the union of names, in first-seen order), values
 * in seconds; commands quoted when needed. Atomic. Returns 0 or -1.
 */
int export_csv(const char *path, const struct export_entry *entries, size_t n, struct errbuf *eb);

/*
 * hyperfine's Markdown table: | Command | Mean [unit] | Min [unit] | Max [unit] | Relative |
 * with "mean ± stddev" and "ratio ± error" cells; unit chosen like
 * hyperfine (from the first result's mean unless fixed). Atomic.
 */
int export_markdown(const char *path, const struct export_entry *entries, size_t n,
		    const enum export_time_unit *unit, struct errbuf *eb);

#endif
