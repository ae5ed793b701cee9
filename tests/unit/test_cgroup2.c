/* Tests for cgroup2: mountinfo and /proc/self/cgroup parsing (the kernel's real formats), and
 * this process's own cgroup found on a host with cgroup2. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup2.h"
#include "harness.h"

static void test_parse_mountinfo(void)
{
	char mnt[64], root[64];
	static const char hybrid[] = "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 "
				     "cgroup2 rw";
	static const char systemd[] =
	    "30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime "
	    "shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot";
	static const char v1[] = "35 31 0:31 / /sys/fs/cgroup/memory rw,relatime shared:13 - "
				 "cgroup cgroup rw,memory";
	static const char ns[] = "50 40 0:26 /machine/c1 /sys/fs/cgroup\\040x rw - cgroup2 none rw";

	CHECK_INT_EQ(cgroup2_parse_mountinfo_line(hybrid, strlen(hybrid), mnt, root, sizeof(mnt)),
		     CGROUP2_MOUNT_FOUND);
	CHECK_STR_EQ(mnt, "/sys/fs/cgroup/unified");
	CHECK_STR_EQ(root, "/");
	/* Optional fields before the separator. */
	CHECK_INT_EQ(cgroup2_parse_mountinfo_line(systemd, strlen(systemd), mnt, root, sizeof(mnt)),
		     CGROUP2_MOUNT_FOUND);
	CHECK_STR_EQ(mnt, "/sys/fs/cgroup");
	CHECK_INT_EQ(cgroup2_parse_mountinfo_line(v1, strlen(v1), mnt, root, sizeof(mnt)),
		     CGROUP2_MOUNT_OTHER);
	/* A sub-tree mounted (a cgroup namespace), a blank escaped. */
	CHECK_INT_EQ(cgroup2_parse_mountinfo_line(ns, strlen(ns), mnt, root, sizeof(mnt)),
		     CGROUP2_MOUNT_FOUND);
	CHECK_STR_EQ(mnt, "/sys/fs/cgroup x");
	CHECK_STR_EQ(root, "/machine/c1");
	/* Too long for the buffer, no separator, a bad escape. */
	CHECK_INT_EQ(cgroup2_parse_mountinfo_line(hybrid, strlen(hybrid), mnt, root, 8),
		     CGROUP2_MOUNT_MALFORMED);
	CHECK_INT_EQ(cgroup2_parse_mountinfo_line("41 31 0:38 / /x rw cgroup2", 26, mnt, root, 64),
		     CGROUP2_MOUNT_MALFORMED);
	CHECK_INT_EQ(
	    cgroup2_parse_mountinfo_line("1 2 0:3 / /a\\04 rw - cgroup2 c rw", 33, mnt, root, 64),
	    CGROUP2_MOUNT_MALFORMED);
	CHECK_INT_EQ(cgroup2_parse_mountinfo_line("", 0, mnt, root, 64), CGROUP2_MOUNT_MALFORMED);
}

static void test_parse_cgroup(void)
{
	/* This project's hybrid host, then a systemd host's single line. */
	static const char hybrid[] = "10:hugetlb:/\n4:memory:/process_api/2f05\n1:cpu:/\n0::/\n";
	static const char unified[] = "0::/user.slice/user-0.slice/session-3.scope\n";
	char path[64];

	CHECK_INT_EQ(cgroup2_parse_self(hybrid, strlen(hybrid), path, sizeof(path)), 0);
	CHECK_STR_EQ(path, "/");
	CHECK_INT_EQ(cgroup2_parse_self(unified, strlen(unified), path, sizeof(path)), 0);
	CHECK_STR_EQ(path, "/user.slice/user-0.slice/session-3.scope");
	/* Without its newline (a short read). */
	CHECK_INT_EQ(cgroup2_parse_self(unified, strlen(unified) - 1, path, sizeof(path)), 0);
	CHECK_STR_EQ(path, "/user.slice/user-0.slice/session-3.scope");
	CHECK_INT_EQ(cgroup2_parse_self(unified, strlen(unified), path, 10), -1);
	CHECK_INT_EQ(cgroup2_parse_self("4:memory:/x\n", 12, path, sizeof(path)), -1);
	CHECK_INT_EQ(cgroup2_parse_self("", 0, path, sizeof(path)), -1);
}

/* The real files: where a cgroup2 is mounted, this process's cgroup is a directory there that
 * lists this process. */
static void test_own_dir(void)
{
	char mnt[CGROUP2_PATH_MAX], root[CGROUP2_PATH_MAX], dir[CGROUP2_PATH_MAX];
	char procs[CGROUP2_PATH_MAX + 16], text[4096], me[24], line[24];
	struct stat sb;
	ssize_t n;
	int fd;

	if (cgroup2_mount(mnt, root, sizeof(mnt)) == ENOENT) {
		fprintf(stderr, "  skipped: no cgroup2 mount\n");
		return;
	}
	CHECK_INT_EQ(cgroup2_own_dir(dir, sizeof(dir)), 0);
	CHECK(strncmp(dir, mnt, strlen(mnt)) == 0);
	CHECK(stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode));
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	fd = open(procs, O_RDONLY);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	CHECK(n > 0);
	text[n > 0 ? n : 0] = '\0';
	/* One pid a line: this one at the start or after a newline. */
	snprintf(me, sizeof(me), "%ld\n", (long)getpid());
	snprintf(line, sizeof(line), "\n%ld\n", (long)getpid());
	CHECK(strncmp(text, me, strlen(me)) == 0 || strstr(text, line) != NULL);
	CHECK_INT_EQ(cgroup2_own_dir(dir, 4), ENAMETOOLONG);
}

int main(void)
{
	RUN(test_parse_mountinfo);
	RUN(test_parse_cgroup);
	RUN(test_own_dir);
	return HARNESS_EXIT();
}
