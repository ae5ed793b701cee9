/* sshx_impl: the handle sshx.c and sshx_sftp.c share (not for other modules). */
#ifndef RARPERF_SSHX_IMPL_H
#define RARPERF_SSHX_IMPL_H

#include <libssh/libssh.h>
#include <libssh/sftp.h>

#include "sshx.h"

/*
 * An SFTP transfer's chunk. libssh keeps each of a session's buffers (the
 * socket's, the packet's, the channel's) at the largest packet it has carried,
 * and a read of N bytes comes back as one packet of N: with 32 KiB chunks every
 * host that had fetched held about 100 KiB more until its session ended, which
 * at 512 hosts fetching at once was the coordinator's peak (bench/labscale.sh,
 * doc/lab.md). 8 KiB costs a round trip per 8 KiB, which a results file of
 * megabytes pays in tenths of a second.
 */
#define SSHX_COPY_CHUNK_BYTES (8 * 1024)
#define SSHX_EXEC_READ_BYTES 4096 /* a running command's output read at once */

/*
 * One host. Life cycle: sshx_connect fills session and fd (connected,
 * verified, authenticated); SFTP calls (sshx_sftp.c) open sftp once and
 * run each under a watchdog that may cut the connection (lost); sshx_exec
 * runs commands in channels of session; sshx_free tears down in reverse.
 */
struct sshx {
	struct sshx_opts opts;
	ssh_session session;
	sftp_session sftp;
	int fd;                 /* the session's socket, for the watchdog */
	enum host_outcome lost; /* set once a watchdog cut the connection */
	char stderr_tail[SSHX_STDERR_TAIL_BYTES + 1];
	size_t stderr_len;
};

/* True when the run was cancelled (SIGINT or SIGTERM). */
bool sshx_cancelled(const struct sshx *s);

#endif
