/* siteout: the site's output directory: each page written whole, the raw files copied in. */
#ifndef RARPERF_SITEOUT_H
#define RARPERF_SITEOUT_H

#include <stdbool.h>
#include <stdio.h>

#include "errbuf.h"

struct siteout_page;

/*
 * Opens out_dir/rel for writing (its folders made; a temporary file until siteout_commit).
 * Returns the page, whose stream is siteout_stream(), or NULL with eb.
 */
struct siteout_page *siteout_open(const char *out_dir, const char *rel, struct errbuf *eb)
    __attribute__((warn_unused_result));
FILE *siteout_stream(struct siteout_page *p);

/* Renames the page into place (no fsync: the site is rebuilt, not kept). Frees p. 0 or -1. */
int siteout_commit(struct siteout_page *p, struct errbuf *eb) __attribute__((warn_unused_result));

/* Drops the page: nothing at its path changes. NULL is a no-op. */
void siteout_abort(struct siteout_page *p);

/* Copies the regular file src to out_dir/rel (at most 256 MiB). 0 or -1 with eb. */
int siteout_copy(const char *src, const char *out_dir, const char *rel, struct errbuf *eb)
    __attribute__((warn_unused_result));

/* Writes len bytes of data to out_dir/rel. 0 or -1 with eb. */
int siteout_write(const char *out_dir, const char *rel, const char *data, size_t len,
		  struct errbuf *eb) __attribute__((warn_unused_result));

/* Whether out_dir/rel is a regular file. */
bool siteout_exists(const char *out_dir, const char *rel);

#endif
