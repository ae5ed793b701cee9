/* Tests for policyset: the writers' own bytes, one transaction, the failing target named. */
#include <stdlib.h>
#include <unistd.h>

#include "confgen_testutil.h"
#include "harness.h"
#include "policy.h"
#include "policy_doas.h"
#include "policy_rar_cbor.h"
#include "policy_rar_json.h"
#include "policy_sudoers.h"
#include "policy_txn.h"
#include "policyset.h"

#define NFILES 5 /* the four targets' files: rar-cbor writes two */

static char dir[] = "/tmp/rarperf-test-policyset-XXXXXX";

static void path_in(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

static void shape_of(struct policy_shape *s, uint32_t tasks)
{
	policy_shape_init(s);
	s->roles = 2;
	s->users = 3;
	s->tasks = tasks;
	s->commands = 2;
	s->uid = 4242;
}

/* The four targets of confgen's order, in dir (paths in buf, NFILES of 512 bytes). */
static void four_targets(struct policyset_target *t, char (*paths)[512])
{
	static const char *const names[NFILES] = {"sudoers", "doas.conf", "rar.json",
						  "rar-cbor.json", "rar-cbor.bin"};

	for (int i = 0; i < NFILES; i++)
		path_in(paths[i], sizeof(paths[i]), names[i]);
	t[0] = (struct policyset_target){
	    .format = POLICY_FORMAT_SUDOERS, .policy = paths[0], .layout = SUDOERS_LAYOUT_PER_TASK};
	t[1] = (struct policyset_target){.format = POLICY_FORMAT_DOAS, .policy = paths[1]};
	t[2] = (struct policyset_target){
	    .format = POLICY_FORMAT_RAR_JSON, .policy = paths[2], .rar_version = "4.0.3"};
	t[3] = (struct policyset_target){.format = POLICY_FORMAT_RAR_CBOR,
					 .policy = paths[3],
					 .policy_data = paths[4],
					 .rar_version = "4.0.3"};
}

/* Each file as its own writer makes it, then as policyset_write makes it: the same bytes. */
static void test_same_bytes_as_each_writer(void)
{
	struct policyset_target t[4];
	char paths[NFILES][512];
	char *want[NFILES] = {NULL}, *got = NULL;
	size_t want_len[NFILES] = {0}, got_len = 0, failed = 99;
	struct policy_shape s;
	struct policy *p;
	struct errbuf eb = {{0}};

	shape_of(&s, 7);
	four_targets(t, paths);
	p = policy_build(&s, &eb);
	CHECK(p != NULL);
	if (p == NULL)
		return;
	CHECK_INT_EQ(testutil_txn_end(policy_stage_sudoers(testutil_txn_fresh(), p, paths[0],
							   SUDOERS_LAYOUT_PER_TASK, &eb),
				      &eb),
		     0);
	CHECK_INT_EQ(
	    testutil_txn_end(policy_stage_doas(testutil_txn_fresh(), p, paths[1], &eb), &eb), 0);
	CHECK_INT_EQ(
	    testutil_txn_end(policy_stage_rar_json(testutil_txn_fresh(), p, paths[2], "4.0.3", &eb),
			     &eb),
	    0);
	CHECK_INT_EQ(testutil_txn_end(policy_stage_rar_cbor(testutil_txn_fresh(), p, paths[3],
							    paths[4], "4.0.3", &eb),
				      &eb),
		     0);
	policy_free(p);
	for (int i = 0; i < NFILES; i++) {
		want[i] = testutil_read_file(paths[i], &want_len[i]);
		CHECK(want[i] != NULL && want_len[i] > 0);
		CHECK_INT_EQ(unlink(paths[i]), 0);
	}
	CHECK_INT_EQ(policyset_write(&s, t, 4, false, &failed, &eb), 0);
	CHECK_INT_EQ(failed, 4);
	for (int i = 0; i < NFILES; i++) {
		got = testutil_read_file(paths[i], &got_len);
		CHECK(got != NULL && want[i] != NULL && got_len == want_len[i] &&
		      memcmp(got, want[i], got_len) == 0);
		free(got);
		free(want[i]);
		unlink(paths[i]);
	}
}

/* A target that cannot be written: -1, its index, and no file of the set changed. */
static void test_one_failure_changes_nothing(void)
{
	struct policyset_target t[4];
	char paths[NFILES][512];
	char *before = NULL, *after = NULL;
	size_t failed = 99;
	struct policy_shape s;
	struct errbuf eb = {{0}};

	shape_of(&s, 3);
	four_targets(t, paths);
	CHECK_INT_EQ(policyset_write(&s, t, 1, false, &failed, &eb), 0);
	before = testutil_read_file(paths[0], NULL);
	shape_of(&s, 9);
	t[2].policy = "/nonexistent-dir/rar.json";
	CHECK_INT_EQ(policyset_write(&s, t, 4, false, &failed, &eb), -1);
	CHECK_INT_EQ(failed, 2);
	CHECK(strstr(eb.msg, "/nonexistent-dir/rar.json") != NULL);
	after = testutil_read_file(paths[0], NULL);
	CHECK(before != NULL && after != NULL && strcmp(before, after) == 0);
	CHECK(access(paths[1], F_OK) != 0);
	CHECK(access(paths[3], F_OK) != 0);
	free(before);
	free(after);
	unlink(paths[0]);
}

/* A bad shape is no target's failure: failed is n. */
static void test_bad_shape_names_no_target(void)
{
	struct policyset_target t[4];
	char paths[NFILES][512];
	size_t failed = 99;
	struct policy_shape s;
	struct errbuf eb = {{0}};

	shape_of(&s, 3);
	s.roles = 0;
	four_targets(t, paths);
	CHECK_INT_EQ(policyset_write(&s, t, 4, false, &failed, &eb), -1);
	CHECK_INT_EQ(failed, 4);
	CHECK(eb.msg[0] != '\0');
	CHECK(access(paths[0], F_OK) != 0);
}

/* A file confgen did not write is replaced only with overwrite_foreign (confgen --force). */
static void test_foreign_file_needs_overwrite(void)
{
	struct policyset_target t[4];
	char paths[NFILES][512];
	size_t failed = 99;
	struct policy_shape s;
	struct errbuf eb = {{0}};
	char *text;
	FILE *f;

	shape_of(&s, 3);
	four_targets(t, paths);
	f = fopen(paths[1], "w");
	CHECK(f != NULL);
	if (f == NULL)
		return;
	fputs("precious\n", f);
	fclose(f);
	CHECK_INT_EQ(policyset_write(&s, t + 1, 1, false, &failed, &eb), -1);
	CHECK_INT_EQ(failed, 0);
	CHECK(strstr(eb.msg, "was not written by confgen") != NULL);
	text = testutil_read_file(paths[1], NULL);
	CHECK_STR_EQ(text, "precious\n");
	free(text);
	CHECK_INT_EQ(policyset_write(&s, t + 1, 1, true, NULL, &eb), 0);
	text = testutil_read_file(paths[1], NULL);
	CHECK(text != NULL && strncmp(text, "precious", 8) != 0);
	free(text);
	unlink(paths[1]);
}

int main(void)
{
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	RUN(test_same_bytes_as_each_writer);
	RUN(test_one_failure_changes_nothing);
	RUN(test_bad_shape_names_no_target);
	RUN(test_foreign_file_needs_overwrite);
	testutil_rm_dir(dir);
	return HARNESS_EXIT();
}
