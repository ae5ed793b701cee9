/* Tests for measure: run counts, orders, hooks, failures and stopping, with real commands. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"
#include "measure.h"

static char dir[] = "/tmp/rarperf-test-measure-XXXXXX";
static char logpath[256];

/* A command appending TAG to the log file. */
static struct proc_cmd *logger(const char *tag)
{
	char script[512];
	char *argv[] = {"sh", "-c", script, NULL};
	struct proc_opts o = {0};
	struct errbuf eb = {{0}};

	snprintf(script, sizeof(script), "printf '%s' >> '%s'", tag, logpath);
	o.stdin_null = true;
	return proc_cmd_new(argv, &o, &eb);
}

static struct proc_cmd *cmd_sh(const char *script)
{
	char *argv[] = {"sh", "-c", (char *)script, NULL};
	struct proc_opts o = {0};
	struct errbuf eb = {{0}};

	return proc_cmd_new(argv, &o, &eb);
}

static void read_log(char *buf, size_t len)
{
	int fd = open(logpath, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, len - 1) : 0;

	buf[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
	unlink(logpath);
}

static void free_all(struct measure_bench *b, size_t n, struct measure_result *r)
{
	for (size_t i = 0; i < n; i++) {
		proc_cmd_free(b[i].cmd);
		proc_cmd_free(b[i].setup);
		proc_cmd_free(b[i].prepare);
		proc_cmd_free(b[i].cleanup);
		measure_result_clear(&r[i]);
	}
}

static void test_hooks_and_runs(void)
{
	struct measure_bench b[1] = {{0}};
	struct measure_result r[1] = {{0}};
	struct measure_opts o;
	struct errbuf eb = {{0}};
	char log[256];

	b[0].name = "X";
	b[0].cmd = logger("X");
	b[0].setup = logger("S");
	b[0].prepare = logger("P");
	b[0].cleanup = logger("C");
	measure_opts_init(&o);
	o.warmup = 1;
	o.min_runs = o.max_runs = 2;
	CHECK_INT_EQ(measure_run(b, 1, &o, r, &eb), MEASURE_OK);
	read_log(log, sizeof(log));
	CHECK_STR_EQ(log, "SPXPXPXC");
	CHECK_INT_EQ(r[0].n, 2);
	CHECK(r[0].complete);
	CHECK(r[0].all_succeeded);
	free_all(b, 1, r);
}

static void test_min_time_bounds_run_count(void)
{
	struct measure_bench b[1] = {{0}};
	struct measure_result r[1] = {{0}};
	struct measure_opts o;
	struct errbuf eb = {{0}};
	char *argv[] = {"sleep", "0.01", NULL};
	struct proc_opts po = {0};

	b[0].name = "sleep";
	b[0].cmd = proc_cmd_new(argv, &po, &eb);
	measure_opts_init(&o);
	o.min_runs = 2;
	o.min_time_ns = 60000000ULL; /* ~6 runs of 10 ms fit; a slow machine fits fewer */
	CHECK_INT_EQ(measure_run(b, 1, &o, r, &eb), MEASURE_OK);
	CHECK(r[0].n >= 2);
	CHECK(r[0].n <= 6);
	for (size_t i = 0; i < r[0].n; i++)
		CHECK(r[0].wall_ns[i] >= 10000000ULL);
	free_all(b, 1, r);
	/* max_runs caps what min_time asks for. */
	b[0].cmd = cmd_sh("true");
	o.min_runs = 1;
	o.max_runs = 3;
	o.min_time_ns = 10000000000ULL;
	CHECK_INT_EQ(measure_run(b, 1, &o, r, &eb), MEASURE_OK);
	CHECK_INT_EQ(r[0].n, 3);
	free_all(b, 1, r);
}

static void run_order(enum measure_order order, uint64_t seed, char *log, size_t len)
{
	struct measure_bench b[3] = {{0}};
	struct measure_result r[3] = {{0}};
	struct measure_opts o;
	struct errbuf eb = {{0}};

	b[0].name = "A";
	b[0].cmd = logger("A");
	b[1].name = "B";
	b[1].cmd = logger("B");
	b[2].name = "C";
	b[2].cmd = logger("C");
	b[2].group = 1; /* another parameter combination */
	measure_opts_init(&o);
	o.order = order;
	o.seed = seed;
	o.min_runs = o.max_runs = 4;
	CHECK_INT_EQ(measure_run(b, 3, &o, r, &eb), MEASURE_OK);
	for (int i = 0; i < 3; i++)
		CHECK_INT_EQ(r[i].n, 4);
	read_log(log, len);
	free_all(b, 3, r);
}

static void test_orders(void)
{
	char log[64], log2[64];

	run_order(MEASURE_ORDER_SEQUENTIAL, 0, log, sizeof(log));
	CHECK_STR_EQ(log, "AAAABBBBCCCC");
	run_order(MEASURE_ORDER_INTERLEAVED, 0, log, sizeof(log));
	CHECK_STR_EQ(log, "ABABABABCCCC");
	run_order(MEASURE_ORDER_RANDOM, 42, log, sizeof(log));
	run_order(MEASURE_ORDER_RANDOM, 42, log2, sizeof(log2));
	CHECK_STR_EQ(log, log2); /* same seed, same order */
	CHECK_INT_EQ(strlen(log), 12);
	/* Each block of two holds one A and one B; the group boundary is kept. */
	for (int i = 0; i < 8; i += 2)
		CHECK(log[i] != log[i + 1]);
	CHECK_STR_EQ(log + 8, "CCCC");
}

/* A paced bench runs only beside another: A (50 ms) fits 2 runs in min_time, R (fast) asks for
 * many and gets 2, each after A's; a group of paced benches alone runs in full (issue 43, item 5).
 */
static void test_paced_runs_beside_another(void)
{
	struct measure_bench b[3] = {{0}};
	struct measure_result r[3] = {{0}};
	struct measure_opts o;
	struct errbuf eb = {{0}};
	char log[64], slow[512];

	snprintf(slow, sizeof(slow), "sleep 0.05; printf A >> '%s'", logpath);
	b[0].name = "A";
	b[0].cmd = cmd_sh(slow);
	b[1].name = "R";
	b[1].cmd = logger("R");
	b[1].paced = true;
	b[2].name = "S";
	b[2].cmd = logger("S");
	b[2].paced = true;
	b[2].group = 1; /* alone in its group: paced by nothing */
	measure_opts_init(&o);
	o.order = MEASURE_ORDER_INTERLEAVED;
	o.min_runs = 2;
	o.max_runs = 0;
	o.min_time_ns = 100000000ULL;
	CHECK_INT_EQ(measure_run(b, 2, &o, r, &eb), MEASURE_OK);
	CHECK_INT_EQ(r[0].n, 2);
	CHECK_INT_EQ(r[1].n, 2);
	read_log(log, sizeof(log));
	CHECK_STR_EQ(log, "ARAR");
	free_all(b, 2, r);
	/* With equal counts nothing changes; alone in its group, S runs all its own. */
	b[0].cmd = logger("A");
	b[1].cmd = logger("R");
	o.min_runs = 3;
	o.max_runs = 3;
	CHECK_INT_EQ(measure_run(b, 3, &o, r, &eb), MEASURE_OK);
	CHECK_INT_EQ(r[1].n, 3);
	CHECK_INT_EQ(r[2].n, 3);
	read_log(log, sizeof(log));
	CHECK_STR_EQ(log, "ARARARSSS");
	free_all(b, 3, r);
}

static void test_random_actually_shuffles(void)
{
	char log[64];
	bool differs = false;

	/* Some seed among a few must produce a block starting with B. */
	for (uint64_t seed = 1; seed < 8 && !differs; seed++) {
		run_order(MEASURE_ORDER_RANDOM, seed, log, sizeof(log));
		for (int i = 0; i < 8; i += 2)
			if (log[i] == 'B')
				differs = true;
	}
	CHECK(differs);
}

static void test_failure(void)
{
	struct measure_bench b[1] = {{0}};
	struct measure_result r[1] = {{0}};
	struct measure_opts o;
	struct errbuf eb = {{0}};

	b[0].name = "exit3";
	b[0].cmd = cmd_sh("exit 3");
	measure_opts_init(&o);
	o.min_runs = o.max_runs = 2;
	CHECK_INT_EQ(measure_run(b, 1, &o, r, &eb), MEASURE_FAILED);
	CHECK(strstr(eb.msg, "Command terminated with non-zero exit code: 3") != NULL);
	CHECK(!r[0].complete);
	measure_result_clear(&r[0]);
	o.ignore_failure = true;
	CHECK_INT_EQ(measure_run(b, 1, &o, r, &eb), MEASURE_OK);
	CHECK_INT_EQ(r[0].n, 2);
	CHECK_INT_EQ(r[0].exit_codes[1], 3);
	CHECK(!r[0].all_succeeded);
	free_all(b, 1, r);
	/* A failing hook is always an error. */
	b[0].cmd = cmd_sh("true");
	b[0].setup = cmd_sh("exit 1");
	o.ignore_failure = true;
	CHECK_INT_EQ(measure_run(b, 1, &o, r, &eb), MEASURE_FAILED);
	CHECK(strstr(eb.msg, "setup command terminated") != NULL);
	free_all(b, 1, r);
}

static volatile sig_atomic_t stop_flag;

static int stop_after_two(void *ctx, const struct measure_event *ev, struct errbuf *eb)
{
	(void)ctx;
	(void)eb;
	if (ev->kind == MEASURE_EV_RUN && ev->result->n == 2)
		stop_flag = 1;
	return 0;
}

static int fail_on_done(void *ctx, const struct measure_event *ev, struct errbuf *eb)
{
	int *dones = ctx;

	if (ev->kind == MEASURE_EV_DONE && ++*dones == 1)
		return errbuf_set(eb, "export failed");
	return 0;
}

static void test_stop_and_callback_error(void)
{
	struct measure_bench b[2] = {{0}};
	struct measure_result r[2] = {{0}};
	struct measure_opts o;
	struct errbuf eb = {{0}};
	int dones = 0;

	b[0].name = "t0";
	b[0].cmd = cmd_sh("true");
	b[1].name = "t1";
	b[1].cmd = cmd_sh("true");
	measure_opts_init(&o);
	o.min_runs = o.max_runs = 5;
	o.stop = &stop_flag;
	o.on_event = stop_after_two;
	CHECK_INT_EQ(measure_run(b, 2, &o, r, &eb), MEASURE_STOPPED);
	CHECK_INT_EQ(r[0].n, 2);
	CHECK(!r[0].complete);
	CHECK_INT_EQ(r[1].n, 0);
	measure_result_clear(&r[0]);
	measure_result_clear(&r[1]);
	stop_flag = 0;
	o.stop = NULL;
	o.on_event = fail_on_done;
	o.ctx = &dones;
	CHECK_INT_EQ(measure_run(b, 2, &o, r, &eb), MEASURE_FAILED);
	CHECK_STR_EQ(eb.msg, "export failed");
	CHECK(r[0].complete);
	CHECK(!r[1].complete);
	free_all(b, 2, r);
}

static void test_overhead_subtraction_and_calibrate(void)
{
	struct measure_bench b[1] = {{0}};
	struct measure_result r[1] = {{0}};
	struct measure_opts o;
	struct errbuf eb = {{0}};
	struct proc_sample ov;
	char *argv[] = {"sh", "-c", "", NULL};
	struct proc_opts po = {0};
	struct proc_cmd *sh = proc_cmd_new(argv, &po, &eb);

	CHECK_INT_EQ(measure_calibrate(sh, 5, NULL, &ov, &eb), MEASURE_OK);
	CHECK(ov.wall_ns > 0);
	proc_cmd_free(sh);
	b[0].name = "true";
	b[0].cmd = cmd_sh("true");
	measure_opts_init(&o);
	o.min_runs = o.max_runs = 2;
	o.overhead.wall_ns = 60ULL * 1000000000ULL; /* larger than any run: clamps to 0 */
	CHECK_INT_EQ(measure_run(b, 1, &o, r, &eb), MEASURE_OK);
	CHECK_INT_EQ(r[0].wall_ns[0], 0);
	CHECK_INT_EQ(r[0].wall_ns[1], 0);
	free_all(b, 1, r);
}

/* Precision mode: a steady command stops soon after min_runs; an impossible target runs to the
 * bound; every run records its context switches. */
static void test_precision_stops(void)
{
	struct measure_bench b[2] = {{0}};
	struct measure_result r[2] = {{0}};
	struct measure_opts o;
	struct errbuf eb = {{0}};
	char *argv[] = {"sleep", "0.005", NULL};
	struct proc_opts po = {0};

	/* sleep 5 ms: its median is known within 50 % from the first few runs */
	b[0].name = "sleep";
	b[0].cmd = proc_cmd_new(argv, &po, &eb);
	measure_opts_init(&o);
	o.min_runs = 6;
	o.max_runs = 200;
	o.precision = 0.5;
	CHECK_INT_EQ(measure_run(b, 1, &o, r, &eb), MEASURE_OK);
	CHECK(r[0].n >= 6 && r[0].n < 200);
	CHECK(r[0].nivcsw != NULL);
	free_all(b, 1, r);
	/* 1e-9 is never met: both commands, interleaved, stop at max_runs */
	b[0].cmd = cmd_sh("true");
	b[1].cmd = cmd_sh("true");
	b[0].group = b[1].group = 0;
	o.order = MEASURE_ORDER_INTERLEAVED;
	o.min_runs = 3;
	o.max_runs = 20;
	o.precision = 1e-9;
	CHECK_INT_EQ(measure_run(b, 2, &o, r, &eb), MEASURE_OK);
	CHECK_INT_EQ(r[0].n, 20);
	CHECK_INT_EQ(r[1].n, 20);
	free_all(b, 2, r);
	/* without max_runs, hyperfine's time rule bounds it: 50 ms of `true` */
	b[0].cmd = cmd_sh("true");
	o.max_runs = 0;
	o.min_time_ns = 50000000ULL;
	CHECK_INT_EQ(measure_run(b, 1, &o, r, &eb), MEASURE_OK);
	CHECK(r[0].n >= 3 && r[0].n < 2000);
	free_all(b, 1, r);
	o.precision = 1.5;
	CHECK_INT_EQ(measure_opts_validate(&o, &eb), -1);
}

static void test_validate(void)
{
	struct measure_opts o;
	struct errbuf eb = {{0}};

	measure_opts_init(&o);
	CHECK_INT_EQ(measure_opts_validate(&o, &eb), 0);
	o.min_runs = 5;
	o.max_runs = 3;
	CHECK_INT_EQ(measure_opts_validate(&o, &eb), -1);
	o.min_runs = 0;
	o.max_runs = 0;
	CHECK_INT_EQ(measure_opts_validate(&o, &eb), -1);
	measure_result_clear(NULL);
}

int main(void)
{
	/* Runs start from rarlaunch; the suite runs from the top of the tree (tests/run.sh). */
	if (proc_set_launcher("bin/rarlaunch", &(struct errbuf){{0}}) != 0) {
		fprintf(stderr, "bin/rarlaunch missing: make bin/rarlaunch\n");
		return 1;
	}
	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(logpath, sizeof(logpath), "%s/log", dir);
	RUN(test_hooks_and_runs);
	RUN(test_min_time_bounds_run_count);
	RUN(test_orders);
	RUN(test_random_actually_shuffles);
	RUN(test_paced_runs_beside_another);
	RUN(test_failure);
	RUN(test_stop_and_callback_error);
	RUN(test_overhead_subtraction_and_calibrate);
	RUN(test_precision_stops);
	RUN(test_validate);
	rmdir(dir);
	return HARNESS_EXIT();
}
