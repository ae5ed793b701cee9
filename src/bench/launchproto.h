/* launchproto: the messages between rarbench and rarlaunch, the process measured runs start from.
 */
#ifndef RARPERF_LAUNCHPROTO_H
#define RARPERF_LAUNCHPROTO_H

/*
 * Design. rarbench starts rarlaunch (a small static program, installed beside it) once and
 * keeps a SOCK_SEQPACKET socket to it. Per run it sends one request (the prepared command, with
 * the child's descriptors as SCM_RIGHTS) and reads one reply; rarlaunch reads the clock, starts
 * the child from its own small address space (vfork), waits for it and answers with the wall
 * time and wait4's counters. rarbench never shares its memory with a child any more: a child's
 * peak RSS starts from rarlaunch's (about 0.7 MiB) instead of rarbench's, and a child stopped
 * before its exec holds rarlaunch, never rarbench, which waits with a bound and kills both.
 *
 * Both sides are root-run programs of this project; still, every message is parsed as bytes
 * from another process: a fixed size, a magic, a sequence number, every count bounded and
 * every string terminated inside the message (fuzz/fuzz_launchproto.c).
 */

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "errbuf.h"

/* Version 2 added the CPU stall; version 3 took it from the started process's own scheduler
 * account (schedwait.h) instead of its cgroup's PSI. A rarlaunch of another version (an older
 * bin/ beside a newer rarbench) is refused by magic, version and size, never half-read. */
#define LAUNCH_REQ_MAGIC 0x32514c52u   /* "RLQ2" */
#define LAUNCH_REPLY_MAGIC 0x32414c52u /* "RLA2" */
#define LAUNCH_HELLO_MAGIC 0x32484c52u /* "RLH2" */
#define LAUNCH_PROTO_VERSION 3u

/* The largest request (argv, environment, groups): it fits a SOCK_SEQPACKET message. */
#define LAUNCH_REQ_MAX_BYTES (128u * 1024)
/* The most argv + environment entries and supplementary groups a request carries. */
#define LAUNCH_STRV_MAX 4096u
#define LAUNCH_GROUPS_MAX 4096u
#define LAUNCH_LIMITS_MAX 16u
/* Descriptors a run request carries: stdin, stdout, stderr, a mount namespace. */
#define LAUNCH_FDS_MAX 4u

/* Request kinds. */
#define LAUNCH_RUN 1u
#define LAUNCH_STOP 2u /* kill the running child's group and answer (a SIGINT/SIGTERM) */

/* Request flags. */
#define LAUNCH_F_IN 0x01u    /* a descriptor for the child's stdin comes with it */
#define LAUNCH_F_OUT 0x02u   /* ... stdout */
#define LAUNCH_F_ERR 0x04u   /* ... stderr */
#define LAUNCH_F_MNTNS 0x08u /* ... a mount namespace the child joins */
#define LAUNCH_F_USER 0x10u  /* switch to uid/gid/groups before execve */
#define LAUNCH_F_PIN 0x20u   /* limits, umask, cwd, cpus below apply */
#define LAUNCH_F_CWD 0x40u   /* with PIN: a cwd string follows the environment */
#define LAUNCH_F_CPUS 0x80u  /* with PIN: cpus applies */
#define LAUNCH_F_ALL 0xffu

/* Reply flags. */
#define LAUNCH_R_TIMED_OUT 0x01u    /* killed at timeout_ms with its process group */
#define LAUNCH_R_STOPPED 0x02u      /* killed on a LAUNCH_STOP */
#define LAUNCH_R_EXEC_FAILED 0x04u  /* the child could not exec: err says why */
#define LAUNCH_R_SPAWN_FAILED 0x08u /* no child was started: err says why */
#define LAUNCH_R_STALL 0x10u        /* stall_ns is known (hello: the kernel keeps it) */
#define LAUNCH_R_ALL 0x1fu

struct launch_limit {
	uint32_t resource, pad;
	uint64_t soft, hard;
};

/* The fixed part of a request; then groups (n_groups x uint32), then the NUL-terminated
 * strings: path, argv (nargv), environment (nenv), cwd (with LAUNCH_F_CWD). */
struct launch_req_hdr {
	uint32_t magic, kind, seq, flags;
	uint32_t timeout_ms; /* 0: no deadline */
	uint32_t uid, gid, n_groups;
	uint32_t nargv, nenv, nlimits;
	int32_t umask; /* < 0: inherited */
	struct launch_limit limits[LAUNCH_LIMITS_MAX];
	cpu_set_t cpus;
	uint32_t strings_len;
	uint32_t pad;
};

/* A parsed run request: pointers into the caller's message buffer and arrays. */
struct launch_job {
	uint32_t seq, flags, timeout_ms;
	uid_t uid;
	gid_t gid;
	const gid_t *groups;
	size_t n_groups;
	const char *path;
	char **argv; /* NULL-terminated, in the caller's array */
	char **envp; /* NULL-terminated, in the caller's array */
	size_t nlimits;
	const struct launch_limit *limits;
	int umask;
	const char *cwd;
	const cpu_set_t *cpus;
};

/* The reply to a request, and (magic LAUNCH_HELLO_MAGIC) rarlaunch's first message. */
struct launch_reply {
	uint32_t magic, seq;
	int32_t status; /* raw wait status; hello: 0 */
	uint32_t flags;
	int32_t err; /* errno of a failed exec or spawn; hello: of the network pin, 0 when made */
	uint32_t pid;
	uint64_t wall_ns, user_ns, system_ns;
	uint64_t minflt, majflt, maxrss_kib, inblock, nvcsw, nivcsw;
	/* With LAUNCH_R_STALL: the time the started process was runnable and waited for a CPU
	 * (its run delay, schedwait.h), read outside the timed window; else 0. */
	uint64_t stall_ns;
	uint32_t version;  /* LAUNCH_PROTO_VERSION */
	int32_t stall_err; /* hello without LAUNCH_R_STALL: why no stall is known (errno) */
};

/* A command's request, as rarbench builds it once per prepared command. */
struct launch_spec {
	uint32_t flags, timeout_ms, uid, gid;
	const gid_t *groups;
	size_t n_groups;
	const char *path;
	char *const *argv;
	char *const *envp;
	size_t nlimits;
	const struct launch_limit *limits;
	int umask;
	const char *cwd;
	const cpu_set_t *cpus;
};

/*
 * The bytes of spec's request (seq 0, kind LAUNCH_RUN) into a new heap buffer *out of *len
 * bytes. Returns 0, or -1 (eb) when out of memory, when the path is not absolute or argv
 * empty (what launch_req_parse refuses), or when the command holds more than
 * LAUNCH_STRV_MAX strings, LAUNCH_GROUPS_MAX groups or LAUNCH_REQ_MAX_BYTES bytes.
 */
int launch_req_build(const struct launch_spec *spec, unsigned char **out, size_t *len,
		     struct errbuf *eb);

/* Sets the sequence number of a built request. */
void launch_req_set_seq(unsigned char *req, uint32_t seq);

/*
 * Parses a run request of len bytes that came with nfds descriptors into *job; argv and envp
 * get pointers into buf, stored in strv (LAUNCH_STRV_MAX + 2 entries). Returns 0, or -1 (eb)
 * when anything is out of bounds: size, magic, kind, unknown flags, descriptors not matching
 * the flags, counts, a string not terminated inside the message.
 */
int launch_req_parse(const unsigned char *buf, size_t len, size_t nfds, struct launch_job *job,
		     char **strv, struct errbuf *eb);

/*
 * Checks a reply of len bytes: exactly sizeof(struct launch_reply), the magic, seq as sent,
 * LAUNCH_PROTO_VERSION, known flags, a stall no longer than the wall time of a run, a wait status
 * that is an exit or a death by signal (unless the spawn failed), an errno in range. Copies it into
 * *out. 0, or -1 (eb: what is wrong).
 */
int launch_reply_parse(const void *buf, size_t len, uint32_t magic, uint32_t seq,
		       struct launch_reply *out, struct errbuf *eb);

#endif
