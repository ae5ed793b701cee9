/* fitreport_impl: the Markdown writers fitreport.c and fitreport_markdown.c share (not for other
 * modules). */
#ifndef RARPERF_FITREPORT_IMPL_H
#define RARPERF_FITREPORT_IMPL_H

#include <stdio.h>

#include "fitreport.h"

/* r compared with its baseline b (fitreport_compare_rows), and the crossover kept when in range. */
void fitreport_row_compare(const struct fitreport *rep, struct fitreport_row *r,
			   const struct fitreport_row *b);

/* Text from a file or the command line, as inline Markdown (report.md and the console). */
void fitreport_md(FILE *f, const char *s);

/*
 * A name (a path, a subject) as a Markdown code span, where nothing is
 * markup and only the text sanitiser applies; as escaped text when it holds
 * a backtick, which would end the span.
 */
void fitreport_md_code(FILE *f, const char *s);

/* A link target: the bytes of a plain file name kept, every other byte percent-encoded. */
void fitreport_md_target(FILE *f, const char *s);

/* The comparison table of fitreport_print_table alone (its rows, and the † note when some are not
 * paired). */
void fitreport_print_rows(const struct fitreport *rep, FILE *f);

/* With several hosts, fitreport_print_table's table of the slopes across hosts; else nothing. */
void fitreport_print_spread(const struct fitreport *rep, FILE *f);

#endif
