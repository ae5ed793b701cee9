/* proc: spawn one prepared command without a shell and time it (CLOCK_MONOTONIC + wait4 rusage). */
#ifndef RARPERF_PROC_H
#define RARPERF_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

#include "errbuf.h"
#include "mntns.h"

/*
 * MUST invariants of the measured path (proc_run):
 *  - a run starts from rarlaunch (src/rarlaunch, installed beside this program), never from
 *    this process: rarbench's memory is never shared with a child, so a run's wait4 maxrss is
 *    its own (from rarlaunch's ~0.7 MiB address space), not this process's high-water mark,
 *    and a child stopped between its identity switch and its execve holds rarlaunch's vfork,
 *    not this process (issue 36, finding 6): the wait for a reply is bounded and both are
 *    killed when it passes;
 *  - everything a run needs (resolved path, argv, envp, identity, fds, the request's bytes) is
 *    built by proc_cmd_new; proc_run sends one message, polls, and reads one reply;
 *  - rarlaunch reads the clock just before its vfork and just after wait4 (hyperfine -N's
 *    window: the spawn, the run, the reap), keeps the child's setup as it was here (dup2,
 *    setns, close_range, pin, setgroups/setresgid/setresuid, execve; src/rarlaunch/rarlaunch.c)
 *    and gives the child default dispositions for the signals it ignores itself;
 *  - the command gets stdin, stdout and stderr and no other descriptor.
 */

/* The identity measured runs switch to (--as-user). Built by proc_user_lookup. */
struct proc_user {
	char *name;
	uid_t uid;
	gid_t gid;
	gid_t *groups; /* supplementary groups, initgroups-style (getgrouplist) */
	size_t n_groups;
	char *home;
	char *shell;
};

/*
 * Looks USER up (name or numeric uid) in the passwd/group databases and
 * fills u (caller-owned struct; strings and groups are heap-owned by it, free
 * with proc_user_clear). Returns 0, or -1 with eb naming the user.
 */
int proc_user_lookup(const char *user, struct proc_user *u, struct errbuf *eb);

/* Frees what proc_user_lookup stored in u and zeroes it. NULL is a no-op. */
void proc_user_clear(struct proc_user *u);

/*
 * Builds the clean environment measured runs get under --as-user, as a
 * NULL-terminated heap array (free with proc_env_free):
 *   PATH=/usr/local/bin:/usr/bin:/bin, HOME, USER, LOGNAME, SHELL (from u),
 *   TERM (copied from the invoking environment when set), LANG=C.
 * Returns NULL on out-of-memory (eb filled).
 */
char **proc_env_for_user(const struct proc_user *u, struct errbuf *eb);
void proc_env_free(char **envp);

/*
 * Appends the "NAME=value" string kv (copied) to the heap environment
 * *envp (from proc_env_for_user), replacing *envp. 0, or -1 (eb filled,
 * *envp unchanged) when out of memory.
 */
int proc_env_append(char ***envp, const char *kv, struct errbuf *eb);

/*
 * Kills (SIGKILL) every process whose initial environment holds the exact
 * string kv: the runs of an earlier rarbench on the same prefix that
 * outlived it (a SIGKILL'd rarbench cannot end them; a setuid tool does
 * not keep a parent-death signal). The environment of /proc/PID/environ is
 * read as root. Returns how many it signalled.
 */
size_t proc_kill_marked(const char *kv);

/* Where a child's stdout/stderr go. */
enum proc_output {
	PROC_OUTPUT_NULL,    /* /dev/null (hyperfine's default) */
	PROC_OUTPUT_INHERIT, /* the invoking terminal (--show-output) */
	PROC_OUTPUT_FD,      /* stdout to a caller-owned fd, stderr to /dev/null (--output FILE) */
	PROC_OUTPUT_STDERR_FD, /* stderr to a caller-owned fd, stdout to /dev/null (to quote it) */
	PROC_OUTPUT_BOTH_FD    /* stdout and stderr to a caller-owned fd: a tool that reports its
				* errors on stdout (please), quoted all the same */
};

/* The network a command's runs see. */
enum proc_net {
	PROC_NET_HOST,    /* this process's namespace, whatever interfaces the host has */
	PROC_NET_LOOPBACK /* a namespace of rarlaunch's own with only lo, up (needs root) */
};

/* The most limits a pin sets. */
#define PROC_PIN_LIMITS_MAX 16

/*
 * What the child is pinned to between fork and exec, before it drops
 * privileges (so a limit above the caller's may be set): resource limits
 * (soft and hard, RLIM_INFINITY for unlimited), a umask, a working
 * directory, a CPU set. Copied by proc_cmd_new.
 */
struct proc_pin {
	struct {
		int resource;
		uint64_t soft, hard;
	} limits[PROC_PIN_LIMITS_MAX];
	size_t nlimits;
	int umask;             /* < 0: inherited */
	const char *cwd;       /* NULL: inherited */
	const cpu_set_t *cpus; /* NULL: inherited */
	/* PROC_NET_LOOPBACK: a fixed network view. sudo lists every interface at start, so
	 * its cost would follow the host's interface count. */
	enum proc_net net;
};

struct proc_opts {
	char *const *envp;          /* NULL: the current environ at proc_cmd_new time */
	const struct proc_user *as; /* NULL: run as the invoking user; else must be root */
	enum proc_output output;
	int output_fd;   /* with PROC_OUTPUT_*FD; stays owned by the caller, must outlive the cmd */
	bool stdin_null; /* stdin from /dev/null (hyperfine does this); else inherit */
	/* Non-NULL: the child joins this mount namespace before it drops privileges (needs root);
	 * it must outlive the cmd. */
	const struct mntns *mntns;
	/*
	 * > 0: the child leads a process group of its own, and a run still going
	 * after timeout_ms (hung, or stopped by SIGSTOP) is killed with its group
	 * (SIGKILL): proc_sample.timed_out. The wait is a poll on a pidfd, one
	 * syscall more per run, outside nothing: it replaces the blocking wait4.
	 */
	uint32_t timeout_ms;
	/*
	 * A run is also killed (with its group, under timeout_ms) as soon as a
	 * signal interrupts the wait and *stop is non-zero (SIGINT/SIGTERM):
	 * rarlaunch is told to, and killed itself when it has not answered within
	 * PROC_LAUNCH_GRACE_MS: proc_sample.stopped. NULL: only the timeout ends a
	 * run early.
	 */
	const volatile sig_atomic_t *stop;
	const struct proc_pin *pin; /* NULL: the child inherits limits, umask, cwd and CPUs */
};

/*
 * wait4's counters of a run (the child and the descendants it reaped). maxrss_kib is the peak
 * resident size of the child or of a descendant it waited for, at least rarlaunch's own
 * (about 0.7 MiB: a static program's text, mapped 64 KiB at a time; the address space the
 * child starts from).
 */
struct proc_rusage {
	uint64_t minflt, majflt, maxrss_kib, inblock, nvcsw;
};

/* One timed run. */
struct proc_sample {
	uint64_t wall_ns;   /* CLOCK_MONOTONIC from just before clone to just after wait4 */
	uint64_t user_ns;   /* ru_utime of that child (wait4 rusage) */
	uint64_t system_ns; /* ru_stime of that child */
	/* ru_nivcsw: involuntary context switches of the child and the descendants it reaped, i.e.
	 * how often the kernel took the CPU away from it for another task (contention). */
	uint32_t nivcsw;
	/* How long the started process was runnable and waited for a CPU held by something else
	 * (its scheduler run delay, schedwait.h; the children it reaped keep theirs); -1 when
	 * unknown (a kernel without CONFIG_SCHED_INFO). */
	int64_t stall_ns;
	struct proc_rusage ru; /* page faults, peak RSS, blocks read, voluntary switches */
	int status;            /* raw wait status */
	int exit_code;         /* WEXITSTATUS, or 128+signal when killed by a signal */
	bool timed_out;        /* killed at proc_opts.timeout_ms */
	bool stopped;          /* killed because *proc_opts.stop was set */
	/* rarlaunch gave no answer within the bound (timeout_ms + PROC_LAUNCH_GRACE_MS, or
	 * the grace after a stop): it and its children were killed (with timed_out or stopped). */
	bool launcher_killed;
};

/* A prepared command: opaque, built once, run many times. */
struct proc_cmd;

/*
 * Prepares argv (argv[0] is the program, looked up in PATH when it has no
 * '/', like execvp) to be run by proc_run. Copies argv, opts->envp and the
 * identity, so the caller may free them afterwards (opts->output_fd excepted).
 * Fails (-1 / NULL, eb filled) when argv is empty, the program cannot be
 * found or is not executable ("cannot find program 'x' in PATH"), or
 * opts->as is set and the process is not root.
 */
struct proc_cmd *proc_cmd_new(char *const *argv, const struct proc_opts *opts, struct errbuf *eb);

/* Frees a prepared command. NULL is a no-op. */
void proc_cmd_free(struct proc_cmd *cmd);

/*
 * Sets the pinned soft and hard limit of resource (RLIMIT_*) that cmd's next runs get, as
 * proc_opts.pin gave it (a swept limit changes from point to point). Returns 0, or -1 when the
 * pin had no such limit (nothing changes).
 */
int proc_cmd_set_limit(struct proc_cmd *cmd, int resource, uint64_t value);

/* The argv the command was prepared with (owned by cmd; argv[0] as given). */
char *const *proc_cmd_argv(const struct proc_cmd *cmd);

/* Bytes of the request per HEX argument of proc_cmd_exec_argv (under the kernel's 128 KiB
 * per argument). */
#define PROC_EXEC_CHUNK_BYTES (32u * 1024)

/*
 * The argv `RARLAUNCH --exec HEX...` that, run as root, applies cmd's pin (limits, umask, cwd,
 * CPUs) and identity to itself and then executes cmd's program with cmd's environment: the
 * program a tracer running as root is given, so that the tracer keeps its own limits and
 * working directory and only the traced program gets cmd's (issue 52, finding 5). cmd's
 * descriptors, mount namespace and timeout are not part of it: the tracee inherits the
 * tracer's. A heap array (free with proc_env_free), or NULL (eb) when rarlaunch cannot be
 * found or out of memory.
 */
char **proc_cmd_exec_argv(const struct proc_cmd *cmd, struct errbuf *eb);

/*
 * Runs cmd once from rarlaunch (started on first use), waits for its reply and fills *out.
 * A non-zero exit or a signal death is NOT an error here (see out->exit_code), nor is a
 * rarlaunch that did not answer in time (out->launcher_killed). Returns -1 (eb filled) when
 * rarlaunch cannot be started or answers wrongly (it is then killed), or the child could not
 * be created or exec failed. Allocation-free and print-free; safe to call in a tight loop.
 */
int proc_run(struct proc_cmd *cmd, struct proc_sample *out, struct errbuf *eb);

/* How long rarlaunch may take beyond a run's timeout (or after a stop) before it is killed. */
#define PROC_LAUNCH_GRACE_MS 2000u

/*
 * The rarlaunch program proc_run starts its runs from: by default rarlaunch beside this
 * executable (/proc/self/exe). Tests set the built one. 0, or -1 (eb) when path is not an
 * executable file.
 */
int proc_set_launcher(const char *path, struct errbuf *eb);

/*
 * Ends the rarlaunch processes this process started (closes their sockets, kills, reaps):
 * the next proc_run starts one again. Never during a proc_run.
 */
void proc_launchers_stop(void);

/*
 * The floor of cmd's runs' maxrss_kib: the peak resident size (VmHWM) of the rarlaunch that
 * runs them, whose address space a child starts from (about 0.7 MiB). 0 when it is not
 * running (before cmd's first run) or unknown.
 */
uint64_t proc_cmd_floor_kib(const struct proc_cmd *cmd);

/*
 * Whether the runs of net's rarlaunch (started now when none runs) get their CPU stall
 * (proc_sample.stall_ns): 0 when they do, an errno when the host gives none (ENOENT: a
 * kernel without /proc/PID/schedstat), -1 (eb) when rarlaunch cannot start.
 */
int proc_launcher_stall(enum proc_net net, struct errbuf *eb);

/* The pid of the running rarlaunch for net, 0 when none runs (tests). */
pid_t proc_launcher_pid(enum proc_net net);

/*
 * Kills (SIGKILL) every child of parent and each one's process group (read from /proc), the
 * children a stopped rarlaunch holds. Returns how many it signalled.
 */
size_t proc_kill_children_of(pid_t parent);

/* The first child of parent found in /proc (pid), or 0 when it has none. Kills nothing. */
pid_t proc_first_child_of(pid_t parent);

/*
 * Makes this process the reaper of its orphaned descendants
 * (PR_SET_CHILD_SUBREAPER): a measured tool that forks and dies leaves its
 * children to us, not to init, so proc_kill_orphans can end them. 0 or -1.
 */
int proc_become_subreaper(struct errbuf *eb);

/*
 * Kills (SIGKILL) and reaps every child this process still has: after a
 * run was killed, what its process group did not hold (a grandchild that
 * made a group or session of its own) has been re-parented to us
 * (proc_become_subreaper). Ends the rarlaunch processes first (proc_launchers_stop).
 * Must be called when no proc_run is in progress and the caller has no other children.
 * Returns how many it killed.
 */
size_t proc_kill_orphans(void);

#endif
