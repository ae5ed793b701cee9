/* profilefit_tsv: a profile.tsv's rows and a profile-costs.tsv's prices read into a profilefit. */
#include "profilefit.h"
#include "profilefit_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "growbuf.h"
#include "numarg.h"

#define COLUMNS_MAX 16

/* Splits line[0..len) on tabs into f (at most COLUMNS_MAX fields, copied into buf). Count. */
static size_t split(const char *line, size_t len, char *buf, size_t cap, char **f)
{
	size_t n = 0, k = 0;

	if (len >= cap)
		return 0;
	memcpy(buf, line, len);
	buf[len] = '\0';
	f[n++] = buf;
	for (k = 0; k < len; k++) {
		if (buf[k] != '\t')
			continue;
		if (n == COLUMNS_MAX)
			return 0;
		buf[k] = '\0';
		f[n++] = buf + k + 1;
	}
	return n;
}

/* The header of a profile.tsv: columns, the axis's, the point's (between subject and repetition).
 */
static int parse_header(const struct profilefit *pf, char **f, size_t n, size_t *axis_col,
			const char *source, struct errbuf *eb)
{
	*axis_col = 0;
	if (n < 5 || strcmp(f[0], "subject") != 0 || strcmp(f[n - 3], "repetition") != 0 ||
	    strcmp(f[n - 2], "counter") != 0 || strcmp(f[n - 1], "value") != 0)
		return errbuf_set(eb, "%s: line 1: not a profile.tsv header", source);
	for (size_t i = 1; i + 3 < n; i++)
		if (strcmp(f[i], pf->axis) == 0)
			*axis_col = i;
	if (*axis_col == 0)
		return errbuf_set(eb, "%s: line 1: no column %s", source, pf->axis);
	return 0;
}

/* A number field: finite, >= 0. */
static int number(const char *s, double *v)
{
	const char *end;

	return numarg_any_double_prefix(s, v, &end) != NUMARG_NOT_NUMBER && *end == '\0' &&
		       isfinite(*v) && *v >= 0
		   ? 0
		   : -1;
}

int profilefit_add_source(struct profilefit *pf, const char *name, size_t *index, struct errbuf *eb)
{
	for (size_t i = 0; i < pf->n_sources; i++) {
		if (strcmp(pf->sources[i], name) == 0) {
			*index = i;
			return 0;
		}
	}
	if (pf->n_sources >= PROFILEFIT_SOURCES_MAX)
		return errbuf_set(eb, "more than %d profile sources", PROFILEFIT_SOURCES_MAX);
	if ((pf->sources[pf->n_sources] = strdup(name)) == NULL)
		return errbuf_set(eb, "out of memory");
	*index = pf->n_sources++;
	return 0;
}

/* A new row (strings copied); its fields set by the caller. NULL (eb) past the bound. */
static struct profilefit_row *new_row(struct profilefit *pf, const char *subject,
				      const char *counter, const char *point, struct errbuf *eb)
{
	struct profilefit_row *r;

	if (pf->n_rows >= PROFILEFIT_ROWS_MAX) {
		errbuf_set(eb, "more than %u rows", PROFILEFIT_ROWS_MAX);
		return NULL;
	}
	if (growarray(&pf->rows, &pf->cap_rows, pf->n_rows + 1, sizeof(*pf->rows),
		      PROFILEFIT_ROWS_MAX, eb) < 0)
		return NULL;
	r = &pf->rows[pf->n_rows++]; /* freed with the rest, whatever fails below */
	memset(r, 0, sizeof(*r));
	r->subject = strdup(subject);
	r->counter = strdup(counter);
	r->point = strdup(point);
	if (r->subject == NULL || r->counter == NULL || r->point == NULL) {
		errbuf_set(eb, "out of memory");
		return NULL;
	}
	return r;
}

int profilefit_add_value(struct profilefit *pf, size_t source, const char *subject,
			 const char *point, double x, unsigned repetition, const char *counter,
			 double value, struct errbuf *eb)
{
	struct profilefit_row *r;

	if (!isfinite(x) || !isfinite(value) || value < 0 || subject[0] == '\0' ||
	    counter[0] == '\0' || source >= pf->n_sources)
		return errbuf_set(eb, "bad value");
	if ((r = new_row(pf, subject, counter, point, eb)) == NULL)
		return -1;
	r->x = x;
	r->value = value;
	r->repetition = repetition;
	r->source = source;
	return 0;
}

/* Adds one data row (fields f, n of them, header h of the same count). 0 or -1. */
static int add_row(struct profilefit *pf, char **f, char **h, size_t n, size_t axis_col,
		   size_t source, struct errbuf *eb)
{
	char point[512];
	size_t used = 0;
	double x, v, rep;

	if (number(f[axis_col], &x) < 0 || number(f[n - 1], &v) < 0 || number(f[n - 3], &rep) < 0 ||
	    rep > 1e6 || f[0][0] == '\0' || f[n - 2][0] == '\0')
		return errbuf_set(eb, "bad field");
	point[0] = '\0';
	for (size_t i = 1; i + 3 < n; i++) {
		int w = snprintf(point + used, sizeof(point) - used, "%s%s=%s", i > 1 ? "," : "",
				 h[i], f[i]);

		if (w < 0 || (size_t)w >= sizeof(point) - used)
			return errbuf_set(eb, "point too long");
		used += (size_t)w;
	}
	return profilefit_add_value(pf, source, f[0], point, x, (unsigned)rep, f[n - 2], v, eb);
}

int profilefit_add_tsv(struct profilefit *pf, const char *text, size_t len, const char *source,
		       struct errbuf *eb)
{
	char *hbuf = malloc(FIELD_MAX), *buf = malloc(FIELD_MAX);
	char *h[COLUMNS_MAX], *f[COLUMNS_MAX];
	size_t start = 0, nh = 0, axis_col = 0, src, lineno = 0;
	int rc = -1;

	if (hbuf == NULL || buf == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	if (profilefit_add_source(pf, source, &src, eb) < 0)
		goto out;
	while (start < len) {
		const char *nl = memchr(text + start, '\n', len - start);
		size_t end = nl != NULL ? (size_t)(nl - text) : len, n;

		lineno++;
		if (lineno == 1) {
			nh = split(text + start, end - start, hbuf, FIELD_MAX, h);
			if (parse_header(pf, h, nh, &axis_col, source, eb) < 0)
				goto out;
		} else if (end > start) {
			n = split(text + start, end - start, buf, FIELD_MAX, f);
			if (n != nh) {
				errbuf_set(eb, "%s: line %zu: %zu fields, expected %zu", source,
					   lineno, n, nh);
				goto out;
			}
			if (add_row(pf, f, h, n, axis_col, src, eb) < 0) {
				errbuf_prefix(eb, "%s: line %zu", source, lineno);
				goto out;
			}
		}
		start = end + 1;
	}
	if (lineno == 0) {
		errbuf_set(eb, "%s: empty", source);
		goto out;
	}
	rc = 0;
out:
	free(hbuf);
	free(buf);
	return rc;
}

int profilefit_add_costs(struct profilefit *pf, const char *text, size_t len, const char *source,
			 struct errbuf *eb)
{
	char buf[512], *f[COLUMNS_MAX];
	size_t start = 0, lineno = 0;
	bool had = pf->n_costs > 0;

	while (start < len) {
		const char *nl = memchr(text + start, '\n', len - start);
		size_t end = nl != NULL ? (size_t)(nl - text) : len;
		size_t n = split(text + start, end - start, buf, sizeof(buf), f);
		bool empty = end == start;
		double ns;

		lineno++;
		start = end + 1;
		if (lineno == 1 || empty || had)
			continue;
		if (n < 2 || number(f[1], &ns) < 0 || strlen(f[0]) >= sizeof(pf->costs[0].name) ||
		    f[0][0] == '\0')
			return errbuf_set(eb, "%s: line %zu: expected a name and a price in ns",
					  source, lineno);
		if (pf->n_costs < PROFILEFIT_COSTS_MAX) {
			snprintf(pf->costs[pf->n_costs].name, sizeof(pf->costs[0].name), "%s",
				 f[0]);
			pf->costs[pf->n_costs++].ns = ns;
		}
	}
	return 0;
}

static int sink_source(void *arg, const char *name, size_t *index, struct errbuf *eb)
{
	return profilefit_add_source(arg, name, index, eb);
}

static int sink_value(void *arg, size_t source, const char *subject, const char *point, double x,
		      unsigned repetition, const char *counter, double value, struct errbuf *eb)
{
	return profilefit_add_value(arg, source, subject, point, x, repetition, counter, value, eb);
}

static int sink_untraced(void *arg, const char *subject, double x, struct errbuf *eb)
{
	return profilefit_add_untraced(arg, subject, x, eb);
}

void profilefit_sink(struct profilefit *pf, struct profileload_sink *sink)
{
	sink->arg = pf;
	sink->source = sink_source;
	sink->value = sink_value;
	sink->untraced = sink_untraced;
}
