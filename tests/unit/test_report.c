/* Tests for report: hyperfine's summary lines, warnings and comparison, byte for byte. */
#include <stdlib.h>

#include "harness.h"
#include "report.h"

static uint64_t wall_a[] = {1000000, 3000000, 2000000}, user_a[] = {500000, 500000, 500000},
		sys_a[] = {0, 0, 0};
static int codes_a[] = {0, 0, 3};
static uint64_t wall_b[] = {4000000, 4000000, 4000000}, zero_b[] = {0, 0, 0};
static int codes_b[] = {0, 0, 0};

static void test_summary_and_comparison(void)
{
	struct measure_result r[2] = {
	    {.n = 3,
	     .wall_ns = wall_a,
	     .user_ns = user_a,
	     .system_ns = sys_a,
	     .exit_codes = codes_a,
	     .all_succeeded = false,
	     .complete = true},
	    {.n = 3,
	     .wall_ns = wall_b,
	     .user_ns = zero_b,
	     .system_ns = zero_b,
	     .exit_codes = codes_b,
	     .all_succeeded = true,
	     .complete = true},
	};
	const char *names[] = {"fast", "slow"};
	char *out = NULL, *err = NULL;
	size_t out_len = 0, err_len = 0;
	FILE *fo = open_memstream(&out, &out_len), *fe = open_memstream(&err, &err_len);
	struct report *rep = report_new(fo, fe, REPORT_STYLE_BASIC, NULL);
	struct measure_event ev = {0};

	CHECK(rep != NULL);
	if (rep == NULL)
		return;
	for (size_t i = 0; i < 2; i++) {
		ev.bench = i;
		ev.group_first = i;
		ev.group_count = 1;
		ev.result = &r[i];
		ev.kind = MEASURE_EV_START;
		report_event(rep, &ev, names, false);
		ev.kind = MEASURE_EV_RUN;
		report_event(rep, &ev, names, false);
		ev.kind = MEASURE_EV_DONE;
		report_event(rep, &ev, names, false);
	}
	report_comparison(rep, names, r, 2);
	report_free(rep);
	fclose(fo);
	fclose(fe);
	CHECK_STR_EQ(
	    out, "Benchmark 1: fast\n"
		 "  Time (mean ± σ):       2.0 ms ±   1.0 ms    [User: 0.5 ms, System: 0.0 ms]\n"
		 "  Range (min … max):     1.0 ms …   3.0 ms    3 runs\n"
		 " \n"
		 "Benchmark 2: slow\n"
		 "  Time (mean ± σ):       4.0 ms ±   0.0 ms    [User: 0.0 ms, System: 0.0 ms]\n"
		 "  Range (min … max):     4.0 ms …   4.0 ms    3 runs\n"
		 " \n"
		 "Summary\n"
		 "  'fast' ran\n"
		 "    2.00 ± 1.00 times faster than 'slow'\n");
	CHECK_STR_EQ(err, " \n  Warning: Ignoring non-zero exit code.\n");
	free(out);
	free(err);
}

static void test_single_run_and_units(void)
{
	uint64_t w[] = {1500000000}, z[] = {0};
	int c[] = {0};
	struct measure_result r = {.n = 1,
				   .wall_ns = w,
				   .user_ns = z,
				   .system_ns = z,
				   .exit_codes = c,
				   .all_succeeded = true,
				   .complete = true};
	const char *names[] = {"one"};
	char *out = NULL, *err = NULL;
	size_t out_len = 0, err_len = 0;
	FILE *fo = open_memstream(&out, &out_len), *fe = open_memstream(&err, &err_len);
	enum export_time_unit ms = EXPORT_UNIT_MILLISECOND;
	struct report *rep = report_new(fo, fe, REPORT_STYLE_NOCOLOR, NULL);
	struct report *rep_ms = report_new(fo, fe, REPORT_STYLE_NOCOLOR, &ms);
	struct report *none = report_new(fo, fe, REPORT_STYLE_NONE, NULL);
	struct measure_event ev = {.kind = MEASURE_EV_DONE, .group_count = 1, .result = &r};
	enum report_style st;

	report_event(rep, &ev, names, false);
	report_event(rep_ms, &ev, names, false);
	report_event(none, &ev, names, false);
	report_comparison(none, names, &r, 1);
	report_free(rep);
	report_free(rep_ms);
	report_free(none);
	fclose(fo);
	fclose(fe);
	CHECK_STR_EQ(
	    out, "  Time (abs ≡):         1.500 s               [User: 0.000 s, System: 0.000 s]\n"
		 " \n"
		 "  Time (abs ≡):        1500.0 ms               [User: 0.0 ms, System: 0.0 ms]\n"
		 " \n");
	CHECK_STR_EQ(err, "");
	CHECK_INT_EQ(report_style_parse("color", &st), 0);
	CHECK_INT_EQ(st, REPORT_STYLE_COLOR);
	CHECK_INT_EQ(report_style_parse("fancy", &st), -1);
	free(out);
	free(err);
}

int main(void)
{
	RUN(test_summary_and_comparison);
	RUN(test_single_run_and_units);
	return HARNESS_EXIT();
}
