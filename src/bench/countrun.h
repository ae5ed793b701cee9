/* countrun: one counted run (valgrind's callgrind behind the bench user's set-ID identity), its
 * command and what its files say: the user-space instructions of each process of the tool. */
#ifndef RARPERF_COUNTRUN_H
#define RARPERF_COUNTRUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <cjson/cJSON.h>

#include "errbuf.h"
#include "proc.h"

/*
 * Design. A counted run is
 *   setpriv --ruid U --euid E --rgid G --egid EG --groups ... [caps] --
 *     valgrind --tool=callgrind ... --trace-children=no PROGRAM ARGS...
 * started as root from rarlaunch in the timed runs' pin and namespace:
 * setpriv leaves exactly the credentials a set-user-ID (or capable) exec
 * of PROGRAM by the bench user leaves (countrun_identity_of), then execs
 * valgrind, which runs PROGRAM's code under them. The tool's processes are
 * counted, each in its own files: callgrind dumps (and zeroes) its counters
 * before every function that creates a process (fork, vfork, clone,
 * posix_spawn*), so a child starts from zero, and before execve, so a
 * process that executes the measured command is counted up to that exec;
 * with --trace-children=no what it executes runs natively, uncounted.
 * Every process writes DIR/cg.PID[.PART] (callgrind's parts) and
 * DIR/vg.PID (valgrind's log: its parent's pid), which countrun_read_dir
 * reads back. MUST: nobody but the run reaches DIR (valgrind writes there
 * as root: root's alone, or shown only in the run's own namespace, R44);
 * valgrind reads no option but its command line (--command-line-only),
 * starts no gdb server (--vgdb=no: its FIFOs would be in /tmp).
 */

/*
 * What a counted run's programs are, unless the caller names others. Debian's
 * /usr/bin/valgrind is a shell script (it adds /usr/lib/debug to LD_LIBRARY_PATH), and a
 * shell started with euid != ruid drops to the real uid: the counted run execs the program
 * it wraps, valgrind.bin, where there is one (countrun_valgrind).
 */
#define COUNTRUN_VALGRIND "/usr/bin/valgrind"
#define COUNTRUN_VALGRIND_BIN "/usr/bin/valgrind.bin"
#define COUNTRUN_SETPRIV "/usr/bin/setpriv"
/* The Debian package that has valgrind. */
#define COUNTRUN_PACKAGE "valgrind"
/*
 * The descriptors valgrind keeps for itself above the client's soft
 * RLIMIT_NOFILE (its N_RESERVED_FDS): with a hard limit at least this much
 * higher, the client sees the soft limit it was given; without, valgrind
 * lowers it and a tool that closes every possible descriptor
 * (RootAsRole 4.0.3) closes fewer.
 */
#define COUNTRUN_VALGRIND_FDS 12u

/* COUNTRUN_VALGRIND_BIN when it is executable, else COUNTRUN_VALGRIND. */
const char *countrun_valgrind(void);

/* Bounds of what one run's files may hold. */
#define COUNTRUN_PROCS_MAX 64u
/* A monitor that polls for the command makes a part per wait (countrun_proc.polls). */
#define COUNTRUN_PARTS_MAX 512u
#define COUNTRUN_NAME_MAX 96u
#define COUNTRUN_HEADER_MAX (64u << 10) /* bytes of a file's header read */

/* The credentials an exec of a program by a user leaves (countrun_identity_of). */
struct countrun_identity {
	uid_t ruid, euid;
	gid_t rgid, egid;
	const gid_t *groups; /* the user's (borrowed) */
	size_t ngroups;
	/* The program has file capabilities: its permitted set within this process's bounding set
	 * (what an exec of it leaves permitted), as setpriv names it ("-all,+chown,+setuid,...");
	 * "" when none. */
	char caps[1024];
	bool setuid, setgid;
};

/*
 * The identity an exec of program by u leaves: the real ids u's, the
 * effective uid (gid) the file's owner (group) when it is set-user-ID
 * (set-group-ID), else u's; its file capabilities' permitted set (all of
 * them, as the prefix's dosr has, or a list). 0, or -1 (eb): the program
 * cannot be examined, or its capabilities are not ones this knows.
 */
int countrun_identity_of(const char *program, const struct proc_user *u,
			 struct countrun_identity *id, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * The counted command's argv (heap, NULL-terminated; free with
 * countrun_argv_free): setpriv with id, valgrind writing into dir, then argv.
 * NULL (eb) when out of memory or a path is too long.
 */
char **countrun_argv(const char *setpriv, const char *valgrind, const struct countrun_identity *id,
		     const char *dir, char *const *argv, struct errbuf *eb);
void countrun_argv_free(char **argv);

/*
 * The same launch with other words in valgrind's place: setpriv with id, then mid (NULL: none),
 * then argv (the subject's: "setpriv ID -- strace -f -o T PROGRAM ARGS" is the launch traced
 * without valgrind). As countrun_argv.
 */
char **countrun_launch_argv(const char *setpriv, const struct countrun_identity *id,
			    char *const *mid, char *const *argv, struct errbuf *eb);

/* One process a counted run saw. */
struct countrun_proc {
	uint32_t pid, ppid;            /* ppid 0: the run's first process */
	char name[COUNTRUN_NAME_MAX];  /* "sudo", "sudo.child1", "sudo.child1.child1" */
	char program[COUNTRUN_NAME_MAX]; /* the last part of the command's first word */
	uint64_t instructions;         /* Ir over its parts but its polls */
	unsigned parts;
	/*
	 * The turns of a wait loop: parts that begin at a dump before wait4 (or waitpid) and end
	 * at the next one (RootAsRole 4.x's monitor spins on waitpid(WNOHANG) while the command
	 * runs: as many turns as the clock gives). Not in instructions; their number and sum.
	 */
	unsigned polls;
	uint64_t poll_instructions;
	bool execs; /* its last part ended at an execve: it executed something (uncounted) */
	/* its last part ended where a process's count may end: an execve, libc's exit(), or
	 * the process's end; else the parts after it were lost (countrun_finish refuses) */
	bool ends_well;
	/* internal: the parts' time ranges, to tie a child to its parent's dump */
	uint64_t first_start, ends[COUNTRUN_PARTS_MAX];
	bool spawn_dump[COUNTRUN_PARTS_MAX];
	bool wait_dump[COUNTRUN_PARTS_MAX]; /* the part ended at a dump before a wait */
	unsigned part_no[COUNTRUN_PARTS_MAX];
	uint64_t part_ir[COUNTRUN_PARTS_MAX];
};

/* What one counted run's files say. Zero it before use. */
struct countrun {
	struct countrun_proc procs[COUNTRUN_PROCS_MAX];
	size_t nprocs;
	uint64_t instructions; /* every process's, summed (polls apart) */
	unsigned polls;        /* every process's wait-loop turns, and their instructions */
	uint64_t poll_instructions;
	char version[32];      /* the files' creator: "callgrind-3.19.0" */
	/* valgrind could not write a process's last part (from its exit() on): its logs say so,
	 * and valgrind then exits 1 whatever the tool did */
	bool final_lost;
};

/*
 * Adds one callgrind output file's header (text, len bytes: at least up to
 * its "summary:" line) to c: its pid, command, part, time range, trigger
 * and Ir summary. name names it in errors. Outside input (the tool chose
 * its command line): every line is bounded, every number checked. 0 or -1.
 */
int countrun_parse_callgrind(struct countrun *c, const char *text, size_t len, const char *name,
			     struct errbuf *eb) __attribute__((warn_unused_result));

/*
 * Adds one valgrind log (text, len bytes) to c: "==PID== Parent PID: N"
 * gives the process's parent. 0 or -1.
 */
int countrun_parse_log(struct countrun *c, const char *text, size_t len, const char *name,
		       struct errbuf *eb) __attribute__((warn_unused_result));

/*
 * After every file: names the processes (the first by its program, each
 * child by its parent's name and its order), checks that each child began
 * where its parent dumped before creating it (else its count would hold its
 * parent's) and sums. 0, or -1 (eb) when the files do not make one tree of
 * processes so tied.
 */
int countrun_finish(struct countrun *c, struct errbuf *eb) __attribute__((warn_unused_result));

/* Reads every cg.* and vg.* file of dir (regular files, not followed) into c, then finishes it. */
int countrun_read_dir(struct countrun *c, const char *dir, struct errbuf *eb)
    __attribute__((warn_unused_result));

/* Removes every regular file of dir (a run's leftovers). 0 or -1. */
int countrun_clear_dir(const char *dir, struct errbuf *eb) __attribute__((warn_unused_result));

/* Adds c's "instructions", "version" and "processes" ([{name, program, instructions, parts,
 * execs}]) to o. */
void countrun_json(const struct countrun *c, cJSON *o);

/*
 * Whether this host gives user-space instruction counts from a hardware
 * counter (perf_event_open of PERF_COUNT_HW_INSTRUCTIONS for this process):
 * 0 yes, else the errno (ENOENT, EOPNOTSUPP: no PMU, as in most VMs).
 */
int countrun_pmu_errno(void);

#endif
