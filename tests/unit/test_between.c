/* test_between: the between-sweep variation (between.tsv): measured, written, parsed, applied. */
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "between.h"
#include "between_file.h"
#include "fit.h"
#include "harness.h"

/* A paired outcome with one quantity "slope": value v, interval v exp(-/+ 1.96 w). */
static void outcome(struct compare_outcome *o, double v, double w)
{
	memset(o, 0, sizeof(*o));
	o->paired = true;
	o->n_q = 1;
	snprintf(o->q[0].name, sizeof(o->q[0].name), "slope");
	o->q[0].paired = (struct paired_ratio){v, v * exp(-1.959963984540054 * w),
					       v * exp(1.959963984540054 * w)};
}

/* Three sweeps: ln ratios -0.1, 0, 0.1 (variance 0.01), each within sd 0.05 (0.0025). */
static void test_from_sweeps(void)
{
	struct compare_outcome per[3];
	struct between b;

	outcome(&per[0], exp(-0.1), 0.05);
	outcome(&per[1], 1.0, 0.05);
	outcome(&per[2], exp(0.1), 0.05);
	between_from_sweeps(per, 3, &b);
	CHECK_INT_EQ((int)b.n, 1);
	CHECK_STR_EQ(b.rows[0].name, "slope");
	CHECK_INT_EQ((int)b.rows[0].sweeps, 3);
	CHECK(fabs(b.rows[0].within_log_sd - 0.05) < 1e-9);
	CHECK(fabs(b.rows[0].between_log_sd - sqrt(0.01 - 0.0025)) < 1e-9);
	/* Sweeps that agree better than their intervals say: no between part. */
	outcome(&per[0], 0.99, 0.05);
	outcome(&per[1], 1.0, 0.05);
	outcome(&per[2], 1.01, 0.05);
	between_from_sweeps(per, 3, &b);
	CHECK(b.rows[0].between_log_sd == 0);
}

/* Written, read back the same; the widened interval is the formula's. */
static void test_round_trip_and_widen(void)
{
	char path[] = "/tmp/test_between.XXXXXX";
	struct compare_outcome per[3], one;
	struct between b, back;
	struct errbuf eb = {{0}};
	double s;
	int fd = mkostemp(path, O_CLOEXEC);

	CHECK(fd >= 0);
	close(fd);
	outcome(&per[0], exp(-0.1), 0.05);
	outcome(&per[1], 1.0, 0.05);
	outcome(&per[2], exp(0.1), 0.05);
	between_from_sweeps(per, 3, &b);
	CHECK_INT_EQ(between_write(&b, "test\tover 3 sweeps", path, &eb), 0);
	CHECK_INT_EQ(between_load(path, &back, &eb), 0);
	unlink(path);
	CHECK_INT_EQ((int)back.n, 1);
	CHECK(fabs(back.rows[0].between_log_sd - b.rows[0].between_log_sd) < 1e-6);
	outcome(&one, 0.9, 0.01);
	CHECK_INT_EQ((int)between_widen(&one, &back, 0.02), 1);
	CHECK(one.q[0].widened);
	CHECK_INT_EQ((int)one.widened, 3);
	CHECK(fabs(one.q[0].within.lo - 0.9 * exp(-1.959963984540054 * 0.01)) < 1e-12);
	s = fit_t95(2) *
	    sqrt(2 * 0.01 * 0.01 + 2 * back.rows[0].between_log_sd * back.rows[0].between_log_sd);
	CHECK(fabs(one.q[0].paired.lo - 0.9 * exp(-s)) < 1e-6);
	CHECK(fabs(one.q[0].paired.hi - 0.9 * exp(s)) < 1e-6);
	/* -10 %, an interval for the next sweep reaching across -2 %: inconclusive (it said "no
	 * change" before issue 46). */
	CHECK(one.q[0].paired.lo < 0.98 && one.q[0].paired.hi > 0.98);
	CHECK(one.q[0].verdict == VERDICT_INCONCLUSIVE);
	CHECK(one.inconclusive && !one.regressed && !one.improved);
	CHECK_INT_EQ((int)one.q[0].between_k, 3);
	CHECK(one.q[0].needed == between_sweeps_needed(s / fit_t95(2), 0.02));
	/* An unpaired comparison is left alone. */
	outcome(&one, 0.9, 0.01);
	one.paired = false;
	CHECK_INT_EQ((int)between_widen(&one, &back, 0.02), 0);
	CHECK(!one.q[0].widened);
}

/* How many sweeps a between.tsv needs for a gate at the threshold, or that none would do. */
static void test_sweeps_needed(void)
{
	size_t k = between_sweeps_needed(0.01, 0.02);

	/* 1.96 x 0.01 fits within 2 %; t(K-1) x 0.01 does from some K on: the first such K. */
	CHECK(k >= 3 && k != BETWEEN_NEVER);
	if (k >= 3 && k != BETWEEN_NEVER) {
		CHECK(sinh(fit_t95(k - 1) * 0.01) <= 0.02);
		CHECK(sinh(fit_t95(k - 2) * 0.01) > 0.02);
	}
	CHECK_INT_EQ((int)between_sweeps_needed(0.0, 0.02), 2);
	CHECK_INT_EQ((int)between_sweeps_needed(0.001, 0.02), 2);
	/* The gate, [-21 %, +19 %] from 3 sweeps: log half-width 0.18 / t(2); at any K
	 * the half-width stays above 2 %: no number of sweeps. */
	CHECK(between_sweeps_needed(0.18 / fit_t95(2), 0.02) == BETWEEN_NEVER);
	CHECK(between_sweeps_needed(NAN, 0.02) == BETWEEN_NEVER);
}

static void test_parse_errors(void)
{
	struct between b;
	struct errbuf eb = {{0}};
	const char *ok = "# c\nquantity\tsweeps\tbetween_log_sd\twithin_log_sd\n"
			 "slope\t3\t0.02\t0.01\nintercept\t3\t0\t0.01\n";
	const char *bad[][2] = {
	    {"", "no header"},
	    {"x\n", ":1: expected the header"},
	    {"quantity\tsweeps\tbetween_log_sd\twithin_log_sd\nslope\t3\t0.02\n", ":2: expected 4"},
	    {"quantity\tsweeps\tbetween_log_sd\twithin_log_sd\nslope\t1\t0.02\t0.1\n", "sweeps"},
	    {"quantity\tsweeps\tbetween_log_sd\twithin_log_sd\nslope\t3\t-1\t0.1\n",
	     "between_log_sd"},
	    {"quantity\tsweeps\tbetween_log_sd\twithin_log_sd\nslope\t3\t0.1\tnan\n",
	     "within_log_sd"},
	    {"quantity\tsweeps\tbetween_log_sd\twithin_log_sd\nslope\t3\t0.1\t0.1\n"
	     "slope\t3\t0.1\t0.1\n",
	     ":3: quantity listed twice"},
	    {"quantity\tsweeps\tbetween_log_sd\twithin_log_sd\n\t3\t0.1\t0.1\n", "empty"},
	};

	CHECK_INT_EQ(between_parse(ok, strlen(ok), "b.tsv", &b, &eb), 0);
	CHECK_INT_EQ((int)b.n, 2);
	CHECK(b.rows[1].between_log_sd == 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_INT_EQ(between_parse(bad[i][0], strlen(bad[i][0]), "b.tsv", &b, &eb), -1);
		CHECK(strncmp(eb.msg, "b.tsv", 5) == 0);
		CHECK(strstr(eb.msg, bad[i][1]) != NULL);
	}
}

int main(void)
{
	RUN(test_from_sweeps);
	RUN(test_round_trip_and_widen);
	RUN(test_parse_errors);
	RUN(test_sweeps_needed);
	return HARNESS_EXIT();
}
