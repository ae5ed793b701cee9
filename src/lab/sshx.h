/* sshx: one host over libssh — connect, pinned host key, key auth, SFTP, exec with streamed output.
 */
#ifndef RARPERF_SSHX_H
#define RARPERF_SSHX_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "errbuf.h"
#include "host_outcome.h" /* why a call failed: a host outcome (HOST_OK: it did not) */

#define SSHX_POLL_MS 100 /* how often a watchdog or a stopping command checks cancel/timeout */
/* How long a running command's loop waits for output before it checks cancel and its idle
 * timeout (each wake of each host's thread costs CPU: at 512 hosts, 100 ms cost seconds). */
#define SSHX_EXEC_WAIT_MS 500
#define SSHX_STDERR_TAIL_BYTES 2048          /* the last bytes of a command's stderr kept */
#define SSHX_DOWNLOAD_MAX_BYTES (256L << 20) /* a larger remote file is an error */

struct sshx_opts {
	const char *host;         /* address or name */
	int port;                 /* 0: 22 */
	const char *user;         /* NULL: the local user name */
	const char *identity;     /* private key file; NULL: the agent, then the default keys */
	const char *known_hosts;  /* the only known_hosts file consulted */
	bool accept_new;          /* record an unknown key (OpenSSH's accept-new) */
	long connect_timeout_ms;  /* connect, key exchange, auth; an SFTP call without progress */
	long idle_timeout_ms;     /* exec: the longest silence, and wait for the exit status */
	const atomic_int *cancel; /* may be NULL; non-zero stops exec (the command gets SIGINT) */
};

struct sshx;

/*
 * Connects, verifies the host key against opts->known_hosts (only
 * SSH_KNOWN_HOSTS_OK passes; an unknown key is recorded when accept_new, a
 * changed key always fails) and authenticates with the identity file or the
 * agent, never prompting. Nothing but key exchange happens before the key is
 * verified. opts is copied (its strings must outlive the handle). Returns a
 * handle, or NULL with *fail and eb filled.
 */
struct sshx *sshx_connect(const struct sshx_opts *opts, enum host_outcome *fail, struct errbuf *eb);

/* Sets the idle timeout of the next sshx_exec calls (opts->idle_timeout_ms). */
void sshx_set_idle_timeout(struct sshx *s, long idle_timeout_ms);

/* Disconnects and frees; NULL is a no-op. */
void sshx_free(struct sshx *s);

/* Creates the remote directory path and its parents (mode 0700). Returns 0 or -1. */
int sshx_mkdirs(struct sshx *s, const char *path, struct errbuf *eb);

/* Copies the local file to the remote path (mode 0600). Returns 0 or -1. */
int sshx_upload(struct sshx *s, const char *local, const char *remote, struct errbuf *eb);

/*
 * Copies the remote file to local atomically (mode 0644), failing when it
 * is not a regular file (a FIFO, a device, a symbolic link) or exceeds
 * max_bytes. A missing remote file fails with *missing set true. Returns 0
 * or -1 (sshx_fail_kind tells a timeout or an interrupt).
 *
 * Every SFTP call (sshx_mkdirs, sshx_upload, sshx_download) runs under a
 * watchdog: no progress for connect_timeout_ms, or *cancel set, cuts the
 * connection, which ends the blocked call; the session is lost after that.
 */
int sshx_download(struct sshx *s, const char *remote, const char *local, long max_bytes,
		  bool *missing, struct errbuf *eb);

/* Receives each chunk of the command's stdout as it arrives; non-zero stops the command. */
typedef int (*sshx_output_cb)(void *ctx, const char *data, size_t len);

/*
 * Runs command in a new channel, passing stdout to out as it arrives and
 * keeping the last SSHX_STDERR_TAIL_BYTES of stderr (sshx_stderr_tail).
 * When out returns non-zero, on cancel or on timeout the command is
 * stopped: a SIGINT signal request, then (OpenSSH refuses signals to root
 * sessions) stop_command, when not NULL, run in a second channel; then the
 * channel is closed. Once the command closed its output, its exit status is
 * awaited at most idle_timeout_ms (and cancel is honoured), then it is
 * stopped the same way (HOST_TIMEOUT). Returns 0 when the command
 * exited, with its status in *exit_status (-1 when killed by a signal), or
 * -1 with *fail and eb filled.
 */
int sshx_exec(struct sshx *s, const char *command, const char *stop_command, sshx_output_cb out,
	      void *ctx, int *exit_status, enum host_outcome *fail, struct errbuf *eb);

/* The kept tail of the last command's stderr (NUL-terminated, possibly empty). */
const char *sshx_stderr_tail(const struct sshx *s);

/*
 * Why the last failed call failed: HOST_TIMEOUT or HOST_INTERRUPTED
 * when a watchdog cut the connection, HOST_CONNECT when it is gone,
 * else otherwise.
 */
enum host_outcome sshx_fail_kind(const struct sshx *s, enum host_outcome otherwise);

#endif
