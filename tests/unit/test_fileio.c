/* Tests for fileio: path formatting (a path that does not fit is an error, never a cut path),
 * fileio_join, and fileio_read (whole files up to the cap, one byte over refused, empty and
 * missing files). */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "harness.h"

static char dir[] = "/tmp/rarperf-test-fileio-XXXXXX";

/* Writes n bytes ('a' + i % 26) to dir/name; returns the path in out. */
static void make_file(const char *name, size_t n, char *out, size_t outsz)
{
	char *bytes = malloc(n + 1);
	int fd;

	snprintf(out, outsz, "%s/%s", dir, name);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	CHECK(fd >= 0 && bytes != NULL);
	for (size_t i = 0; bytes != NULL && i < n; i++)
		bytes[i] = (char)('a' + i % 26);
	if (fd >= 0 && bytes != NULL)
		CHECK_INT_EQ(write(fd, bytes, n), (long long)n);
	if (fd >= 0)
		close(fd);
	free(bytes);
}

static void test_reads_up_to_the_cap(void)
{
	struct errbuf eb = {{0}};
	char path[256], *text = NULL;
	size_t len = 0;

	/* several of fileio's 64 KiB chunks, to the byte */
	make_file("big", 200000, path, sizeof(path));
	CHECK_INT_EQ(fileio_read(path, 200000, NULL, &text, &len, &eb), 0);
	CHECK_INT_EQ(len, 200000);
	CHECK(text != NULL && text[199999] == (char)('a' + 199999 % 26) && text[200000] == '\0');
	free(text);
	CHECK_INT_EQ(fileio_read(path, 199999, NULL, &text, &len, &eb), -1);
	CHECK(text == NULL);
	CHECK(strstr(eb.msg, "/big: larger than 199999 bytes") != NULL);
}

static void test_empty_and_missing(void)
{
	struct errbuf eb = {{0}};
	char path[256], *text = NULL;
	size_t len = 7;

	make_file("empty", 0, path, sizeof(path));
	CHECK_INT_EQ(fileio_read(path, 0, NULL, &text, &len, &eb), 0);
	CHECK_INT_EQ(len, 0);
	CHECK(text != NULL && text[0] == '\0');
	free(text);
	snprintf(path, sizeof(path), "%s/none", dir);
	CHECK_INT_EQ(fileio_read(path, 10, "cannot open", &text, &len, &eb), -1);
	CHECK(strstr(eb.msg, "/none: cannot open: No such file or directory") != NULL);
}

static void test_fmt_fits_or_fails(void)
{
	char buf[8];

	CHECK_INT_EQ(fileio_fmt(buf, sizeof(buf), "%s/%d", "ab", 12), 0);
	CHECK_STR_EQ(buf, "ab/12");
	CHECK_INT_EQ(fileio_fmt(buf, sizeof(buf), "%s", "1234567"), 0); /* 7 + NUL: fits */
	CHECK_INT_EQ(fileio_fmt(buf, sizeof(buf), "%s", "12345678"), -1);
}

/* fileio_read_regular: a FIFO refused without waiting for a writer, a link refused. */
static void test_read_regular(void)
{
	struct errbuf eb = {{0}};
	char path[256], link[256], fifo[256], *text = NULL;
	size_t len = 0;

	make_file("regular", 5, path, sizeof(path));
	CHECK_INT_EQ(fileio_read_regular(path, 100, NULL, &text, &len, &eb), 0);
	CHECK(text != NULL && len == 5);
	free(text);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	CHECK_INT_EQ(mkfifo(fifo, 0600), 0);
	CHECK_INT_EQ(fileio_read_regular(fifo, 100, NULL, &text, &len, &eb), -1);
	CHECK(text == NULL && strstr(eb.msg, "not a regular file") != NULL);
	snprintf(link, sizeof(link), "%s/link", dir);
	CHECK_INT_EQ(symlink(path, link), 0);
	CHECK_INT_EQ(fileio_read_regular(link, 100, NULL, &text, &len, &eb), -1);
	CHECK(strstr(eb.msg, "symbolic link") != NULL);
	/* fileio_read still follows a link (a manifest may be one). */
	CHECK_INT_EQ(fileio_read(link, 100, NULL, &text, &len, &eb), 0);
	free(text);
	unlink(fifo);
	unlink(link);
}

/* Names from a results file that may become file names (issue 45 finding 6). */
static void test_name_is_plain(void)
{
	CHECK(fileio_name_is_plain("sr-cbor-4.0.3"));
	CHECK(fileio_name_is_plain("sudo (nofile 1024)"));
	CHECK(!fileio_name_is_plain(""));
	CHECK(!fileio_name_is_plain("../../../../var/tmp/x/pwn-1.0.0"));
	CHECK(!fileio_name_is_plain("a/b"));
	CHECK(!fileio_name_is_plain(".."));
	CHECK(!fileio_name_is_plain("a..b"));
	CHECK(!fileio_name_is_plain("a\tb"));
	CHECK(!fileio_name_is_plain("a\x1b[31m"));
	CHECK(!fileio_name_is_plain("a\x7f"));
}

static void test_join(void)
{
	struct errbuf eb = {{0}};
	char buf[16];

	CHECK_INT_EQ(fileio_join(buf, sizeof(buf), "out", "fits.tsv", &eb), 0);
	CHECK_STR_EQ(buf, "out/fits.tsv");
	CHECK_INT_EQ(fileio_join(buf, sizeof(buf), "rarplot-out", "report.md", &eb), -1);
	CHECK_STR_EQ(eb.msg, "rarplot-out: path too long");
}

int main(void)
{
	if (mkdtemp(dir) == NULL)
		return 1;
	RUN(test_reads_up_to_the_cap);
	RUN(test_empty_and_missing);
	RUN(test_fmt_fits_or_fails);
	RUN(test_join);
	RUN(test_read_regular);
	RUN(test_name_is_plain);
	harness_remove_tree(dir);
	return HARNESS_EXIT();
}
