/* claims_file: a claims file read, and the claims checked as report.md's section and claims.tsv
 * (src/fit/claims.h parses and checks). */
#ifndef RARPERF_CLAIMS_FILE_H
#define RARPERF_CLAIMS_FILE_H

#include <stdio.h>

#include "claims.h"
#include "errbuf.h"

/* Reads and parses the file at path. NULL with eb filled on any error. */
struct claims *claims_load(const char *path, struct errbuf *eb) __attribute__((warn_unused_result));

/*
 * Writes the Markdown section "The original claims, checked" for checks,
 * marked preliminary when they rest on one sweep (one_sweep);
 * the names, the host and the claim's words go through sanitize's Markdown
 * mode, so the section is safe in report.md and on a terminal.
 */
void claims_print_markdown(const struct claims_check *checks, size_t n, const char *unit, FILE *f);

/*
 * Writes claims.tsv: id host subject versus quantity claimed measured se lo
 * hi verdict method (paired, delta or -), names through sanitize_text. Atomic.
 */
int claims_write_tsv(const struct claims_check *checks, size_t n, const char *path,
		     struct errbuf *eb) __attribute__((warn_unused_result));

#endif
