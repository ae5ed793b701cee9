/* Tests for atomicfile: the file appears whole or not at all. */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
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

/* Reads path's first line into buf ("" when missing). */
static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (f != NULL) {
		if (fgets(buf, (int)len, f) == NULL)
			buf[0] = '\0';
		fclose(f);
	}
}

/*
 * The write follows the directory opened first: open through a symbolic
 * link to a/, re-point the link to b/ before the commit, and the file lands
 * in a/ while b/ gets nothing.
 */
static void test_follows_the_directory_opened_first(void)
{
	struct errbuf eb = {0};
	char a[256], b[256], link[256], path[300], buf[64];
	struct atomicfile *af;

	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	snprintf(link, sizeof(link), "%s/link", dir);
	CHECK_INT_EQ(mkdir(a, 0755), 0);
	CHECK_INT_EQ(mkdir(b, 0755), 0);
	CHECK_INT_EQ(symlink("a", link), 0);
	snprintf(path, sizeof(path), "%s/f", link);
	af = atomicfile_open(path, 0644, &eb);
	CHECK(af != NULL);
	if (af != NULL) {
		fputs("first\n", atomicfile_stream(af));
		CHECK_INT_EQ(atomicfile_sync(af, &eb), 0);
		CHECK_INT_EQ(unlink(link), 0);
		CHECK_INT_EQ(symlink("b", link), 0);
		CHECK_INT_EQ(atomicfile_rename(af, &eb), 0);
	}
	snprintf(path, sizeof(path), "%s/f", a);
	read_line(path, buf, sizeof(buf));
	CHECK_STR_EQ(buf, "first\n");
	unlink(path);
	snprintf(path, sizeof(path), "%s/f", b);
	CHECK(access(path, F_OK) != 0);
	unlink(link);
	CHECK_INT_EQ(rmdir(a), 0); /* empty: no temporary file left */
	CHECK_INT_EQ(rmdir(b), 0);
}

/* A synced file is not yet in place: abort leaves the old one and no temporary file. */
static void test_sync_then_abort(void)
{
	struct errbuf eb = {0};
	char path[256], buf[64];
	struct atomicfile *af;
	int dfd;

	snprintf(path, sizeof(path), "%s/synced.txt", dir);
	CHECK_INT_EQ(atomicfile_write(path, "old\n", 4, 0644, &eb), 0);
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	af = atomicfile_openat(dfd, "synced.txt", path, 0600, &eb);
	close(dfd);
	CHECK(af != NULL);
	if (af == NULL)
		return;
	CHECK_STR_EQ(atomicfile_name(af), "synced.txt");
	fputs("new\n", atomicfile_stream(af));
	CHECK_INT_EQ(atomicfile_sync(af, &eb), 0);
	CHECK(atomicfile_stream(af) == NULL);
	read_line(path, buf, sizeof(buf));
	CHECK_STR_EQ(buf, "old\n");
	atomicfile_abort(af);
	read_line(path, buf, sizeof(buf));
	CHECK_STR_EQ(buf, "old\n");
	unlink(path);
	CHECK(atomicfile_openat(AT_FDCWD, "a/b", "a/b", 0644, &eb) == NULL);
}

/* A FIFO (as a device, /dev/null) is written to where it is, never replaced by a file. */
static void test_a_fifo_is_written_in_place(void)
{
	struct errbuf eb = {0};
	char path[256], buf[16] = {0};
	struct stat st;
	int rd;

	snprintf(path, sizeof(path), "%s/fifo", dir);
	CHECK_INT_EQ(mkfifo(path, 0600), 0);
	/* a reader first, so that opening it to write does not wait */
	rd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	CHECK(rd >= 0);
	CHECK_INT_EQ(atomicfile_write(path, "piped\n", 6, 0644, &eb), 0);
	CHECK_INT_EQ((int)read(rd, buf, sizeof(buf) - 1), 6);
	CHECK_STR_EQ(buf, "piped\n");
	CHECK_INT_EQ(lstat(path, &st), 0);
	CHECK(S_ISFIFO(st.st_mode));
	CHECK_INT_EQ((int)(st.st_mode & 07777), 0600);
	close(rd);
	unlink(path);
}

/*
 * An output file that must be a regular one (issue 45 finding 4): a FIFO with
 * no reader is refused at once, never opened (an open to write would wait for
 * a reader); a link is refused, its target untouched; a missing or regular
 * target is written as ever.
 */
static void test_regular_refuses_fifo_and_link(void)
{
	struct errbuf eb = {0};
	char path[256], target[256], buf[16];
	struct atomicfile *af;

	snprintf(path, sizeof(path), "%s/out-fifo", dir);
	CHECK_INT_EQ(mkfifo(path, 0600), 0);
	af = atomicfile_open_regular(path, 0644, &eb);
	CHECK(af == NULL && strstr(eb.msg, "not a regular file (a FIFO)") != NULL);
	atomicfile_abort(af);
	unlink(path);
	snprintf(target, sizeof(target), "%s/out-target", dir);
	snprintf(path, sizeof(path), "%s/out-link", dir);
	CHECK_INT_EQ(symlink(target, path), 0);
	af = atomicfile_open_regular(path, 0644, &eb);
	CHECK(af == NULL && strstr(eb.msg, "a symbolic link") != NULL);
	atomicfile_abort(af);
	CHECK(access(target, F_OK) != 0);
	unlink(path);
	snprintf(path, sizeof(path), "%s/out-file", dir);
	af = atomicfile_open_regular(path, 0644, &eb);
	CHECK(af != NULL);
	if (af != NULL) {
		fputs("new\n", atomicfile_stream(af));
		CHECK_INT_EQ(atomicfile_commit(af, &eb), 0);
	}
	read_line(path, buf, sizeof(buf));
	CHECK_STR_EQ(buf, "new\n");
	unlink(path);
}

/* Sets path's times to age_s seconds ago. */
static void age(const char *path, long age_s)
{
	struct timespec t[2];

	clock_gettime(CLOCK_REALTIME, &t[0]);
	t[0].tv_sec -= age_s;
	t[1] = t[0];
	CHECK_INT_EQ(utimensat(AT_FDCWD, path, t, AT_SYMLINK_NOFOLLOW), 0);
}

static void make(const char *name, long age_s, char *path)
{
	int fd;

	snprintf(path, 256, "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	age(path, age_s);
}

/*
 * A write killed midway (SIGKILL between create and rename) leaves its
 * temporary file; the next sweep's start removes it, and nothing else: not
 * a young one, not one a live process holds, not another name or kind.
 */
static void test_stale_temporaries_removed(void)
{
	char killed[600], young[256], held[256], other[256], sub[256], link_p[256], p[256];
	struct atomicfile *af;
	struct errbuf eb = {0};
	struct dirent *d;
	size_t n = 9;
	pid_t pid;
	int fd, status;
	DIR *dp;

	snprintf(p, sizeof(p), "%s/victim.json", dir);
	pid = fork();
	if (pid == 0) {
		af = atomicfile_open(p, 0644, &eb);
		if (af == NULL)
			_exit(1);
		fputs("half", atomicfile_stream(af));
		fflush(atomicfile_stream(af));
		kill(getpid(), SIGKILL);
		_exit(2);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFSIGNALED(status));
	killed[0] = '\0';
	dp = opendir(dir);
	while (dp != NULL && (d = readdir(dp)) != NULL)
		if (strncmp(d->d_name, ".victim.json.", 13) == 0)
			snprintf(killed, sizeof(killed), "%s/%s", dir, d->d_name);
	if (dp != NULL)
		closedir(dp);
	CHECK(killed[0] != '\0');
	age(killed, 3600);
	make(".young.json.Ab3dE9", 5, young);
	make(".held.json.Zz9Yy8", 3600, held);
	fd = open(held, O_RDONLY | O_CLOEXEC);
	CHECK(fd >= 0);
	make(".notes.json.short", 3600, other); /* not six letters or digits */
	snprintf(sub, sizeof(sub), "%s/.dir.json.Qq1Ww2", dir);
	CHECK_INT_EQ(mkdir(sub, 0755), 0);
	snprintf(link_p, sizeof(link_p), "%s/.lnk.json.Ee3Rr4", dir);
	CHECK_INT_EQ(symlink(held, link_p), 0);

	CHECK_INT_EQ(atomicfile_remove_stale(dir, ATOMICFILE_STALE_MIN_AGE_S, &n, &eb), 0);
	CHECK_INT_EQ(n, 1);
	CHECK(access(killed, F_OK) != 0);
	CHECK(access(young, F_OK) == 0 && access(held, F_OK) == 0 && access(other, F_OK) == 0);
	CHECK(access(sub, F_OK) == 0 &&
	      faccessat(AT_FDCWD, link_p, F_OK, AT_SYMLINK_NOFOLLOW) == 0);
	/* Once no process holds it, the old one goes too. */
	if (fd >= 0)
		close(fd);
	CHECK_INT_EQ(atomicfile_remove_stale(dir, ATOMICFILE_STALE_MIN_AGE_S, &n, &eb), 0);
	CHECK_INT_EQ(n, 1);
	CHECK(access(held, F_OK) != 0);
	snprintf(p, sizeof(p), "%s/no-such-dir", dir);
	CHECK_INT_EQ(atomicfile_remove_stale(p, 60, &n, &eb), 0);
	CHECK_INT_EQ(n, 0);
	unlink(young);
	unlink(other);
	unlink(link_p);
	rmdir(sub);
}

int main(void)
{
	if (mkdtemp(dir) == NULL)
		return 2;
	RUN(test_write_then_read_back);
	RUN(test_abort_leaves_old_file);
	RUN(test_missing_directory_is_an_error);
	RUN(test_follows_the_directory_opened_first);
	RUN(test_sync_then_abort);
	RUN(test_a_fifo_is_written_in_place);
	RUN(test_regular_refuses_fifo_and_link);
	RUN(test_stale_temporaries_removed);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "%s/out.txt", dir);
	unlink(cmd);
	snprintf(cmd, sizeof(cmd), "%s/keep.txt", dir);
	unlink(cmd);
	rmdir(dir);
	return HARNESS_EXIT();
}
