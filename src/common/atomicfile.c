/* atomicfile: write a file through a temporary sibling, fsync, and rename it into place. */
#include "atomicfile.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct atomicfile {
	FILE *stream;
	char *path;
	char *tmp_path;
	char *dir;
};

static void atomicfile_free(struct atomicfile *af)
{
	if (af == NULL)
		return;
	if (af->stream != NULL)
		fclose(af->stream);
	free(af->path);
	free(af->tmp_path);
	free(af->dir);
	free(af);
}

struct atomicfile *atomicfile_open(const char *path, mode_t mode, struct errbuf *eb)
{
	struct atomicfile *af = NULL;
	char *copy_dir = NULL, *copy_base = NULL;
	size_t len;
	int fd = -1;

	af = calloc(1, sizeof(*af));
	copy_dir = strdup(path);
	copy_base = strdup(path);
	if (af == NULL || copy_dir == NULL || copy_base == NULL) {
		errbuf_set(eb, "%s: out of memory", path);
		goto fail;
	}
	af->path = strdup(path);
	af->dir = strdup(dirname(copy_dir));
	len = strlen(af->dir) + strlen(path) + 16;
	af->tmp_path = malloc(len);
	if (af->path == NULL || af->dir == NULL || af->tmp_path == NULL) {
		errbuf_set(eb, "%s: out of memory", path);
		goto fail;
	}
	snprintf(af->tmp_path, len, "%s/.%s.XXXXXX", af->dir, basename(copy_base));
	fd = mkstemp(af->tmp_path);
	if (fd < 0) {
		errbuf_set_errno(eb, errno, "%s: cannot create a temporary file in %s", path,
				 af->dir);
		free(af->tmp_path);
		af->tmp_path = NULL;
		goto fail;
	}
	if (fchmod(fd, mode) != 0) {
		errbuf_set_errno(eb, errno, "%s: chmod", af->tmp_path);
		goto fail_unlink;
	}
	af->stream = fdopen(fd, "w");
	if (af->stream == NULL) {
		errbuf_set_errno(eb, errno, "%s", af->tmp_path);
		goto fail_unlink;
	}
	free(copy_dir);
	free(copy_base);
	return af;

fail_unlink:
	close(fd);
	unlink(af->tmp_path);
fail:
	free(copy_dir);
	free(copy_base);
	atomicfile_free(af);
	return NULL;
}

FILE *atomicfile_stream(struct atomicfile *af)
{
	return af->stream;
}

int atomicfile_set_owner(struct atomicfile *af, uid_t uid, gid_t gid, struct errbuf *eb)
{
	if (fchown(fileno(af->stream), uid, gid) != 0)
		return errbuf_set_errno(eb, errno, "%s: cannot give the file to %u:%u", af->path,
					(unsigned)uid, (unsigned)gid);
	return 0;
}

int atomicfile_commit(struct atomicfile *af, struct errbuf *eb)
{
	int rc = -1;
	int dirfd = -1;
	FILE *stream = af->stream;

	af->stream = NULL;
	if (fflush(stream) != 0 || ferror(stream)) {
		errbuf_set_errno(eb, errno, "%s: write", af->path);
		fclose(stream);
		goto out;
	}
	if (fsync(fileno(stream)) != 0) {
		errbuf_set_errno(eb, errno, "%s: fsync", af->path);
		fclose(stream);
		goto out;
	}
	if (fclose(stream) != 0) {
		errbuf_set_errno(eb, errno, "%s: close", af->path);
		goto out;
	}
	if (rename(af->tmp_path, af->path) != 0) {
		errbuf_set_errno(eb, errno, "%s: rename into place", af->path);
		goto out;
	}
	/* The rename is durable only once the directory entry is on disk. */
	dirfd = open(af->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd >= 0) {
		fsync(dirfd);
		close(dirfd);
	}
	rc = 0;
out:
	if (rc != 0)
		unlink(af->tmp_path);
	atomicfile_free(af);
	return rc;
}

void atomicfile_abort(struct atomicfile *af)
{
	if (af == NULL)
		return;
	if (af->stream != NULL) {
		fclose(af->stream);
		af->stream = NULL;
	}
	unlink(af->tmp_path);
	atomicfile_free(af);
}

int atomicfile_write(const char *path, const void *data, size_t len, mode_t mode, struct errbuf *eb)
{
	struct atomicfile *af = atomicfile_open(path, mode, eb);

	if (af == NULL)
		return -1;
	if (len > 0 && fwrite(data, 1, len, atomicfile_stream(af)) != len) {
		errbuf_set_errno(eb, errno, "%s: write", path);
		atomicfile_abort(af);
		return -1;
	}
	return atomicfile_commit(af, eb);
}
