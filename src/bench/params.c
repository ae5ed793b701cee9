/* params: hyperfine's -L / -P / -D parameter lists, their cartesian product and {name}
 * substitution. */
#include "params.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "growbuf.h"
#include "numarg.h"
#include "template.h"

void params_clear(struct params *p)
{
	if (p == NULL)
		return;
	for (size_t i = 0; i < p->n_dims; i++) {
		free(p->dims[i].name);
		for (size_t j = 0; j < p->dims[i].n_values; j++)
			free(p->dims[i].values[j]);
		free(p->dims[i].values);
	}
	free(p->dims);
	memset(p, 0, sizeof(*p));
}

/* Appends a dimension that adopts values (n of them). */
static int params_push(struct params *p, const char *name, char **values, size_t n,
		       struct errbuf *eb)
{
	struct params_dim *d;
	size_t total = n;

	if (name[0] == '\0')
		return errbuf_set(eb, "empty parameter name");
	for (size_t i = 0; i < p->n_dims; i++) {
		if (strcmp(p->dims[i].name, name) == 0)
			return errbuf_set(eb, "Duplicate parameter names: %s", name);
		total *= p->dims[i].n_values;
		if (total > PARAMS_MAX_COMBINATIONS)
			break;
	}
	if (total > PARAMS_MAX_COMBINATIONS)
		return errbuf_set(eb, "more than %d parameter combinations",
				  PARAMS_MAX_COMBINATIONS);
	/* each dimension multiplies the combinations by 2 at least: they bound the count */
	if (growarray(&p->dims, &p->cap_dims, p->n_dims + 1, sizeof(*p->dims),
		      PARAMS_MAX_COMBINATIONS, eb) < 0)
		return -1;
	d = p->dims;
	d[p->n_dims].name = strdup(name);
	if (d[p->n_dims].name == NULL)
		return errbuf_set(eb, "out of memory");
	d[p->n_dims].values = values;
	d[p->n_dims].n_values = n;
	p->n_dims++;
	return 0;
}

static void params_free_values(char **v, size_t n)
{
	if (v == NULL)
		return;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int params_add_list(struct params *p, const char *name, const char *list, struct errbuf *eb)
{
	size_t len = strlen(list), n = 0, bl = 0;
	char **values = calloc(len + 1, sizeof(*values)); /* at most len+1 tokens */
	char *buf = malloc(len + 1);
	int rc = -1;

	if (values == NULL || buf == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	for (const char *c = list;; c++) {
		if (*c == '\\' && (c[1] == ',' || c[1] == '\\')) {
			buf[bl++] = c[1];
			c++;
		} else if (*c == ',' || *c == '\0') {
			buf[bl] = '\0';
			values[n] = strdup(buf);
			if (values[n++] == NULL) {
				errbuf_set(eb, "out of memory");
				goto out;
			}
			bl = 0;
			if (*c == '\0')
				break;
		} else {
			buf[bl++] = *c;
		}
	}
	if (params_push(p, name, values, n, eb) != 0) {
		errbuf_prefix(eb, "--parameter-list %s", name);
		goto out;
	}
	values = NULL;
	rc = 0;
out:
	params_free_values(values, n);
	free(buf);
	return rc;
}

/* A decimal as an integer count of 10^-scale units. */
struct params_dec {
	int64_t units;
	int scale;
};

static bool params_parse_int(const char *s, int32_t *out)
{
	const char *end = NULL;
	int64_t v;

	if (numarg_i64_prefix(s, 10, &v, &end) != NUMARG_OK || *end != '\0' || v < INT32_MIN ||
	    v > INT32_MAX)
		return false;
	*out = (int32_t)v;
	return true;
}

#define PARAMS_MAX_SCALE 9

static bool params_parse_dec(const char *s, struct params_dec *d)
{
	const char *c = s;
	bool neg = false, digits = false;
	int64_t units = 0;
	int scale = 0;

	if (*c == '-' || *c == '+')
		neg = *c++ == '-';
	for (; *c >= '0' && *c <= '9'; c++, digits = true) {
		if (units > (INT64_MAX - 9) / 10)
			return false;
		units = units * 10 + (*c - '0');
	}
	if (*c == '.') {
		for (c++; *c >= '0' && *c <= '9'; c++, digits = true) {
			if (units > (INT64_MAX - 9) / 10 || scale >= PARAMS_MAX_SCALE)
				return false;
			units = units * 10 + (*c - '0');
			scale++;
		}
	}
	if (!digits || *c != '\0')
		return false;
	d->units = neg ? -units : units;
	d->scale = scale;
	return true;
}

static int64_t params_rescale(struct params_dec d, int scale)
{
	for (int i = d.scale; i < scale; i++)
		d.units *= 10;
	return d.units;
}

static char *params_format_dec(int64_t units, int scale)
{
	char buf[64];
	int64_t div = 1;
	uint64_t a = units < 0 ? (uint64_t)(-(units + 1)) + 1 : (uint64_t)units;

	for (int i = 0; i < scale; i++)
		div *= 10;
	if (scale == 0)
		snprintf(buf, sizeof(buf), "%s%llu", units < 0 ? "-" : "", (unsigned long long)a);
	else
		snprintf(buf, sizeof(buf), "%s%llu.%0*llu", units < 0 ? "-" : "",
			 (unsigned long long)(a / (uint64_t)div), scale,
			 (unsigned long long)(a % (uint64_t)div));
	return strdup(buf);
}

int params_add_scan(struct params *p, const char *name, const char *min, const char *max,
		    const char *step, struct errbuf *eb)
{
	struct params_dec dmin, dmax, dstep;
	int32_t imin, imax, istep = 1;
	int64_t lo, hi, st, v;
	int scale, first_scale;
	char **values = NULL;
	size_t n = 0, cap;

	if (params_parse_int(min, &imin) && params_parse_int(max, &imax) &&
	    (step == NULL || params_parse_int(step, &istep))) {
		dmin = (struct params_dec){imin, 0};
		dmax = (struct params_dec){imax, 0};
		dstep = (struct params_dec){istep, 0};
	} else {
		if (!params_parse_dec(min, &dmin) || !params_parse_dec(max, &dmax))
			return errbuf_set(eb, "--parameter-scan %s: '%s' or '%s' is not a number",
					  name, min, max);
		if (step == NULL)
			return errbuf_set(eb,
					  "--parameter-scan %s: a step size (-D) is required for "
					  "non-integer ranges",
					  name);
		if (!params_parse_dec(step, &dstep))
			return errbuf_set(eb, "--parameter-step-size: '%s' is not a number", step);
	}
	scale = dmin.scale;
	if (dmax.scale > scale)
		scale = dmax.scale;
	if (dstep.scale > scale)
		scale = dstep.scale;
	lo = params_rescale(dmin, scale);
	hi = params_rescale(dmax, scale);
	st = params_rescale(dstep, scale);
	if (hi < lo)
		return errbuf_set(eb, "--parameter-scan %s: empty range (%s > %s)", name, min, max);
	if (st <= 0)
		return errbuf_set(eb, "--parameter-scan %s: the step must be positive", name);
	if ((hi - lo) / st + 1 > PARAMS_MAX_COMBINATIONS)
		return errbuf_set(eb, "--parameter-scan %s: more than %d values", name,
				  PARAMS_MAX_COMBINATIONS);
	cap = (size_t)((hi - lo) / st + 1);
	values = calloc(cap, sizeof(*values));
	if (values == NULL)
		return errbuf_set(eb, "out of memory");
	/* Like rust_decimal: the first value keeps MIN's digits, sums take the larger scale. */
	first_scale = dmin.scale;
	for (v = lo; v <= hi && n < cap; v += st) {
		int s =
		    n == 0 ? first_scale : (dmin.scale > dstep.scale ? dmin.scale : dstep.scale);
		int64_t u = v;

		for (int i = s; i < scale; i++)
			u /= 10;
		values[n] = params_format_dec(u, s);
		if (values[n++] == NULL) {
			params_free_values(values, n);
			return errbuf_set(eb, "out of memory");
		}
	}
	if (params_push(p, name, values, n, eb) != 0) {
		params_free_values(values, n);
		return errbuf_prefix(eb, "--parameter-scan");
	}
	return 0;
}

size_t params_combinations(const struct params *p)
{
	size_t total = 1;

	for (size_t i = 0; i < p->n_dims; i++)
		total *= p->dims[i].n_values;
	return total;
}

const char *params_value(const struct params *p, size_t combo, size_t dim)
{
	for (size_t i = 0; i < dim; i++)
		combo /= p->dims[i].n_values;
	return p->dims[dim].values[combo % p->dims[dim].n_values];
}

static int params_cmp_name(const void *a, const void *b)
{
	const struct params_dim *x = *(const struct params_dim *const *)a;
	const struct params_dim *y = *(const struct params_dim *const *)b;

	return strcmp(x->name, y->name);
}

char *params_substitute(const struct params *p, size_t combo, const char *tmpl, struct errbuf *eb)
{
	const struct params_dim **sorted = NULL;
	struct template_var *vars = NULL;
	char *out = NULL;

	if (p->n_dims > 0 && ((sorted = calloc(p->n_dims, sizeof(*sorted))) == NULL ||
			      (vars = calloc(p->n_dims, sizeof(*vars))) == NULL)) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < p->n_dims; i++)
		sorted[i] = &p->dims[i];
	if (p->n_dims > 1)
		qsort(sorted, p->n_dims, sizeof(*sorted), params_cmp_name);
	for (size_t i = 0; i < p->n_dims; i++) {
		vars[i].name = sorted[i]->name;
		vars[i].value = params_value(p, combo, (size_t)(sorted[i] - p->dims));
	}
	/* An unknown "{...}" stays as written (hyperfine's rule). */
	out = template_expand(tmpl, vars, p->n_dims, NULL, eb);
out:
	free(vars);
	free(sorted);
	return out;
}
