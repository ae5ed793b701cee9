/* schedwait: how long a run's process waited for a CPU, from the scheduler's own account of it
 * (/proc/PID/schedstat). */
#ifndef RARPERF_SCHEDWAIT_H
#define RARPERF_SCHEDWAIT_H

/*
 * Design. The scheduler keeps, for every task, the time it spent runnable on a run queue
 * without running (sched_info's run_delay, in ns, the second field of /proc/PID/schedstat):
 * the time it waited for a CPU that something else held. rarlaunch reads it for the process
 * it started after that process has exited and before it is reaped (a zombie keeps its
 * accounts), outside the timed window. Unlike a cgroup's pressure stall information, whose
 * totals advance only in whole scheduler ticks of non-idle time per CPU (a read every 2 ms
 * saw no stall at all beside a CPU hog; doc/precision.md), it is exact for runs of any
 * length, and it does not grow when the process sleeps, waits for a child or for I/O. It is
 * the started process's own wait: the children it forks and reaps (the command sudo runs)
 * keep theirs.
 *
 * Static-friendly (rarlaunch is static and keeps no heap): fixed buffers, no stdio.
 */

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The run delay (ns) of a /proc/PID/schedstat text of len bytes, "<on-CPU ns> <run delay ns>
 * <timeslices>\n". Pure. 0, or -1 when the text is not three unsigned numbers.
 */
int schedwait_parse(const char *text, size_t len, uint64_t *run_delay_ns);

/* The run delay of process pid now (a zombie: until reaped). 0, or an errno (ENOENT: no such
 * process, or a kernel without CONFIG_SCHED_INFO; EPROTO: a text not as above). */
int schedwait_read(pid_t pid, uint64_t *run_delay_ns);

#endif
