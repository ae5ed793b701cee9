/* inventory_range: a host pattern's [a:b] or [a:b:step] range, parsed and bounded. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "inventory_impl.h"
#include "numarg.h"

#define BOUND_MAX_BYTES 24 /* a numeric bound's digits, NUL included */

/* The step of a range: the digits between c2 (its second ':') and rb. */
static int range_step(const char *file, unsigned line, const char *c2, const char *rb, long *step,
		      struct errbuf *eb)
{
	const char *e;
	char sbuf[16];
	int64_t v = 0;
	enum numarg_status st;
	size_t sl = (size_t)(rb - c2 - 1);

	if (sl == 0 || sl >= sizeof(sbuf))
		return errbuf_set(eb, "%s:%u: bad range step", file, line);
	memcpy(sbuf, c2 + 1, sl);
	sbuf[sl] = '\0';
	st = numarg_i64_prefix(sbuf, 10, &v, &e);
	*step = v;
	if (st == NUMARG_OUT_OF_RANGE || *e != '\0' || !isdigit((unsigned char)sbuf[0]) ||
	    *step < 1 || *step > 100000)
		return errbuf_set(eb, "%s:%u: bad range step '%s'", file, line, sbuf);
	return 0;
}

/* A numeric bound of n bytes (fewer than BOUND_MAX_BYTES), which: "start" or "end". */
static int range_bound(const char *file, unsigned line, const char *str, size_t n,
		       const char *which, long *v, struct errbuf *eb)
{
	char nb[BOUND_MAX_BYTES];
	const char *e;
	int64_t i = 0;
	enum numarg_status st;

	memcpy(nb, str, n);
	nb[n] = '\0';
	st = numarg_i64_prefix(nb, 10, &i, &e);
	*v = i;
	if (st == NUMARG_OUT_OF_RANGE || *e != '\0' || !isdigit((unsigned char)nb[0]))
		return errbuf_set(eb, "%s:%u: bad range %s '%s'%s", file, line, which, nb,
				  st == NUMARG_OUT_OF_RANGE ? " (too large)" : "");
	return 0;
}

int inventory_range_parse(const char *pat, size_t len, const char *lb, const char *file,
			  unsigned line, struct inventory_range *r, struct errbuf *eb)
{
	const char *c1, *c2;

	r->rb = memchr(lb, ']', len - (size_t)(lb - pat));
	c1 = memchr(lb, ':', r->rb ? (size_t)(r->rb - lb) : 0);
	if (r->rb == NULL || c1 == NULL)
		return errbuf_set(eb, "%s:%u: bad host range in '%.*s' (want name[a:b])", file,
				  line, (int)len, pat);
	c2 = memchr(c1 + 1, ':', (size_t)(r->rb - c1 - 1));
	const char *a = lb + 1, *b = c1 + 1;
	size_t alen = (size_t)(c1 - a), blen = (size_t)((c2 ? c2 : r->rb) - b);
	r->step = 1;
	r->width = 0;
	if (c2 != NULL && range_step(file, line, c2, r->rb, &r->step, eb) < 0)
		return -1;
	r->alpha =
	    alen == 1 && blen == 1 && isalpha((unsigned char)*a) && isalpha((unsigned char)*b);
	if (r->alpha) {
		r->from = (unsigned char)*a;
		r->to = (unsigned char)*b;
	} else {
		if (alen == 0 || blen == 0 || alen >= BOUND_MAX_BYTES || blen >= BOUND_MAX_BYTES)
			return errbuf_set(eb, "%s:%u: bad host range in '%.*s'", file, line,
					  (int)len, pat);
		if (range_bound(file, line, a, alen, "start", &r->from, eb) < 0)
			return -1;
		if (alen > 1 && *a == '0')
			r->width = (int)alen;
		if (range_bound(file, line, b, blen, "end", &r->to, eb) < 0)
			return -1;
	}
	/* both are >= 0: to - from cannot overflow; the count is bounded before any loop */
	if (r->from > r->to)
		return errbuf_set(eb, "%s:%u: bad host range %ld..%ld", file, line, r->from, r->to);
	if ((r->to - r->from) / r->step >= INVENTORY_RANGE_MAX)
		return errbuf_set(eb, "%s:%u: host range expands to more than %d hosts", file, line,
				  INVENTORY_RANGE_MAX);
	return 0;
}
