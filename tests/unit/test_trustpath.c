/* Tests for trustpath: root's files along the whole path, real directories, chmod and chown. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "harness.h"
#include "trustpath.h"

/* Under /run (root's, 0755, not sticky): a base a check can trust, unlike anything in /tmp. */
static char dir[] = "/run/rarperf-test-trustpath-XXXXXX";
#define OTHER_UID 4242

static void path_of(char *out, const char *name)
{
	snprintf(out, PATH_MAX, "%s/%s", dir, name);
}

static void make_file(const char *name, mode_t mode)
{
	char p[PATH_MAX];
	int fd;

	path_of(p, name);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	CHECK_INT_EQ(chmod(p, mode), 0);
}

static void make_dir(const char *name, mode_t mode)
{
	char p[PATH_MAX];

	path_of(p, name);
	CHECK_INT_EQ(mkdir(p, 0700), 0);
	CHECK_INT_EQ(chmod(p, mode), 0);
}

/* trustpath_check of dir/name: 0 or -1, and the message must hold want (NULL: none). */
static int check(const char *name, const char *want)
{
	struct errbuf eb = {0};
	char p[PATH_MAX];
	int rc;

	path_of(p, name);
	rc = trustpath_check(p, NULL, &eb);
	if (want != NULL && strstr(eb.msg, want) == NULL) {
		fprintf(stderr, "  %s: got \"%s\", expected \"%s\"\n", name, eb.msg, want);
		CHECK(0);
	}
	return rc;
}

static void test_root_files_trusted(void)
{
	char p[PATH_MAX], real[PATH_MAX];
	struct errbuf eb = {0};

	make_file("ok", 0644);
	make_dir("okdir", 0755);
	make_file("okdir/exe", 04755);
	CHECK_INT_EQ(check("ok", NULL), 0);
	CHECK_INT_EQ(check("okdir/exe", NULL), 0);
	CHECK_INT_EQ(trustpath_check("/bin/sh", NULL, &eb), 0);
	/* Through . and .. and repeated slashes: the resolved path is the plain one. */
	path_of(p, "okdir/..//./okdir/exe");
	CHECK_INT_EQ(trustpath_check(p, real, &eb), 0);
	path_of(p, "okdir/exe");
	CHECK_STR_EQ(real, p);
	CHECK(trustpath_is_privileged(p));
	path_of(p, "ok");
	CHECK(!trustpath_is_privileged(p));
	/* File capabilities count as a set-ID bit (setcap, when the file system keeps them). */
	make_file("capped", 0755);
	path_of(p, "capped");
	{
		/* VFS_CAP_REVISION_2 with cap_net_raw (13) permitted: what setcap writes. */
		static const unsigned char cap[20] = {0x00, 0x00, 0x00, 0x02, 0x00, 0x20};

		if (setxattr(p, "security.capability", cap, sizeof(cap), 0) == 0)
			CHECK(trustpath_is_privileged(p));
	}
}

static void test_file_modes_and_owner(void)
{
	make_file("gw", 0664);
	make_file("ow", 0646);
	make_file("owned", 0644);
	CHECK_INT_EQ(check("gw", "writable by group 0 (mode 0664)"), -1);
	CHECK_INT_EQ(check("ow", "writable by others (mode 0646)"), -1);
	{
		char p[PATH_MAX];

		path_of(p, "owned");
		CHECK_INT_EQ(chown(p, OTHER_UID, OTHER_UID), 0);
	}
	CHECK_INT_EQ(check("owned", "owned by uid 4242"), -1);
}

/* A root file 0644 is not root's when a directory on its way is another's or open to writes. */
static void test_every_directory_checked(void)
{
	char p[PATH_MAX];

	make_dir("ud", 0755);
	make_file("ud/f", 0644);
	path_of(p, "ud");
	CHECK_INT_EQ(chown(p, OTHER_UID, 0), 0);
	CHECK_INT_EQ(check("ud/f", "/ud is owned by uid 4242"), -1);
	/* The deepest component at fault is named: a user's directory in a sticky one. */
	make_dir("st", 01777);
	make_dir("st/mine", 0755);
	make_file("st/mine/f", 0644);
	path_of(p, "st/mine");
	CHECK_INT_EQ(chown(p, OTHER_UID, OTHER_UID), 0);
	CHECK_INT_EQ(check("st/mine/f", "/st/mine is owned by uid 4242 (mode 0755)"), -1);
	make_dir("gd", 0775);
	make_dir("gd/deep", 0755);
	make_file("gd/deep/f", 0644);
	CHECK_INT_EQ(check("gd/deep/f", "/gd is writable by group 0 (mode 0775)"), -1);
	/* Sticky counts as writable by others: anyone may create a name in it. */
	make_dir("sticky", 01777);
	make_file("sticky/f", 0644);
	CHECK_INT_EQ(check("sticky/f", "/sticky is writable by others (mode 1777)"), -1);
	/* And the walk starts at /: nothing under /tmp is trusted. */
	{
		struct errbuf eb = {0};

		CHECK_INT_EQ(trustpath_check("/tmp", NULL, &eb), -1);
		CHECK(strstr(eb.msg, "/tmp is writable by others (mode 1777)") != NULL);
	}
}

/* A link is followed: its target's whole path is what counts, the link's own mode never. */
static void test_links_followed(void)
{
	char p[PATH_MAX], t[PATH_MAX];

	make_dir("evil", 0777);
	make_file("evil/pam", 0644);
	make_file("good", 0644);
	path_of(p, "to-evil");
	CHECK_INT_EQ(symlink("evil/pam", p), 0);
	CHECK_INT_EQ(check("to-evil", "/evil is writable by others (mode 0777)"), -1);
	path_of(p, "to-good");
	path_of(t, "good");
	CHECK_INT_EQ(symlink(t, p), 0); /* absolute */
	CHECK_INT_EQ(check("to-good", NULL), 0);
	/* A link to /tmp's files leads out of the trusted base. */
	path_of(p, "to-tmp");
	CHECK_INT_EQ(symlink("/tmp/../tmp", p), 0);
	CHECK_INT_EQ(check("to-tmp", "/tmp is writable by others"), -1);
	/* A directory link in the middle of the path, relative with "..". */
	make_dir("real", 0755);
	make_file("real/f", 0644);
	path_of(p, "via");
	CHECK_INT_EQ(symlink("okdir/../real", p), 0);
	CHECK_INT_EQ(check("via/f", NULL), 0);
	/* A loop ends. */
	path_of(p, "loop");
	CHECK_INT_EQ(symlink("loop", p), 0);
	CHECK_INT_EQ(check("loop", "Too many levels of symbolic links"), -1);
	CHECK_INT_EQ(check("missing", "No such file"), -1);
	CHECK_INT_EQ(check("ok/x", "Not a directory"), -1);
}

/* trustpath_make_dir of dir/name: 0 or -1, and the message must hold want (NULL: none). */
static int make_out(const char *name, const char *want)
{
	struct errbuf eb = {0};
	char p[PATH_MAX];
	int rc;

	path_of(p, name);
	rc = trustpath_make_dir(p, &eb);
	if (want != NULL && strstr(eb.msg, want) == NULL) {
		fprintf(stderr, "  %s: got \"%s\", expected \"%s\"\n", name, eb.msg, want);
		CHECK(0);
	}
	return rc;
}

/*
 * An output directory a root process writes in (issue 45 finding 4): made
 * when missing under root's directories, or in a root-owned sticky one (as
 * /tmp/NAME); refused, with nothing made, under another user's directory or
 * one open to writes, and when it is itself open to others.
 */
static void test_output_directory(void)
{
	char p[PATH_MAX];
	struct stat st;

	/* The check alone makes nothing (rarbench checks --out before it holds the lock). */
	{
		struct errbuf eb = {0};

		path_of(p, "out/a/b");
		CHECK_INT_EQ(trustpath_check_out_dir(p, &eb), 0);
		path_of(p, "out");
		CHECK(access(p, F_OK) != 0);
	}
	CHECK_INT_EQ(make_out("out/a/b", NULL), 0);
	path_of(p, "out/a/b");
	CHECK(stat(p, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == 0);
	CHECK_INT_EQ(make_out("out/a/b", NULL), 0); /* an existing one of root's is taken */
	make_dir("userdir", 0755);
	path_of(p, "userdir");
	CHECK_INT_EQ(chown(p, OTHER_UID, OTHER_UID), 0);
	CHECK_INT_EQ(make_out("userdir/out", "/userdir is owned by uid 4242"), -1);
	path_of(p, "userdir/out");
	CHECK(access(p, F_OK) != 0); /* nothing made in it */
	make_dir("tmpish", 01777);
	CHECK_INT_EQ(make_out("tmpish", "/tmpish is writable by others (mode 1777)"), -1);
	CHECK_INT_EQ(make_out("tmpish/new/deeper", NULL), 0);
	make_dir("tmpish/theirs", 0755);
	path_of(p, "tmpish/theirs");
	CHECK_INT_EQ(chown(p, OTHER_UID, OTHER_UID), 0);
	CHECK_INT_EQ(make_out("tmpish/theirs", "/tmpish/theirs is owned by uid 4242"), -1);
	/* A link in a sticky directory is its owner's to re-point: another's is refused. */
	path_of(p, "tmpish/link");
	CHECK_INT_EQ(symlink("new", p), 0);
	CHECK_INT_EQ(lchown(p, OTHER_UID, OTHER_UID), 0);
	CHECK_INT_EQ(make_out("tmpish/link/x", "in the sticky directory"), -1);
	make_dir("gwdir", 0775);
	CHECK_INT_EQ(make_out("gwdir/out", "writable by group 0"), -1);
}

/* A directory of files shown to a tool: the directory and each entry, hidden ones too. */
static void test_directory_and_its_files(void)
{
	struct errbuf eb = {0};
	char p[PATH_MAX];

	make_dir("pam", 0755);
	make_file("pam/sudo", 0644);
	make_file("pam/common-auth", 0644);
	path_of(p, "pam");
	CHECK_INT_EQ(trustpath_check_dir(p, &eb), 0);
	make_file("pam/.hidden", 0666);
	CHECK_INT_EQ(trustpath_check_dir(p, &eb), -1);
	CHECK(strstr(eb.msg, "/pam/.hidden is writable by others (mode 0666)") != NULL);
	path_of(p, "pam/.hidden");
	CHECK_INT_EQ(unlink(p), 0);
	/* An entry that links out to a writable place. */
	path_of(p, "pam/su");
	{
		char t[PATH_MAX];

		path_of(t, "evil/pam");
		CHECK_INT_EQ(symlink(t, p), 0);
	}
	path_of(p, "pam");
	CHECK_INT_EQ(trustpath_check_dir(p, &eb), -1);
	CHECK(strstr(eb.msg, "/evil is writable by others") != NULL);
	/* A file is not a directory. */
	path_of(p, "ok");
	CHECK_INT_EQ(trustpath_check_dir(p, &eb), -1);
	CHECK(strstr(eb.msg, "not a directory") != NULL);
}

/* A path through /proc names another file to each process: never trusted, and said so. */
static void test_proc_is_per_process(void)
{
	char p[PATH_MAX];
	struct errbuf eb = {{0}};

	CHECK(trustpath_is_per_process("/proc/self/cwd"));
	CHECK(trustpath_is_per_process("/proc/self/cwd/../../usr/bin/id"));
	CHECK(trustpath_is_per_process("/dev/fd/../cwd/usr/bin/id")); /* /dev/fd -> /proc/self/fd */
	CHECK(trustpath_check("/proc/self/cwd/usr/bin/id", NULL, &eb) == -1);
	CHECK(strstr(eb.msg, "on /proc") != NULL);
	/* A root's link in a trusted directory that leads into /proc is no way round it. */
	path_of(p, "to-proc");
	CHECK_INT_EQ(symlink("/proc/self/cwd", p), 0);
	CHECK(trustpath_is_per_process(p));
	CHECK(!trustpath_is_per_process("/usr/bin/id"));
	path_of(p, "good");
	CHECK(!trustpath_is_per_process(p));
}

int main(void)
{
	if (geteuid() != 0) {
		printf("ok - trustpath # SKIP needs root (chown, and a base under /run)\n");
		return 0;
	}
	if (mkdtemp(dir) == NULL)
		return 1;
	if (chmod(dir, 0755) != 0)
		return 1;
	RUN(test_root_files_trusted);
	RUN(test_file_modes_and_owner);
	RUN(test_every_directory_checked);
	RUN(test_links_followed);
	RUN(test_directory_and_its_files);
	RUN(test_output_directory);
	RUN(test_proc_is_per_process);
	harness_remove_tree(dir);
	return HARNESS_EXIT();
}
