/* straceprof: counts what an `strace -f -qq -o FILE` trace says a command did (syscalls, bytes,
 * files opened, programs started). */
#ifndef RARPERF_STRACEPROF_H
#define RARPERF_STRACEPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "errbuf.h"
#include "proc.h"

/*
 * The trace is outside input (strace wrote it, but the tracee chose every
 * path and string in it): every line is checked against the forms strace
 * 6.x prints with -f and -o, every table is bounded, and a line that is
 * none of them is an error naming its line number.
 *
 * Forms understood (PID is decimal, first on the line with -f -o):
 *   PID name(args) = RET             RET: number, 0x hex, ?, or -1 ERRNO (...)
 *   PID name(args <unfinished ...>   counted when it resumes
 *   PID <... name resumed>rest) = RET
 *   PID --- SIGNAL ... ---           ignored (signals)
 *   PID +++ exited with N +++        ignored (-qq hides them; accepted anyway)
 */

/* Bounds: distinct syscall names, distinct paths, bytes of a path, bytes of a line. */
#define STRACEPROF_SYSCALLS_MAX 512
#define STRACEPROF_NAME_MAX 32
#define STRACEPROF_PATHS_MAX 8192
#define STRACEPROF_PATH_MAX 4096
#define STRACEPROF_LINE_MAX 65536
/* Processes a trace may show (their calls left unfinished are tracked). */
#define STRACEPROF_PIDS_MAX 4096

struct straceprof_syscall {
	char name[STRACEPROF_NAME_MAX];
	uint64_t calls;
	uint64_t failed; /* returned -1 ERRNO */
};

/* A path opened (open, openat, openat2, creat) or executed (execve, execveat). */
struct straceprof_path {
	char *path; /* as strace printed it between quotes: escapes kept, no control bytes;
		       "/proc/<digits>/..." as "/proc/PID/...", "/dev/pts/<digits>" as
		       "/dev/pts/N" */
	uint64_t count;
	uint64_t failed;
	bool exec;
};

/* What a trace counted. Fill with straceprof_init, free with straceprof_clear. */
struct straceprof {
	struct straceprof_syscall *syscalls; /* nsyscalls, in first-seen order */
	size_t nsyscalls;
	struct straceprof_path *paths; /* npaths, in first-seen order */
	size_t npaths, cap_paths;
	uint64_t calls;         /* every syscall */
	uint64_t failed;        /* those that returned -1 */
	uint64_t bytes_read;    /* what read, pread64, readv, preadv(2) returned, summed */
	uint64_t bytes_written; /* write, pwrite64, writev, pwritev(2) */
	uint64_t execs;         /* successful execve/execveat */
	uint64_t processes;     /* distinct PIDs seen */
	uint64_t lines;
	/* straceprof_skip_launcher: the lines of launcher_pid (the first process) are left out
	 * until its second successful execve */
	bool skip_launcher;
	uint32_t launcher_pid;
	unsigned launcher_execs;
	/* internal: hash indexes and the unfinished calls */
	int32_t *sys_index, *path_index;
	uint32_t *pid_set;
	struct straceprof_pending *pending;
	size_t npending;
};

/* Zeroes p. */
void straceprof_init(struct straceprof *p);

/*
 * Makes p leave out what rarlaunch --exec did before it executed the traced program (a trace of
 * a straceprof_cmd command begins with it): every line of the trace's first process up to its
 * second successful execve or execveat (rarlaunch's own, then the program's, which is counted).
 * Call after straceprof_init, before the first line.
 */
void straceprof_skip_launcher(struct straceprof *p);

/* Frees what p holds and zeroes it. NULL and a zeroed p are no-ops. */
void straceprof_clear(struct straceprof *p);

/*
 * Adds one line (len bytes, no newline needed; a trailing "\n" is ignored)
 * of a trace to p. lineno names it in errors. 0, or -1 with eb saying what
 * is wrong ("line N: ..."): a line of none of the forms above, a table
 * over its bound, out of memory.
 */
int straceprof_line(struct straceprof *p, const char *line, size_t len, uint64_t lineno,
		    struct errbuf *eb) __attribute__((warn_unused_result));

/* Adds a whole trace in memory (lines split on '\n'). 0 or -1 (eb). */
int straceprof_parse(struct straceprof *p, const char *buf, size_t len, struct errbuf *eb)
    __attribute__((warn_unused_result));

/* Reads the trace at path into p, line by line (bounded). 0 or -1 (eb names the file). */
int straceprof_read_file(struct straceprof *p, const char *path, struct errbuf *eb)
    __attribute__((warn_unused_result));

/* The entry for syscall name, or NULL when the trace has none. */
const struct straceprof_syscall *straceprof_find(const struct straceprof *p, const char *name);

/*
 * straceprof_json.c. Adds p's counts to o (cJSON adopts them): calls,
 * failed, bytes_read, bytes_written, execs, processes, then "syscalls"
 * (name: calls, failed), "files" and "programs" (path: count, failed),
 * sorted by name and path so that equal traces give equal text. Sorts p's
 * tables in place.
 */
void straceprof_json(struct straceprof *p, cJSON *o);

/*
 * Whether tracer may be run as root (RARPERF_STRACE names one): for a root
 * caller, only a tracer that is root's along its whole path (trustpath.h),
 * since it runs as root and then as whatever it traces; anyone else runs
 * it as themselves, so anything goes. 0, or -1 with eb saying why in one
 * line that names the variable.
 */
int straceprof_check_tracer(const char *tracer, struct errbuf *eb)
    __attribute__((warn_unused_result));

/* The whole environment of strace itself, with straceprof_cmd's keep. */
#define STRACEPROF_TRACER_PATH "PATH=/usr/sbin:/usr/bin:/sbin:/bin"

/*
 * The traced form of argv: `tracer -f -qq -o trace RARLAUNCH --exec HEX...`, where rarlaunch
 * (proc_cmd_exec_argv) applies to itself what the timed runs get from opts (the pin: limits,
 * umask, cwd, CPUs; the identity opts->as; the environment opts->envp, else environ) and then
 * executes argv: the traced program gets exactly that, and strace, which runs as root, none of
 * it. strace gets an environment of its own, fixed (STRACEPROF_TRACER_PATH and keep, a
 * "NAME=value" run marker for proc_kill_marked; NULL: none; issue 45, finding 1), no core file
 * (RLIMIT_CORE 0), umask 077, / as its working directory, none of the pin's limits (issue 52,
 * finding 5), opts's descriptors, mount namespace, timeout, CPUs and network view. Where opts
 * has no pin, the traced program gets this process's core limit, umask and working directory,
 * as the timed runs inherit them. A set-ID program gains its privileges as for the user: the
 * kernel honours them under a tracer that holds CAP_SYS_PTRACE (root's strace). The trace's
 * first lines are rarlaunch's own: read it with straceprof_skip_launcher. The caller makes
 * trace before the run, so strace opens a file that exists and creates none. NULL (eb) as
 * proc_cmd_new, or when rarlaunch cannot be found.
 */
struct proc_cmd *straceprof_cmd(const char *tracer, const char *trace, const char *keep,
				char *const *argv, const struct proc_opts *opts, struct errbuf *eb);

#endif
