/* runner_refusal: what a run says of a subject that refused its policy (runstate.h,
 * "Refusals"): the words, the line when it refuses, its entry in results.json's
 * meta.skipped_subjects. */
#ifndef RARPERF_RUNNER_REFUSAL_H
#define RARPERF_RUNNER_REFUSAL_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "manifest.h"
#include "runstate.h"

/*
 * The refusal f of subject id under manifest m in words, into buf (cap bytes, always
 * NUL-terminated, cut when it does not fit): which size it cannot hold, why (the class and the
 * tool's own error line, already made safe), and what the sweep did about the larger sizes. The
 * size names the axes m sweeps ("166 tasks"; every axis when none is swept).
 */
void runner_refusal_words(const struct manifest *m, const char *id,
			  const struct runstate_refusal *f, char *buf, size_t cap);

/*
 * Appends to skipped (meta.skipped_subjects) one object per subject of rs that refused a
 * point: "id", "reason" (runner_refusal_words) and "refusal": "class", "error" (the tool's
 * line), "point" (1-based), "at" (the point's axes by name), "refused_steps",
 * "skipped_steps", "after_refusal". ids[i] is subject i's id. 0, or -1 out of memory.
 */
int runner_refusal_meta(const struct manifest *m, const struct runstate *rs, const char *const *ids,
			cJSON *skipped);

#endif
