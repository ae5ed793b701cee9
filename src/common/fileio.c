/* fileio: whole-file reads with a hard cap, mkdir -p, and path formatting that refuses truncation.
 */
#include "fileio.h"
#include "growbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FILEIO_CHUNK_BYTES 65536

/* Reads fd (path in messages), which it closes, into *text and *len (fileio_read). */
static int read_whole(int fd, const char *path, size_t max_bytes, char **text, size_t *len,
		      struct errbuf *eb)
{
	struct growbuf b;
	int rc = -1;
	ssize_t got;

	/* Room for max_bytes + 1: one byte more tells a file that is too large. */
	growbuf_init(&b, max_bytes < SIZE_MAX - 1 ? max_bytes + 1 : SIZE_MAX - 1);
	for (;;) {
		size_t room =
		    b.max - b.len < FILEIO_CHUNK_BYTES ? b.max - b.len : FILEIO_CHUNK_BYTES;

		if (b.len > max_bytes)
			break;
		if (growbuf_reserve(&b, room, eb) < 0) {
			errbuf_prefix(eb, "%s", path);
			goto out;
		}
		/* read straight into the room reserved (growbuf.h: len bytes, then the NUL) */
		got = read(fd, b.data + b.len, room);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			errbuf_set_errno(eb, errno, "%s: read error", path);
			goto out;
		}
		if (got == 0)
			break;
		b.len += (size_t)got;
	}
	if (b.data != NULL)
		b.data[b.len] = '\0'; /* the NUL growbuf keeps after its bytes */
	if (b.len > max_bytes) {
		errbuf_set(eb, "%s: larger than %zu bytes", path, max_bytes);
		goto out;
	}
	*len = b.len;
	if ((*text = growbuf_release(&b, NULL)) == NULL) {
		*len = 0;
		errbuf_set(eb, "%s: out of memory", path);
		goto out;
	}
	rc = 0;
out:
	growbuf_free(&b);
	close(fd);
	return rc;
}

int fileio_mkdirs(const char *path, struct errbuf *eb)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(buf))
		return errbuf_set(eb, "%s: path too long", path);
	memcpy(buf, path, len + 1);
	for (size_t i = 1; i <= len; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return errbuf_set_errno(eb, errno, "%s: cannot create", buf);
		buf[i] = path[i];
	}
	return 0;
}

int fileio_fmt(char *buf, size_t cap, const char *format, ...)
{
	va_list ap;
	int n;

	va_start(ap, format);
	n = vsnprintf(buf, cap, format, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= cap ? -1 : 0;
}

/* Opens path for fileio_read (flags added to O_RDONLY|O_CLOEXEC); fd or -1 with eb. */
static int open_for_reading(const char *path, int flags, const char *open_what, struct errbuf *eb)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | flags), saved = errno;

	if (fd >= 0)
		return fd;
	if (open_what != NULL)
		errbuf_set_errno(eb, saved, "%s: %s", path, open_what);
	else
		errbuf_set_errno(eb, saved, "%s", path);
	errno = saved; /* the caller may tell a link (ELOOP) apart */
	return -1;
}

int fileio_read(const char *path, size_t max_bytes, const char *open_what, char **text, size_t *len,
		struct errbuf *eb)
{
	int fd;

	*text = NULL;
	*len = 0;
	fd = open_for_reading(path, 0, open_what, eb);
	return fd < 0 ? -1 : read_whole(fd, path, max_bytes, text, len, eb);
}

int fileio_read_regular(const char *path, size_t max_bytes, const char *open_what, char **text,
			size_t *len, struct errbuf *eb)
{
	struct stat st;
	int fd;

	*text = NULL;
	*len = 0;
	/* O_NONBLOCK: a FIFO opens at once (and is refused below) instead of waiting for a
	 * writer; on a regular file it changes nothing. */
	fd = open_for_reading(path, O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, open_what, eb);
	if (fd < 0) {
		if (errno == ELOOP)
			errbuf_set(eb, "%s: a symbolic link, not a regular file: remove it", path);
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return errbuf_set(eb, "%s: not a regular file: remove it", path);
	}
	return read_whole(fd, path, max_bytes, text, len, eb);
}

int fileio_join(char *buf, size_t cap, const char *dir, const char *name, struct errbuf *eb)
{
	if (fileio_fmt(buf, cap, "%s/%s", dir, name) < 0)
		return errbuf_set(eb, "%s: path too long", dir);
	return 0;
}

bool fileio_name_is_plain(const char *name)
{
	if (name == NULL || name[0] == '\0' || strstr(name, "..") != NULL)
		return false;
	for (const unsigned char *c = (const unsigned char *)name; *c != '\0'; c++)
		if (*c == '/' || *c < 0x20 || *c == 0x7f)
			return false;
	return true;
}
