/* runner_polkit: pkexec's private system bus and polkitd, started with each step of a pkexec
 * subject and stopped with it; polkitd's CPU time and memory over the step's timed runs. */
#ifndef RARPERF_RUNNER_POLKIT_H
#define RARPERF_RUNNER_POLKIT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "errbuf.h"
#include "mntns.h"

/*
 * Design. pkexec asks polkitd over the system bus. pkexec is set-user-ID, so
 * GLib ignores DBUS_SYSTEM_BUS_ADDRESS and connects to the path compiled in,
 * /run/dbus/system_bus_socket; polkitd reads its rules from
 * /etc/polkit-1/rules.d and /usr/share/polkit-1/rules.d and its actions from
 * /usr/share/polkit-1/actions, paths compiled in too. The subject's private
 * mount namespace (mntns.h) shows, at those four paths, the prefix's files
 * (runner_polkit_files): the bus socket in PREFIX/polkit/run, the rules
 * confgen writes in PREFIX/etc/polkit-1/rules.d, Debian's default rules and
 * actions unpacked in PREFIX/polkit. The machine's own /run/dbus,
 * /etc/polkit-1 and /usr/share/polkit-1 are never written, and a system bus
 * or polkitd of the machine, if any, is never asked.
 *
 * Life cycle, per step (runner_point.c): runner_polkit_start after the step's
 * rules are written (a dbus-daemon of ours, with PREFIX/polkit/run/bus.conf,
 * then polkitd, both joining the subject's namespace; ready when polkitd says
 * it acquired org.freedesktop.PolicyKit1; a line of its log saying "Error"
 * fails the step with that line), runner_polkit_mark before the timed runs,
 * runner_polkit_sample after them (CPU time since the mark, from polkitd's own cgroup under
 * rarbench's, every thread counted; peak memory),
 * runner_polkit_stop at the step's end, on every path. No authorization
 * polkitd might keep (auth_admin_keep) outlives the step: polkitd dies.
 *
 * Nothing outlives rarbench: both are its children, in the sweep's cgroup
 * (the step's end kills what it still holds beside rarbench); dbus-daemon
 * gets SIGKILL when rarbench dies (PR_SET_PDEATHSIG; it keeps root's
 * credentials, so the setting holds), and polkitd, whose change of user
 * clears that setting, exits when its bus closes (GLib's exit-on-close).
 */
struct runner_polkit;

/* The four paths the subject's namespace shows (targets) and what each shows (sources). */
#define RUNNER_POLKIT_FILES 4
struct runner_polkit_files {
	struct mntns_file file[RUNNER_POLKIT_FILES]; /* in mntns_show_files_at's order */
	char source[RUNNER_POLKIT_FILES][4096];
};

/* Fills out for prefix (absolute). 0, or -1 with eb (a path too long). */
int runner_polkit_files(const char *prefix, struct runner_polkit_files *out, struct errbuf *eb);

/*
 * Makes PREFIX/polkit/run (root:polkitd 0710: polkitd, once user polkitd, must reach the
 * socket; no other user may)
 * and its bus.conf, and checks that polkitd and dbus-daemon are root's along their whole
 * path (trustpath.h): they run as root. Returns the state (free with runner_polkit_free), or
 * NULL with eb.
 */
struct runner_polkit *runner_polkit_new(const char *prefix, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * Starts the bus and polkitd in the mount namespace mntns_fd and waits (at most
 * RUNNER_POLKIT_READY_MS) until polkitd serves. 0, or -1 with eb (then both are stopped).
 */
#define RUNNER_POLKIT_READY_MS 10000
int runner_polkit_start(struct runner_polkit *pk, int mntns_fd, struct errbuf *eb)
    __attribute__((warn_unused_result));

/* Reads polkitd's CPU time now: the start of what runner_polkit_sample measures. */
void runner_polkit_mark(struct runner_polkit *pk);

/* polkitd's cost since the mark: CPU time (every thread, exited ones too) and peak resident size.
 */
struct runner_polkit_cost {
	uint64_t cpu_ns;
	uint64_t maxrss_kib;
};
/* 0, or -1 when polkitd is not running or its counters cannot be read. */
int runner_polkit_sample(const struct runner_polkit *pk, struct runner_polkit_cost *cost);

/* Stops polkitd and the bus (SIGTERM, then SIGKILL after 1 s) and reaps them. Idempotent. */
void runner_polkit_stop(struct runner_polkit *pk);

/* Stops them and frees pk. NULL: no-op. */
void runner_polkit_free(struct runner_polkit *pk);

#endif
