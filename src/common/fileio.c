/* fileio: whole-file reads with a hard cap, mkdir -p, and path formatting that refuses truncation.
 */
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FILEIO_CHUNK_BYTES 65536

int fileio_read(const char *path, size_t max_bytes, const char *open_what, char **text, size_t *len,
		struct errbuf *eb)
{
	char *buf = NULL, *grown;
	size_t cap = 0, n = 0;
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
	for (;;) {
		if (n == cap) {
			/* grows to max_bytes + 1: one byte more tells a file that is too large */
			if (cap > max_bytes) {
				errbuf_set(eb, "%s: larger than %zu bytes", path, max_bytes);
				goto out;
			}
			cap = cap == 0 ? FILEIO_CHUNK_BYTES : cap * 2;
			if (cap > max_bytes + 1)
				cap = max_bytes + 1;
			grown = realloc(buf, cap + 1);
			if (grown == NULL) {
				errbuf_set(eb, "%s: out of memory", path);
				goto out;
			}
			buf = grown;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			errbuf_set_errno(eb, errno, "%s: read error", path);
			goto out;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	if (n > max_bytes) {
		errbuf_set(eb, "%s: larger than %zu bytes", path, max_bytes);
		goto out;
	}
	if (buf == NULL && (buf = malloc(1)) == NULL) {
		errbuf_set(eb, "%s: out of memory", path);
		goto out;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	buf = NULL;
	rc = 0;
out:
	free(buf);
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
