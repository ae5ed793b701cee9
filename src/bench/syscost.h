/* syscost: what a few system calls cost on this host, measured in-process (the profile's
 * per-call prices). */
#ifndef RARPERF_SYSCOST_H
#define RARPERF_SYSCOST_H

#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"

/*
 * One measured price: name is the syscall it prices as strace names it
 * ("read"), or "syscall" for the floor every other call is priced at (a
 * getppid: entry and exit, no work). ns is the smallest over SYSCOST_ROUNDS
 * rounds of the mean over a loop of calls (load only slows a loop).
 */
struct syscost {
	const char *name; /* static */
	const char *what; /* how it was measured, static */
	double ns;
};

#define SYSCOST_COUNT 5
#define SYSCOST_ROUNDS 5

/*
 * Measures every price into out[SYSCOST_COUNT]: the floor, read(2) of one
 * byte from a regular file (in the page cache), close(2) of a descriptor
 * that is not open (EBADF, what a close-every-descriptor loop pays),
 * openat(2) of /etc/passwd with its close, write(2) of one byte to
 * /dev/null. dir is where a scratch file may be written (removed at once).
 * Takes about 0.1 s. 0, or -1 (eb) when a file cannot be made or opened.
 */
int syscost_measure(const char *dir, struct syscost out[SYSCOST_COUNT], struct errbuf *eb)
    __attribute__((warn_unused_result));

#endif
