/* runner_passfile: one point's file of a pass (OUT/profile/point-N.json, OUT/counts/point-N.json)
 * written whole, the pass's journal. */
#ifndef RARPERF_RUNNER_PASSFILE_H
#define RARPERF_RUNNER_PASSFILE_H

#include <cjson/cJSON.h>

#include "errbuf.h"

/*
 * Writes doc, printed and newline-ended, to path through a temporary file and a rename
 * (atomicfile_open_regular: a link or FIFO there is refused): a reader sees the whole file or
 * none, so a pass resumed after a crash redoes only the points without one. 0, or -1 (eb).
 */
int runner_passfile_write(const char *path, const cJSON *doc, struct errbuf *eb)
    __attribute__((warn_unused_result));

#endif
