/* runner_pilot: a dry run's pilot, measured at the sweep's two ends (--pilot). */
#include "runner_pilot.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "measure.h"
#include "runner_point.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

int runner_pilot_measure(const struct runner_subjects *sj, struct runstate *rs,
			 struct runner_guard *guard, struct plan_pilot pilot[2], struct errbuf *eb)
{
	struct measure_bench benches[MANIFEST_SUBJECTS_MAX];
	struct measure_result results[MANIFEST_SUBJECTS_MAX];
	struct measure_opts opts;
	size_t ends[2], e, i, k;
	int rc = 0;
	enum measure_outcome mr;

	plan_pilot_points(sj->plan, &ends[0], &ends[1]);
	for (e = 0; e < 2 && rc == 0; e++) {
		const struct sweep_point *pt = sweep_at(sj->plan->sweep, ends[e]);
		uint64_t t0 = clock_now_ns(), t1, t2;

		pilot[e].point = ends[e];
		if (runner_point_write_policies(sj, pt, eb) < 0) {
			runner_point_stop_daemons(sj);
			return errbuf_prefix(eb, "pilot, point %zu", ends[e] + 1);
		}
		t1 = clock_now_ns();
		rc = runner_point_check_grants(sj, rs, pt, eb) == RUNNER_STEP_OK ? 0 : -1;
		/* A pilot times every subject: one that refused the policy has no time here. */
		for (i = 0; rc == 0 && i < sj->nsubjects; i++)
			if (rs->refused_now[i])
				rc = errbuf_set(
				    eb,
				    "pilot, point %zu: subject %s refused its policy (%s: "
				    "\"%s\"); a sweep records that and goes on, a pilot "
				    "cannot time it",
				    ends[e] + 1, sj->subjects[i].p->ms->id,
				    refusal_class_name(rs->refusal[i].cls), rs->refusal[i].line);
		memset(results, 0, sizeof(results));
		for (i = 0, k = 0; rc == 0 && i < sj->nsubjects; i++) {
			if (sj->subjects[i].p->skip_reason != NULL)
				continue;
			benches[k] = (struct measure_bench){.name = sj->subjects[i].p->ms->id,
							    .cmd = sj->subjects[i].cmd,
							    .group = 0};
			k++;
		}
		if (rc == 0) {
			measure_opts_init(&opts);
			opts.warmup = PLAN_PILOT_WARMUP;
			opts.min_runs = opts.max_runs = PLAN_PILOT_RUNS;
			opts.min_time_ns = 0;
			opts.order = MEASURE_ORDER_INTERLEAVED;
			opts.stop = sj->stop;
			mr = measure_run(benches, k, &opts, results, eb);
			rc = mr == MEASURE_OK ? 0 : -1;
			if (mr == MEASURE_STOPPED)
				errbuf_set(eb, "interrupted");
		}
		/* The median run: a pilot's few runs include the odd slow one (a cold cache). */
		for (k = 0; rc == 0 && k < sj->nactive; k++) {
			uint64_t v[PLAN_PILOT_RUNS];
			size_t m = results[k].n < PLAN_PILOT_RUNS ? results[k].n : PLAN_PILOT_RUNS;

			memcpy(v, results[k].wall_ns, m * sizeof(v[0]));
			qsort(v, m, sizeof(v[0]), cmp_u64);
			pilot[e].run_s[k] = m ? (double)v[m / 2] / 1e9 : 0;
		}
		for (k = 0; k < sj->nactive; k++)
			measure_result_clear(&results[k]);
		/* The step's own cost besides the runs: writing the grant, and the deny-all after.
		 */
		t2 = clock_now_ns();
		runner_point_stop_daemons(sj);
		if (runner_guard_deny(guard, eb) < 0)
			return -1;
		runner_guard_point_end(guard);
		pilot[e].write_s = (double)((t1 - t0) + (clock_now_ns() - t2)) / 1e9;
	}
	return rc;
}
