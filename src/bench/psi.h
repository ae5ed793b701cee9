/* psi: how long a run waited for a CPU, from Linux's pressure stall information (PSI) of a
 * cgroup of rarlaunch's own. */
#ifndef RARPERF_PSI_H
#define RARPERF_PSI_H

/*
 * Design. rarlaunch (root) makes a child cgroup of the cgroup2 cgroup it starts in,
 * <mount><own path>/rarlaunch-<pid>, and moves into it: every run it starts, and whatever a
 * setuid tool forks, is then in that cgroup, and nothing else is. The cgroup's cpu.pressure
 * "some total=" (microseconds) counts the time at least one of its tasks was runnable and
 * waited for a CPU that something else held. Read just before a run's first clock read and
 * just after its wait4 (outside the timed window), the difference is the time that run lost
 * to contention: a measure that does not move when a tool forks, waits or does I/O, which
 * are off-CPU time but not a wait for the CPU. No controller is enabled (none is needed for
 * PSI), so the cgroup fits under any cgroup rarbench itself runs in.
 *
 * Everything here is static-friendly (rarlaunch is static and keeps no heap: a run's peak RSS
 * starts from its address space): fixed buffers, raw directory reads, no stdio.
 */

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The longest cgroup directory path handled (the cgroup2 mount plus a cgroup path). */
#define PSI_PATH_MAX 512
/* The prefix of rarlaunch's cgroups (a leftover of a dead pid is removed by the next start). */
#define PSI_CGROUP_PREFIX "rarlaunch-"

struct psi_cgroup {
	char dir[PSI_PATH_MAX];    /* <mount><path>/rarlaunch-<pid>; "" when not made */
	char parent[PSI_PATH_MAX]; /* <mount><path>: where rarlaunch started */
	int pressure_fd;           /* dir's cpu.pressure, -1 when there is none */
};

/*
 * The "some" line's total (microseconds) of a cpu.pressure file's text of len bytes:
 *   some avg10=0.00 avg60=0.00 avg300=0.00 total=229543
 *   full avg10=0.00 avg60=0.00 avg300=0.00 total=229503
 * Pure. 0, or -1 when the text does not start with such a "some" line.
 */
int psi_parse_some_total(const char *text, size_t len, uint64_t *total_us);

/*
 * Whether one /proc/self/mountinfo line (without its newline) is a cgroup2 mount; if so its
 * mount point and root (octal escapes such as \040 decoded) into mnt and root (cap bytes
 * each). Pure. 1 for a cgroup2 mount, 0 for another, -1 for a malformed line or one too long.
 */
int psi_parse_mountinfo_line(const char *line, size_t len, char *mnt, char *root, size_t cap);

/*
 * The cgroup2 path (the "0::" line) of /proc/self/cgroup's text of len bytes into path (cap
 * bytes). Pure. 0, or -1 when there is no such line or it does not fit.
 */
int psi_parse_cgroup(const char *text, size_t len, char *path, size_t cap);

/*
 * The first cgroup2 mount of /proc/self/mountinfo: its mount point and root into mnt and root
 * (cap bytes each). 0, or an errno (ENOENT: no cgroup2 mounted).
 */
int psi_cgroup2_mount(char *mnt, char *root, size_t cap);

/*
 * This process's cgroup2 directory (the mount point joined with /proc/self/cgroup's "0::"
 * path, below the mount's root) into dir (cap bytes). 0, or an errno.
 */
int psi_own_cgroup(char *dir, size_t cap);

/*
 * Finds the cgroup2 mount and this process's cgroup, removes the empty rarlaunch-<pid>
 * cgroups there whose pid is dead, makes rarlaunch-<self> and moves this process into it.
 * 0, or an errno (c->pressure_fd is then -1 and nothing is left behind): ENOENT when the host
 * has no cgroup2 mount or no cpu.pressure (a kernel without PSI, or booted with psi=0).
 */
int psi_open(struct psi_cgroup *c, pid_t self);

/* The cgroup's cpu.pressure "some" total now, in ns. 0, or -1 (errno set). */
int psi_read_ns(const struct psi_cgroup *c, uint64_t *total_ns);

/* Moves this process back to c->parent and removes the cgroup (best effort: a run's process
 * that outlived it keeps it; the next start removes it once empty). */
void psi_close(struct psi_cgroup *c);

#endif
