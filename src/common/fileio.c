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

int fileio_read(const char *path, size_t max_bytes, const char *open_what, char **text, size_t *len,
		struct errbuf *eb)
{
	struct growbuf b;
	int fd, rc = -1;
	ssize_t got;

	*text = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (open_what != NULL)
			return errbuf_set_errno(eb, errno, "%s: %s", path, open_what);
		return errbuf_set_errno(eb, errno, "%s", path);
	}
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
