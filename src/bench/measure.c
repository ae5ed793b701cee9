/* measure: hyperfine's warmup / min-runs / max-runs / min-time loop over several commands, in an
 * order. */
#include "measure.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "contention.h"
#include "growbuf.h"

/* First allocation of a benchmark's sample arrays; they double between runs when needed. */
#define MEASURE_INITIAL_CAP 64
/* The most samples one benchmark's arrays hold: max_runs' cap, its rounds merged included. */
#define MEASURE_SAMPLES_MAX ((size_t)MEASURE_MAX_RUNS_CAP * 4)

struct measure_group {
	const struct measure_bench *benches; /* the whole array */
	struct measure_result *results;
	size_t first, k;
	uint64_t *count; /* planned timing runs per bench of the group */
	uint64_t *cap;   /* precision mode: the most runs each bench may get */
	size_t *order;   /* scratch: bench offsets of one round */
	double *scratch; /* precision mode: 2 x the largest result, for its estimate */
	size_t scratch_cap;
	uint64_t rng; /* splitmix64 state */
	const struct measure_opts *opts;
};

static const char *const measure_order_names[MEASURE_ORDER_COUNT] = {"interleaved", "sequential",
								     "random"};

const char *measure_order_name(enum measure_order o)
{
	return (unsigned)o < MEASURE_ORDER_COUNT ? measure_order_names[o] : "?";
}

int measure_order_parse(const char *s, enum measure_order *o)
{
	for (size_t i = 0; i < MEASURE_ORDER_COUNT; i++)
		if (strcmp(s, measure_order_names[i]) == 0) {
			*o = (enum measure_order)i;
			return 0;
		}
	return -1;
}

void measure_opts_init(struct measure_opts *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->min_runs = MEASURE_DEFAULT_MIN_RUNS;
	opts->min_time_ns = MEASURE_DEFAULT_MIN_TIME_NS;
	opts->order = MEASURE_ORDER_SEQUENTIAL;
	opts->estimator = ESTIMATE_MEDIAN;
	opts->contended = ESTIMATE_CONTENDED_DEFAULT;
}

int measure_opts_validate(const struct measure_opts *opts, struct errbuf *eb)
{
	if (opts->min_runs < 1)
		return errbuf_set(eb, "the minimum number of runs must be at least 1");
	if (opts->max_runs != 0 && opts->min_runs > opts->max_runs)
		return errbuf_set(
		    eb, "the minimum number of runs (%llu) is greater than the maximum (%llu)",
		    (unsigned long long)opts->min_runs, (unsigned long long)opts->max_runs);
	if (opts->min_runs > MEASURE_MAX_RUNS_CAP)
		return errbuf_set(eb, "at most %llu runs per benchmark",
				  (unsigned long long)MEASURE_MAX_RUNS_CAP);
	if (!(opts->precision >= 0 && opts->precision < 1))
		return errbuf_set(eb, "the precision must be between 0 and 100 %%");
	return 0;
}

uint64_t measure_result_wall_sum(const struct measure_result *r)
{
	uint64_t ns = 0;

	for (size_t i = 0; i < r->n; i++)
		ns += r->wall_ns[i];
	return ns;
}

void measure_result_clear(struct measure_result *r)
{
	if (r == NULL)
		return;
	free(r->wall_ns);
	free(r->user_ns);
	free(r->system_ns);
	free(r->exit_codes);
	free(r->nivcsw);
	free(r->stall_ns);
	free(r->ru);
	memset(r, 0, sizeof(*r));
}

/*
 * growarray for one sample array of r, when on: a NULL one (never had, or dropped) starts
 * empty, any other holds r->cap entries. *least becomes the fewest entries any array holds.
 */
static int measure_grow_one(void *array, bool on, size_t elem, const struct measure_result *r,
			    size_t want, size_t *least, struct errbuf *eb)
{
	size_t cap = *(void **)array != NULL ? r->cap : 0;

	if (!on)
		return 0;
	if (growarray(array, &cap, want, elem, MEASURE_SAMPLES_MAX, eb) < 0)
		return -1;
	if (cap < *least)
		*least = cap;
	return 0;
}

/* Makes r's sample arrays (nivcsw, stall_ns and ru only when csw, stall and ru) hold want
 * entries each. */
static int measure_grow(struct measure_result *r, size_t want, bool csw, bool stall, bool ru,
			struct errbuf *eb)
{
	size_t least = SIZE_MAX;

	if (measure_grow_one(&r->wall_ns, true, sizeof(*r->wall_ns), r, want, &least, eb) < 0 ||
	    measure_grow_one(&r->user_ns, true, sizeof(*r->user_ns), r, want, &least, eb) < 0 ||
	    measure_grow_one(&r->system_ns, true, sizeof(*r->system_ns), r, want, &least, eb) < 0 ||
	    measure_grow_one(&r->exit_codes, true, sizeof(*r->exit_codes), r, want, &least, eb) <
		0 ||
	    measure_grow_one(&r->nivcsw, csw, sizeof(*r->nivcsw), r, want, &least, eb) < 0 ||
	    measure_grow_one(&r->stall_ns, stall, sizeof(*r->stall_ns), r, want, &least, eb) < 0 ||
	    measure_grow_one(&r->ru, ru, sizeof(*r->ru), r, want, &least, eb) < 0)
		return errbuf_prefix(eb, "samples");
	r->cap = least;
	return 0;
}

/* Room for want samples in each of r's arrays; a run is recorded next, so one more at least. */
static int measure_reserve(struct measure_result *r, size_t want, struct errbuf *eb)
{
	if (want < r->n + 1)
		want = r->n + 1;
	if (want <= r->cap && r->nivcsw != NULL && r->stall_ns != NULL && r->ru != NULL)
		return 0;
	return measure_grow(r, want, true, true, true, eb);
}

static uint64_t measure_sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

static uint64_t measure_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void measure_shuffle(size_t *v, size_t n, uint64_t *rng)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(measure_rand(rng) % i);
		size_t t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
}

static bool measure_stopped(const struct measure_opts *opts)
{
	return opts->stop != NULL && *opts->stop != 0;
}

static int measure_emit(struct measure_group *g, enum measure_event_kind kind, size_t off,
			uint64_t done, uint64_t total, struct errbuf *eb)
{
	struct measure_event ev;

	if (g->opts->on_event == NULL)
		return 0;
	ev.kind = kind;
	ev.bench = g->first + off;
	ev.group_first = g->first;
	ev.group_count = g->k;
	ev.done = done;
	ev.total = total;
	ev.result = &g->results[g->first + off];
	return g->opts->on_event(g->opts->ctx, &ev, eb) != 0 ? -1 : 0;
}

/* Runs a setup/prepare/cleanup hook; *wall_ns gets its wall time. */
static int measure_hook(struct proc_cmd *hook, const char *what, uint64_t *wall_ns,
			struct errbuf *eb)
{
	struct proc_sample s;

	*wall_ns = 0;
	if (hook == NULL)
		return 0;
	if (proc_run(hook, &s, eb) != 0)
		return errbuf_prefix(eb, "%s command", what);
	if (s.exit_code != 0)
		return errbuf_set(
		    eb,
		    "The %s command terminated with a non-zero exit code (%d). Append "
		    "' || true' to the command if you are sure that this can be ignored.",
		    what, s.exit_code);
	*wall_ns = s.wall_ns;
	return 0;
}

/* One run of the measured command of bench off (prepare first); sample after overhead. */
static enum measure_outcome measure_once(struct measure_group *g, size_t off, uint64_t *prep_ns,
					 struct proc_sample *s, struct errbuf *eb)
{
	const struct measure_bench *b = &g->benches[g->first + off];
	const struct proc_sample *ov = &g->opts->overhead;

	if (measure_hook(b->prepare, "preparation", prep_ns, eb) != 0)
		return MEASURE_FAILED;
	if (measure_stopped(g->opts))
		return MEASURE_STOPPED;
	if (proc_run(b->cmd, s, eb) != 0) {
		errbuf_prefix(eb, "%s", b->name);
		return MEASURE_FAILED;
	}
	if (s->stopped || measure_stopped(g->opts))
		return MEASURE_STOPPED;
	if (s->timed_out && s->launcher_killed) {
		/* Issue 36, finding 6: a child stopped before its exec holds rarlaunch's vfork. */
		errbuf_set(eb,
			   "%s: no answer from rarlaunch within the run's timeout and %u ms (a run "
			   "stopped before its exec?): it and the run were killed",
			   b->name, PROC_LAUNCH_GRACE_MS);
		return MEASURE_TIMEOUT;
	}
	if (s->timed_out) {
		errbuf_set(eb, "%s: a run passed its timeout and was killed with its process group",
			   b->name);
		return MEASURE_TIMEOUT;
	}
	if (s->exit_code != 0 && !g->opts->ignore_failure) {
		if (WIFSIGNALED(s->status)) {
			errbuf_set(eb,
				   "%s: The process has been terminated by a signal (exit code "
				   "%d). Use the '-i'/'--ignore-failure' option if you want to "
				   "ignore this. Alternatively, use the '--show-output' option to "
				   "debug what went wrong.",
				   b->name, s->exit_code);
			return MEASURE_FAILED;
		}
		errbuf_set(eb,
			   "%s: Command terminated with non-zero exit code: %d. Use the "
			   "'-i'/'--ignore-failure' option if you want to ignore this. "
			   "Alternatively, use the '--show-output' option to debug what went "
			   "wrong.",
			   b->name, s->exit_code);
		return MEASURE_FAILED;
	}
	s->wall_ns = measure_sub(s->wall_ns, ov->wall_ns);
	s->user_ns = measure_sub(s->user_ns, ov->user_ns);
	s->system_ns = measure_sub(s->system_ns, ov->system_ns);
	return MEASURE_OK;
}

static void measure_record(struct measure_result *r, const struct proc_sample *s)
{
	r->wall_ns[r->n] = s->wall_ns;
	r->user_ns[r->n] = s->user_ns;
	r->system_ns[r->n] = s->system_ns;
	r->exit_codes[r->n] = s->exit_code;
	r->nivcsw[r->n] = s->nivcsw;
	r->stall_ns[r->n] = s->stall_ns;
	r->ru[r->n] = s->ru;
	if (s->exit_code != 0)
		r->all_succeeded = false;
	r->n++;
}

/* Whether bench i of the group still needs runs. */
static bool measure_pending(const struct measure_group *g, size_t i)
{
	return g->results[g->first + i].n < g->count[i];
}

/* Whether the paced benches of the group may run on: some bench that is not paced still needs
 * runs, or the group has none that is not paced. */
static bool measure_pace_open(const struct measure_group *g)
{
	bool unpaced = false;

	for (size_t i = 0; i < g->k; i++) {
		if (g->benches[g->first + i].paced)
			continue;
		if (measure_pending(g, i))
			return true;
		unpaced = true;
	}
	return !unpaced;
}

/* Fills g->order with the offsets of one round (those still needing runs when pending; a paced
 * bench only while measure_pace_open). */
static size_t measure_round(struct measure_group *g, bool pending_only)
{
	bool paced_ok = !pending_only || measure_pace_open(g);
	size_t m = 0;

	for (size_t i = 0; i < g->k; i++)
		if (!pending_only ||
		    (measure_pending(g, i) && (paced_ok || !g->benches[g->first + i].paced)))
			g->order[m++] = i;
	if (g->opts->order == MEASURE_ORDER_RANDOM)
		measure_shuffle(g->order, m, &g->rng);
	return m;
}

/* hyperfine: runs_in_min_time = min_time / (first run + overhead + prepare), bounded. */
static uint64_t measure_count(const struct measure_opts *opts, const struct proc_sample *first,
			      uint64_t prep_ns, bool has_prepare)
{
	double denom = (double)first->wall_ns + (double)opts->overhead.wall_ns;
	double fit;
	uint64_t count;

	if (has_prepare)
		denom += (double)prep_ns;
	fit = denom > 0 ? (double)opts->min_time_ns / denom : (double)MEASURE_MAX_RUNS_CAP;
	count = fit >= (double)MEASURE_MAX_RUNS_CAP ? MEASURE_MAX_RUNS_CAP : (uint64_t)fit;
	if (count < opts->min_runs)
		count = opts->min_runs;
	if (opts->max_runs != 0 && count > opts->max_runs)
		count = opts->max_runs;
	return count;
}

/*
 * Precision mode, after every planned run: each bench whose estimate misses
 * the target and that may run more gets a batch of n/8 more runs (at least
 * one), so the estimate is recomputed O(log n) times. *total grows with them.
 */
static int measure_extend(struct measure_group *g, uint64_t *total, struct errbuf *eb)
{
	for (size_t i = 0; i < g->k; i++) {
		const struct measure_result *r = &g->results[g->first + i];
		struct estimate e;
		uint64_t more;
		size_t contended;

		if (r->n >= g->cap[i])
			continue;
		if (growarray(&g->scratch, &g->scratch_cap, 2 * r->n, sizeof(*g->scratch),
			      2 * MEASURE_SAMPLES_MAX, eb) < 0)
			return -1;
		if (!contention_estimate(r, g->opts->estimator, g->opts->contended,
					 contention_baseline_ns(r), g->scratch, &e, &contended) &&
		    estimate_meets(&e, g->opts->precision))
			continue;
		more = r->n / 8 > 0 ? r->n / 8 : 1;
		if (more > g->cap[i] - r->n)
			more = g->cap[i] - r->n;
		g->count[i] = r->n + more;
		*total += more;
	}
	return 0;
}

/* Over 80 lines: hyperfine's phases in their order (setup, warmup, the sizing round, timed
 * rounds with the precision extension, cleanup), each a loop that reads best in sequence. */
static enum measure_outcome measure_group_run(struct measure_group *g, struct errbuf *eb)
{
	const struct measure_opts *opts = g->opts;
	struct proc_sample s;
	uint64_t prep_ns, done = 0, total = 0, unused;
	enum measure_outcome rc;

	for (size_t i = 0; i < g->k; i++) {
		g->results[g->first + i].all_succeeded = true;
		if (measure_emit(g, MEASURE_EV_START, i, 0, 0, eb) != 0)
			return MEASURE_FAILED;
	}
	for (size_t i = 0; i < g->k; i++) {
		if (measure_stopped(opts))
			return MEASURE_STOPPED;
		if (measure_hook(g->benches[g->first + i].setup, "setup", &unused, eb) != 0) {
			errbuf_prefix(eb, "%s", g->benches[g->first + i].name);
			return MEASURE_FAILED;
		}
	}
	for (uint64_t w = 0; w < opts->warmup; w++) {
		size_t m = measure_round(g, false);

		for (size_t j = 0; j < m; j++) {
			rc = measure_once(g, g->order[j], &prep_ns, &s, eb);
			if (rc != MEASURE_OK)
				return rc;
			if (measure_emit(g, MEASURE_EV_WARMUP, g->order[j], w * g->k + j + 1,
					 opts->warmup * g->k, eb) != 0)
				return MEASURE_FAILED;
		}
	}
	/* The first timing run of each benchmark sets its run count. */
	{
		size_t m = measure_round(g, false);

		for (size_t j = 0; j < m; j++) {
			size_t off = g->order[j];
			struct measure_result *r = &g->results[g->first + off];

			rc = measure_once(g, off, &prep_ns, &s, eb);
			if (rc != MEASURE_OK)
				return rc;
			g->count[off] = measure_count(opts, &s, prep_ns,
						      g->benches[g->first + off].prepare != NULL);
			if (opts->precision > 0) {
				/* hyperfine's count bounds the runs; min_runs comes first. */
				g->cap[off] = opts->max_runs != 0 ? opts->max_runs : g->count[off];
				g->count[off] =
				    opts->min_runs < g->cap[off] ? opts->min_runs : g->cap[off];
			}
			if (measure_reserve(r,
					    g->count[off] < MEASURE_INITIAL_CAP
						? (size_t)g->count[off]
						: MEASURE_INITIAL_CAP,
					    eb) != 0)
				return MEASURE_FAILED;
			measure_record(r, &s);
			done++;
			if (j + 1 == m)
				for (size_t i = 0; i < g->k; i++)
					total += g->count[i];
			if (measure_emit(g, MEASURE_EV_RUN, off, done, total, eb) != 0)
				return MEASURE_FAILED;
		}
	}
	for (;;) {
		size_t m = measure_round(g, true);

		if (m == 0 && opts->precision > 0) {
			if (measure_extend(g, &total, eb) != 0)
				return MEASURE_FAILED;
			m = measure_round(g, true);
		}
		if (m == 0)
			break;
		for (size_t j = 0; j < m; j++) {
			size_t off = g->order[j];
			struct measure_result *r = &g->results[g->first + off];

			/* Growing happens here, between runs, never inside proc_run. */
			if (measure_reserve(r, r->n + 1, eb) != 0)
				return MEASURE_FAILED;
			rc = measure_once(g, off, &prep_ns, &s, eb);
			if (rc != MEASURE_OK)
				return rc;
			measure_record(r, &s);
			done++;
			if (measure_emit(g, MEASURE_EV_RUN, off, done, total, eb) != 0)
				return MEASURE_FAILED;
		}
	}
	for (size_t i = 0; i < g->k; i++) {
		if (measure_hook(g->benches[g->first + i].cleanup, "cleanup", &unused, eb) != 0) {
			errbuf_prefix(eb, "%s", g->benches[g->first + i].name);
			return MEASURE_FAILED;
		}
		g->results[g->first + i].complete = true;
		if (measure_emit(g, MEASURE_EV_DONE, i, done, total, eb) != 0)
			return MEASURE_FAILED;
	}
	return MEASURE_OK;
}

enum measure_outcome measure_run(const struct measure_bench *benches, size_t n,
				 const struct measure_opts *opts, struct measure_result *results,
				 struct errbuf *eb)
{
	struct measure_group g = {0};
	enum measure_outcome rc = MEASURE_OK;

	if (measure_opts_validate(opts, eb) != 0)
		return MEASURE_FAILED;
	g.benches = benches;
	g.results = results;
	g.opts = opts;
	g.rng = opts->seed;
	g.count = calloc(n ? n : 1, sizeof(*g.count));
	g.cap = calloc(n ? n : 1, sizeof(*g.cap));
	g.order = calloc(n ? n : 1, sizeof(*g.order));
	if (g.count == NULL || g.cap == NULL || g.order == NULL) {
		errbuf_set(eb, "out of memory");
		rc = MEASURE_FAILED;
		goto out;
	}
	for (size_t first = 0; first < n && rc == MEASURE_OK;) {
		size_t k = 1;

		if (opts->order != MEASURE_ORDER_SEQUENTIAL)
			while (first + k < n && benches[first + k].group == benches[first].group)
				k++;
		g.first = first;
		g.k = k;
		if (measure_stopped(opts))
			rc = MEASURE_STOPPED;
		else
			rc = measure_group_run(&g, eb);
		first += k;
	}
out:
	free(g.count);
	free(g.cap);
	free(g.order);
	free(g.scratch);
	return rc;
}

enum measure_outcome measure_calibrate(struct proc_cmd *shell_cmd, unsigned count,
				       const volatile sig_atomic_t *stop, struct proc_sample *out,
				       struct errbuf *eb)
{
	double wall = 0, user = 0, sys = 0;

	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < count; i++) {
		struct proc_sample s;

		if (stop != NULL && *stop)
			return MEASURE_STOPPED;
		if (proc_run(shell_cmd, &s, eb) != 0 || s.exit_code != 0) {
			errbuf_set(eb,
				   "Could not measure shell execution time. Make sure you can "
				   "run '%s -c \"\"'.",
				   proc_cmd_argv(shell_cmd)[0]);
			return MEASURE_FAILED;
		}
		wall += (double)s.wall_ns;
		user += (double)s.user_ns;
		sys += (double)s.system_ns;
	}
	if (count > 0) {
		out->wall_ns = (uint64_t)(wall / count);
		out->user_ns = (uint64_t)(user / count);
		out->system_ns = (uint64_t)(sys / count);
	}
	return MEASURE_OK;
}

/*
 * Appends src's samples to dst's (dst's arrays grow; dst->n changes only on success). The
 * context switches stay known only while every part has them (old journals lack them).
 */
int measure_result_append(struct measure_result *dst, const struct measure_result *src)
{
	size_t n = dst->n + src->n;
	bool first = dst->n == 0;
	bool csw = src->nivcsw != NULL && (dst->n == 0 || dst->nivcsw != NULL);
	bool stall = src->stall_ns != NULL && (first || dst->stall_ns != NULL);
	bool ru = src->ru != NULL && (first || dst->ru != NULL);
	struct errbuf unused; /* the caller says "out of memory" */

	if (measure_grow(dst, n, csw, stall, ru, &unused) < 0)
		return -1;
	if (stall) {
		if (src->n > 0)
			memcpy(dst->stall_ns + dst->n, src->stall_ns,
			       src->n * sizeof(*dst->stall_ns));
	} else {
		free(dst->stall_ns);
		dst->stall_ns = NULL;
	}
	if (csw) {
		if (src->n > 0)
			memcpy(dst->nivcsw + dst->n, src->nivcsw, src->n * sizeof(*dst->nivcsw));
	} else {
		free(dst->nivcsw);
		dst->nivcsw = NULL;
	}
	if (ru) {
		if (src->n > 0)
			memcpy(dst->ru + dst->n, src->ru, src->n * sizeof(*dst->ru));
	} else {
		free(dst->ru);
		dst->ru = NULL;
	}
	if (src->n > 0) {
		memcpy(dst->wall_ns + dst->n, src->wall_ns, src->n * sizeof(*dst->wall_ns));
		memcpy(dst->user_ns + dst->n, src->user_ns, src->n * sizeof(*dst->user_ns));
		memcpy(dst->system_ns + dst->n, src->system_ns, src->n * sizeof(*dst->system_ns));
		memcpy(dst->exit_codes + dst->n, src->exit_codes,
		       src->n * sizeof(*dst->exit_codes));
	}
	dst->n = n;
	dst->complete = true;
	dst->all_succeeded = (first || dst->all_succeeded) && src->all_succeeded;
	return 0;
}
