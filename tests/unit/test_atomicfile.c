/* Tests for atomicfile: the file appears whole or not at all. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomicfile.h"
#include "harness.h"

static char dir[] = "/tmp/rarperf-test-atomicfile-XXXXXX";

static void test_write_then_read_back(void)
{
	struct errbuf eb = {0};
	char path[256], buf[64] = {0};
	struct stat st;
	FILE *f;

	snprintf(path, sizeof(path), "%s/out.txt", dir);
	CHECK_INT_EQ(atomicfile_write(path, "hello\n", 6, 0640, &eb), 0);
	f = fopen(path, "r");
	CHECK(f != NULL);
	if (f != NULL) {
		CHECK(fgets(buf, sizeof(buf), f) != NULL);
		fclose(f);
	}
	CHECK_STR_EQ(buf, "hello\n");
	CHECK_INT_EQ(stat(path, &st), 0);
	CHECK_INT_EQ(st.st_mode & 07777, 0640);
}

static void test_abort_leaves_old_file(void)
{
	struct errbuf eb = {0};
	char path[256], buf[64] = {0};
	struct atomicfile *af;
	FILE *f;

	snprintf(path, sizeof(path), "%s/keep.txt", dir);
	CHECK_INT_EQ(atomicfile_write(path, "old\n", 4, 0644, &eb), 0);
	af = atomicfile_open(path, 0644, &eb);
	CHECK(af != NULL);
	fputs("half-written", atomicfile_stream(af));
	atomicfile_abort(af);
	f = fopen(path, "r");
	CHECK(f != NULL);
	if (f != NULL) {
		CHECK(fgets(buf, sizeof(buf), f) != NULL);
		fclose(f);
	}
	CHECK_STR_EQ(buf, "old\n");
}

static void test_missing_directory_is_an_error(void)
{
	struct errbuf eb = {0};

	CHECK_INT_EQ(atomicfile_write("/nonexistent-dir/x", "x", 1, 0644, &eb), -1);
	CHECK(strstr(eb.msg, "/nonexistent-dir/x") != NULL);
}

int main(void)
{
	if (mkdtemp(dir) == NULL)
		return 2;
	RUN(test_write_then_read_back);
	RUN(test_abort_leaves_old_file);
	RUN(test_missing_directory_is_an_error);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "%s/out.txt", dir);
	unlink(cmd);
	snprintf(cmd, sizeof(cmd), "%s/keep.txt", dir);
	unlink(cmd);
	rmdir(dir);
	return HARNESS_EXIT();
}
