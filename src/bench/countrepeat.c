/* countrepeat: when a counted point is counted again, and which of its counts is kept. */
#include "countrepeat.h"

static uint64_t differ(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

size_t countrepeat_want(const struct countrepeat *c)
{
	uint64_t lo;

	if (c->n < 2)
		return 2;
	lo = c->v[0] < c->v[1] ? c->v[0] : c->v[1];
	/* In integers: |a − b| > AGREE × lo, AGREE = 1/10 000. */
	return (double)differ(c->v[0], c->v[1]) * 10000.0 > (double)lo ? COUNTREPEAT_MAX : 2;
}

size_t countrepeat_median(const struct countrepeat *c)
{
	/* The run with as many counts below it as the median's rank allows (ties: the first). */
	size_t rank = (c->n - 1) / 2;

	for (size_t i = 0; i < c->n; i++) {
		size_t below = 0, same_before = 0, same_after = 0;

		for (size_t j = 0; j < c->n; j++) {
			if (c->v[j] < c->v[i])
				below++;
			else if (c->v[j] == c->v[i] && j < i)
				same_before++;
			else if (c->v[j] == c->v[i] && j > i)
				same_after++;
		}
		if (below + same_before <= rank && rank <= below + same_before + same_after)
			return i;
	}
	return 0;
}

void countrepeat_range(const struct countrepeat *c, uint64_t *min, uint64_t *max, double *spread)
{
	uint64_t m = c->v[countrepeat_median(c)];

	*min = *max = c->v[0];
	for (size_t i = 1; i < c->n; i++) {
		if (c->v[i] < *min)
			*min = c->v[i];
		if (c->v[i] > *max)
			*max = c->v[i];
	}
	*spread = m > 0 ? (double)(*max - *min) / (double)m : 0;
}
