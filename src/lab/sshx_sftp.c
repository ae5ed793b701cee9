/* sshx_sftp: one host's SFTP calls (mkdir -p, upload, download), each beside a watchdog thread. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "atomicfile.h"
#include "clock.h"
#include "sshx_impl.h"

#define GUARD_STACK_BYTES (64 * 1024) /* the SFTP watchdog thread's stack */
#define SSHX_MKDIRS_DEPTH_MAX 64      /* directories made by one sshx_mkdirs at most */

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
	enum host_outcome fired; /* HOST_OK, HOST_TIMEOUT or HOST_INTERRUPTED */
};

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
		if (sshx_cancelled(g->s) ||
		    clock_now_ms() - g->last_ms > g->s->opts.connect_timeout_ms) {
			g->fired = sshx_cancelled(g->s) ? HOST_INTERRUPTED : HOST_TIMEOUT;
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
	if (s->lost != HOST_OK)
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
	if (g->fired == HOST_OK)
		return 0;
	s->lost = g->fired;
	if (g->fired == HOST_INTERRUPTED)
		return errbuf_set(eb, "%s: interrupted", what);
	return errbuf_set(eb, "%s: no answer from %s for %ld s", what, s->opts.host,
			  s->opts.connect_timeout_ms / 1000);
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

/*
 * sshx_mkdirs without the guard: the deepest directory first, its parent only when it is
 * missing (a run directory under an existing remote directory: three round trips, not two per
 * component). buf holds path (len bytes) and is cut at each parent in turn.
 */
static int mkdirs_at(struct sshx *s, char *buf, size_t len, int depth, struct errbuf *eb)
{
	sftp_attributes a;
	bool dir;

	if (sftp_mkdir(s->sftp, buf, 0700) == 0)
		return 0;
	if (sftp_get_error(s->sftp) == SSH_FX_NO_SUCH_FILE && depth < SSHX_MKDIRS_DEPTH_MAX) {
		size_t cut = len;
		while (cut > 0 && buf[cut - 1] != '/')
			cut--;
		if (cut > 1) {
			buf[cut - 1] = '\0';
			int rc = mkdirs_at(s, buf, cut - 1, depth + 1, eb);
			buf[cut - 1] = '/';
			if (rc < 0)
				return -1;
			if (sftp_mkdir(s->sftp, buf, 0700) == 0)
				return 0;
		}
	}
	/* OpenSSH's server says only "failure" for an existing directory */
	a = sftp_stat(s->sftp, buf);
	dir = a != NULL && a->type == SSH_FILEXFER_TYPE_DIRECTORY;
	sftp_attributes_free(a);
	if (!dir)
		return errbuf_set(eb, "SFTP mkdir %s: %s", buf, ssh_get_error(s->session));
	return 0;
}

static int mkdirs(struct sshx *s, const char *path, struct errbuf *eb)
{
	char buf[1024];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(buf))
		return errbuf_set(eb, "bad remote directory '%s'", path);
	if (sftp_ready(s, eb) < 0)
		return -1;
	memcpy(buf, path, len + 1);
	while (len > 1 && buf[len - 1] == '/')
		buf[--len] = '\0';
	return mkdirs_at(s, buf, len, 0, eb);
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
	buf = malloc(SSHX_COPY_CHUNK_BYTES);
	if (buf == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	out = sftp_open(s->sftp, remote, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (out == NULL) {
		errbuf_set(eb, "SFTP open %s: %s", remote, ssh_get_error(s->session));
		goto out;
	}
	while ((n = fread(buf, 1, SSHX_COPY_CHUNK_BYTES, in)) > 0) {
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
	buf = malloc(SSHX_COPY_CHUNK_BYTES);
	af = atomicfile_open(local, 0644, eb);
	if (buf == NULL || af == NULL) {
		if (buf == NULL)
			errbuf_set(eb, "out of memory");
		goto out;
	}
	while ((n = sftp_read(in, buf, SSHX_COPY_CHUNK_BYTES)) > 0) {
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
