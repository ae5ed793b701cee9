#include "pagecache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Deep enough for a prefix's libexec/sudo/...; a deeper tree is not a prefix of ours. */
#define TREE_DEPTH_MAX 8

/* Opens path for reading: O_NONBLOCK, so that a FIFO cannot block the open that the type check
 * after it refuses. */
static int open_regular(const char *path, struct stat *st, struct errbuf *eb)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	if (fd < 0)
		return errbuf_set_errno(eb, errno, "%s", path);
	if (fstat(fd, st) < 0) {
		int e = errno;

		close(fd);
		return errbuf_set_errno(eb, e, "%s", path);
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		return errbuf_set(eb, "%s: not a regular file", path);
	}
	return fd;
}

static int count_fd(int fd, const struct stat *st, const char *path, struct pagecache_count *c,
		    struct errbuf *eb)
{
	long psz = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)st->st_size, pages, i;
	unsigned char *vec;
	void *map;

	c->files++;
	if (len == 0)
		return 0;
	pages = (len + (size_t)psz - 1) / (size_t)psz;
	/* PROT_NONE: mincore needs a mapping, and one that cannot be read is one that valgrind does
	 * not read either (it reads a readable file mapping's first pages for its debug
	 * information, which brought 4 pages back into the cache under `make valgrind`). */
	map = mmap(NULL, len, PROT_NONE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return errbuf_set_errno(eb, errno, "%s: mmap", path);
	vec = malloc(pages);
	if (vec == NULL) {
		munmap(map, len);
		return errbuf_set(eb, "%s: out of memory", path);
	}
	if (mincore(map, len, vec) < 0) {
		int e = errno;

		free(vec);
		munmap(map, len);
		return errbuf_set_errno(eb, e, "%s: mincore", path);
	}
	c->pages += pages;
	for (i = 0; i < pages; i++)
		c->resident += vec[i] & 1u;
	free(vec);
	munmap(map, len);
	return 0;
}

int pagecache_count_file(const char *path, struct pagecache_count *c, struct errbuf *eb)
{
	struct stat st;
	int fd = open_regular(path, &st, eb), rc;

	if (fd < 0)
		return -1;
	rc = count_fd(fd, &st, path, c, eb);
	close(fd);
	return rc;
}

int pagecache_evict_file(const char *path, struct pagecache_count *after, struct errbuf *eb)
{
	struct stat st;
	int fd = open_regular(path, &st, eb), rc, e;

	if (fd < 0)
		return -1;
	/* Dirty pages are not dropped: written back first (a file copied a moment ago is dirty). */
	if (fdatasync(fd) < 0 && errno != EINVAL) {
		e = errno;
		close(fd);
		return errbuf_set_errno(eb, e, "%s: fdatasync", path);
	}
	e = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (e != 0) {
		close(fd);
		return errbuf_set_errno(eb, e, "%s: posix_fadvise", path);
	}
	rc = count_fd(fd, &st, path, after, eb);
	close(fd);
	return rc;
}

static int evict_tree_at(const char *dir, int depth, struct pagecache_count *after,
			 struct errbuf *eb)
{
	DIR *d;
	struct dirent *de;
	char path[PATH_MAX];
	int rc = 0;

	if (depth > TREE_DEPTH_MAX)
		return errbuf_set(eb, "%s: deeper than %d folders", dir, TREE_DEPTH_MAX);
	d = opendir(dir);
	if (d == NULL)
		return errno == ENOENT && depth == 0 ? 0 : errbuf_set_errno(eb, errno, "%s", dir);
	while (rc == 0 && (de = readdir(d)) != NULL) {
		struct stat st;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >=
		    sizeof(path)) {
			rc = errbuf_set(eb, "%s/%s: path too long", dir, de->d_name);
			break;
		}
		if (lstat(path, &st) < 0) {
			rc = errbuf_set_errno(eb, errno, "%s", path);
		} else if (S_ISDIR(st.st_mode)) {
			rc = evict_tree_at(path, depth + 1, after, eb);
		} else if (S_ISREG(st.st_mode)) {
			if (after->files >= PAGECACHE_TREE_FILES_MAX)
				rc = errbuf_set(eb, "%s: more than %d files", dir,
						PAGECACHE_TREE_FILES_MAX);
			else
				rc = pagecache_evict_file(path, after, eb);
		}
	}
	closedir(d);
	return rc;
}

int pagecache_evict_tree(const char *dir, struct pagecache_count *after, struct errbuf *eb)
{
	return evict_tree_at(dir, 0, after, eb);
}
