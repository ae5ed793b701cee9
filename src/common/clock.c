/* clock: now on CLOCK_MONOTONIC, in integer nanoseconds or milliseconds; now on the wall clock
 * as a UTC stamp. */
#include "clock.h"

#include <time.h>

uint64_t clock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

long clock_now_ms(void)
{
	return (long)(clock_now_ns() / 1000000u);
}

void clock_utc_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
