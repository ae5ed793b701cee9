/* clock: now on CLOCK_MONOTONIC, in integer nanoseconds or milliseconds. */
#ifndef RARPERF_CLOCK_H
#define RARPERF_CLOCK_H

#include <stdint.h>

/* Nanoseconds on CLOCK_MONOTONIC (arbitrary origin: only differences mean anything). */
uint64_t clock_now_ns(void);

/* The same clock in milliseconds, for deadlines and timeouts. */
long clock_now_ms(void);

#endif
