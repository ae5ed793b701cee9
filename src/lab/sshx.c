/* sshx: one host over libssh (blocking calls bounded by timeouts; exec is a poll loop on the
 * channel). */
#include "sshx.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>

#include <libssh/libssh.h>
#include <libssh/sftp.h>

#include "atomicfile.h"
#include "clock.h"

#define COPY_CHUNK_BYTES (32 * 1024)
#define STOP_GRACE_MS 2000            /* how long a stopped command may take to exit after SIGINT */
#define GUARD_STACK_BYTES (64 * 1024) /* the SFTP watchdog thread's stack */

/* Serialises appends to a known_hosts file by hosts accepted concurrently. */
static pthread_mutex_t known_hosts_lock = PTHREAD_MUTEX_INITIALIZER;

struct sshx {
	struct sshx_opts opts;
	ssh_session session;
	sftp_session sftp;
	int fd;              /* the session's socket, for the watchdog */
	enum sshx_fail lost; /* set once a watchdog cut the connection */
	char stderr_tail[SSHX_STDERR_TAIL_BYTES + 1];
	size_t stderr_len;
};

/*
 * libssh's SFTP calls block without a bound of their own (a request the
 * server never answers, e.g. an open of a FIFO, loops on a read that times
 * out with no data). A guard is a watchdog thread beside one SFTP operation:
 * when no progress was reported for connect_timeout_ms, or on cancel, it
 * shuts the socket down, which makes the blocked call fail; the session is
 * lost from then on (s->lost). guard_end joins it before the caller goes on,
 * so it never touches the socket after the operation.
 */
struct guard {
	struct sshx *s;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	long last_ms;
	bool done, running;
	enum sshx_fail fired; /* SSHX_FAIL_NONE, _TIMEOUT or _CANCELLED */
};

static bool cancelled(const struct sshx *s)
{
	return s->opts.cancel != NULL && atomic_load(s->opts.cancel) != 0;
}

static void *guard_main(void *arg)
{
	struct guard *g = arg;

	pthread_mutex_lock(&g->lock);
	while (!g->done) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += SSHX_POLL_MS * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&g->cond, &g->lock, &ts);
		if (g->done)
			break;
		if (cancelled(g->s) ||
		    clock_now_ms() - g->last_ms > g->s->opts.connect_timeout_ms) {
			g->fired = cancelled(g->s) ? SSHX_FAIL_CANCELLED : SSHX_FAIL_TIMEOUT;
			/* the blocked libssh read in the other thread sees the end of the stream */
			shutdown(g->s->fd, SHUT_RDWR);
			break;
		}
	}
	pthread_mutex_unlock(&g->lock);
	return NULL;
}

/* Starts a guard over the operation that follows. Returns 0 or -1 (eb filled). */
static int guard_begin(struct sshx *s, struct guard *g, struct errbuf *eb)
{
	pthread_condattr_t ca;
	pthread_attr_t attr;
	int err;

	memset(g, 0, sizeof(*g));
	g->s = s;
	g->last_ms = clock_now_ms();
	if (s->lost != SSHX_FAIL_NONE)
		return errbuf_set(eb, "%s: connection already lost", s->opts.host);
	pthread_mutex_init(&g->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&g->cond, &ca);
	pthread_condattr_destroy(&ca);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, GUARD_STACK_BYTES);
	err = pthread_create(&g->thread, &attr, guard_main, g);
	pthread_attr_destroy(&attr);
	if (err != 0) {
		pthread_cond_destroy(&g->cond);
		pthread_mutex_destroy(&g->lock);
		return errbuf_set_errno(eb, err, "cannot start the SFTP watchdog");
	}
	g->running = true;
	return 0;
}

/* The operation made progress: the silence counts from now. */
static void guard_progress(struct guard *g)
{
	pthread_mutex_lock(&g->lock);
	g->last_ms = clock_now_ms();
	pthread_mutex_unlock(&g->lock);
}

/*
 * Stops and joins the guard. When it fired, the session is lost: returns -1
 * with eb saying why (overwriting the operation's own error), else 0.
 */
static int guard_end(struct sshx *s, struct guard *g, const char *what, struct errbuf *eb)
{
	if (!g->running)
		return 0;
	pthread_mutex_lock(&g->lock);
	g->done = true;
	pthread_cond_signal(&g->cond);
	pthread_mutex_unlock(&g->lock);
	pthread_join(g->thread, NULL);
	pthread_cond_destroy(&g->cond);
	pthread_mutex_destroy(&g->lock);
	g->running = false;
	if (g->fired == SSHX_FAIL_NONE)
		return 0;
	s->lost = g->fired;
	if (g->fired == SSHX_FAIL_CANCELLED)
		return errbuf_set(eb, "%s: interrupted", what);
	return errbuf_set(eb, "%s: no answer from %s for %ld s", what, s->opts.host,
			  s->opts.connect_timeout_ms / 1000);
}

/* A libssh failure: "timeout" when libssh says so, else lost connection or the given kind. */
static enum sshx_fail classify(const struct sshx *s, enum sshx_fail otherwise)
{
	const char *msg = ssh_get_error(s->session);

	if (s->lost != SSHX_FAIL_NONE)
		return s->lost;
	if (msg != NULL && (strstr(msg, "imeout") != NULL || strstr(msg, "timed out") != NULL))
		return SSHX_FAIL_TIMEOUT;
	if (!ssh_is_connected(s->session))
		return SSHX_FAIL_CONNECT;
	return otherwise;
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

static int verify_host_key(struct sshx *s, enum sshx_fail *fail, struct errbuf *eb)
{
	enum ssh_known_hosts_e st;
	int rc = -1;

	*fail = SSHX_FAIL_HOSTKEY;
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

static int authenticate(struct sshx *s, enum sshx_fail *fail, struct errbuf *eb)
{
	ssh_key key = NULL;
	int rc;

	*fail = SSHX_FAIL_AUTH;
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
		*fail = classify(s, SSHX_FAIL_AUTH);
	return errbuf_set(eb, "%s: public key refused%s%s", s->opts.host,
			  rc == SSH_AUTH_ERROR ? ": " : "",
			  rc == SSH_AUTH_ERROR ? ssh_get_error(s->session) : "");
}

struct sshx *sshx_connect(const struct sshx_opts *opts, enum sshx_fail *fail, struct errbuf *eb)
{
	struct sshx *s = calloc(1, sizeof(*s));
	long timeout_s, timeout_us;

	int port = opts->port > 0 ? opts->port : 22, no = 0, yes = 1;

	*fail = SSHX_FAIL_CONNECT;
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
		*fail = classify(s, SSHX_FAIL_CONNECT);
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
	*fail = SSHX_FAIL_NONE;
	return s;
fail:
	sshx_free(s);
	return NULL;
}

static int sftp_ready(struct sshx *s, struct errbuf *eb)
{
	if (s->sftp != NULL)
		return 0;
	s->sftp = sftp_new(s->session);
	if (s->sftp == NULL)
		return errbuf_set(eb, "SFTP: %s", ssh_get_error(s->session));
	if (sftp_init(s->sftp) != SSH_OK) {
		errbuf_set(eb, "SFTP: %s", ssh_get_error(s->session));
		sftp_free(s->sftp);
		s->sftp = NULL;
		return -1;
	}
	return 0;
}

/* sshx_mkdirs without the guard. */
static int mkdirs(struct sshx *s, const char *path, struct errbuf *eb)
{
	char buf[1024];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(buf))
		return errbuf_set(eb, "bad remote directory '%s'", path);
	if (sftp_ready(s, eb) < 0)
		return -1;
	for (size_t i = 1; i <= len; i++) {
		if (path[i] != '/' && path[i] != '\0')
			continue;
		memcpy(buf, path, i);
		buf[i] = '\0';
		if (sftp_mkdir(s->sftp, buf, 0700) == 0)
			continue;
		/* OpenSSH's server says only "failure" for an existing directory */
		sftp_attributes a = sftp_stat(s->sftp, buf);
		bool dir = a != NULL && a->type == SSH_FILEXFER_TYPE_DIRECTORY;
		sftp_attributes_free(a);
		if (!dir)
			return errbuf_set(eb, "SFTP mkdir %s: %s", buf, ssh_get_error(s->session));
	}
	return 0;
}

int sshx_mkdirs(struct sshx *s, const char *path, struct errbuf *eb)
{
	struct guard g;
	int rc;

	if (guard_begin(s, &g, eb) < 0)
		return -1;
	rc = mkdirs(s, path, eb);
	if (guard_end(s, &g, "SFTP mkdir", eb) < 0)
		rc = -1;
	return rc;
}

/* sshx_upload without the guard. */
static int upload(struct sshx *s, struct guard *g, const char *local, const char *remote,
		  struct errbuf *eb)
{
	char *buf = NULL;
	FILE *in = NULL;
	sftp_file out = NULL;
	size_t n;
	int rc = -1;

	if (sftp_ready(s, eb) < 0)
		return -1;
	in = fopen(local, "rbe");
	if (in == NULL)
		return errbuf_set_errno(eb, errno, "%s", local);
	buf = malloc(COPY_CHUNK_BYTES);
	if (buf == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	out = sftp_open(s->sftp, remote, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (out == NULL) {
		errbuf_set(eb, "SFTP open %s: %s", remote, ssh_get_error(s->session));
		goto out;
	}
	while ((n = fread(buf, 1, COPY_CHUNK_BYTES, in)) > 0) {
		if (sftp_write(out, buf, n) != (ssize_t)n) {
			errbuf_set(eb, "SFTP write %s: %s", remote, ssh_get_error(s->session));
			goto out;
		}
		guard_progress(g);
	}
	if (ferror(in)) {
		errbuf_set_errno(eb, errno, "%s", local);
		goto out;
	}
	rc = 0;
out:
	if (out != NULL && sftp_close(out) != SSH_NO_ERROR && rc == 0)
		rc = errbuf_set(eb, "SFTP close %s: %s", remote, ssh_get_error(s->session));
	free(buf);
	fclose(in);
	return rc;
}

int sshx_upload(struct sshx *s, const char *local, const char *remote, struct errbuf *eb)
{
	struct guard g;
	int rc;

	if (guard_begin(s, &g, eb) < 0)
		return -1;
	rc = upload(s, &g, local, remote, eb);
	if (guard_end(s, &g, "SFTP upload", eb) < 0)
		rc = -1;
	return rc;
}

/* sshx_download without the guard. */
static int download(struct sshx *s, struct guard *g, const char *remote, const char *local,
		    long max_bytes, bool *missing, struct errbuf *eb)
{
	struct atomicfile *af = NULL;
	sftp_attributes a = NULL;
	sftp_file in = NULL;
	char *buf = NULL;
	long total = 0;
	ssize_t n;
	int rc = -1;

	if (sftp_ready(s, eb) < 0)
		return -1;
	/* only a regular file: the open of a FIFO or a device would block or never end */
	a = sftp_lstat(s->sftp, remote);
	if (a == NULL) {
		*missing = sftp_get_error(s->sftp) == SSH_FX_NO_SUCH_FILE;
		return errbuf_set(eb, "SFTP stat %s: %s", remote,
				  *missing ? "no such file" : ssh_get_error(s->session));
	}
	if (a->type != SSH_FILEXFER_TYPE_REGULAR) {
		sftp_attributes_free(a);
		return errbuf_set(eb, "%s: not a regular file", remote);
	}
	if ((a->flags & SSH_FILEXFER_ATTR_SIZE) && a->size > (uint64_t)max_bytes) {
		sftp_attributes_free(a);
		return errbuf_set(eb, "%s is larger than %ld bytes", remote, max_bytes);
	}
	sftp_attributes_free(a);
	guard_progress(g);
	in = sftp_open(s->sftp, remote, O_RDONLY, 0);
	if (in == NULL) {
		*missing = sftp_get_error(s->sftp) == SSH_FX_NO_SUCH_FILE;
		return errbuf_set(eb, "SFTP open %s: %s", remote,
				  *missing ? "no such file" : ssh_get_error(s->session));
	}
	buf = malloc(COPY_CHUNK_BYTES);
	af = atomicfile_open(local, 0644, eb);
	if (buf == NULL || af == NULL) {
		if (buf == NULL)
			errbuf_set(eb, "out of memory");
		goto out;
	}
	while ((n = sftp_read(in, buf, COPY_CHUNK_BYTES)) > 0) {
		guard_progress(g);
		total += n;
		if (total > max_bytes) {
			errbuf_set(eb, "%s is larger than %ld bytes", remote, max_bytes);
			goto out;
		}
		if (fwrite(buf, 1, (size_t)n, atomicfile_stream(af)) != (size_t)n) {
			errbuf_set_errno(eb, errno, "%s", local);
			goto out;
		}
	}
	if (n < 0) {
		errbuf_set(eb, "SFTP read %s: %s", remote, ssh_get_error(s->session));
		goto out;
	}
	rc = atomicfile_commit(af, eb);
	af = NULL;
out:
	atomicfile_abort(af);
	free(buf);
	sftp_close(in);
	return rc;
}

int sshx_download(struct sshx *s, const char *remote, const char *local, long max_bytes,
		  bool *missing, struct errbuf *eb)
{
	struct guard g;
	int rc;

	*missing = false;
	if (guard_begin(s, &g, eb) < 0)
		return -1;
	rc = download(s, &g, remote, local, max_bytes, missing, eb);
	if (guard_end(s, &g, "SFTP download", eb) < 0) {
		*missing = false;
		rc = -1;
	}
	return rc;
}

enum sshx_fail sshx_fail_kind(const struct sshx *s, enum sshx_fail otherwise)
{
	if (s->lost != SSHX_FAIL_NONE)
		return s->lost;
	if (!ssh_is_connected(s->session))
		return SSHX_FAIL_CONNECT;
	return otherwise;
}

bool sshx_connected(const struct sshx *s)
{
	return ssh_is_connected(s->session) != 0;
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

/* Runs cmd in its own channel, waiting (bounded) for it to finish; output discarded. */
static void run_quietly(struct sshx *s, const char *cmd, char *buf, size_t cap)
{
	ssh_channel ch = ssh_channel_new(s->session);
	long deadline = clock_now_ms() + STOP_GRACE_MS;

	if (ch == NULL)
		return;
	if (ssh_channel_open_session(ch) == SSH_OK && ssh_channel_request_exec(ch, cmd) == SSH_OK) {
		while (clock_now_ms() < deadline) {
			int n = ssh_channel_poll_timeout(ch, SSHX_POLL_MS, 0);
			if (n == SSH_EOF || n == SSH_ERROR)
				break;
			if (n > 0 && ssh_channel_read_nonblocking(ch, buf, (uint32_t)cap, 0) < 0)
				break;
		}
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
	while (clock_now_ms() < deadline) {
		int n = ssh_channel_poll_timeout(ch, SSHX_POLL_MS, 0);
		if (n == SSH_EOF || n == SSH_ERROR)
			break;
		if (n > 0 && ssh_channel_read_nonblocking(ch, buf, (uint32_t)cap, 0) < 0)
			break;
		if (drain_stderr(s, ch, buf, cap) < 0)
			break;
	}
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
		if (cancelled(s)) {
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

int sshx_exec(struct sshx *s, const char *command, const char *stop_cmd, sshx_output_cb out,
	      void *ctx, int *exit_status, enum sshx_fail *fail, struct errbuf *eb)
{
	ssh_channel ch = NULL;
	char *buf = NULL;
	long last = clock_now_ms();
	int rc = -1, n;

	*fail = SSHX_FAIL_EXEC;
	*exit_status = -1;
	s->stderr_len = 0;
	s->stderr_tail[0] = '\0';
	buf = malloc(COPY_CHUNK_BYTES);
	ch = ssh_channel_new(s->session);
	if (buf == NULL || ch == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	if (ssh_channel_open_session(ch) != SSH_OK ||
	    ssh_channel_request_exec(ch, command) != SSH_OK) {
		*fail = classify(s, SSHX_FAIL_EXEC);
		errbuf_set(eb, "cannot start the command: %s", ssh_get_error(s->session));
		goto out;
	}
	for (;;) {
		if (cancelled(s)) {
			stop_command(s, ch, stop_cmd, buf, COPY_CHUNK_BYTES);
			*fail = SSHX_FAIL_CANCELLED;
			errbuf_set(eb, "interrupted");
			goto out;
		}
		n = ssh_channel_poll_timeout(ch, SSHX_POLL_MS, 0);
		if (n == SSH_ERROR)
			goto lost;
		if (n > 0) {
			n = ssh_channel_read_nonblocking(ch, buf, COPY_CHUNK_BYTES, 0);
			if (n < 0)
				goto lost;
			last = clock_now_ms();
			if (n > 0 && out(ctx, buf, (size_t)n) != 0) {
				stop_command(s, ch, stop_cmd, buf, COPY_CHUNK_BYTES);
				errbuf_set(eb, "command output rejected");
				goto out;
			}
		}
		int e = drain_stderr(s, ch, buf, COPY_CHUNK_BYTES);
		if (e < 0)
			goto lost;
		if (e > 0)
			last = clock_now_ms();
		if (n == SSH_EOF)
			break;
		if (s->opts.idle_timeout_ms > 0 &&
		    clock_now_ms() - last > s->opts.idle_timeout_ms) {
			stop_command(s, ch, stop_cmd, buf, COPY_CHUNK_BYTES);
			*fail = SSHX_FAIL_TIMEOUT;
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
		*fail = SSHX_FAIL_NONE;
		rc = 0;
		goto out;
	case EXIT_STATUS_LOST:
		goto lost;
	case EXIT_STATUS_CANCELLED:
		stop_command(s, ch, stop_cmd, buf, COPY_CHUNK_BYTES);
		*fail = SSHX_FAIL_CANCELLED;
		errbuf_set(eb, "interrupted");
		goto out;
	case EXIT_STATUS_TIMEOUT:
		stop_command(s, ch, stop_cmd, buf, COPY_CHUNK_BYTES);
		*fail = SSHX_FAIL_TIMEOUT;
		errbuf_set(eb, "closed its output but did not exit within %ld s: stopped",
			   s->opts.idle_timeout_ms / 1000);
		goto out;
	}
lost:
	*fail = classify(s, SSHX_FAIL_CONNECT);
	if (*fail == SSHX_FAIL_EXEC)
		*fail = SSHX_FAIL_CONNECT;
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
