/* sshx: one host over libssh (blocking calls bounded by timeouts; exec is a poll loop on the
 * channel). */
#include "sshx.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "sshx_impl.h"

#define STOP_GRACE_MS 2000 /* how long a stopped command may take to exit after SIGINT */

/* Serialises appends to a known_hosts file by hosts accepted concurrently. */
static pthread_mutex_t known_hosts_lock = PTHREAD_MUTEX_INITIALIZER;

bool sshx_cancelled(const struct sshx *s)
{
	return s->opts.cancel != NULL && atomic_load(s->opts.cancel) != 0;
}

/* A libssh failure: "timeout" when libssh says so, else lost connection or the given kind. */
static enum host_outcome classify(const struct sshx *s, enum host_outcome otherwise)
{
	const char *msg = ssh_get_error(s->session);

	if (s->lost != HOST_OK)
		return s->lost;
	if (msg != NULL && (strstr(msg, "imeout") != NULL || strstr(msg, "timed out") != NULL))
		return HOST_TIMEOUT;
	if (!ssh_is_connected(s->session))
		return HOST_CONNECT;
	return otherwise;
}

void sshx_set_idle_timeout(struct sshx *s, long idle_timeout_ms)
{
	s->opts.idle_timeout_ms = idle_timeout_ms;
}

void sshx_free(struct sshx *s)
{
	if (s == NULL)
		return;
	if (s->sftp != NULL)
		sftp_free(s->sftp);
	if (s->session != NULL) {
		if (ssh_is_connected(s->session))
			ssh_disconnect(s->session);
		ssh_free(s->session);
	}
	free(s);
}

static int verify_host_key(struct sshx *s, enum host_outcome *fail, struct errbuf *eb)
{
	enum ssh_known_hosts_e st;
	int rc = -1;

	*fail = HOST_HOSTKEY;
	pthread_mutex_lock(&known_hosts_lock);
	st = ssh_session_is_known_server(s->session);
	switch (st) {
	case SSH_KNOWN_HOSTS_OK:
		rc = 0;
		break;
	case SSH_KNOWN_HOSTS_CHANGED:
		errbuf_set(eb, "host key for %s differs from the one in %s", s->opts.host,
			   s->opts.known_hosts);
		break;
	case SSH_KNOWN_HOSTS_OTHER:
		errbuf_set(eb, "%s offered a key of another type than the one in %s", s->opts.host,
			   s->opts.known_hosts);
		break;
	case SSH_KNOWN_HOSTS_NOT_FOUND:
	case SSH_KNOWN_HOSTS_UNKNOWN:
		if (!s->opts.accept_new) {
			errbuf_set(eb,
				   "host key for %s is not in %s (use --accept-new to record it)",
				   s->opts.host, s->opts.known_hosts);
			break;
		}
		if (ssh_session_update_known_hosts(s->session) != SSH_OK) {
			errbuf_set(eb, "cannot record the host key of %s in %s: %s", s->opts.host,
				   s->opts.known_hosts, ssh_get_error(s->session));
			break;
		}
		rc = 0;
		break;
	case SSH_KNOWN_HOSTS_ERROR:
	default:
		errbuf_set(eb, "cannot check the host key of %s: %s", s->opts.host,
			   ssh_get_error(s->session));
		break;
	}
	pthread_mutex_unlock(&known_hosts_lock);
	return rc;
}

static int authenticate(struct sshx *s, enum host_outcome *fail, struct errbuf *eb)
{
	ssh_key key = NULL;
	int rc;

	*fail = HOST_AUTH;
	if (s->opts.identity != NULL) {
		/* no passphrase and no auth callback: an encrypted key fails, never prompts */
		if (ssh_pki_import_privkey_file(s->opts.identity, NULL, NULL, NULL, &key) != SSH_OK)
			return errbuf_set(eb, "cannot read identity %s (missing or encrypted)",
					  s->opts.identity);
		rc = ssh_userauth_publickey(s->session, NULL, key);
		ssh_key_free(key);
	} else {
		/* the agent first, then ~/.ssh/id_* without passphrase */
		rc = ssh_userauth_publickey_auto(s->session, NULL, NULL);
	}
	if (rc == SSH_AUTH_SUCCESS)
		return 0;
	if (rc == SSH_AUTH_ERROR)
		*fail = classify(s, HOST_AUTH);
	return errbuf_set(eb, "%s: public key refused%s%s", s->opts.host,
			  rc == SSH_AUTH_ERROR ? ": " : "",
			  rc == SSH_AUTH_ERROR ? ssh_get_error(s->session) : "");
}

struct sshx *sshx_connect(const struct sshx_opts *opts, enum host_outcome *fail, struct errbuf *eb)
{
	struct sshx *s = calloc(1, sizeof(*s));
	long timeout_s, timeout_us;

	int port = opts->port > 0 ? opts->port : 22, no = 0, yes = 1;

	*fail = HOST_CONNECT;
	if (s == NULL) {
		errbuf_set(eb, "out of memory");
		return NULL;
	}
	s->opts = *opts;
	s->fd = -1;
	s->session = ssh_new();
	if (s->session == NULL) {
		errbuf_set(eb, "out of memory");
		goto fail;
	}
	timeout_s = opts->connect_timeout_ms / 1000;
	timeout_us = (opts->connect_timeout_ms % 1000) * 1000;
	if (ssh_options_set(s->session, SSH_OPTIONS_HOST, opts->host) < 0 ||
	    ssh_options_set(s->session, SSH_OPTIONS_PORT, &port) < 0 ||
	    (opts->user != NULL && ssh_options_set(s->session, SSH_OPTIONS_USER, opts->user) < 0) ||
	    ssh_options_set(s->session, SSH_OPTIONS_PROCESS_CONFIG, &no) < 0 ||
	    /* SFTP is request/response: without TCP_NODELAY each small write waits on Nagle */
	    ssh_options_set(s->session, SSH_OPTIONS_NODELAY, &yes) < 0 ||
	    ssh_options_set(s->session, SSH_OPTIONS_KNOWNHOSTS, opts->known_hosts) < 0 ||
	    ssh_options_set(s->session, SSH_OPTIONS_GLOBAL_KNOWNHOSTS, "/dev/null") < 0 ||
	    ssh_options_set(s->session, SSH_OPTIONS_TIMEOUT, &timeout_s) < 0 ||
	    ssh_options_set(s->session, SSH_OPTIONS_TIMEOUT_USEC, &timeout_us) < 0) {
		errbuf_set(eb, "%s: bad SSH option: %s", opts->host, ssh_get_error(s->session));
		goto fail;
	}
	if (ssh_connect(s->session) != SSH_OK) {
		*fail = classify(s, HOST_CONNECT);
		errbuf_set(eb, "%s:%d: %s", opts->host, port, ssh_get_error(s->session));
		goto fail;
	}
	/*
	 * libssh opens its socket without SOCK_CLOEXEC: a program another thread
	 * forks (job_local) must not inherit this host's session
	 */
	s->fd = ssh_get_fd(s->session);
	if (s->fd < 0 || fcntl(s->fd, F_SETFD, FD_CLOEXEC) < 0) {
		errbuf_set(eb, "%s: cannot set close-on-exec on the session's socket", opts->host);
		goto fail;
	}
	if (verify_host_key(s, fail, eb) < 0 || authenticate(s, fail, eb) < 0)
		goto fail;
	*fail = HOST_OK;
	return s;
fail:
	sshx_free(s);
	return NULL;
}

enum host_outcome sshx_fail_kind(const struct sshx *s, enum host_outcome otherwise)
{
	if (s->lost != HOST_OK)
		return s->lost;
	if (!ssh_is_connected(s->session))
		return HOST_CONNECT;
	return otherwise;
}

const char *sshx_stderr_tail(const struct sshx *s)
{
	return s->stderr_tail;
}

static void keep_stderr(struct sshx *s, const char *data, size_t len)
{
	const size_t cap = SSHX_STDERR_TAIL_BYTES;

	if (len >= cap) {
		memcpy(s->stderr_tail, data + len - cap, cap);
		s->stderr_len = cap;
	} else {
		if (s->stderr_len + len > cap) {
			size_t drop = s->stderr_len + len - cap;
			memmove(s->stderr_tail, s->stderr_tail + drop, s->stderr_len - drop);
			s->stderr_len -= drop;
		}
		memcpy(s->stderr_tail + s->stderr_len, data, len);
		s->stderr_len += len;
	}
	s->stderr_tail[s->stderr_len] = '\0';
}

/* Reads what stderr holds now; returns bytes read or -1 on a lost connection. */
static int drain_stderr(struct sshx *s, ssh_channel ch, char *buf, size_t cap)
{
	int total = 0, n;

	while ((n = ssh_channel_poll(ch, 1)) > 0) {
		n = ssh_channel_read_nonblocking(ch, buf, (uint32_t)cap, 1);
		if (n <= 0)
			break;
		keep_stderr(s, buf, (size_t)n);
		total += n;
	}
	return n == SSH_ERROR ? -1 : total;
}

/* Waits up to SSHX_POLL_MS for ch's output and drops what came: false once ch ended or failed. */
static bool discard_stdout(ssh_channel ch, char *buf, size_t cap)
{
	int n = ssh_channel_poll_timeout(ch, SSHX_POLL_MS, 0);

	if (n == SSH_EOF || n == SSH_ERROR)
		return false;
	return !(n > 0 && ssh_channel_read_nonblocking(ch, buf, (uint32_t)cap, 0) < 0);
}

/* Runs cmd in its own channel, waiting (bounded) for it to finish; output discarded. */
static void run_quietly(struct sshx *s, const char *cmd, char *buf, size_t cap)
{
	ssh_channel ch = ssh_channel_new(s->session);
	long deadline = clock_now_ms() + STOP_GRACE_MS;

	if (ch == NULL)
		return;
	if (ssh_channel_open_session(ch) == SSH_OK && ssh_channel_request_exec(ch, cmd) == SSH_OK) {
		while (clock_now_ms() < deadline && discard_stdout(ch, buf, cap))
			;
		ssh_channel_close(ch);
	}
	ssh_channel_free(ch);
}

/* Sends SIGINT and waits (bounded) for the command to go away, discarding its output. */
static void stop_command(struct sshx *s, ssh_channel ch, const char *stop_cmd, char *buf,
			 size_t cap)
{
	long deadline = clock_now_ms() + STOP_GRACE_MS;

	ssh_channel_request_send_signal(ch, "INT");
	if (stop_cmd != NULL)
		run_quietly(s, stop_cmd, buf, cap);
	while (clock_now_ms() < deadline && discard_stdout(ch, buf, cap) &&
	       drain_stderr(s, ch, buf, cap) >= 0)
		;
}

enum exit_wait { EXIT_STATUS_KNOWN, EXIT_STATUS_LOST, EXIT_STATUS_CANCELLED, EXIT_STATUS_TIMEOUT };

/* Sets the timeout of libssh's blocking calls on the session. */
static void session_timeout(struct sshx *s, long ms)
{
	long sec = ms / 1000, usec = (ms % 1000) * 1000;

	ssh_options_set(s->session, SSH_OPTIONS_TIMEOUT, &sec);
	ssh_options_set(s->session, SSH_OPTIONS_TIMEOUT_USEC, &usec);
}

/*
 * Gives back the pages of this thread's stack below the current frame. The
 * handshake and the SFTP transfers run deep in libssh and OpenSSL (30-90 KiB
 * of stack), and a page once touched stays resident; the command that follows
 * is the longest wait of a host, with all the lab's threads waiting at once.
 * At 512 hosts this took rarlab's peak RSS from 115-120 MiB to 109-110 MiB
 * (bench/labscale.sh, doc/lab.md). Pages below the stack pointer hold nothing
 * (a signal handler would fault fresh ones); a margin of 4 pages is kept.
 */
static void release_stack_below_here(void)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), start, end;
	pthread_attr_t a;
	size_t size;
	void *low;
	char here;

	if (pthread_getattr_np(pthread_self(), &a) != 0)
		return;
	if (pthread_attr_getstack(&a, &low, &size) != 0) {
		pthread_attr_destroy(&a);
		return;
	}
	pthread_attr_destroy(&a);
	start = ((uintptr_t)low + page - 1) & ~(page - 1);
	end = ((uintptr_t)&here - 4 * page) & ~(page - 1);
	if (end > start)
		(void)madvise((void *)start, end - start, MADV_DONTNEED);
}

/*
 * After EOF: waits for the exit status (or the channel's close, *status -1:
 * killed by a signal) at most idle_timeout_ms, in steps of SSHX_POLL_MS so
 * that cancel is seen. libssh's ssh_channel_get_exit_status blocks for the
 * session timeout, lowered to one step meanwhile, and says -1 both for "not
 * yet" and for an error: the connection state tells them apart.
 */
static enum exit_wait wait_exit_status(struct sshx *s, ssh_channel ch, int *status)
{
	long deadline = clock_now_ms() + s->opts.idle_timeout_ms;
	enum exit_wait w;

	session_timeout(s, SSHX_POLL_MS);
	for (;;) {
		*status = ssh_channel_get_exit_status(ch);
		if (*status != -1) {
			w = EXIT_STATUS_KNOWN;
			break;
		}
		if (!ssh_is_connected(s->session)) {
			w = EXIT_STATUS_LOST;
			break;
		}
		if (ssh_channel_is_closed(ch)) {
			w = EXIT_STATUS_KNOWN;
			break;
		}
		if (sshx_cancelled(s)) {
			w = EXIT_STATUS_CANCELLED;
			break;
		}
		if (s->opts.idle_timeout_ms > 0 && clock_now_ms() > deadline) {
			w = EXIT_STATUS_TIMEOUT;
			break;
		}
	}
	session_timeout(s, s->opts.connect_timeout_ms);
	return w;
}

/* ~95 lines: one channel's life cycle behind one cleanup label (STYLE 5); its waits are helpers. */
int sshx_exec(struct sshx *s, const char *command, const char *stop_cmd, sshx_output_cb out,
	      void *ctx, int *exit_status, enum host_outcome *fail, struct errbuf *eb)
{
	ssh_channel ch = NULL;
	char *buf = NULL;
	long last = clock_now_ms();
	int rc = -1, n;

	*fail = HOST_EXEC;
	*exit_status = -1;
	s->stderr_len = 0;
	s->stderr_tail[0] = '\0';
	buf = malloc(SSHX_EXEC_READ_BYTES);
	ch = ssh_channel_new(s->session);
	if (buf == NULL || ch == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	if (ssh_channel_open_session(ch) != SSH_OK ||
	    ssh_channel_request_exec(ch, command) != SSH_OK) {
		*fail = classify(s, HOST_EXEC);
		errbuf_set(eb, "cannot start the command: %s", ssh_get_error(s->session));
		goto out;
	}
	release_stack_below_here();
	for (;;) {
		if (sshx_cancelled(s)) {
			stop_command(s, ch, stop_cmd, buf, SSHX_EXEC_READ_BYTES);
			*fail = HOST_INTERRUPTED;
			errbuf_set(eb, "interrupted");
			goto out;
		}
		n = ssh_channel_poll_timeout(ch, SSHX_EXEC_WAIT_MS, 0);
		if (n == SSH_ERROR)
			goto lost;
		if (n > 0) {
			n = ssh_channel_read_nonblocking(ch, buf, SSHX_EXEC_READ_BYTES, 0);
			if (n < 0)
				goto lost;
			last = clock_now_ms();
			if (n > 0 && out(ctx, buf, (size_t)n) != 0) {
				stop_command(s, ch, stop_cmd, buf, SSHX_EXEC_READ_BYTES);
				errbuf_set(eb, "command output rejected");
				goto out;
			}
		}
		int e = drain_stderr(s, ch, buf, SSHX_EXEC_READ_BYTES);
		if (e < 0)
			goto lost;
		if (e > 0)
			last = clock_now_ms();
		if (n == SSH_EOF)
			break;
		if (s->opts.idle_timeout_ms > 0 &&
		    clock_now_ms() - last > s->opts.idle_timeout_ms) {
			stop_command(s, ch, stop_cmd, buf, SSHX_EXEC_READ_BYTES);
			*fail = HOST_TIMEOUT;
			errbuf_set(eb, "no output for %ld s", s->opts.idle_timeout_ms / 1000);
			goto out;
		}
	}
	/*
	 * The command closed its output: its exit status follows, unless it goes
	 * on running. Wait for it as long as for output, then stop it.
	 */
	switch (wait_exit_status(s, ch, exit_status)) {
	case EXIT_STATUS_KNOWN:
		*fail = HOST_OK;
		rc = 0;
		goto out;
	case EXIT_STATUS_LOST:
		goto lost;
	case EXIT_STATUS_CANCELLED:
		stop_command(s, ch, stop_cmd, buf, SSHX_EXEC_READ_BYTES);
		*fail = HOST_INTERRUPTED;
		errbuf_set(eb, "interrupted");
		goto out;
	case EXIT_STATUS_TIMEOUT:
		stop_command(s, ch, stop_cmd, buf, SSHX_EXEC_READ_BYTES);
		*fail = HOST_TIMEOUT;
		errbuf_set(eb, "closed its output but did not exit within %ld s: stopped",
			   s->opts.idle_timeout_ms / 1000);
		goto out;
	}
lost:
	*fail = classify(s, HOST_CONNECT);
	if (*fail == HOST_EXEC)
		*fail = HOST_CONNECT;
	errbuf_set(eb, "connection lost: %s", ssh_get_error(s->session));
out:
	if (ch != NULL) {
		if (ssh_channel_is_open(ch))
			ssh_channel_close(ch);
		ssh_channel_free(ch);
	}
	free(buf);
	return rc;
}
