/* pagecache: takes files out of the page cache, so that the next reader reads them from disk.
 *
 * Why a sweep needs it: a program's start-up depends on how its file came into the page cache.
 * The same bytes written by `install` at provisioning and copied later started 4-5 % apart on
 * kernel 6.18 (doc/guide-ci.md, "A/A"); read back from disk, both cost the same. Evicting every
 * measured program before a sweep makes each one's first exec read it back alike. */
#ifndef RARPERF_PAGECACHE_H
#define RARPERF_PAGECACHE_H

#include <stddef.h>

#include "errbuf.h"

/* What a file holds in the page cache: its pages, and how many of them are resident. */
struct pagecache_count {
	size_t files;
	size_t pages;
	size_t resident;
};

/*
 * Adds path's page count and resident pages to c (mincore(2) over a mapping that cannot be
 * read, so that counting reads nothing; a file of length 0 adds one file and no pages).
 * Returns 0, or -1 with eb naming path.
 */
int pagecache_count_file(const char *path, struct pagecache_count *c, struct errbuf *eb);

/*
 * Writes path's dirty pages back and asks the kernel to drop its cached pages
 * (POSIX_FADV_DONTNEED; pages mapped by a running process stay), then adds what is still
 * resident to after. Anything but a regular file is refused: a FIFO or a device is not a
 * program and opening one could block. Returns 0, or -1 with eb naming path.
 */
int pagecache_evict_file(const char *path, struct pagecache_count *after, struct errbuf *eb);

/*
 * pagecache_evict_file on every regular file under dir (symbolic links not followed; at most
 * PAGECACHE_TREE_FILES_MAX files). A dir that does not exist adds nothing. Returns 0, or -1
 * with eb naming the file or the folder.
 */
#define PAGECACHE_TREE_FILES_MAX 4096
int pagecache_evict_tree(const char *dir, struct pagecache_count *after, struct errbuf *eb);

#endif
