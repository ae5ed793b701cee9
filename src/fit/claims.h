/* claims: published statements about two tools' fitted lines, checked against what was measured. */
#ifndef RARPERF_CLAIMS_H
#define RARPERF_CLAIMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "errbuf.h"
#include "fitreport.h"

/*
 * A claims file is text, one claim per line, tab-separated; '#' starts a
 * comment line, blank lines are skipped:
 *
 *   ID  SUBJECT  VERSUS  QUANTITY  CLAIMED  SOURCE
 *
 * ID, SUBJECT and VERSUS are [A-Za-z0-9._-]+ (subjects as in the results);
 * QUANTITY is raw_pct (100 (intercept - versus's) / versus's), slope_pct
 * (100 (slope - versus's) / |versus's|) or crossover (the size where the
 * lines meet); CLAIMED a finite number; SOURCE the claim's own words (at most
 * CLAIMS_TEXT_MAX bytes, any but NUL, tab and newline: they are data, shown
 * only through sanitize). At most CLAIMS_MAX claims, file at most
 * CLAIMS_FILE_MAX bytes. Errors name FILE:LINE.
 */
#define CLAIMS_MAX 256
#define CLAIMS_TEXT_MAX 512
#define CLAIMS_FILE_MAX (1024 * 1024)

enum claims_quantity { CLAIMS_RAW_PCT, CLAIMS_SLOPE_PCT, CLAIMS_CROSSOVER };

struct claim {
	char *id, *subject, *versus, *source;
	enum claims_quantity quantity;
	double claimed;
};

struct claims {
	struct claim *items;
	size_t n;
};

/*
 * The reading claims files share with diary files (diary.h), so that both refuse the same bytes
 * the same way: text (len bytes, no NUL) in lines ('\n', a trailing '\r' dropped), '#' comment
 * and blank lines skipped, every other line split at tabs into exactly fmt->n_fields fields
 * (modifiable, valid during the call) and given to each(), at most fmt->max_lines of them.
 * Errors name NAME:LINE ("expected 6 tab-separated fields (FIELDS), got fewer"). Returns 0, or
 * -1 with eb filled, here or by each (which returns 0 or -1).
 */
#define CLAIMS_FIELDS_MAX 16
struct claims_format {
	size_t n_fields;    /* at most CLAIMS_FIELDS_MAX */
	const char *fields; /* their names, for errors: "ID SUBJECT ..." */
	size_t max_lines;
	const char *noun; /* "claims": "more than 256 claims" */
};
typedef int (*claims_line_fn)(char **field, const char *name, size_t lineno, void *ctx,
			      struct errbuf *eb);
int claims_read_lines(const char *text, size_t len, const struct claims_format *fmt,
		      const char *name, claims_line_fn each, void *ctx, struct errbuf *eb);
/* Whether s is a name: 1-64 of [A-Za-z0-9._-]. */
bool claims_is_name(const char *s);
/* "raw_pct", "slope_pct", "crossover" into *q: 0, or -1 for anything else. */
int claims_parse_quantity(const char *s, enum claims_quantity *q);
const char *claims_quantity_name(enum claims_quantity q);
/* A whole field as a finite number: 0, or -1. */
int claims_parse_number(const char *s, double *out);

/* Parses text (len bytes, need not be NUL-terminated); name is the file named in errors. */
struct claims *claims_parse(const char *text, size_t len, const char *name, struct errbuf *eb);
void claims_free(struct claims *c);

/* One claim checked on one host. */
enum claims_verdict {
	CLAIMS_HOLDS,           /* the claimed value lies in the measured 95 % interval */
	CLAIMS_DIRECTION_HOLDS, /* same side of zero, significantly, but another size */
	CLAIMS_NOT_CONFIRMED,   /* the interval spans zero: no significant difference */
	CLAIMS_CONTRADICTED,    /* significantly the other way */
	CLAIMS_NOT_MEASURED     /* one of the two subjects is not in the results */
};

struct claims_check {
	const struct claim *claim;
	const char *host;
	struct fit_estimate measured; /* value, se, 95 % interval */
	bool in_range;                /* crossover: within the measured sizes */
	enum claims_verdict verdict;
	/* What the versus subject is, with its authentication ("sudo 1.9.13p3, PAM"), when the
	 * results say it (results_tool; borrowed from rep->res), else NULL. */
	const char *versus_tool;
	bool paired;    /* measured by the paired method (fitreport_compare_rows), else delta */
	bool one_sweep; /* the results are one file: one sweep's own intervals (preliminary) */
	double base;    /* the versus subject's intercept or slope (0: the ratio is undefined) */
};

/*
 * Checks every claim against rep on every host where both subjects were
 * fitted (first format of each subject on that host), or once as not
 * measured. *out (free) holds *n checks. Returns 0, or -1 on out of memory.
 */
int claims_check(const struct claims *c, const struct fitreport *rep, struct claims_check **out,
		 size_t *n, struct errbuf *eb);

#endif
