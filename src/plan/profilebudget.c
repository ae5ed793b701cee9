/* profilebudget: which traced runs the profile pass can afford, predicted from the ones it made. */
#include "profilebudget.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double profilebudget_cap(uint32_t pct, double timed)
{
	return timed * pct / 100.0;
}

int profilebudget_init(struct profilebudget *b, size_t nsubjects, uint32_t pct, uint64_t timed_ns,
		       struct errbuf *eb)
{
	memset(b, 0, sizeof(*b));
	b->subjects = calloc(nsubjects > 0 ? nsubjects : 1, sizeof(*b->subjects));
	if (b->subjects == NULL)
		return errbuf_set(eb, "out of memory");
	b->nsubjects = nsubjects;
	b->limit_ns = profilebudget_cap(pct, (double)timed_ns);
	return 0;
}

void profilebudget_clear(struct profilebudget *b)
{
	free(b->subjects);
	memset(b, 0, sizeof(*b));
}

/* The calls subject h is expected to make at a policy of bytes. */
static double predicted_calls(const struct profilebudget_history *h, uint64_t bytes)
{
	double last_b = (double)h->bytes[1], last_c = (double)h->calls[1], slope;

	if (h->seen == 1) {
		/* One point: proportional to the policy, which overestimates a flat cost. */
		double grow = last_b > 0 ? (double)bytes / last_b : 1.0;

		return last_c * (grow > 1.0 ? grow : 1.0);
	}
	if (h->bytes[1] == h->bytes[0])
		return last_c;
	slope = (last_c - (double)h->calls[0]) / (last_b - (double)h->bytes[0]);
	if (slope < 0)
		slope = 0;
	last_c += slope * ((double)bytes - last_b);
	return last_c > 0 ? last_c : 0;
}

double profilebudget_predict(const struct profilebudget *b, size_t i, uint64_t bytes)
{
	const struct profilebudget_history *h;

	if (i >= b->nsubjects || b->subjects[i].seen == 0)
		return 0;
	h = &b->subjects[i];
	return predicted_calls(h, bytes) * h->ns_per_call;
}

bool profilebudget_allows(const struct profilebudget *b, size_t i, uint64_t bytes,
			  double *predicted_ns)
{
	double p = profilebudget_predict(b, i, bytes);

	if (predicted_ns != NULL)
		*predicted_ns = p;
	/* Every subject's first point is traced: without it nothing could be said or predicted. */
	if (i < b->nsubjects && b->subjects[i].seen == 0)
		return true;
	return b->limit_ns <= 0 || b->spent_ns + p <= b->limit_ns;
}

void profilebudget_record(struct profilebudget *b, size_t i, uint64_t bytes, uint64_t calls,
			  uint64_t ns)
{
	struct profilebudget_history *h;

	profilebudget_spend(b, ns);
	if (i >= b->nsubjects)
		return;
	h = &b->subjects[i];
	h->bytes[0] = h->bytes[1];
	h->calls[0] = h->calls[1];
	h->bytes[1] = bytes;
	h->calls[1] = calls;
	h->ns_per_call = (double)ns / (double)(calls > 0 ? calls : 1);
	if (h->seen < 2)
		h->seen++;
}

void profilebudget_spend(struct profilebudget *b, uint64_t ns)
{
	b->spent_ns += (double)ns;
}

void profilebudget_point_done(struct profilebudget *b, uint64_t point_ns, uint64_t runs_ns)
{
	uint64_t rest = point_ns > runs_ns ? point_ns - runs_ns : 0;

	profilebudget_spend(b, rest);
	b->point_overhead_ns = (double)rest;
}

bool profilebudget_point_allowed(const struct profilebudget *b)
{
	return b->limit_ns <= 0 || b->spent_ns + b->point_overhead_ns <= b->limit_ns;
}

void profilebudget_explain(const struct profilebudget *b, uint32_t pct, char *why, size_t size)
{
	double left = b->limit_ns - b->spent_ns;

	snprintf(why, size,
		 "profile budget: %.1f s spent, %.1f s left of %.1f s (%u %% of %.1f s of timed "
		 "runs)",
		 b->spent_ns / 1e9, left > 0 ? left / 1e9 : 0.0, b->limit_ns / 1e9, pct,
		 pct > 0 ? b->limit_ns * 100.0 / pct / 1e9 : 0.0);
}
