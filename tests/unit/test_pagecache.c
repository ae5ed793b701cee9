/* Tests for pagecache: counting a file's resident pages (checked against util-linux's fincore) and
 * evicting files and trees from the page cache. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "harness.h"
#include "pagecache.h"

#define TMPFS_MAGIC_NUMBER 0x01021994
#define FILE_BYTES (1024 * 1024)

/* On disk, not in /tmp: a tmpfs keeps its pages whatever the advice. */
static char dir[] = "/var/tmp/rarperf-test-pagecache-XXXXXX";
static char big[sizeof(dir) + 16], sub[sizeof(dir) + 16], small[sizeof(dir) + 32];
static char empty[sizeof(dir) + 16], fifo[sizeof(dir) + 16];
static long page;

static void write_file(const char *path, size_t bytes)
{
	char buf[4096];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	size_t done = 0;

	memset(buf, 'x', sizeof(buf));
	while (fd >= 0 && done < bytes) {
		size_t n = bytes - done < sizeof(buf) ? bytes - done : sizeof(buf);

		if (write(fd, buf, n) != (ssize_t)n)
			break;
		done += n;
	}
	if (fd >= 0)
		close(fd);
	CHECK(done == bytes);
}

static void read_file(const char *path)
{
	char buf[65536];
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	while (fd >= 0 && read(fd, buf, sizeof(buf)) > 0)
		;
	if (fd >= 0)
		close(fd);
}

/* fincore(1)'s count of path's resident pages, or -1. */
static long fincore_pages(const char *path)
{
	char cmd[256], line[64];
	long n = -1;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "fincore --noheadings --raw --output PAGES '%s' 2>/dev/null",
		 path);
	p = popen(cmd, "r");
	if (p == NULL)
		return -1;
	if (fgets(line, sizeof(line), p) != NULL)
		n = strtol(line, NULL, 10);
	pclose(p);
	return n;
}

static int on_tmpfs(const char *path)
{
	struct statfs fs;

	return statfs(path, &fs) == 0 && fs.f_type == TMPFS_MAGIC_NUMBER;
}

static void test_count_agrees_with_fincore(void)
{
	struct pagecache_count c = {0};
	struct errbuf eb = {{0}};
	long want;

	write_file(big, FILE_BYTES);
	read_file(big);
	CHECK_INT_EQ(pagecache_count_file(big, &c, &eb), 0);
	CHECK_INT_EQ(c.files, 1);
	CHECK_INT_EQ(c.pages, FILE_BYTES / page);
	want = fincore_pages(big);
	CHECK(want >= 0);
	CHECK_INT_EQ((long)c.resident, want);
	CHECK_INT_EQ(c.resident, FILE_BYTES / page); /* just read: all of it */
}

static void test_evict_file(void)
{
	struct pagecache_count after = {0};
	struct errbuf eb = {{0}};

	/* Written a moment ago: dirty pages, which eviction must write back first. */
	write_file(big, FILE_BYTES);
	CHECK_INT_EQ(pagecache_evict_file(big, &after, &eb), 0);
	CHECK_INT_EQ(after.files, 1);
	CHECK_INT_EQ(after.pages, FILE_BYTES / page);
	if (on_tmpfs(big)) {
		printf("# %s is on tmpfs: eviction not asserted\n", dir);
		return;
	}
	CHECK_INT_EQ(after.resident, 0);
	CHECK_INT_EQ(fincore_pages(big), 0);
	read_file(big);
	CHECK_INT_EQ(fincore_pages(big), FILE_BYTES / page);
}

static void test_evict_tree(void)
{
	struct pagecache_count after = {0};
	struct errbuf eb = {{0}};
	char missing[sizeof(dir) + 16];

	write_file(big, FILE_BYTES);
	mkdir(sub, 0755);
	write_file(small, 3 * (size_t)page + 1);
	write_file(empty, 0);
	CHECK_INT_EQ(mkfifo(fifo, 0600), 0);
	/* The FIFO is passed over, not opened: opening one could block. */
	CHECK_INT_EQ(pagecache_evict_tree(dir, &after, &eb), 0);
	CHECK_INT_EQ(after.files, 3);
	CHECK_INT_EQ(after.pages, FILE_BYTES / page + 4);
	if (!on_tmpfs(dir))
		CHECK_INT_EQ(after.resident, 0);
	snprintf(missing, sizeof(missing), "%s/none", dir);
	memset(&after, 0, sizeof(after));
	CHECK_INT_EQ(pagecache_evict_tree(missing, &after, &eb), 0);
	CHECK_INT_EQ(after.files, 0);
}

static void test_refusals_name_the_file(void)
{
	struct pagecache_count c = {0};
	struct errbuf eb = {{0}};
	char missing[sizeof(dir) + 16];

	CHECK_INT_EQ(pagecache_evict_file(fifo, &c, &eb), -1);
	CHECK(strstr(eb.msg, fifo) != NULL && strstr(eb.msg, "not a regular file") != NULL);
	CHECK_INT_EQ(pagecache_evict_file(dir, &c, &eb), -1);
	CHECK(strstr(eb.msg, "not a regular file") != NULL);
	snprintf(missing, sizeof(missing), "%s/none", dir);
	CHECK_INT_EQ(pagecache_count_file(missing, &c, &eb), -1);
	CHECK(strstr(eb.msg, missing) != NULL);
	CHECK_INT_EQ(c.files, 0);
}

int main(void)
{
	if (mkdtemp(dir) == NULL)
		return 2;
	page = sysconf(_SC_PAGESIZE);
	snprintf(big, sizeof(big), "%s/big", dir);
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	snprintf(small, sizeof(small), "%s/sub/small", dir);
	snprintf(empty, sizeof(empty), "%s/empty", dir);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	RUN(test_count_agrees_with_fincore);
	RUN(test_evict_file);
	RUN(test_evict_tree);
	RUN(test_refusals_name_the_file);
	unlink(big);
	unlink(small);
	unlink(empty);
	unlink(fifo);
	rmdir(sub);
	rmdir(dir);
	return HARNESS_EXIT();
}
