/* Tests for policy_split: the file count, where the matching rule lands, the includes valid for
 * sudo's and sudo-rs's own checkers, a previous split's parts replaced or removed. */
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "confgen_testutil.h"
#include "harness.h"
#include "policy.h"
#include "policy_file.h"
#include "policy_split.h"
#include "policy_sudoers.h"
#include "policy_txn.h"
#include "policyset.h"

extern char **environ;

static char dir[] = "/tmp/rarperf-test-policy-split-XXXXXX";
static char main_path[512], parts[512];

static void shape_of(struct policy_shape *s, uint32_t roles, uint32_t tasks, enum policy_match m)
{
	policy_shape_init(s);
	s->roles = roles;
	s->tasks = tasks;
	s->uid = 4242;
	s->match = m;
}

/* Writes shape split over files to main_path through policyset (the runner's and the CLI's
 * way). 0 or -1 (eb). */
static int write_split(const struct policy_shape *s, uint32_t files, enum sudoers_layout layout,
		       struct errbuf *eb)
{
	struct policyset_target t = {
	    .format = POLICY_FORMAT_SUDOERS, .policy = main_path, .layout = layout, .files = files};

	return policyset_write(s, &t, 1, false, NULL, eb);
}

/* The number of entries of d other than . and .. (-1 when d cannot be opened). */
static int count_entries(const char *d)
{
	DIR *h = opendir(d);
	struct dirent *e;
	int n = 0;

	if (h == NULL)
		return -1;
	while ((e = readdir(h)) != NULL)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(h);
	return n;
}

/* Occurrences of needle in the file path (-1 when unreadable). */
static int count_in(const char *path, const char *needle)
{
	char *text = testutil_read_file(path, NULL);
	int n = 0;

	if (text == NULL)
		return -1;
	for (const char *p = text; (p = strstr(p, needle)) != NULL; p += strlen(needle))
		n++;
	free(text);
	return n;
}

/* A part's path: parts/NNNNN. */
static void part_path(char *buf, size_t len, unsigned k)
{
	snprintf(buf, len, "%s/%05u", parts, k);
}

/* Occurrences of needle over the main file and parts 2..files. */
static int count_all(unsigned files, const char *needle)
{
	char p[600];
	int n = count_in(main_path, needle);

	for (unsigned k = 2; k <= files; k++) {
		part_path(p, sizeof(p), k);
		n += count_in(p, needle);
	}
	return n;
}

/* Runs argv (stdout and stderr to /dev/null); its exit status, or -1 when it cannot run. */
static int run_tool(char *const argv[])
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int st = 0, rc;

	if (access(argv[0], X_OK) != 0)
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The checkers the prefix provisions (sudo 1.9.13's visudo, sudo-rs's visudo-rs); "" when
 * absent or when not root (both refuse policy files a user owns, as sudo does). */
static const char *const checkers[] = {"/opt/rarperf/sbin/visudo", "/opt/rarperf/sbin/visudo-rs"};

/* Each present checker accepts main_path (with what it includes) as the tool's own judge. */
static void check_tools_accept(const char *what)
{
	for (size_t i = 0; i < sizeof(checkers) / sizeof(checkers[0]); i++) {
		char *argv[] = {(char *)checkers[i], "-c", "-f", main_path, NULL};
		int rc;

		if (geteuid() != 0 || access(checkers[i], X_OK) != 0) {
			printf("# skip %s: %s (not root, or not provisioned)\n", what, checkers[i]);
			continue;
		}
		rc = run_tool(argv);
		if (rc != 0)
			printf("# %s: %s -c -f %s exited %d\n", what, checkers[i], main_path, rc);
		CHECK_INT_EQ(rc, 0);
	}
}

/* 10 tasks over 3 files: a main file and 2 parts, every task once, the match in the last. */
static void test_count_and_last_match(void)
{
	struct policy_shape s;
	struct errbuf eb = {{0}};
	char p[600], line[700];
	struct stat st;

	shape_of(&s, 1, 10, POLICY_MATCH_LAST);
	CHECK_INT_EQ(write_split(&s, 3, SUDOERS_LAYOUT_PER_ROLE, &eb), 0);
	CHECK_INT_EQ(count_entries(parts), 2);
	part_path(p, sizeof(p), 2);
	CHECK_INT_EQ(access(p, F_OK), 0);
	part_path(p, sizeof(p), 3);
	CHECK_INT_EQ(access(p, F_OK), 0);
	CHECK_INT_EQ(count_all(3, "Cmnd_Alias "), 10);
	CHECK_INT_EQ(count_all(3, "/usr/bin/true"), 1);
	CHECK_INT_EQ(count_in(p, "/usr/bin/true"), 1); /* the last part */
	snprintf(line, sizeof(line), "@includedir %s\n", parts);
	CHECK_INT_EQ(count_in(main_path, line), 1);
	CHECK_INT_EQ(count_in(main_path, "files=3"), 1);
	/* Not world-writable (sudo and sudo-rs refuse such a directory or file). */
	CHECK(stat(parts, &st) == 0 && (st.st_mode & 07777) == POLICY_SPLIT_DIR_MODE);
	CHECK(stat(p, &st) == 0 && (st.st_mode & 07777) == POLICY_SPLIT_PART_MODE);
	check_tools_accept("3 files, per-role");
}

/* match first: the main file; middle: somewhere, once. Roles cut mid-role (2 x 3 over 4). */
static void test_first_and_roles_cut(void)
{
	struct policy_shape s;
	struct errbuf eb = {{0}};

	shape_of(&s, 1, 20, POLICY_MATCH_FIRST);
	CHECK_INT_EQ(write_split(&s, 5, SUDOERS_LAYOUT_PER_TASK, &eb), 0);
	CHECK_INT_EQ(count_entries(parts), 4);
	CHECK_INT_EQ(count_in(main_path, "/usr/bin/true"), 1);
	CHECK_INT_EQ(count_all(5, "/usr/bin/true"), 1);
	CHECK_INT_EQ(count_all(5, "NOPASSWD"), 20); /* per-task: one spec per task */
	check_tools_accept("5 files, per-task");

	shape_of(&s, 2, 3, POLICY_MATCH_MIDDLE);
	s.users = 2;
	CHECK_INT_EQ(write_split(&s, 4, SUDOERS_LAYOUT_PER_ROLE, &eb), 0);
	CHECK_INT_EQ(count_entries(parts), 3); /* the 5 parts before are gone */
	CHECK_INT_EQ(count_all(4, "Cmnd_Alias "), 6);
	CHECK_INT_EQ(count_all(4, "/usr/bin/true"), 1);
	check_tools_accept("2 roles x 3 tasks over 4 files");
}

/* One file: policy_stage_sudoers's bytes, and a previous split's parts removed. */
static void test_one_file_is_unsplit(void)
{
	struct policy_shape s;
	struct errbuf eb = {{0}};
	struct policy *p = NULL;
	struct policy_txn *txn = NULL;
	char want_path[600], *want = NULL, *got = NULL;

	shape_of(&s, 1, 10, POLICY_MATCH_LAST);
	CHECK_INT_EQ(write_split(&s, 4, SUDOERS_LAYOUT_PER_ROLE, &eb), 0);
	CHECK_INT_EQ(count_entries(parts), 3);
	CHECK_INT_EQ(write_split(&s, 1, SUDOERS_LAYOUT_PER_ROLE, &eb), 0);
	CHECK_INT_EQ(count_entries(parts), -1);
	snprintf(want_path, sizeof(want_path), "%s/plain", dir);
	p = policy_build(&s, &eb);
	txn = policy_txn_new(&eb);
	CHECK(p != NULL && txn != NULL);
	if (p != NULL && txn != NULL &&
	    policy_stage_sudoers(txn, p, want_path, SUDOERS_LAYOUT_PER_ROLE, &eb) == 0) {
		CHECK_INT_EQ(policy_txn_commit(txn, &eb), 0);
		txn = NULL;
	}
	policy_txn_abort(txn);
	policy_free(p);
	want = testutil_read_file(want_path, NULL);
	got = testutil_read_file(main_path, NULL);
	CHECK(want != NULL && got != NULL && strcmp(want, got) == 0);
	free(want);
	free(got);
	unlink(want_path);

	/* Deny-all (between points) removes the parts too: no grant left in any file. */
	CHECK_INT_EQ(write_split(&s, 4, SUDOERS_LAYOUT_PER_ROLE, &eb), 0);
	s.deny_all = true;
	CHECK_INT_EQ(write_split(&s, 4, SUDOERS_LAYOUT_PER_ROLE, &eb), 0);
	CHECK_INT_EQ(count_entries(parts), -1);
	CHECK_INT_EQ(count_in(main_path, "NOPASSWD"), 0);
	CHECK_INT_EQ(count_in(main_path, "@includedir"), 0);
}

/* A file confgen did not write in the parts directory: refused, nothing changed. */
static void test_foreign_part_refused(void)
{
	struct policy_shape s;
	struct errbuf eb = {{0}};
	char p[600], *before = NULL, *after = NULL;
	FILE *f;

	shape_of(&s, 1, 10, POLICY_MATCH_LAST);
	CHECK_INT_EQ(write_split(&s, 2, SUDOERS_LAYOUT_PER_ROLE, &eb), 0);
	snprintf(p, sizeof(p), "%s/precious", parts);
	f = fopen(p, "w");
	CHECK(f != NULL);
	if (f != NULL) {
		fputs("root ALL = (ALL) ALL\n", f);
		fclose(f);
	}
	before = testutil_read_file(main_path, NULL);
	CHECK_INT_EQ(write_split(&s, 3, SUDOERS_LAYOUT_PER_ROLE, &eb), -1);
	CHECK(strstr(eb.msg, "precious") != NULL && strstr(eb.msg, "not written by confgen"));
	after = testutil_read_file(main_path, NULL);
	CHECK(before != NULL && after != NULL && strcmp(before, after) == 0);
	CHECK_INT_EQ(count_entries(parts), 2);
	CHECK_INT_EQ(count_entries(dir), 2); /* main and parts: no temporary directory left */
	free(before);
	free(after);
	unlink(p);
}

/* A killed write's new-parts directory: removed once aged, kept while young (a write under way). */
static void test_stale_tmp_removed(void)
{
	struct policy_shape s;
	struct errbuf eb = {{0}};
	char old_dir[600], young_dir[600], file[700];
	const struct timespec times[2] = {{1000000000, 0}, {1000000000, 0}};
	FILE *f;

	snprintf(old_dir, sizeof(old_dir), "%s/.sudoers%s.aaaaaa", dir, POLICY_SPLIT_DIR_SUFFIX);
	snprintf(young_dir, sizeof(young_dir), "%s/.sudoers%s.bbbbbb", dir,
		 POLICY_SPLIT_DIR_SUFFIX);
	CHECK_INT_EQ(mkdir(old_dir, 0700), 0);
	CHECK_INT_EQ(mkdir(young_dir, 0700), 0);
	snprintf(file, sizeof(file), "%s/00002", old_dir);
	f = fopen(file, "w");
	CHECK(f != NULL);
	if (f != NULL) {
		fputs(POLICY_FILE_HEADER " part 2 of 2\n", f);
		fclose(f);
	}
	CHECK_INT_EQ(utimensat(AT_FDCWD, old_dir, times, 0), 0);
	shape_of(&s, 1, 10, POLICY_MATCH_LAST);
	CHECK_INT_EQ(write_split(&s, 2, SUDOERS_LAYOUT_PER_ROLE, &eb), 0);
	CHECK(access(old_dir, F_OK) != 0);
	CHECK_INT_EQ(access(young_dir, F_OK), 0);
	rmdir(young_dir);
}

/* The bounds: at least one task per file, 1..POLICY_SPLIT_FILES_MAX, no seed-compat split. */
static void test_validate(void)
{
	struct policy_shape s;
	struct errbuf eb = {{0}};

	shape_of(&s, 2, 3, POLICY_MATCH_LAST);
	CHECK_INT_EQ(policy_split_validate(&s, 6, &eb), 0);
	CHECK_INT_EQ(policy_split_validate(&s, 7, &eb), -1);
	CHECK(strstr(eb.msg, "7 files for 6 tasks") != NULL);
	CHECK_INT_EQ(policy_split_validate(&s, 0, &eb), -1);
	shape_of(&s, 1, 20000, POLICY_MATCH_LAST);
	CHECK_INT_EQ(policy_split_validate(&s, POLICY_SPLIT_FILES_MAX + 1, &eb), -1);
	s.seed_compat = true;
	CHECK_INT_EQ(policy_split_validate(&s, 2, &eb), -1);
	CHECK_INT_EQ(policy_split_validate(&s, 1, &eb), 0);
	CHECK(policy_split_supported(POLICY_FORMAT_SUDOERS));
	CHECK(!policy_split_supported(POLICY_FORMAT_DOAS));
	CHECK(!policy_split_supported(POLICY_FORMAT_RAR_JSON));
	CHECK(!policy_split_supported(POLICY_FORMAT_RAR_CBOR));
}

int main(void)
{
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	/* sudo and sudo-rs refuse an included directory others can write (mkdtemp: 0700). */
	snprintf(main_path, sizeof(main_path), "%s/sudoers", dir);
	snprintf(parts, sizeof(parts), "%s/sudoers%s", dir, POLICY_SPLIT_DIR_SUFFIX);
	RUN(test_count_and_last_match);
	RUN(test_first_and_roles_cut);
	RUN(test_one_file_is_unsplit);
	RUN(test_foreign_part_refused);
	RUN(test_stale_tmp_removed);
	RUN(test_validate);
	testutil_rm_dir(parts);
	testutil_rm_dir(dir);
	return HARNESS_EXIT();
}
