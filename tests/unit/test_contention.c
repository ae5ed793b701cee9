/* Tests for contention: which runs are contended (off-CPU time over the baseline), the estimate
 * without them, and /proc/stat and /proc/loadavg parsing and windows. */
#include <math.h>
#include <string.h>

#include "contention.h"
#include "harness.h"

/* Ten 1 ms runs with 900 us of CPU each, off-CPU 100 us, except the ones made slow below. */
static uint64_t wall[10], user[10], sys_[10];
static uint32_t csw[10];
static struct measure_result res = {
    .n = 10, .wall_ns = wall, .user_ns = user, .system_ns = sys_, .nivcsw = csw};

static void setup(void)
{
	for (int i = 0; i < 10; i++) {
		wall[i] = 1000000;
		user[i] = 600000;
		sys_[i] = 300000;
		csw[i] = i % 2;
	}
	/* run 3: waited 2 ms for a CPU; run 7: 40 us more off-CPU than the others (within slack) */
	wall[3] = 3000000;
	wall[7] = 1040000;
}

static void test_offcpu_and_baseline(void)
{
	setup();
	CHECK_INT_EQ(contention_offcpu_ns(1000, 700, 400), -100); /* multi-threaded: signed */
	CHECK_INT_EQ(contention_baseline_ns(&res), 100000);
	/* slack: max(50 us, 1 % of the wall time) */
	CHECK(!contention_run_contended(&res, 0, 100000));
	CHECK(!contention_run_contended(&res, 7, 100000));
	CHECK(contention_run_contended(&res, 3, 100000));
	CHECK_INT_EQ(contention_count(&res, 100000), 1);
	/* against a better baseline from earlier rounds, every run here waited */
	CHECK_INT_EQ(contention_count(&res, 0), 10);
	/* five runs were switched out, but only run 3 lost measurable time by it (run 7's 40 us
	 * are within the slack, the others lost nothing) */
	CHECK_INT_EQ(contention_preempted(&res), 1);
	csw[3] =
	    0; /* run 3 waited without being switched out (it was not running yet): not preempted */
	CHECK_INT_EQ(contention_preempted(&res), 0);
	csw[3] = 1;
	res.nivcsw = NULL;
	CHECK_INT_EQ(contention_preempted(&res), 0);
	res.nivcsw = csw;
}

/* With the CPU stall known (schedstat): contended when it exceeds max(200 us, 1 % of the wall
 * time), whatever the off-CPU time; preempted when it lost at least 50 us; corrected by removing
 * it. */
static void test_stall_rule(void)
{
	int64_t stall[10];
	double scratch[20];
	struct estimate e;
	size_t contended;

	setup();
	CHECK(!contention_stall_contended(200000, 1000000)); /* 200 us of 1 ms: the floor */
	CHECK(contention_stall_contended(200001, 1000000));
	CHECK(!contention_stall_contended(300000, 30000000)); /* 1 % of 30 ms */
	CHECK(contention_stall_contended(300001, 30000000));
	CHECK(!contention_stall_contended(0, 0));
	for (int i = 0; i < 10; i++)
		stall[i] = 0;
	/* Run 3's 2 ms off-CPU were a child's wait or I/O, not a wait for a CPU: not contended
	 * (the off-CPU rule flagged it). Run 5 waited 250 us with no more off-CPU time. */
	stall[5] = 250000;
	stall[8] = 60000; /* 60 us: lost something, not enough to matter */
	stall[9] = 5000;  /* 5 us: a wake-up's cost, nothing lost */
	res.stall_ns = stall;
	CHECK(!contention_run_contended(&res, 3, 100000));
	CHECK(contention_run_contended(&res, 5, 100000));
	CHECK_INT_EQ(contention_count(&res, 100000), 1);
	/* The baseline does not matter any more: the stall is judged against zero. */
	CHECK_INT_EQ(contention_count(&res, 0), 1);
	CHECK_INT_EQ(contention_preempted(&res), 2);
	/* Corrected: run 5 counts its wall time without its stall. */
	contention_estimate(&res, ESTIMATE_MEAN, ESTIMATE_CONTENDED_CORRECT, 100000, scratch, &e,
			    &contended);
	CHECK_INT_EQ(contended, 1);
	CHECK(fabs(e.value - (8 * 1000000.0 + 3000000.0 + 1040000.0 - 250000.0) / 10) < 1e-6);
	/* A run whose stall is unknown (-1) falls back to the off-CPU rule, alone. */
	stall[3] = -1;
	CHECK(contention_stall_known(&res, 5) && !contention_stall_known(&res, 3));
	CHECK_INT_EQ(contention_count(&res, 100000), 2);
	res.stall_ns = NULL;
}

static void test_estimate_without_contended(void)
{
	double scratch[20];
	struct estimate e;
	size_t contended;

	setup();
	CHECK(!contention_estimate(&res, ESTIMATE_MEAN, ESTIMATE_CONTENDED_DROP,
				   contention_baseline_ns(&res), scratch, &e, &contended));
	CHECK_INT_EQ(contended, 1);
	CHECK_INT_EQ(e.n, 9);
	CHECK(fabs(e.value - (8 * 1000000.0 + 1040000.0) / 9) < 1e-6);
	contention_estimate(&res, ESTIMATE_MEAN, ESTIMATE_CONTENDED_KEEP,
			    contention_baseline_ns(&res), scratch, &e, &contended);
	CHECK_INT_EQ(contended, 1);
	CHECK_INT_EQ(e.n, 10);
	CHECK(fabs(e.value - (8 * 1000000.0 + 1040000.0 + 3000000.0) / 10) < 1e-6);
	/* corrected: run 3 counts as its 900 us of CPU plus the 100 us baseline */
	CHECK(!contention_estimate(&res, ESTIMATE_MEAN, ESTIMATE_CONTENDED_CORRECT,
				   contention_baseline_ns(&res), scratch, &e, &contended));
	CHECK_INT_EQ(e.n, 10);
	CHECK(fabs(e.value - (9 * 1000000.0 + 1040000.0) / 10) < 1e-6);
	/* fewer than 6 clean runs: dropping falls back to every run as measured */
	CHECK(contention_estimate(&res, ESTIMATE_MEDIAN, ESTIMATE_CONTENDED_DROP, 0, scratch, &e,
				  &contended));
	CHECK_INT_EQ(contended, 10);
	CHECK_INT_EQ(e.n, 10);
}

/* cpu-median: the median of user + system over every run, whatever the treatment; the runs
 * that waited are still counted contended. */
static void test_cpu_median(void)
{
	int64_t stall[10];
	double scratch[20];
	struct estimate e;
	size_t contended;

	setup();
	for (int i = 0; i < 10; i++)
		stall[i] = 0;
	stall[3] = 2000000; /* run 3 waited 2 ms: its wall time, not its CPU time, grew */
	user[5] = 900000;   /* run 5 used 300 us more CPU */
	res.stall_ns = stall;
	for (int t = 0; t < ESTIMATE_CONTENDED_COUNT; t++) {
		bool fell =
		    contention_estimate(&res, ESTIMATE_CPU_MEDIAN, (enum estimate_contended)t,
					100000, scratch, &e, &contended);

		CHECK(!fell);
		CHECK_INT_EQ(contended, 1);
		CHECK_INT_EQ(e.n, 10);
		CHECK(fabs(e.value - 900000.0) < 1e-6);
		/* The median's order-statistic interval over the CPU times: 10 runs give ranks
		 * 2 and 9, i.e. 900 us both (only run 5 differs). */
		CHECK(fabs(e.lo - 900000.0) < 1e-6 && fabs(e.hi - 900000.0) < 1e-6);
	}
	res.stall_ns = NULL;
	user[5] = 600000;
}

static void test_parse_proc(void)
{
	struct contention_host a, b;
	struct contention_window w;

	memset(&a, 0, sizeof(a));
	CHECK_INT_EQ(contention_parse_stat("cpu  100 0 50 800 50 0 0 0 0 0\n"
					   "cpu0 50 0 25 400 25 0 0 0 0 0\nintr 1\n"
					   "procs_running 3\nprocs_blocked 0\n",
					   &a),
		     0);
	CHECK_INT_EQ(a.total_ticks, 1000);
	CHECK_INT_EQ(a.idle_ticks, 850);
	CHECK_INT_EQ(a.steal_ticks, 0);
	CHECK_INT_EQ(a.running, 3);
	CHECK_INT_EQ(contention_parse_loadavg("2.50 1.00 0.50 3/200 1234\n", &a), 0);
	CHECK(fabs(a.load1 - 2.5) < 1e-12);
	memset(&b, 0, sizeof(b));
	/* 1000 ticks later: 500 busy, 100 of them stolen by the hypervisor */
	CHECK_INT_EQ(
	    contention_parse_stat("cpu  500 0 50 1300 50 0 0 100 0 0\nprocs_running 1\n", &b), 0);
	CHECK_INT_EQ(contention_parse_loadavg("0.25 1.00 0.50 1/200 1234", &b), 0);
	contention_window_of(&a, &b, &w);
	CHECK(fabs(w.steal - 0.1) < 1e-12);
	CHECK(fabs(w.busy - 0.5) < 1e-12);
	CHECK(fabs(w.load1 - 0.25) < 1e-12);
	CHECK_INT_EQ(w.running, 1);
	contention_window_of(&b, &b, &w); /* no tick passed */
	CHECK(w.steal == 0 && w.busy == 0);
	CHECK_INT_EQ(contention_parse_stat("intr 1\n", &a), -1);
	CHECK_INT_EQ(contention_parse_stat("cpu  1 2\n", &a), -1);
	CHECK_INT_EQ(contention_parse_loadavg("load", &a), -1);
	CHECK_INT_EQ(contention_parse_loadavg("-1 0 0", &a), -1);
}

static void test_read_host(void)
{
	struct contention_host h;
	struct errbuf eb = {{0}};

	CHECK_INT_EQ(contention_read_host(&h, &eb), 0);
	CHECK(h.total_ticks > 0 && h.load1 >= 0);
}

int main(void)
{
	RUN(test_offcpu_and_baseline);
	RUN(test_stall_rule);
	RUN(test_estimate_without_contended);
	RUN(test_cpu_median);
	RUN(test_parse_proc);
	RUN(test_read_host);
	return HARNESS_EXIT();
}
