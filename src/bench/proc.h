/* proc: spawn one prepared command without a shell and time it (CLOCK_MONOTONIC + wait4 rusage). */
#ifndef RARPERF_PROC_H
#define RARPERF_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "errbuf.h"
#include "mntns.h"

/*
 * MUST invariants of the measured path (proc_run):
 *  - everything the child needs (resolved path, argv, envp, identity, fds,
 *    clone stack) is built by proc_cmd_new; proc_run allocates, prints and
 *    formats nothing between the two clock reads;
 *  - the child is created with clone(CLONE_VM|CLONE_VFORK) on a preallocated
 *    stack (what glibc's posix_spawn does, minus its per-call stack mmap and
 *    signal-mask round trips) and only calls async-signal-safe functions
 *    (dup2, raw setns/close_range/setgroups/setresgid/setresuid syscalls,
 *    close, execve, _exit);
 *  - the command gets stdin, stdout and stderr and no other descriptor: the
 *    child closes 3 and up (close_range, or a close() loop up to
 *    RLIMIT_NOFILE on kernels without it) after its dup2s and setns and
 *    before the identity switch, whatever the caller left open;
 *  - because the child shares the parent's memory until execve, any signal
 *    handler the caller installs may run in the child before the exec: such
 *    handlers MUST only set a volatile sig_atomic_t flag.
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

/* Where a child's stdout/stderr go. */
enum proc_output {
	PROC_OUTPUT_NULL,     /* /dev/null (hyperfine's default) */
	PROC_OUTPUT_INHERIT,  /* the invoking terminal (--show-output) */
	PROC_OUTPUT_FD,       /* stdout to a caller-owned fd, stderr to /dev/null (--output FILE) */
	PROC_OUTPUT_STDERR_FD /* stderr to a caller-owned fd, stdout to /dev/null (to quote it) */
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
};

/* One timed run. */
struct proc_sample {
	uint64_t wall_ns;   /* CLOCK_MONOTONIC from just before clone to just after wait4 */
	uint64_t user_ns;   /* ru_utime of that child (wait4 rusage) */
	uint64_t system_ns; /* ru_stime of that child */
	/* ru_nivcsw: involuntary context switches of the child and the descendants it reaped, i.e.
	 * how often the kernel took the CPU away from it for another task (contention). */
	uint32_t nivcsw;
	int status;    /* raw wait status */
	int exit_code; /* WEXITSTATUS, or 128+signal when killed by a signal */
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

/* The argv the command was prepared with (owned by cmd; argv[0] as given). */
char *const *proc_cmd_argv(const struct proc_cmd *cmd);

/*
 * Runs cmd once, waits for it and fills *out. A non-zero exit or a signal
 * death is NOT an error here (see out->exit_code). Returns -1 (eb filled)
 * only when the child could not be created or exec failed.
 * Allocation-free and print-free; safe to call in a tight loop.
 */
int proc_run(struct proc_cmd *cmd, struct proc_sample *out, struct errbuf *eb);

#endif
