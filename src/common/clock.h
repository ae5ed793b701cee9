/* clock: now on CLOCK_MONOTONIC, in integer nanoseconds or milliseconds; and now on the wall
 * clock as the UTC stamp that records carry. */
#ifndef RARPERF_CLOCK_H
#define RARPERF_CLOCK_H

#include <stddef.h>
#include <stdint.h>

/* Nanoseconds on CLOCK_MONOTONIC (arbitrary origin: only differences mean anything). */
uint64_t clock_now_ns(void);

/* The same clock in milliseconds, for deadlines and timeouts. */
long clock_now_ms(void);

/*
 * The wall clock's time now, UTC, as 2026-01-31T12:00:00Z into buf (len bytes, 21 at
 * least): when a record was made, for people; never for measuring.
 */
void clock_utc_now(char *buf, size_t len);

#endif
