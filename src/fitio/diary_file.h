/* diary_file: a diary file read (src/fit/diary.h parses and matches it). */
#ifndef RARPERF_DIARY_FILE_H
#define RARPERF_DIARY_FILE_H

#include "diary.h"
#include "errbuf.h"

/* Reads the diary file at path (at most DIARY_FILE_MAX bytes) with diary_parse; NULL with eb. */
struct diary *diary_load(const char *path, struct errbuf *eb) __attribute__((warn_unused_result));

#endif
