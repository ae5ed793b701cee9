/* runner_fault: the deny-all that a handler of a synchronous fault (SIGSEGV, SIGBUS, ...) can
 * still write, from bytes the guard kept when it armed the run (runner_guard.c). */
#ifndef RARPERF_RUNNER_FAULT_H
#define RARPERF_RUNNER_FAULT_H

#include <stddef.h>

#include "runner_target.h"

/*
 * Keeps, for runner_fault_deny, the policy files of t[0..n) as they are now
 * (deny-all, just written) with a descriptor of their directory; what cannot
 * be kept is left to the next run's recovery. n == 0: forgets them (the
 * prefix may be another run's from then on). Called by the guard only,
 * outside any signal handler.
 */
void runner_fault_prepare(const struct runner_target *t, size_t n);

/*
 * For a handler of a synchronous fault, which cannot return to the run's own
 * undoing: rewrites every policy the running sweep manages deny-all from the
 * bytes runner_fault_prepare kept (openat, write, fsync, renameat:
 * async-signal-safe), and nothing else; the next run undoes the rest. A
 * no-op before a sweep is armed or after its end.
 */
void runner_fault_deny(void);

#endif
