/* numarg: the number parsers of every command line and the wording of their errors (numarg.h). */
#include "numarg.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

/* What the conversion that read s up to e left in errno says; errno gets back saved. */
static enum numarg_status numarg_status_of(const char *s, const char *e, int saved)
{
	int range = errno == ERANGE;

	errno = saved;
	if (e == s)
		return NUMARG_NOT_NUMBER;
	return range ? NUMARG_OUT_OF_RANGE : NUMARG_OK;
}

enum numarg_status numarg_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	const char *end = NULL;
	uint64_t v = 0;
	enum numarg_status st;

	/* strtoull alone would take blanks, a '+' and even a '-' (wrapping it around). */
	if (s[0] < '0' || s[0] > '9')
		return NUMARG_NOT_NUMBER;
	st = numarg_u64_prefix(s, 10, &v, &end);
	if (*end != '\0')
		return NUMARG_NOT_NUMBER;
	if (st == NUMARG_OUT_OF_RANGE || v < min || v > max)
		return NUMARG_OUT_OF_RANGE;
	*out = v;
	return NUMARG_OK;
}

static bool numarg_in_bounds(double v, const struct numarg_bounds *b)
{
	if (b == NULL)
		return true;
	if ((b->flags & NUMARG_OPEN_LO) ? !(v > b->lo) : !(v >= b->lo))
		return false;
	return (b->flags & NUMARG_OPEN_HI) ? v < b->hi : v <= b->hi;
}

enum numarg_status numarg_i64_prefix(const char *s, int base, int64_t *out, const char **end)
{
	int saved = errno;
	char *e = NULL;

	errno = 0;
	*out = strtoll(s, &e, base);
	*end = e;
	return numarg_status_of(s, e, saved);
}

enum numarg_status numarg_u64_prefix(const char *s, int base, uint64_t *out, const char **end)
{
	int saved = errno;
	char *e = NULL;

	errno = 0;
	*out = strtoull(s, &e, base);
	*end = e;
	return numarg_status_of(s, e, saved);
}

enum numarg_status numarg_any_double_prefix(const char *s, double *out, const char **end)
{
	int saved = errno;
	char *e = NULL;

	errno = 0;
	*out = strtod(s, &e);
	*end = e;
	return numarg_status_of(s, e, saved);
}

double numarg_leading_double(const char *s)
{
	const char *end;
	double v = 0;

	(void)numarg_any_double_prefix(s, &v, &end);
	return v;
}

uint64_t numarg_leading_u64(const char *s)
{
	const char *end;
	uint64_t v = 0;

	(void)numarg_u64_prefix(s, 10, &v, &end);
	return v;
}

enum numarg_status numarg_double_prefix(const char *s, const struct numarg_bounds *b, double *out,
					const char **end)
{
	double v = 0;
	enum numarg_status st = numarg_any_double_prefix(s, &v, end);

	if (st != NUMARG_OK)
		return st;
	if (!isfinite(v))
		return NUMARG_NOT_NUMBER;
	if (!numarg_in_bounds(v, b))
		return NUMARG_OUT_OF_RANGE;
	*out = v;
	return NUMARG_OK;
}

enum numarg_status numarg_double(const char *s, const struct numarg_bounds *b, double *out)
{
	const char *end;
	double v = 0;
	enum numarg_status st = numarg_double_prefix(s, b, &v, &end);

	if (b != NULL && (b->flags & NUMARG_PERCENT_SIGN) && end != s && *end == '%')
		end++;
	if (end == s || *end != '\0')
		return NUMARG_NOT_NUMBER;
	if (st == NUMARG_OK)
		*out = v;
	return st;
}

enum numarg_status numarg_seconds_ms(const char *s, double max_s, long *out_ms)
{
	const struct numarg_bounds b = {0, max_s, NUMARG_OPEN_LO};
	double v = 0;
	enum numarg_status st = numarg_double(s, &b, &v);

	if (st == NUMARG_OK)
		*out_ms = (long)ceil(v * 1000.0);
	return st;
}

int numarg_error(struct errbuf *eb, const struct numarg_words *w, const char *arg,
		 enum numarg_status st)
{
	switch (w->wording) {
	case NUMARG_WORDING_QUOTED:
		if (st == NUMARG_OUT_OF_RANGE)
			return errbuf_set(eb, "%s: %s is out of range", w->opt, arg);
		return errbuf_set(eb, "%s: \"%s\" is not %s", w->opt, arg, w->what);
	case NUMARG_WORDING_USE:
		return errbuf_set(eb, "%s %s: %s", w->opt, arg, w->what);
	case NUMARG_WORDING_IS_NOT:
	default:
		return errbuf_set(eb, "%s: '%s' is not %s", w->opt, arg, w->what);
	}
}

int numarg_get_u64(const struct numarg_words *w, const char *arg, uint64_t min, uint64_t max,
		   uint64_t *out, struct errbuf *eb)
{
	enum numarg_status st = numarg_u64(arg, min, max, out);

	return st == NUMARG_OK ? 0 : numarg_error(eb, w, arg, st);
}

int numarg_get_double(const struct numarg_words *w, const char *arg, const struct numarg_bounds *b,
		      double *out, struct errbuf *eb)
{
	enum numarg_status st = numarg_double(arg, b, out);

	return st == NUMARG_OK ? 0 : numarg_error(eb, w, arg, st);
}
