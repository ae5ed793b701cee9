/* plan_estimate: the dry run's wall time from the procedure, without a pilot: each step's runs
 * times each subject's cost per run (runcost.h), plus writing the policies and the profile pass. */
#include "plan_estimate.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "jsonget.h"
#include "profilebudget.h"
#include "runcost.h"
#include "runfiles.h"

/* What the estimate reads of the run. */
struct estimate_run {
	const struct plan *p;
	const struct sweep *sweep;
	const char *out; /* the output directory; NULL: none chosen */
};

/* What a step costs besides the runs, per active subject: confgen's files written, renamed and
 * their grant checked, then the deny-all after; and per byte of the point's policies. */
#define PLAN_ESTIMATE_WRITE_S 3e-3
#define PLAN_ESTIMATE_BYTE_S 20e-9
/* Once per sweep: the lock, every policy written deny-all, the results written at the end. */
#define PLAN_ESTIMATE_SETUP_S 1.0
/* A run under strace -f against the same run untraced, low and high (a syscall-bound tool
 * pays most: dosr-json 3.3.4 reads its policy a byte a call). */
#define PLAN_ESTIMATE_TRACE_LO 2.0
#define PLAN_ESTIMATE_TRACE_HI 20.0

double plan_point_entries(const struct sweep_point *pt)
{
	return runcost_entries(pt->value[MANIFEST_AXIS_ROLES], pt->value[MANIFEST_AXIS_USERS],
			       pt->value[MANIFEST_AXIS_TASKS], pt->value[MANIFEST_AXIS_COMMANDS]);
}

double plan_runs_per_round(const struct manifest *m, double t_s)
{
	double min = ceil((double)m->min_runs / m->rounds), runs = min;
	double max = m->max_runs ? ceil((double)m->max_runs / m->rounds) : INFINITY;
	double time_s = (double)m->min_time_ns / 1e9 / m->rounds;

	if (m->precision > 0)
		return min; /* the planned rounds; precision mode may add rounds up to max_runs */
	if (t_s > 0 && time_s / t_s > runs)
		runs = floor(time_s / t_s);
	return runs < max ? runs : max;
}

/* Each active subject's cost per run and the reference's, and where they came from. */
struct estimate_costs {
	struct runcost run[MANIFEST_SUBJECTS_MAX];
	struct runcost ref;
	char sweep_path[PATH_MAX];
};

/* The last sweep in the output directory, or NULL (none there, or not a results file). */
static struct runcost_sweep *estimate_last_sweep(const struct estimate_run *r,
						 struct estimate_costs *c)
{
	struct runcost_sweep *sw = NULL;
	struct errbuf eb = {{0}};
	char *text = NULL;
	size_t len;

	if (r->out == NULL ||
	    fileio_fmt(c->sweep_path, sizeof(c->sweep_path), "%s/" RUNFILES_RESULTS, r->out) < 0 ||
	    access(c->sweep_path, F_OK) != 0)
		return NULL;
	/* Unreadable or not results: the estimate falls back to the priors, it does not fail. */
	if (fileio_read_regular(c->sweep_path, RUNCOST_MAX_BYTES, NULL, &text, &len, &eb) == 0 &&
	    runcost_sweep_parse(text, len, &sw, &eb) != 0)
		sw = NULL;
	free(text);
	return sw;
}

/* facts.json's cost of subject i's tool, else the last sweep's line, else the tool's prior. */
static void estimate_load(const struct estimate_run *r, struct estimate_costs *c)
{
	const cJSON *tools = jsonget_member(r->p->facts, "tools");
	struct runcost_sweep *sw = estimate_last_sweep(r, c);
	size_t i, k;

	for (i = 0, k = 0; i < r->p->nsubjects; i++) {
		const struct plan_subject *s = &r->p->subjects[i];
		const char *base;

		if (s->skip_reason != NULL)
			continue;
		base = strrchr(s->program, '/') != NULL ? strrchr(s->program, '/') + 1 : s->program;
		if (!runcost_from_facts(jsonget_member(tools, base), &c->run[k]) &&
		    (sw == NULL || !runcost_sweep_line(sw, s->ms->id, &c->run[k])))
			runcost_prior(base, &c->run[k]);
		k++;
	}
	if (sw == NULL || !runcost_sweep_line(sw, NULL, &c->ref))
		runcost_reference_prior(r->p->m->reference_units, &c->ref);
	runcost_sweep_free(sw);
}

/* How far a cost may be off, low and high: a measured one by a quarter, a prior by half/double. */
static double estimate_factor(const struct runcost *c, bool high)
{
	if (c->source == RUNCOST_PRIOR)
		return high ? 2.0 : 0.6;
	return high ? 1.3 : 0.8;
}

/* One round of one subject at a point: warmup, the grant check, the runs; t scaled by f. */
static double estimate_round(const struct manifest *m, const struct runcost *c, double entries,
			     double f, bool high)
{
	double t = runcost_at(c, entries) * f;
	double runs = plan_runs_per_round(m, t);

	/* Precision mode may add rounds until max_runs: the high end counts them all. */
	if (high && m->precision > 0 && m->max_runs > 0)
		runs = ceil((double)m->max_runs / m->rounds);
	return (ceil((double)m->warmup / m->rounds) + 1 + runs) * t;
}

/* The sweep's wall time, low and high, in seconds. 0, or -1 (a policy that cannot be sized). */
static int estimate_total(const struct estimate_run *r, const struct estimate_costs *c, double *lo,
			  double *hi, struct errbuf *eb)
{
	const struct manifest *m = r->p->m;
	double timed[2] = {0, 0}, profile[2] = {0, 0}, write = 0;
	struct policy_size_bytes sz;
	size_t i, j, k;

	for (i = 0; i < sweep_count(r->sweep); i++) {
		const struct sweep_point *pt = sweep_at(r->sweep, i);
		double x = plan_point_entries(pt);

		for (j = 0, k = 0; j < r->p->nsubjects; j++) {
			if (r->p->subjects[j].skip_reason != NULL)
				continue;
			if (sweep_point_policy_bytes(m, pt, j, r->p->prefix, &sz, eb) < 0)
				return -1;
			write += m->rounds *
				 (PLAN_ESTIMATE_WRITE_S +
				  PLAN_ESTIMATE_BYTE_S * (double)(sz.policy_bytes + sz.data_bytes));
			for (int h = 0; h < 2; h++) {
				double f = estimate_factor(&c->run[k], h);

				timed[h] += m->rounds * estimate_round(m, &c->run[k], x, f, h);
				if (m->profile)
					profile[h] += (1 + (h ? PLAN_ESTIMATE_TRACE_HI
							      : PLAN_ESTIMATE_TRACE_LO)) *
						      runcost_at(&c->run[k], x) * f;
			}
			k++;
		}
		for (int h = 0; h < 2 && m->reference; h++)
			timed[h] += m->rounds *
				    estimate_round(m, &c->ref, x, estimate_factor(&c->ref, h), h);
	}
	for (int h = 0; h < 2; h++) {
		/* The profile pass stops where it would overrun its budget. */
		if (m->profile && m->profile_budget_pct > 0 &&
		    profile[h] > profilebudget_cap(m->profile_budget_pct, timed[h]))
			profile[h] = profilebudget_cap(m->profile_budget_pct, timed[h]);
	}
	*lo = PLAN_ESTIMATE_SETUP_S + write + timed[0] + profile[0];
	*hi = PLAN_ESTIMATE_SETUP_S + 2 * write + timed[1] + profile[1];
	return 0;
}

/* "40-70 s", "4.2-6.1 min", "12-19 min", "1.5-2.3 h". */
static void estimate_range(double lo, double hi, char *buf, size_t size)
{
	if (hi < 100)
		snprintf(buf, size, "%.0f-%.0f s", lo, hi);
	else if (hi < 600)
		snprintf(buf, size, "%.1f-%.1f min", lo / 60, hi / 60);
	else if (hi < 7200)
		snprintf(buf, size, "%.0f-%.0f min", lo / 60, hi / 60);
	else
		snprintf(buf, size, "%.1f-%.1f h", lo / 3600, hi / 3600);
}

/* The active subjects whose cost came from source, "sudo, doas", into out; how many. */
static size_t estimate_names(const struct estimate_run *r, const struct estimate_costs *c,
			     enum runcost_source source, FILE *out)
{
	size_t i, k, n = 0;

	for (i = 0, k = 0; i < r->p->nsubjects; i++) {
		if (r->p->subjects[i].skip_reason != NULL)
			continue;
		if (c->run[k].source == source)
			fprintf(out, "%s%s", n++ ? ", " : "", r->p->subjects[i].ms->id);
		k++;
	}
	return n;
}

/* Where each cost came from, in words: "from the last sweep in results/quick for sudo, doas; ...".
 */
static void estimate_sources(const struct estimate_run *r, const struct estimate_costs *c,
			     FILE *out)
{
	static const struct {
		enum runcost_source source;
		const char *words;
	} sources[] = {
	    {RUNCOST_FACTS, "from facts.json's per-tool costs"},
	    {RUNCOST_SWEEP, "from the last sweep in "},
	    {RUNCOST_PRIOR, "from built-in per-tool costs (doc/results/2026-12-01-debian12-2core)"},
	};
	bool first = true;

	for (size_t s = 0; s < sizeof(sources) / sizeof(sources[0]); s++) {
		char *names = NULL;
		size_t len = 0, n;
		FILE *mem = open_memstream(&names, &len);

		if (mem == NULL)
			return;
		n = estimate_names(r, c, sources[s].source, mem);
		fclose(mem);
		if (n > 0) {
			fprintf(out, "%s%s", first ? "" : "; ", sources[s].words);
			if (sources[s].source == RUNCOST_SWEEP)
				fputs(r->out, out);
			fprintf(out, " for %s", names);
			first = false;
		}
		free(names);
	}
}

int plan_estimate_print(const struct plan *p, FILE *out, bool after_pilot, struct errbuf *eb)
{
	const struct estimate_run run = {.p = p, .sweep = p->sweep, .out = p->out}, *r = &run;
	struct estimate_costs *c = calloc(1, sizeof(*c));
	char range[64];
	double lo, hi;
	int rc = -1;

	if (c == NULL)
		return errbuf_set(eb, "out of memory");
	estimate_load(r, c);
	if (estimate_total(r, c, &lo, &hi, eb) < 0)
		goto out;
	estimate_range(lo, hi, range, sizeof(range));
	fprintf(
	    out,
	    "%s: about %s (the runs x each subject's cost per run, plus writing the policies%s)\n",
	    after_pilot ? "From the procedure, without the pilot" : "Estimated wall time", range,
	    r->p->m->profile ? " and the profile pass" : "");
	fputs("  cost per run ", out);
	estimate_sources(r, c, out);
	fputs(after_pilot ? "\n" : "; --pilot measures a few runs on this host\n", out);
	rc = 0;
out:
	free(c);
	return rc;
}
