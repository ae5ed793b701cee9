/* mntns: the file shows at the target inside the namespace only, follows renames, and leaves
 * nothing behind. Needs root (make check runs as root); reports itself skipped otherwise. */
#include "confgen_testutil.h"
#include "harness.h"
#include "mntns.h"
#include "proc.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/rarperf-test-mntns-XXXXXX";

/* A fresh layers' directory name (mntns_reserve_dir): free now, recorded by the runner. */
static const char *reserve(void)
{
	static char layers[PATH_MAX];
	struct errbuf eb = {0};
	struct stat st;

	CHECK_INT_EQ(mntns_reserve_dir(layers, sizeof(layers), &eb), 0);
	CHECK(strncmp(layers, "/tmp/rarbench-mntns-", 20) == 0 && strlen(layers) == 26);
	CHECK(lstat(layers, &st) != 0);
	return layers;
}

static void write_file(const char *path, const char *text)
{
	char tmp[512];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	CHECK(f != NULL);
	if (f == NULL)
		return;
	fputs(text, f);
	fclose(f);
	CHECK_INT_EQ(rename(tmp, path), 0);
}

/* Runs "sh -c 'cat TARGET > OUT'" in ns (or outside when NULL); returns the exit code. */
static int cat_into(const struct mntns *ns, const char *target, const char *out)
{
	char script[1024];
	char *argv[] = {"/bin/sh", "-c", script, NULL};
	struct proc_opts po = {.output = PROC_OUTPUT_NULL, .stdin_null = true, .mntns = ns};
	struct errbuf eb = {0};
	struct proc_sample s = {0};
	struct proc_cmd *cmd;
	int rc = -1;

	snprintf(script, sizeof(script), "cat %s > %s", target, out);
	cmd = proc_cmd_new(argv, &po, &eb);
	CHECK(cmd != NULL);
	if (cmd != NULL && proc_run(cmd, &s, &eb) == 0)
		rc = s.exit_code;
	proc_cmd_free(cmd);
	return rc;
}

static void test_shows_file_inside_only(void)
{
	char source[256], out[256], target[256], *text;
	struct errbuf eb = {0};
	const char *layers;
	struct mntns *ns;
	struct stat st;

	snprintf(source, sizeof(source), "%s/policy", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	/* A name under /etc that nothing uses, and that must never appear outside. */
	snprintf(target, sizeof(target), "/etc/rarperf-test-mntns-%d", (int)getpid());
	write_file(source, "first\n");
	CHECK_INT_EQ(chdir(dir), 0);
	layers = reserve();
	ns = mntns_show_files_at(&(struct mntns_file){target, source}, 1, layers, &eb);
	CHECK(ns != NULL);
	if (ns == NULL) {
		fprintf(stderr, "  %s\n", eb.msg);
		return;
	}
	/* The working directory survives the round trip through the new namespace. */
	{
		char here[512];

		CHECK(getcwd(here, sizeof(here)) != NULL && strcmp(here, dir) == 0);
		CHECK_INT_EQ(chdir("/"), 0);
	}
	CHECK(lstat(target, &st) != 0);
	CHECK_INT_EQ(cat_into(ns, target, out), 0);
	text = testutil_read_file(out, NULL);
	CHECK(text != NULL && strcmp(text, "first\n") == 0);
	free(text);
	/* Policies are rewritten by rename: the namespace sees the new file. */
	write_file(source, "second\n");
	CHECK_INT_EQ(cat_into(ns, target, out), 0);
	text = testutil_read_file(out, NULL);
	CHECK(text != NULL && strcmp(text, "second\n") == 0);
	free(text);
	/* Outside the namespace, the target does not exist. */
	CHECK(cat_into(NULL, target, out) != 0);
	CHECK(lstat(target, &st) != 0);
	/* The layers live in the reserved name, root's alone. */
	CHECK(lstat(layers, &st) == 0 && st.st_uid == 0 && (st.st_mode & 07777) == 0700);
	mntns_free(ns);
	CHECK(lstat(target, &st) != 0);
	CHECK(lstat(layers, &st) != 0);
}

/*
 * mntns_bind_at (the counted pass's directory for a tool that changes identity): the directory
 * shows at the target inside the namespace only, as a copy of the base namespace (its shown
 * file still there); the caller's working directory kept.
 */
static void test_bind_inside_only(void)
{
	char source[256], target[256], policy[256], etc[256], out[256], here[512], *text;
	struct errbuf eb = {0};
	struct mntns *base, *ns;
	struct stat st;

	snprintf(source, sizeof(source), "%s/src", dir);
	snprintf(target, sizeof(target), "%s/at", dir);
	snprintf(policy, sizeof(policy), "%s/policy", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(etc, sizeof(etc), "/etc/rarperf-test-mntns-%d", (int)getpid());
	CHECK_INT_EQ(mkdir(source, 0700), 0);
	CHECK_INT_EQ(mkdir(target, 0755), 0);
	write_file(policy, "base\n");
	{
		char inner[300];

		snprintf(inner, sizeof(inner), "%s/file", source);
		write_file(inner, "bound\n");
	}
	CHECK_INT_EQ(chdir(dir), 0);
	base = mntns_show_files_at(&(struct mntns_file){etc, policy}, 1, reserve(), &eb);
	CHECK(base != NULL);
	ns = base != NULL ? mntns_bind_at(base, source, target, &eb) : NULL;
	CHECK(ns != NULL);
	if (ns == NULL) {
		fprintf(stderr, "  %s\n", eb.msg);
		mntns_free(base);
		return;
	}
	CHECK(getcwd(here, sizeof(here)) != NULL && strcmp(here, dir) == 0);
	CHECK_STR_EQ(mntns_dir(ns), "");
	{
		char at[300];

		snprintf(at, sizeof(at), "%s/file", target);
		CHECK_INT_EQ(cat_into(ns, at, out), 0);
		text = testutil_read_file(out, NULL);
		CHECK(text != NULL && strcmp(text, "bound\n") == 0);
		free(text);
		/* Outside: the target stays empty. */
		CHECK(lstat(at, &st) != 0);
		CHECK(cat_into(NULL, at, out) != 0);
	}
	/* The base namespace's file shows in the copy too. */
	CHECK_INT_EQ(cat_into(ns, etc, out), 0);
	text = testutil_read_file(out, NULL);
	CHECK(text != NULL && strcmp(text, "base\n") == 0);
	free(text);
	mntns_free(ns);
	mntns_free(base);
	/* Refused: a relative path, a missing one. */
	CHECK(mntns_bind_at(NULL, "src", target, &eb) == NULL);
	CHECK(mntns_bind_at(NULL, source, "/nonexistent-rarperf-dir", &eb) == NULL);
	{
		char inner[300];

		snprintf(inner, sizeof(inner), "%s/file", source);
		unlink(inner);
	}
	rmdir(source);
	rmdir(target);
	unlink(policy);
}

/* A reserved name someone took before it was made: refused, theirs left alone. */
static void test_refuses_taken_name(void)
{
	char source[256], target[256];
	struct errbuf eb = {0};
	const char *layers = reserve();
	struct stat st;

	snprintf(source, sizeof(source), "%s/policy", dir);
	snprintf(target, sizeof(target), "/etc/rarperf-test-mntns-%d", (int)getpid());
	write_file(source, "x\n");
	CHECK_INT_EQ(mkdir(layers, 0777), 0);
	CHECK(mntns_show_files_at(&(struct mntns_file){target, source}, 1, layers, &eb) == NULL);
	CHECK(lstat(layers, &st) == 0 && S_ISDIR(st.st_mode));
	CHECK(mntns_show_files_at(&(struct mntns_file){target, source}, 1, "/tmp/elsewhere", &eb) ==
	      NULL);
	rmdir(layers);
}

/*
 * Recovery's removal (mntns_remove_leftover): a directory of another user's at a recorded
 * name, or one open to others, stays; in one of root's, a subdirectory swapped for a symbolic
 * link is removed as a link, and what it points to survives.
 */
static void test_leftover_removal_is_safe(void)
{
	char victim[256], precious[256], sub[PATH_MAX + 16], link[PATH_MAX + 32];
	const char *layers = reserve();
	struct stat st;

	snprintf(victim, sizeof(victim), "%s/victim", dir);
	snprintf(precious, sizeof(precious), "%s/victim/precious", dir);
	CHECK_INT_EQ(mkdir(victim, 0755), 0);
	write_file(precious, "keep\n");
	/* Another user's directory at the recorded name (after a reboot emptied /tmp). */
	CHECK_INT_EQ(mkdir(layers, 0700), 0);
	CHECK_INT_EQ(chown(layers, 65534, 65534), 0);
	CHECK(mntns_remove_leftover(layers) < 0);
	CHECK(lstat(layers, &st) == 0);
	/* Root's, but open to others: refused too. */
	CHECK_INT_EQ(chown(layers, 0, 0), 0);
	CHECK_INT_EQ(chmod(layers, 0777), 0);
	CHECK(mntns_remove_leftover(layers) < 0);
	CHECK(lstat(layers, &st) == 0);
	/* Root's and closed: links inside are unlinked, never followed. */
	CHECK_INT_EQ(chmod(layers, 0700), 0);
	snprintf(sub, sizeof(sub), "%s/0", layers);
	CHECK_INT_EQ(mkdir(sub, 0700), 0);
	snprintf(link, sizeof(link), "%s/0/upper", layers);
	CHECK_INT_EQ(symlink(victim, link), 0);
	snprintf(link, sizeof(link), "%s/1", layers);
	CHECK_INT_EQ(symlink(victim, link), 0);
	CHECK_INT_EQ(mntns_remove_leftover(layers), 0);
	CHECK(lstat(layers, &st) != 0);
	CHECK(lstat(precious, &st) == 0);
	/* Not a name of the form it makes: never touched. */
	CHECK(mntns_remove_leftover(victim) < 0);
	CHECK(mntns_remove_leftover("/tmp/rarbench-mntns-../etc") < 0);
	CHECK(lstat(precious, &st) == 0);
	unlink(precious);
	rmdir(victim);
}

/* A policy in /etc and a PAM file in /etc/pam.d (nested overlays), the host's files beside them
 * still visible, nothing outside. */
static void test_shows_nested_files(void)
{
	char policy[256], pam[256], t1[256], t2[256], out[256];
	struct mntns_file files[2];
	struct errbuf eb = {0};
	struct mntns *ns;
	struct stat st;
	char *text;

	snprintf(policy, sizeof(policy), "%s/policy", dir);
	snprintf(pam, sizeof(pam), "%s/service", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(t1, sizeof(t1), "/etc/rarperf-test-mntns-%d", (int)getpid());
	snprintf(t2, sizeof(t2), "/etc/pam.d/rarperf-test-mntns-%d", (int)getpid());
	write_file(policy, "policy\n");
	write_file(pam, "pam\n");
	files[0] = (struct mntns_file){.target = t1, .source = policy};
	files[1] = (struct mntns_file){.target = t2, .source = pam};
	ns = mntns_show_files_at(files, 2, reserve(), &eb);
	CHECK(ns != NULL);
	if (ns == NULL) {
		fprintf(stderr, "  %s\n", eb.msg);
		return;
	}
	CHECK_INT_EQ(cat_into(ns, t1, out), 0);
	text = testutil_read_file(out, NULL);
	CHECK(text != NULL && strcmp(text, "policy\n") == 0);
	free(text);
	CHECK_INT_EQ(cat_into(ns, t2, out), 0);
	text = testutil_read_file(out, NULL);
	CHECK(text != NULL && strcmp(text, "pam\n") == 0);
	free(text);
	/* The host's own files of both directories show through. */
	CHECK_INT_EQ(cat_into(ns, "/etc/pam.d/other", out), 0);
	CHECK_INT_EQ(cat_into(ns, "/etc/passwd", out), 0);
	CHECK(lstat(t1, &st) != 0 && lstat(t2, &st) != 0);
	mntns_free(ns);
	CHECK(lstat(t1, &st) != 0 && lstat(t2, &st) != 0);
	unlink(policy);
	unlink(pam);
	unlink(out);
}

static void test_refuses_bad_targets(void)
{
	struct errbuf eb = {0};
	const char *d = reserve();

	CHECK(mntns_show_files_at(&(struct mntns_file){"relative/x", "/tmp/x"}, 1, d, &eb) == NULL);
	CHECK(mntns_show_files_at(&(struct mntns_file){"/x", "/tmp/x"}, 1, d, &eb) ==
	      NULL); /* its directory is / */
	CHECK(mntns_show_files_at(&(struct mntns_file){"/nonexistent-rarperf/x", "/tmp/x"}, 1, d,
				  &eb) == NULL);
	CHECK(strstr(eb.msg, "not a directory") != NULL);
	CHECK(mntns_show_files_at(NULL, 0, d, &eb) == NULL);
}

int main(void)
{
	/* Runs start from rarlaunch; the suite runs from the top of the tree (tests/run.sh). */
	if (proc_set_launcher("bin/rarlaunch", &(struct errbuf){{0}}) != 0) {
		fprintf(stderr, "bin/rarlaunch missing: make bin/rarlaunch\n");
		return 1;
	}
	if (geteuid() != 0) {
		printf("ok - mntns # SKIP needs root\n");
		return 0;
	}
	if (mkdtemp(dir) == NULL)
		return 1;
	RUN(test_shows_file_inside_only);
	RUN(test_shows_nested_files);
	RUN(test_refuses_bad_targets);
	RUN(test_refuses_taken_name);
	RUN(test_bind_inside_only);
	RUN(test_leftover_removal_is_safe);
	unlink("policy");
	unlink("out");
	rmdir(dir);
	return HARNESS_EXIT();
}
