/* runner_output: rebuilds results.json and results.tsv of a manifest run from its journal. */
#ifndef RARPERF_RUNNER_OUTPUT_H
#define RARPERF_RUNNER_OUTPUT_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#include "errbuf.h"
#include "journal.h"
#include "manifest.h"
#include "points.h"

/*
 * Writes DIR/results.json (hyperfine schema; each result's parameters are
 * nb_roles, nb_users, nb_tasks, nb_commands, subject, format, and
 * repetition when m->repetitions > 1; meta copied as the top-level "meta")
 * and DIR/results.tsv (doc/interfaces.md §4), both atomically, in sweep
 * order. Every point of s must be in c exactly once, and nothing else;
 * with partial, a point short of a planned round is left out instead (its
 * run timed out: meta says how many). The reference's runs (runner_reference.h)
 * are not results: they go to the top-level reference object
 * (resultsfile_reference_new, each result as a subject's, its parameters the
 * point's axes) and not to results.tsv.
 * Returns 0, or -1 with eb filled (nothing half-written).
 */
int runner_output_write(const char *dir, const struct manifest *m, const struct sweep *s,
			const struct journal_contents *c, bool partial, const cJSON *meta,
			struct errbuf *eb);

#endif
