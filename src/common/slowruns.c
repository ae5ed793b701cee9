/* slowruns: a calibration point's slow runs against their own floor (slowruns.h). */
#include "slowruns.h"

#include <stdlib.h>
#include <string.h>

static int slowruns_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void slowruns_count(const double *wall_s, const double *stall_s, size_t n, double *scratch,
		    size_t *slow, size_t *unseen)
{
	double limit;

	*slow = *unseen = 0;
	if (n == 0)
		return;
	memcpy(scratch, wall_s, n * sizeof(*scratch));
	qsort(scratch, n, sizeof(*scratch), slowruns_cmp);
	/* The lower order statistic at 10 %: the floor a quiet run reaches, robust to a few
	 * runs that were lucky (the minimum alone would judge by one). */
	limit = SLOWRUNS_FACTOR * scratch[(n - 1) / 10];
	for (size_t i = 0; i < n; i++) {
		if (!(wall_s[i] > limit))
			continue;
		(*slow)++;
		if (stall_s != NULL && wall_s[i] - stall_s[i] > limit)
			(*unseen)++;
	}
}
