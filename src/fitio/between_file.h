/* between_file: between.tsv, the between-sweep variation, written and read back (src/fit/between.h
 * computes and parses it). */
#ifndef RARPERF_BETWEEN_FILE_H
#define RARPERF_BETWEEN_FILE_H

#include "between.h"
#include "errbuf.h"

/*
 * Writes b as TSV: one "#" line naming what (sanitised), BETWEEN_HEADER,
 * one row per quantity (%.6g). Atomic. 0 or -1.
 */
int between_write(const struct between *b, const char *what, const char *path, struct errbuf *eb)
    __attribute__((warn_unused_result));

/* Reads path (at most BETWEEN_FILE_MAX_BYTES) with between_parse. 0 or -1. */
int between_load(const char *path, struct between *b, struct errbuf *eb)
    __attribute__((warn_unused_result));

#endif
