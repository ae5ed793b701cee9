/* sweepcg: the cgroup (v2) that holds a sweep and everything it starts, so that all of it can
 * be found and ended, even what a setuid tool started as root with a fresh environment. */
#ifndef RARPERF_SWEEPCG_H
#define RARPERF_SWEEPCG_H

#include <stddef.h>

#include "errbuf.h"

/*
 * Design. A process cannot leave its cgroup by itself (only a writer of
 * cgroup.procs moves it, and the tools' children do not), and a child is
 * born in its parent's: so once rarbench has moved itself into a cgroup of
 * its own, every measured process, what doas, sudo, sudo-rs or dosr start
 * as root, and their orphans are in it. The environment, which the tools
 * reset, is not needed to find them.
 *
 * Life cycle: sweepcg_create (makes <cgroup2 mount>/rarperf-sweep-<pid>;
 * the caller records sweepcg_path before anything is measured);
 * sweepcg_enter (rarbench moves itself in); sweepcg_kill_others at the end
 * of each point (everything in it but rarbench); sweepcg_free (kills the
 * others, moves rarbench back to the cgroup it came from, removes the
 * cgroup). After a SIGKILL, the next run's sweepcg_remove_leftover kills
 * whatever the recorded cgroup still holds (cgroup.kill, or SIGKILL per pid
 * on kernels before 5.14) and removes it.
 */
struct sweepcg;

/*
 * Makes the sweep's cgroup under the first cgroup2 mount of
 * /proc/self/mountinfo (/sys/fs/cgroup on a systemd host,
 * /sys/fs/cgroup/unified in a hybrid layout). Returns NULL with eb filled
 * when there is none, or it is not writable: the caller falls back.
 */
struct sweepcg *sweepcg_create(struct errbuf *eb) __attribute__((warn_unused_result));

/* The cgroup's directory (absolute, owned by cg). */
const char *sweepcg_path(const struct sweepcg *cg);

/* Moves this process into the cgroup, remembering where it was. 0 or -1. */
int sweepcg_enter(struct sweepcg *cg, struct errbuf *eb) __attribute__((warn_unused_result));

/*
 * SIGKILLs every process of the cgroup but this one, over and over until
 * none is left or a bound (1 s) passes (a fork bomb). The caller reaps its
 * own children. Returns how many it signalled.
 */
size_t sweepcg_kill_others(struct sweepcg *cg);

/* Kills the others, moves this process back to its cgroup, removes the cgroup. NULL: no-op. */
void sweepcg_free(struct sweepcg *cg);

/*
 * A dead run's cgroup (path from its record): only a path of the form
 * sweepcg_create makes, under this host's cgroup2 mount, is touched. Kills
 * everything in it, waits (1 s at most) for it to empty and removes it;
 * *killed counts the processes it found. 0 (also when it is gone) or -1
 * with eb.
 */
int sweepcg_remove_leftover(const char *path, size_t *killed, struct errbuf *eb);

#endif
