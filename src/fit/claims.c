/* claims: published statements about two tools' fitted lines, checked against what was measured. */
#include "claims.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "numarg.h"

static const char *const claims_quantity_names[] = {"raw_pct", "slope_pct", "crossover"};

void claims_free(struct claims *c)
{
	size_t i;

	if (c == NULL)
		return;
	for (i = 0; i < c->n; i++) {
		free(c->items[i].id);
		free(c->items[i].subject);
		free(c->items[i].versus);
		free(c->items[i].source);
	}
	free(c->items);
	free(c);
}

bool claims_is_name(const char *s)
{
	if (*s == '\0' || strlen(s) > 64)
		return false;
	for (; *s != '\0'; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '.' || *s == '_' || *s == '-'))
			return false;
	return true;
}

int claims_parse_quantity(const char *s, enum claims_quantity *q)
{
	for (size_t k = 0; k < sizeof(claims_quantity_names) / sizeof(claims_quantity_names[0]);
	     k++)
		if (strcmp(s, claims_quantity_names[k]) == 0) {
			*q = (enum claims_quantity)k;
			return 0;
		}
	return -1;
}

const char *claims_quantity_name(enum claims_quantity q)
{
	return (size_t)q < sizeof(claims_quantity_names) / sizeof(claims_quantity_names[0])
		   ? claims_quantity_names[q]
		   : "?";
}

int claims_parse_number(const char *s, double *out)
{
	const char *end = NULL;

	return numarg_any_double_prefix(s, out, &end) != NUMARG_OK || *end != '\0' ||
		       !isfinite(*out)
		   ? -1
		   : 0;
}

/* Splits line (modified in place) at tabs into at most max fields; returns the count. */
static size_t claims_split(char *line, char **field, size_t max)
{
	size_t n = 0;

	while (n < max) {
		field[n++] = line;
		line = strchr(line, '\t');
		if (line == NULL)
			break;
		*line++ = '\0';
	}
	return line == NULL ? n : max + 1;
}

int claims_read_lines(const char *text, size_t len, const struct claims_format *fmt,
		      const char *name, claims_line_fn each, void *ctx, struct errbuf *eb)
{
	char *copy = malloc(len + 1), *line, *next, *field[CLAIMS_FIELDS_MAX];
	size_t lineno = 0, lines = 0;
	int rc = -1;

	if (copy == NULL)
		return errbuf_set(eb, "out of memory");
	memcpy(copy, text, len);
	copy[len] = '\0';
	if (strlen(copy) != len) {
		errbuf_set(eb, "%s: holds a NUL byte", name);
		goto out;
	}
	for (line = copy; line != NULL; line = next) {
		size_t l, n;

		lineno++;
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		l = strlen(line);
		if (l > 0 && line[l - 1] == '\r')
			line[--l] = '\0';
		if (l == 0 || line[0] == '#')
			continue;
		if (lines == fmt->max_lines) {
			errbuf_set(eb, "%s:%zu: more than %zu %s", name, lineno, fmt->max_lines,
				   fmt->noun);
			goto out;
		}
		lines++;
		n = claims_split(line, field, fmt->n_fields);
		if (n != fmt->n_fields) {
			errbuf_set(eb, "%s:%zu: expected %zu tab-separated fields (%s), got %s",
				   name, lineno, fmt->n_fields, fmt->fields,
				   n > fmt->n_fields ? "more" : "fewer");
			goto out;
		}
		if (each(field, name, lineno, ctx, eb) != 0)
			goto out;
	}
	rc = 0;
out:
	free(copy);
	return rc;
}

static int claims_parse_line(char **f, const char *name, size_t lineno, void *ctx,
			     struct errbuf *eb)
{
	struct claims *all = ctx;
	struct claim *c = &all->items[all->n++];
	size_t q;

	for (q = 0; q < 3; q++)
		if (!claims_is_name(f[q]))
			return errbuf_set(eb,
					  "%s:%zu: field %zu: use 1-64 letters, digits, '.', '_', "
					  "'-'",
					  name, lineno, q + 1);
	if (claims_parse_quantity(f[3], &c->quantity) != 0)
		return errbuf_set(eb, "%s:%zu: quantity: expected raw_pct, slope_pct or crossover",
				  name, lineno);
	if (claims_parse_number(f[4], &c->claimed) != 0)
		return errbuf_set(eb, "%s:%zu: claimed: not a finite number", name, lineno);
	/* The words are data: any bytes, escaped by sanitize wherever they are shown. */
	if (strlen(f[5]) > CLAIMS_TEXT_MAX)
		return errbuf_set(eb, "%s:%zu: source: at most %d bytes", name, lineno,
				  CLAIMS_TEXT_MAX);
	c->id = strdup(f[0]);
	c->subject = strdup(f[1]);
	c->versus = strdup(f[2]);
	c->source = strdup(f[5]);
	if (c->id == NULL || c->subject == NULL || c->versus == NULL || c->source == NULL)
		return errbuf_set(eb, "out of memory");
	return 0;
}

struct claims *claims_parse(const char *text, size_t len, const char *name, struct errbuf *eb)
{
	static const struct claims_format fmt = {6, "ID SUBJECT VERSUS QUANTITY CLAIMED SOURCE",
						 CLAIMS_MAX, "claims"};
	struct claims *c = calloc(1, sizeof(*c));

	if (c == NULL || (c->items = calloc(CLAIMS_MAX, sizeof(*c->items))) == NULL) {
		errbuf_set(eb, "out of memory");
		claims_free(c);
		return NULL;
	}
	if (claims_read_lines(text, len, &fmt, name, claims_parse_line, c, eb) != 0) {
		claims_free(c);
		return NULL;
	}
	return c;
}

/* The first row of subject on host, or NULL. */
static const struct fitreport_row *claims_row(const struct fitreport *rep, const char *subject,
					      const char *host)
{
	size_t i;

	for (i = 0; i < rep->n_rows; i++)
		if (strcmp(rep->rows[i].series->subject, subject) == 0 &&
		    strcmp(rep->rows[i].series->host, host) == 0)
			return &rep->rows[i];
	return NULL;
}

static enum claims_verdict claims_judge(const struct claim *cl, const struct fit_estimate *m)
{
	if (cl->claimed >= m->lo && cl->claimed <= m->hi)
		return CLAIMS_HOLDS;
	if (cl->quantity == CLAIMS_CROSSOVER)
		return CLAIMS_CONTRADICTED;
	if (!fit_significant(m))
		return CLAIMS_NOT_CONFIRMED;
	if ((cl->claimed < 0 && m->hi < 0) || (cl->claimed > 0 && m->lo > 0))
		return CLAIMS_DIRECTION_HOLDS;
	return CLAIMS_CONTRADICTED;
}

static void claims_check_one(const struct fitreport *rep, const struct claim *cl,
			     const struct fitreport_row *a, const struct fitreport_row *b,
			     struct claims_check *out)
{
	struct fit_comparison cmp;
	struct paired_ratio raw, slope;

	/* The same comparison, and interval, as the report's table and rarplot --compare. */
	out->paired = fitreport_compare_rows(rep, a, b, &cmp, &raw, &slope);
	out->one_sweep = rep->res != NULL && rep->res->n_sources <= 1;
	out->base = cl->quantity == CLAIMS_SLOPE_PCT ? b->fit.slope : b->fit.intercept;
	switch (cl->quantity) {
	case CLAIMS_RAW_PCT:
		out->measured = cmp.raw_pct;
		break;
	case CLAIMS_SLOPE_PCT:
		out->measured = cmp.slope_pct;
		break;
	case CLAIMS_CROSSOVER:
	default:
		out->measured = cmp.crossover;
		out->in_range = cmp.has_crossover &&
				cmp.crossover.value >= fmin(a->series->x_min, b->series->x_min) &&
				cmp.crossover.value <= fmax(a->series->x_max, b->series->x_max);
		break;
	}
	if (cl->quantity == CLAIMS_CROSSOVER && !cmp.has_crossover)
		out->verdict = CLAIMS_CONTRADICTED;
	else
		out->verdict = claims_judge(cl, &out->measured);
}

int claims_check(const struct claims *c, const struct fitreport *rep, struct claims_check **out,
		 size_t *n, struct errbuf *eb)
{
	size_t i, h, k = 0, cap = c->n * (rep->set->n_hosts + 1);
	struct claims_check *checks = calloc(cap > 0 ? cap : 1, sizeof(*checks));

	*out = NULL;
	*n = 0;
	if (checks == NULL)
		return errbuf_set(eb, "out of memory");
	for (i = 0; i < c->n; i++) {
		const struct claim *cl = &c->items[i];
		size_t found = 0;

		for (h = 0; h < rep->n_rows && k < cap; h++) {
			const char *host = rep->rows[h].series->host;
			const struct fitreport_row *a, *b;

			/* Once per host: at the first row of that host. */
			if (claims_row(rep, rep->rows[h].series->subject, host) != &rep->rows[h] ||
			    strcmp(rep->rows[h].series->subject, cl->subject) != 0)
				continue;
			a = &rep->rows[h];
			b = claims_row(rep, cl->versus, host);
			if (b == NULL)
				continue;
			checks[k].claim = cl;
			checks[k].host = host;
			checks[k].versus_tool =
			    rep->res != NULL ? results_tool(rep->res, cl->versus) : NULL;
			claims_check_one(rep, cl, a, b, &checks[k]);
			k++;
			found++;
		}
		if (found == 0 && k < cap) {
			checks[k].claim = cl;
			checks[k].host = "-";
			checks[k].measured.value = checks[k].measured.se = NAN;
			checks[k].measured.lo = checks[k].measured.hi = NAN;
			checks[k].verdict = CLAIMS_NOT_MEASURED;
			k++;
		}
	}
	*out = checks;
	*n = k;
	return 0;
}
