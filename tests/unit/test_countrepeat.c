/* test_countrepeat: a counted point counted again when its counts vary, its median kept
 * (src/bench/countrepeat.h). */
#include "countrepeat.h"
#include "harness.h"

/* Two counts within 0.01 % suffice; beyond it the point takes five runs. */
static void test_want(void)
{
	struct countrepeat c = {.v = {1000000}, .n = 1};

	CHECK_INT_EQ(countrepeat_want(&c), 2);
	c.v[1] = 1000100; /* exactly 0.01 %: agree */
	c.n = 2;
	CHECK_INT_EQ(countrepeat_want(&c), 2);
	c.v[1] = 1000101;
	CHECK_INT_EQ(countrepeat_want(&c), COUNTREPEAT_MAX);
	/* doas at 100 tasks with one /etc/passwd line more (doc/counts.md): 2.1 % */
	c.v[0] = 4910369;
	c.v[1] = 4808930;
	CHECK_INT_EQ(countrepeat_want(&c), COUNTREPEAT_MAX);
}

/* The median's run, the range and the spread. */
static void test_median(void)
{
	struct countrepeat c = {.v = {50, 10, 40, 20, 30}, .n = 5};
	uint64_t lo, hi;
	double s;

	CHECK_INT_EQ(countrepeat_median(&c), 4);
	countrepeat_range(&c, &lo, &hi, &s);
	CHECK(lo == 10 && hi == 50);
	CHECK(s > 1.3333 && s < 1.3334);
	/* Ties: one of the equal runs is the median. */
	struct countrepeat t = {.v = {7, 9, 7, 9, 9}, .n = 5};
	CHECK_INT_EQ(t.v[countrepeat_median(&t)], 9);
	struct countrepeat u = {.v = {5, 5}, .n = 2};
	CHECK_INT_EQ(countrepeat_median(&u), 0);
	countrepeat_range(&u, &lo, &hi, &s);
	CHECK(lo == 5 && hi == 5 && s == 0);
	/* An even number: the lower middle. */
	struct countrepeat e = {.v = {4, 1, 3, 2}, .n = 4};
	CHECK_INT_EQ(e.v[countrepeat_median(&e)], 2);
}

int main(void)
{
	RUN(test_want);
	RUN(test_median);
	return HARNESS_EXIT();
}
