/* runcost: what one run of a subject costs, for the dry run's estimate without a pilot. */
#include "jsonget.h"
#include "jsonbudget.h"
#include "lsq.h"
#include "numarg.h"
#include "resultsfile.h"
#include "runcost.h"

#include <cJSON.h>
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One point of a sweep: its subject (NULL: the reference), its size and one run's time. */
struct runcost_point {
	char *subject;
	double entries, time_s;
};

struct runcost_sweep {
	struct runcost_point *pts;
	size_t n;
};

double runcost_at(const struct runcost *c, double entries)
{
	double t = c->intercept_s + c->slope_s * entries;

	return t > 0 ? t : 0;
}

double runcost_entries(double roles, double users, double tasks, double commands)
{
	return roles * tasks * commands + roles * users;
}

bool runcost_prior(const char *program, struct runcost *out)
{
	/*
	 * Each tool's fitted line of the published seed-tasks run (2-core Debian 12 VM, quiet,
	 * 2026-12-01: its fits.tsv, per task at one role, user and command), first match wins.
	 * A loaded machine runs slower: the plan prints these as a range.
	 */
	static const struct {
		const char *pattern;
		double intercept_ms, slope_us;
	} priors[] = {
	    {"sudo-rs*", 4.55, 7.75},
	    {"sudo-pam*", 4.78, 2.99},
	    {"sudo*", 2.48, 2.32},
	    {"doas-pam*", 3.79, 17.45},
	    {"doas*", 1.51, 17.35},
	    {"dosr-[4-9]*-json", 6.82, 4.61},
	    {"dosr-[4-9]*-cbor", 6.72, 2.30},
	    {"dosr*json", 2.76, 191.7},
	    {"dosr*cbor", 2.60, 2.16},
	    /* please: not in that run; 26-please's sweep (1..1000 tasks, the machine loaded). */
	    {"please*", 2.60, 53.3},
	};
	size_t i;

	out->source = RUNCOST_PRIOR;
	for (i = 0; i < sizeof(priors) / sizeof(priors[0]); i++)
		if (fnmatch(priors[i].pattern, program, 0) == 0) {
			out->intercept_s = priors[i].intercept_ms / 1e3;
			out->slope_s = priors[i].slope_us / 1e6;
			return true;
		}
	/* A tool rarperf does not know: a slow privilege tool's line. */
	out->intercept_s = 5e-3;
	out->slope_s = 20e-6;
	return false;
}

void runcost_reference_prior(unsigned units, struct runcost *out)
{
	/* rarref 10 ran in 2.11 ms on the published run's VM. */
	out->intercept_s = 0.211e-3 * units;
	out->slope_s = 0;
	out->source = RUNCOST_PRIOR;
}

bool runcost_from_facts(const void *tool, struct runcost *out)
{
	const cJSON *c = jsonget_member((const cJSON *)tool, "run_cost");
	const cJSON *a = jsonget_member(c, "intercept_ms");
	const cJSON *b = jsonget_member(c, "slope_us");

	if (!cJSON_IsNumber(a) || !cJSON_IsNumber(b) || !(a->valuedouble >= 0) ||
	    !(b->valuedouble >= 0) || a->valuedouble > 1e6 || b->valuedouble > 1e9)
		return false;
	out->intercept_s = a->valuedouble / 1e3;
	out->slope_s = b->valuedouble / 1e6;
	out->source = RUNCOST_FACTS;
	return true;
}

/* A parameter of entry as a number >= 0 (hyperfine writes them as strings), else 1. */
static double runcost_param(const cJSON *params, const char *key)
{
	const cJSON *v = jsonget_member(params, key);
	double d = NAN;
	const char *end = NULL;

	if (cJSON_IsString(v) && v->valuestring[0] != '\0') {
		(void)numarg_any_double_prefix(v->valuestring, &d, &end);
		if (*end != '\0')
			d = NAN;
	} else if (cJSON_IsNumber(v)) {
		d = v->valuedouble;
	}
	return d >= 0 && d < 1e12 ? d : 1;
}

/* One run's time of a results entry in seconds: the estimate, else the median, else the mean. */
static double runcost_time(const cJSON *e)
{
	const cJSON *est = jsonget_member(jsonget_member(e, "rarbench"), "estimate");
	const char *keys[] = {"median", "mean"};
	size_t i;

	if (cJSON_IsNumber(est) && est->valuedouble > 0 && est->valuedouble < 1e6)
		return est->valuedouble;
	for (i = 0; i < 2; i++) {
		const cJSON *v = jsonget_member(e, keys[i]);

		if (cJSON_IsNumber(v) && v->valuedouble > 0 && v->valuedouble < 1e6)
			return v->valuedouble;
	}
	return -1;
}

/* Appends the points of a results array; subject from parameters (NULL for the reference). */
static int runcost_add(struct runcost_sweep *sw, const cJSON *results, bool reference)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, results)
	{
		const cJSON *params = jsonget_member(e, "parameters");
		const cJSON *subject = jsonget_member(params, "subject");
		double t = runcost_time(e);
		struct runcost_point *p;

		if (sw->n >= RUNCOST_MAX_POINTS)
			return 0;
		if (t < 0 || (!reference && !cJSON_IsString(subject)))
			continue;
		p = &sw->pts[sw->n];
		p->subject = NULL;
		if (!reference && (p->subject = strdup(subject->valuestring)) == NULL)
			return -1;
		p->entries = runcost_entries(
		    runcost_param(params, "nb_roles"), runcost_param(params, "nb_users"),
		    runcost_param(params, "nb_tasks"), runcost_param(params, "nb_commands"));
		p->time_s = t;
		sw->n++;
	}
	return 0;
}

int runcost_sweep_parse(const char *buf, size_t len, struct runcost_sweep **out, struct errbuf *eb)
{
	struct runcost_sweep *sw = NULL;
	/* an earlier sweep's results file: its tree within 4 times its size (jsonbudget.h) */
	struct errbuf big = {{0}};
	bool fits = jsonbudget_check(buf, len, "results file", &big) == 0;
	cJSON *root = fits ? cJSON_ParseWithLength(buf, len) : NULL;
	const cJSON *results = resultsfile_results(root);
	const cJSON *ref = resultsfile_reference_results(root);
	size_t cap;
	int rc = -1;

	*out = NULL;
	if (root == NULL) {
		errbuf_set(eb, "%s", fits ? "not valid JSON" : big.msg);
		goto out;
	}
	if (!cJSON_IsArray(results)) {
		errbuf_set(eb, "no \"results\" array");
		goto out;
	}
	cap = (size_t)cJSON_GetArraySize(results) + (size_t)cJSON_GetArraySize(ref);
	cap = cap < RUNCOST_MAX_POINTS ? cap : RUNCOST_MAX_POINTS;
	sw = calloc(1, sizeof(*sw));
	if (sw == NULL || (sw->pts = calloc(cap + 1, sizeof(*sw->pts))) == NULL ||
	    runcost_add(sw, results, false) < 0 ||
	    (cJSON_IsArray(ref) && runcost_add(sw, ref, true) < 0)) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	*out = sw;
	sw = NULL;
	rc = 0;
out:
	runcost_sweep_free(sw);
	cJSON_Delete(root);
	return rc;
}

bool runcost_sweep_line(const struct runcost_sweep *sw, const char *subject, struct runcost *out)
{
	size_t cap = sw->n ? sw->n : 1, i, n = 0;
	double *x = calloc(cap, sizeof(*x)), *y = calloc(cap, sizeof(*y));
	struct lsq_sums l;
	long double slope, intercept;

	/* Out of memory: no point, no line (the caller falls back to the prior). */
	for (i = 0; x != NULL && y != NULL && i < sw->n; i++) {
		const struct runcost_point *p = &sw->pts[i];

		if (subject == NULL ? p->subject != NULL
				    : p->subject == NULL || strcmp(p->subject, subject) != 0)
			continue;
		x[n] = p->entries;
		y[n++] = p->time_s;
	}
	if (n == 0) {
		free(x);
		free(y);
		return false;
	}
	lsq_fit(x, y, NULL, n, &l);
	free(x);
	free(y);
	/* One size (or sizes too close to tell apart: the spread under 1e-9 of the sum of squares):
	 * the mean, flat. */
	slope = l.sxx > 1e-9L * (l.sxx + (long double)n * l.xbar * l.xbar) ? l.slope : 0;
	slope = slope > 0 ? slope : 0;
	intercept = l.ybar - slope * l.xbar;
	out->slope_s = (double)slope;
	out->intercept_s = intercept > 0 ? (double)intercept : 0;
	out->source = RUNCOST_SWEEP;
	return true;
}

void runcost_sweep_free(struct runcost_sweep *sw)
{
	size_t i;

	if (sw == NULL)
		return;
	for (i = 0; i < sw->n; i++)
		free(sw->pts[i].subject);
	free(sw->pts);
	free(sw);
}
