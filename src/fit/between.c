/* between: the between-sweep variation of a comparison, stored and applied (between.h). */
#include "between.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"
#include "numarg.h"

#define BETWEEN_Z95 1.959963984540054

static const struct paired_ratio *used(const struct compare_outcome *o, size_t j)
{
	return o->paired ? &o->q[j].paired : &o->q[j].unpaired;
}

void between_from_sweeps(const struct compare_outcome *per, size_t k, struct between *b)
{
	memset(b, 0, sizeof(*b));
	if (k < 2)
		return;
	b->n = per[0].n_q < BETWEEN_MAX_ROWS ? per[0].n_q : BETWEEN_MAX_ROWS;
	for (size_t j = 0; j < b->n; j++) {
		double m = 0, var = 0, w2 = 0;
		size_t n = 0;

		for (size_t i = 0; i < k; i++) {
			const struct paired_ratio *r = used(&per[i], j);

			if (!(r->value > 0 && r->lo > 0 && r->hi > 0))
				continue;
			m += log(r->value);
			n++;
		}
		memcpy(b->rows[j].name, per[0].q[j].name, COMPARE_NAME_MAX);
		b->rows[j].sweeps = n;
		if (n < 2) {
			b->rows[j].between_log_sd = b->rows[j].within_log_sd = NAN;
			continue;
		}
		m /= (double)n;
		for (size_t i = 0; i < k; i++) {
			const struct paired_ratio *r = used(&per[i], j);
			double w;

			if (!(r->value > 0 && r->lo > 0 && r->hi > 0))
				continue;
			var += (log(r->value) - m) * (log(r->value) - m);
			w = (log(r->hi) - log(r->lo)) / (2 * BETWEEN_Z95);
			w2 += w * w;
		}
		var /= (double)(n - 1);
		w2 /= (double)n;
		b->rows[j].between_log_sd = var > w2 ? sqrt(var - w2) : 0;
		b->rows[j].within_log_sd = sqrt(w2);
	}
}

/* A number in [0, 10) from [s, end) (whole field). 0 or -1. */
static int parse_sd(const char *s, const char *end, double *out)
{
	char tmp[32];
	const char *e = NULL;
	size_t n = (size_t)(end - s);

	if (n == 0 || n >= sizeof(tmp))
		return -1;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	return numarg_any_double_prefix(tmp, out, &e) != NUMARG_OUT_OF_RANGE && e == tmp + n &&
		       *out >= 0 && *out < 10
		   ? 0
		   : -1;
}

/* One row "name\tK\tb\tw" (line without its newline) into r. NULL or what is wrong. */
static const char *parse_row(const char *s, const char *end, struct between_row *r)
{
	const char *f[4], *fe[4], *p = s;
	char tmp[16];
	const char *e = NULL;
	size_t i, n;
	uint64_t k;

	for (i = 0; i < 4; i++) {
		f[i] = p;
		while (p < end && *p != '\t')
			p++;
		fe[i] = p;
		if (i < 3) {
			if (p == end)
				return "expected 4 tab-separated fields";
			p++;
		}
	}
	if (p != end)
		return "expected 4 tab-separated fields";
	n = (size_t)(fe[0] - f[0]);
	if (n == 0 || n >= COMPARE_NAME_MAX)
		return "quantity: empty or too long";
	for (i = 0; i < n; i++)
		if (f[0][i] < 0x20 || f[0][i] > 0x7e)
			return "quantity: not printable ASCII";
	memcpy(r->name, f[0], n);
	r->name[n] = '\0';
	n = (size_t)(fe[1] - f[1]);
	if (n == 0 || n >= sizeof(tmp) || f[1][0] < '0' || f[1][0] > '9')
		return "sweeps: not a count";
	memcpy(tmp, f[1], n);
	tmp[n] = '\0';
	if (numarg_u64_prefix(tmp, 10, &k, &e) == NUMARG_OUT_OF_RANGE || e != tmp + n || k < 2 ||
	    k > COMPARE_MAX_SWEEPS)
		return "sweeps: not a count from 2 to 64";
	r->sweeps = k;
	if (parse_sd(f[2], fe[2], &r->between_log_sd) < 0)
		return "between_log_sd: not a number from 0 to 10";
	if (parse_sd(f[3], fe[3], &r->within_log_sd) < 0)
		return "within_log_sd: not a number from 0 to 10";
	return NULL;
}

int between_parse(const char *buf, size_t len, const char *name, struct between *b,
		  struct errbuf *eb)
{
	const char *p = buf, *end = buf + len;
	size_t line = 0;
	bool header = false;

	memset(b, 0, sizeof(*b));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *le = nl ? nl : end;
		const char *why;

		line++;
		if (le > p && le[-1] == '\r')
			le--;
		if (le > p && *p == '#') {
			/* a comment */
		} else if (!header) {
			if ((size_t)(le - p) != strlen(BETWEEN_HEADER) ||
			    memcmp(p, BETWEEN_HEADER, (size_t)(le - p)) != 0)
				return errbuf_set(eb, "%s:%zu: expected the header \"%s\"", name,
						  line,
						  "quantity, sweeps, between_log_sd, "
						  "within_log_sd");
			header = true;
		} else if (le > p) {
			if (b->n == BETWEEN_MAX_ROWS)
				return errbuf_set(eb, "%s:%zu: more than %d quantities", name, line,
						  BETWEEN_MAX_ROWS);
			if ((why = parse_row(p, le, &b->rows[b->n])) != NULL)
				return errbuf_set(eb, "%s:%zu: %s", name, line, why);
			for (size_t j = 0; j < b->n; j++)
				if (strcmp(b->rows[j].name, b->rows[b->n].name) == 0)
					return errbuf_set(eb, "%s:%zu: quantity listed twice", name,
							  line);
			b->n++;
		}
		p = nl ? nl + 1 : end;
	}
	if (!header)
		return errbuf_set(eb, "%s: no header (an empty file?)", name);
	return 0;
}

size_t between_sweeps_needed(double spread, double noise)
{
	if (!(spread >= 0) || sinh(BETWEEN_Z95 * spread) > noise)
		return BETWEEN_NEVER;
	for (size_t k = 2; k <= BETWEEN_MAX_NEEDED; k++)
		if (sinh(fit_t95(k - 1) * spread) <= noise)
			return k;
	return BETWEEN_NEVER;
}

size_t between_widen(struct compare_outcome *out, const struct between *b, double noise)
{
	size_t widened = 0;

	if (!out->paired)
		return 0;
	out->regressed = out->improved = out->inconclusive = false;
	for (size_t j = 0; j < out->n_q; j++) {
		struct compare_quantity *q = &out->q[j];
		const struct between_row *r = NULL;
		double v = q->paired.value, h, s;

		for (size_t i = 0; i < b->n && r == NULL; i++)
			if (strcmp(b->rows[i].name, q->name) == 0)
				r = &b->rows[i];
		if (r != NULL && v > 0 && q->paired.lo > 0 && q->paired.hi > 0) {
			q->within = q->paired;
			h = (log(q->paired.hi) - log(q->paired.lo)) / (2 * BETWEEN_Z95);
			s = sqrt(2 * h * h + 2 * r->between_log_sd * r->between_log_sd);
			q->needed = between_sweeps_needed(s, noise);
			q->between_k = r->sweeps;
			s *= fit_t95(r->sweeps - 1);
			q->paired.lo = v * exp(-s);
			q->paired.hi = v * exp(s);
			q->verdict = verdict_judge(&q->paired, noise);
			q->widened = true;
			if (out->widened == 0 || r->sweeps < out->widened)
				out->widened = r->sweeps;
			widened++;
		}
		out->regressed |= q->verdict == VERDICT_REGRESSED;
		out->improved |= q->verdict == VERDICT_IMPROVED;
		out->inconclusive |=
		    q->verdict == VERDICT_INCONCLUSIVE || q->verdict == VERDICT_UNKNOWN;
	}
	return widened;
}
