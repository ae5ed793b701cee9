/* runner_profile_files: what the profile pass of a manifest run left in its output directory
 * (the pass itself: runner_profile.h), read back for results.json and profile.tsv. */
#ifndef RARPERF_RUNNER_PROFILE_FILES_H
#define RARPERF_RUNNER_PROFILE_FILES_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "errbuf.h"
#include "points.h"

/* The profile pass's folder under a run's output directory. */
#define RUNNER_PROFILE_DIR "profile"

/* OUT/profile/NAME into buf (len bytes). 0, or -1 with eb "OUT: path too long". */
int runner_profile_path(const char *out, const char *name, char *buf, size_t len,
			struct errbuf *eb);

/* OUT/profile/point-N.json (N = index + 1) into buf, as runner_profile_path. */
int runner_profile_point_path(const char *out, size_t index, char *buf, size_t len,
			      struct errbuf *eb);

/*
 * The profile of point index (0-based) under out, parsed; NULL with
 * eb->msg empty when it has none, NULL with eb filled when it is unreadable.
 */
cJSON *runner_profile_read(const char *out, size_t index, struct errbuf *eb);

/*
 * Writes out/profile.tsv (long format: subject, the axes, repetition,
 * counter, value) from every point's profile; nothing when none has one.
 * 0 or -1.
 */
int runner_profile_tsv(const char *out, const struct sweep *s, struct errbuf *eb);

#endif
