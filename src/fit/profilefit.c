/* profilefit: fit every profile counter against the swept size; find counts that differ. */
#include "profilefit.h"
#include "profilefit_impl.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"
#include "growbuf.h"

/* Counters wait4 gives: they follow the host (page cache, scheduler), not only the program. */
static const char *const host_counters[] = {"minflt", "majflt", "maxrss_kib", "inblock", "nvcsw"};

static bool is_host_counter(const char *c)
{
	for (size_t i = 0; i < sizeof(host_counters) / sizeof(host_counters[0]); i++)
		if (strcmp(c, host_counters[i]) == 0)
			return true;
	return false;
}

struct profilefit *profilefit_new(const char *axis)
{
	struct profilefit *pf = calloc(1, sizeof(*pf));

	if (pf == NULL || (pf->axis = strdup(axis)) == NULL ||
	    (pf->sources = calloc(PROFILEFIT_SOURCES_MAX, sizeof(char *))) == NULL) {
		profilefit_free(pf);
		return NULL;
	}
	return pf;
}

void profilefit_free(struct profilefit *pf)
{
	if (pf == NULL)
		return;
	for (size_t i = 0; i < pf->n_rows; i++) {
		free(pf->rows[i].subject);
		free(pf->rows[i].counter);
		free(pf->rows[i].point);
	}
	for (size_t i = 0; i < pf->n_lines; i++) {
		free(pf->lines[i].subject);
		free(pf->lines[i].counter);
	}
	for (size_t i = 0; i < pf->n_diffs; i++) {
		free(pf->diffs[i].subject);
		free(pf->diffs[i].counter);
		free(pf->diffs[i].point);
		free(pf->diffs[i].lo_source);
		free(pf->diffs[i].hi_source);
		free(pf->diffs[i].odd_source);
	}
	for (size_t i = 0; i < pf->n_untraced; i++)
		free(pf->untraced[i].subject);
	free(pf->untraced);
	for (size_t i = 0; pf->sources != NULL && i < pf->n_sources; i++)
		free(pf->sources[i]);
	free(pf->sources);
	free(pf->rows);
	free(pf->lines);
	free(pf->diffs);
	free(pf->axis);
	free(pf);
}

/* Whether two rows are of the same sample (point, source, repetition). */
static int cmp_sample(const struct profilefit_row *x, const struct profilefit_row *y)
{
	int c = (x->x > y->x) - (x->x < y->x);

	if (c == 0)
		c = strcmp(x->point, y->point);
	if (c == 0)
		c = (x->source > y->source) - (x->source < y->source);
	if (c == 0)
		c = (x->repetition > y->repetition) - (x->repetition < y->repetition);
	return c;
}

static int cmp_row(const void *a, const void *b)
{
	const struct profilefit_row *x = a, *y = b;
	int c = strcmp(x->subject, y->subject);

	if (c == 0)
		c = strcmp(x->counter, y->counter);
	return c != 0 ? c : cmp_sample(x, y);
}

/* "SOURCE rep N" for a difference. */
static char *where(const struct profilefit *pf, const struct profilefit_row *r)
{
	char buf[600];

	snprintf(buf, sizeof(buf), "%s repetition %u", pf->sources[r->source], r->repetition);
	return strdup(buf);
}

/*
 * Whether source c's samples among smp[i..j) all differ from those of every other source,
 * which all hold one value (into *usual; *odd: c's first). At least one other sample.
 */
static bool source_alone(const struct profilefit_row *const *smp, const double *y, size_t i,
			 size_t j, size_t c, double *odd, double *usual)
{
	bool have_usual = false, have_odd = false;

	for (size_t k = i; k < j; k++) {
		if (smp[k]->source == c) {
			if (!have_odd)
				*odd = y[k];
			have_odd = true;
			continue;
		}
		if (have_usual && y[k] != *usual)
			return false;
		*usual = y[k];
		have_usual = true;
	}
	if (!have_usual || !have_odd)
		return false;
	for (size_t k = i; k < j; k++)
		if (smp[k]->source == c && y[k] == *usual)
			return false;
	return true;
}

/* The one source of smp[i..j) that stands alone (source_alone), else SIZE_MAX. */
static size_t odd_source(const struct profilefit_row *const *smp, const double *y, size_t i,
			 size_t j, size_t lo, size_t hi, double *odd, double *usual)
{
	double o2, u2;
	bool a = source_alone(smp, y, i, j, smp[lo]->source, odd, usual);
	bool b = smp[hi]->source != smp[lo]->source &&
		 source_alone(smp, y, i, j, smp[hi]->source, &o2, &u2);

	if (a == b)
		return SIZE_MAX; /* none, or two sources each alone: which is odd is unknown */
	if (b) {
		*odd = o2;
		*usual = u2;
		return smp[hi]->source;
	}
	return smp[lo]->source;
}

/* Records that counter's values at one point span lo (seen in a) .. hi (in b); odd: the source
 * alone (odd_source), SIZE_MAX: none. */
static int add_diff(struct profilefit *pf, const struct profilefit_row *s, const char *counter,
		    double lo, const struct profilefit_row *a, double hi,
		    const struct profilefit_row *b, size_t odd, double odd_value,
		    double usual_value, struct errbuf *eb)
{
	struct profilefit_diff *d;

	if (pf->n_diffs_total++ >= PROFILEFIT_DIFFS_MAX)
		return 0;
	d = &pf->diffs[pf->n_diffs++];
	d->subject = strdup(s->subject);
	d->counter = strdup(counter);
	d->point = strdup(s->point);
	d->lo_source = where(pf, a);
	d->hi_source = where(pf, b);
	d->lo = lo;
	d->hi = hi;
	d->odd_source = odd == SIZE_MAX ? NULL : strdup(pf->sources[odd]);
	d->odd_value = odd_value;
	d->usual_value = usual_value;
	if (d->subject == NULL || d->counter == NULL || d->point == NULL || d->lo_source == NULL ||
	    d->hi_source == NULL || (odd != SIZE_MAX && d->odd_source == NULL))
		return errbuf_set(eb, "out of memory");
	return 0;
}

/* Fits y over the samples' x (n of them) into l. */
static int fit_one(const struct profilefit_row *const *smp, const double *y, size_t n,
		   struct profilefit_line *l, double *xs, struct errbuf *eb)
{
	struct fit_line fl;
	size_t distinct = 0;
	double sum = 0;

	l->n = n;
	l->min = l->max = n > 0 ? y[0] : 0;
	for (size_t i = 0; i < n; i++) {
		xs[i] = smp[i]->x;
		distinct += i == 0 || smp[i]->x != smp[i - 1]->x;
		sum += y[i];
		l->min = y[i] < l->min ? y[i] : l->min;
		l->max = y[i] > l->max ? y[i] : l->max;
	}
	l->intercept = n > 0 ? sum / (double)n : 0;
	l->slope = 0;
	l->r2 = 1;
	l->fitted = distinct >= 2;
	if (l->min == l->max || distinct < 2)
		return 0; /* a constant (or one size): the mean, exactly */
	if (distinct >= FIT_MIN_DISTINCT_X) {
		if (fit_linear(xs, y, NULL, n, &fl, eb) < 0)
			return -1;
		l->slope = fl.slope;
		l->intercept = fl.intercept;
		l->r2 = fl.r2;
		return 0;
	}
	/* Two sizes: the line through the means at each (x sorted ascending). */
	{
		double s0 = 0, s1 = 0, n0 = 0, n1 = 0, x0 = xs[0], x1 = xs[n - 1];

		for (size_t i = 0; i < n; i++) {
			if (xs[i] == x0) {
				s0 += y[i];
				n0++;
			} else {
				s1 += y[i];
				n1++;
			}
		}
		l->slope = (s1 / n1 - s0 / n0) / (x1 - x0);
		l->intercept = s0 / n0 - l->slope * x0;
		l->r2 = NAN;
	}
	return 0;
}

/* The differences between samples of one point (other sources or repetitions). */
static int find_diffs(struct profilefit *pf, const struct profilefit_row *const *smp,
		      const double *y, size_t n, const char *counter, struct errbuf *eb)
{
	size_t i = 0;

	if (is_host_counter(counter))
		return 0;
	while (i < n) {
		size_t j = i + 1, lo = i, hi = i;

		while (j < n && smp[j]->x == smp[i]->x &&
		       strcmp(smp[j]->point, smp[i]->point) == 0) {
			lo = y[j] < y[lo] ? j : lo;
			hi = y[j] > y[hi] ? j : hi;
			j++;
		}
		if (y[lo] != y[hi]) {
			double ov = 0, uv = 0;
			size_t odd = odd_source(smp, y, i, j, lo, hi, &ov, &uv);

			if (add_diff(pf, smp[i], counter, y[lo], smp[lo], y[hi], smp[hi], odd, ov,
				     uv, eb) < 0)
				return -1;
		}
		i = j;
	}
	return 0;
}

/*
 * One subject's counters, rows [first, last) sorted: the samples are its
 * "calls" rows (every traced point has one); a counter missing from a
 * sample counts 0 there (a file not opened at that size).
 */
static int compute_subject(struct profilefit *pf, size_t first, size_t last, struct errbuf *eb)
{
	const struct profilefit_row **smp = NULL;
	double *y = NULL, *xs = NULL;
	size_t n = 0, i, g;
	int rc = -1;

	for (i = first; i < last; i++)
		n += strcmp(pf->rows[i].counter, "calls") == 0;
	smp = calloc(n + 1, sizeof(*smp));
	y = calloc(n + 1, sizeof(double));
	xs = calloc(n + 1, sizeof(double));
	if (smp == NULL || y == NULL || xs == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	n = 0;
	for (i = first; i < last; i++)
		if (strcmp(pf->rows[i].counter, "calls") == 0)
			smp[n++] = &pf->rows[i];
	for (g = first; g < last;) {
		size_t end = g, k = 0;
		struct profilefit_line *l = &pf->lines[pf->n_lines];

		while (end < last && strcmp(pf->rows[end].counter, pf->rows[g].counter) == 0)
			end++;
		memset(y, 0, (n + 1) * sizeof(double));
		for (i = g; i < end; i++) {
			while (k < n && cmp_sample(smp[k], &pf->rows[i]) < 0)
				k++;
			if (k < n && cmp_sample(smp[k], &pf->rows[i]) == 0)
				y[k] = pf->rows[i].value;
		}
		memset(l, 0, sizeof(*l));
		l->subject = strdup(pf->rows[g].subject);
		l->counter = strdup(pf->rows[g].counter);
		pf->n_lines++;
		if (l->subject == NULL || l->counter == NULL) {
			errbuf_set(eb, "out of memory");
			goto out;
		}
		if (fit_one(smp, y, n, l, xs, eb) < 0 ||
		    find_diffs(pf, smp, y, n, l->counter, eb) < 0)
			goto out;
		g = end;
	}
	rc = 0;
out:
	free(smp);
	free(y);
	free(xs);
	return rc;
}

int profilefit_add_untraced(struct profilefit *pf, const char *subject, double x, struct errbuf *eb)
{
	struct profilefit_untraced *u = NULL;

	for (size_t i = 0; i < pf->n_untraced && u == NULL; i++)
		if (strcmp(pf->untraced[i].subject, subject) == 0)
			u = &pf->untraced[i];
	if (u == NULL) {
		/* One entry per subject: as many as the results have subjects. */
		if (growarray(&pf->untraced, &pf->cap_untraced, pf->n_untraced + 1,
			      sizeof(*pf->untraced), PROFILEFIT_ROWS_MAX, eb) < 0)
			return -1;
		u = &pf->untraced[pf->n_untraced];
		if ((u->subject = strdup(subject)) == NULL)
			return errbuf_set(eb, "out of memory");
		pf->n_untraced++;
		u->points = 0;
		u->from_x = x;
	}
	u->points++;
	if (x < u->from_x)
		u->from_x = x;
	return 0;
}

int profilefit_compute(struct profilefit *pf, struct errbuf *eb)
{
	size_t i = 0;

	qsort(pf->rows, pf->n_rows, sizeof(*pf->rows), cmp_row);
	pf->lines = calloc(pf->n_rows + 1, sizeof(*pf->lines));
	pf->diffs = calloc(PROFILEFIT_DIFFS_MAX, sizeof(*pf->diffs));
	if (pf->lines == NULL || pf->diffs == NULL)
		return errbuf_set(eb, "out of memory");
	while (i < pf->n_rows) {
		size_t end = i;

		while (end < pf->n_rows && strcmp(pf->rows[end].subject, pf->rows[i].subject) == 0)
			end++;
		if (compute_subject(pf, i, end, eb) < 0)
			return -1;
		i = end;
	}
	return 0;
}

const struct profilefit_line *profilefit_find(const struct profilefit *pf, const char *subject,
					      const char *counter)
{
	for (size_t i = 0; i < pf->n_lines; i++)
		if (strcmp(pf->lines[i].subject, subject) == 0 &&
		    strcmp(pf->lines[i].counter, counter) == 0)
			return &pf->lines[i];
	return NULL;
}

double profilefit_cost(const struct profilefit *pf, const char *name, bool *own)
{
	double floor_ns = 0;

	*own = false;
	for (size_t i = 0; i < pf->n_costs; i++) {
		if (strcmp(pf->costs[i].name, name) == 0) {
			*own = true;
			return pf->costs[i].ns;
		}
		if (strcmp(pf->costs[i].name, "syscall") == 0)
			floor_ns = pf->costs[i].ns;
	}
	return floor_ns;
}

size_t profilefit_points(const struct profilefit *pf, const char *subject, const char *counter,
			 double *x, double *y, size_t cap)
{
	size_t n = 0, k = 0;

	/* Rows are sorted by subject, counter, x (profilefit_compute). */
	for (size_t i = 0; i < pf->n_rows; i++) {
		const struct profilefit_row *r = &pf->rows[i];

		if (strcmp(r->subject, subject) != 0 || strcmp(r->counter, counter) != 0)
			continue;
		if (n > 0 && x[n - 1] == r->x) {
			y[n - 1] += (r->value - y[n - 1]) / (double)++k;
			continue;
		}
		if (n == cap)
			break;
		x[n] = r->x;
		y[n++] = r->value;
		k = 1;
	}
	return n;
}
