/* sitetsv: a published TSV (fits.tsv, across-hosts.tsv, claims.tsv, ...) read by its header. */
#ifndef RARPERF_SITETSV_H
#define RARPERF_SITETSV_H

#include <stddef.h>

#include "errbuf.h"

/* Caps: a published table is small; anything larger is not one of ours. */
#define SITETSV_FILE_MAX (16 * 1024 * 1024)
#define SITETSV_COLS_MAX 64
#define SITETSV_ROWS_MAX 100000

/*
 * A table: the header's column names and n_rows rows of exactly n_cols cells each, every
 * string NUL-terminated and owned by the table. The bytes are as in the file (no sanitising):
 * whoever shows them escapes them (sitehtml).
 */
struct sitetsv {
	char **cols;
	char **cells; /* row r, column c at cells[r * n_cols + c] */
	size_t n_cols, n_rows;
};

/*
 * Parses text (len bytes, need not be NUL-terminated): lines end at '\n' (a '\r' before it is
 * dropped); blank lines and lines starting with '#' are skipped; the first other line is the
 * header (1 to SITETSV_COLS_MAX non-empty names); every later line holds exactly as many
 * tab-separated cells. A NUL byte, a short or long row, more than SITETSV_ROWS_MAX rows are
 * errors naming NAME:LINE. Returns the table (free with sitetsv_free) or NULL with eb filled.
 */
struct sitetsv *sitetsv_parse(const char *text, size_t len, const char *name, struct errbuf *eb);

/* Reads the file at path (at most SITETSV_FILE_MAX bytes) and parses it. NULL with eb. */
struct sitetsv *sitetsv_load(const char *path, struct errbuf *eb)
    __attribute__((warn_unused_result));

void sitetsv_free(struct sitetsv *t);

/* The index of column name, or -1 when the header has none. */
int sitetsv_col(const struct sitetsv *t, const char *name);

/* Row r's cell of column c; "" when c is negative (a column the file lacks). */
const char *sitetsv_cell(const struct sitetsv *t, size_t r, int c);

#endif
