/* Tests for runner (src/sweep/runner.h): the opaque run's setup refusals and outcomes, and
 * the profile files it reads back (runner_profile_files.h). The runs themselves need a provisioned
 * prefix: tests/integration/40-manifest.sh, 47-plan.sh and 49-profile.sh measure them. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "harness.h"
#include "manifest.h"
#include "runner.h"
#include "runner_profile_files.h"
#include "plan.h"
#include "plan_testutil.h"
#include "points.h"

static const char manifest_text[] =
    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"a\","
    "\"format\":\"doas\"}],\"axes\":{\"nb_tasks\":[1,10]}}";

static char dir[] = "/tmp/rarperf-test-runner-XXXXXX";

/* Writes text to dir/name; its path into path (PATH_MAX). 0 or -1. */
static int put(const char *name, const char *text, char *path)
{
	snprintf(path, PATH_MAX, "%s/%s", dir, name);
	return testutil_put_file(path, text, 0644);
}

/* Opens a dry run of manifest against prefix; its outcome (-1: no stream), what it wrote into
 * *msg. */
static int open_dry(const char *manifest, const char *prefix, char **msg)
{
	struct runner_config cfg = {0};
	struct runner *r = NULL;
	size_t len = 0;
	enum runner_outcome status;

	cfg.manifest = manifest;
	cfg.prefix = prefix;
	cfg.dry_run = true;
	cfg.progress = PROGRESS_NONE;
	cfg.err = open_memstream(msg, &len);
	if (cfg.err == NULL)
		return -1;
	status = runner_open(&cfg, &r);
	CHECK(r != NULL);
	runner_close(r);
	fclose(cfg.err);
	return status;
}

/* A manifest that cannot be read is the user's input, one line naming it. */
static void test_missing_manifest(void)
{
	char path[PATH_MAX], *msg = NULL;

	snprintf(path, sizeof(path), "%s/none.json", dir);
	CHECK_INT_EQ(open_dry(path, dir, &msg), RUNNER_BAD_INPUT);
	CHECK(msg != NULL && strstr(msg, "none.json") != NULL);
	CHECK(msg != NULL && strchr(msg, '\n') == strrchr(msg, '\n'));
	free(msg);
}

/* A prefix that is not there is this host's failure, named; nothing is created. */
static void test_missing_prefix(void)
{
	char path[PATH_MAX], prefix[PATH_MAX], *msg = NULL;
	struct stat st;

	CHECK_INT_EQ(put("m.json", manifest_text, path), 0);
	snprintf(prefix, sizeof(prefix), "%s/no-prefix", dir);
	CHECK_INT_EQ(open_dry(path, prefix, &msg), RUNNER_HOST_FAILED);
	CHECK(msg != NULL && strstr(msg, "no-prefix") != NULL);
	CHECK(stat(prefix, &st) != 0);
	free(msg);
}

/* Closing nothing is a no-op (runner_open's out-of-memory path leaves NULL). */
static void test_close_null(void)
{
	runner_close(NULL);
	CHECK(1);
}

/* Point profiles: missing (NULL, no message), unreadable (named), and profile.tsv's rows. */
static void test_profile_files(void)
{
	struct errbuf eb = {0};
	struct manifest *m = NULL;
	struct sweep *s = testutil_sweep_of(manifest_text, "m.json", &m, &eb);
	char path[PATH_MAX], *text = NULL, longdir[PATH_MAX + 8];
	cJSON *doc;
	size_t len = 0;

	CHECK(s != NULL);
	if (s == NULL)
		goto out;
	CHECK_INT_EQ(runner_profile_point_path(dir, 1, path, sizeof(path), &eb), 0);
	CHECK(strstr(path, "/profile/point-2.json") != NULL);
	memset(longdir, 'x', sizeof(longdir) - 1);
	longdir[sizeof(longdir) - 1] = '\0';
	CHECK_INT_EQ(runner_profile_point_path(longdir, 0, path, sizeof(path), &eb), -1);
	CHECK(strncmp(eb.msg, "xxxx", 4) == 0); /* names the directory (cut to the errbuf) */

	CHECK(runner_profile_read(dir, 0, &eb) == NULL);
	CHECK_STR_EQ(eb.msg, "");
	CHECK_INT_EQ(runner_profile_tsv(dir, s, &eb), 0);
	snprintf(path, sizeof(path), "%s/profile.tsv", dir);
	CHECK(access(path, F_OK) != 0); /* no profile, no file */

	snprintf(path, sizeof(path), "%s/profile", dir);
	CHECK_INT_EQ(mkdir(path, 0700), 0);
	CHECK_INT_EQ(put("profile/point-1.json", "[1]", path), 0);
	CHECK(runner_profile_read(dir, 0, &eb) == NULL);
	CHECK(strstr(eb.msg, "point-1.json: not a profile") != NULL);

	CHECK_INT_EQ(put("profile/point-1.json",
			 "{\"subjects\":{\"a\":{\"status\":\"traced\",\"calls\":5,"
			 "\"syscalls\":{\"read\":{\"calls\":3,\"failed\":1}}},"
			 "\"b\":{\"status\":\"untraceable\",\"calls\":9}}}",
			 path),
		     0);
	doc = runner_profile_read(dir, 0, &eb);
	CHECK(doc != NULL);
	cJSON_Delete(doc);
	CHECK_INT_EQ(runner_profile_tsv(dir, s, &eb), 0);
	snprintf(path, sizeof(path), "%s/profile.tsv", dir);
	CHECK_INT_EQ(fileio_read(path, 1 << 20, "cannot open", &text, &len, &eb), 0);
	CHECK_STR_EQ(text, "subject\tnb_roles\tnb_users\tnb_tasks\tnb_commands\trepetition\tcounter"
			   "\tvalue\n"
			   "a\t1\t1\t1\t1\t1\tcalls\t5\n"
			   "a\t1\t1\t1\t1\t1\tsys.read\t3\n"
			   "a\t1\t1\t1\t1\t1\tfail.read\t1\n");
	free(text);
out:
	sweep_free(s);
	manifest_free(m);
}

/* tools, as facts.json records them (a provisioned prefix's, cut to what the rules read). */
static const char facts_text[] =
    "{\"bench_user\":\"rarperf\",\"bench_uid\":4242,\"tools\":{"
    "\"sudo-rs\":{\"path\":\"/opt/rarperf/bin/sudo-rs\",\"policy\":\"/opt/rarperf/etc/sudoers-rs\","
    "\"policy_mounted_at\":\"/etc/sudoers-rs\"},"
    "\"dosr-json\":{\"path\":\"/opt/rarperf/bin/dosr-json\","
    "\"policy\":\"/opt/rarperf/etc/rootasrole-json.json\","
    "\"settings\":\"/opt/rarperf/etc/rootasrole-json.json\"},"
    "\"doas\":{\"path\":\"/opt/rarperf/bin/doas\",\"policy\":\"/opt/rarperf/etc/doas.conf\"},"
    "\"odd\":{\"policy_mounted_at\":\"etc/relative\"}}}";

/* Subject 0 (program) with policy_mount_at at checked against tool: the problems' count and,
 * when want is not NULL, the one line it makes. */
static void expect_mount_at(const char *tool, const char *program, const char *at, const char *want)
{
	cJSON *facts = cJSON_Parse(facts_text);
	struct manifest_subject ms = {.policy_mount_at = (char *)at};
	struct plan_subject s = {.ms = &ms, .program = (char *)program};
	struct plan sj = {.manifest = "x.json", .subjects = &s, .nsubjects = 1};
	struct errbuf eb = {{0}};
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItem(facts, "tools"),
							  tool != NULL ? tool : "none");

	CHECK_INT_EQ(plan_trust_mount_at(&sj, 0, t, &eb), 0);
	CHECK_INT_EQ(sj.nproblems, want != NULL ? 1 : 0);
	if (want != NULL && sj.nproblems == 1 && strstr(sj.problems[0], want) == NULL) {
		fprintf(stderr, "  got \"%s\", expected \"%s\"\n", sj.problems[0], want);
		harness_failed_checks++;
	}
	plan_problems_clear(&sj);
	cJSON_Delete(facts);
}

/* policy_mount_at only where the subject's tool reads its policy (issue 45, finding 2). */
static void test_mount_at_rule(void)
{
	cJSON *facts = cJSON_Parse(facts_text), *tools = cJSON_GetObjectItem(facts, "tools");

	CHECK_STR_EQ(plan_tool_policy_path(cJSON_GetObjectItem(tools, "sudo-rs")),
		     "/etc/sudoers-rs");
	CHECK_STR_EQ(plan_tool_policy_path(cJSON_GetObjectItem(tools, "dosr-json")),
		     "/opt/rarperf/etc/rootasrole-json.json");
	CHECK_STR_EQ(plan_tool_policy_path(cJSON_GetObjectItem(tools, "doas")),
		     "/opt/rarperf/etc/doas.conf");
	CHECK(plan_tool_policy_path(cJSON_GetObjectItem(tools, "odd")) == NULL);
	CHECK(plan_tool_policy_path(NULL) == NULL);
	cJSON_Delete(facts);

	/* The shipped experiments' use, and none at all. */
	expect_mount_at("sudo-rs", "/opt/rarperf/bin/sudo-rs", "/etc/sudoers-rs", NULL);
	expect_mount_at("dosr-json", "/opt/rarperf/bin/dosr-json",
			"/opt/rarperf/etc/rootasrole-json.json", NULL);
	expect_mount_at("doas", "/opt/rarperf/bin/doas", NULL, NULL);
	expect_mount_at(NULL, "/bin/sh", NULL, NULL);
	/* The recipe: RootAsRole's policy shown as the loader's preload list. */
	expect_mount_at("dosr-json", "/opt/rarperf/bin/dosr-json", "/etc/ld.so.preload",
			"x.json: $.subjects[0].policy_mount_at: /etc/ld.so.preload is not where "
			"/opt/rarperf/bin/dosr-json reads its policy (facts.json: "
			"/opt/rarperf/etc/rootasrole-json.json)");
	/* Near misses are other paths. */
	expect_mount_at("sudo-rs", "/opt/rarperf/bin/sudo-rs", "/etc/sudoers-rs/", "not where");
	expect_mount_at("sudo-rs", "/opt/rarperf/bin/sudo-rs", "/etc//sudoers-rs", "not where");
	expect_mount_at("sudo-rs", "/opt/rarperf/bin/sudo-rs", "/etc/sudoers", "not where");
	expect_mount_at("sudo-rs", "/opt/rarperf/bin/sudo-rs", "/etc/../etc/sudoers-rs",
			"not where");
	/* A program the prefix does not know reads no policy rarbench may show. */
	expect_mount_at(NULL, "/bin/sh", "/etc/sudoers-rs",
			"$.subjects[0].policy_mount_at: /etc/sudoers-rs: only where a tool of the "
			"prefix reads its policy, and facts.json records no such path for /bin/sh");
	expect_mount_at("odd", "/opt/rarperf/bin/odd", "/etc/relative", "records no such path");
}

/* The manifest's bench_user against facts.json's (issue 45, finding 3). */
static void expect_bench_user(const char *facts_json, const char *user, uid_t uid, const char *want)
{
	cJSON *facts = cJSON_Parse(facts_json);
	struct manifest m = {.bench_user = (char *)user, .bench_uid = uid};
	struct plan sj = {.manifest = "x.json", .m = &m, .facts = facts};
	struct errbuf eb = {{0}};

	CHECK_INT_EQ(plan_trust_bench_user(&sj, &eb), 0);
	CHECK_INT_EQ(sj.nproblems, want != NULL ? 1 : 0);
	if (want != NULL && sj.nproblems == 1 && strstr(sj.problems[0], want) == NULL) {
		fprintf(stderr, "  got \"%s\", expected \"%s\"\n", sj.problems[0], want);
		harness_failed_checks++;
	}
	plan_problems_clear(&sj);
	cJSON_Delete(facts);
}

static void test_bench_user_rule(void)
{
	expect_bench_user(facts_text, "rarperf", 4242, NULL);
	/* A remote manifest's user is the host's to look up: no uid here. */
	expect_bench_user(facts_text, "rarperf", 0, NULL);
	expect_bench_user(facts_text, "daemon", 1,
			  "x.json: $.bench_user: \"daemon\" is not the prefix's bench user "
			  "(facts.json: \"rarperf\")");
	expect_bench_user(facts_text, "nobody", 65534, "is not the prefix's bench user");
	expect_bench_user(facts_text, "rarperf", 1000,
			  "has uid 1000 here, facts.json records uid 4242");
	expect_bench_user("{\"tools\":{}}", "rarperf", 4242, "facts.json records no bench user");
}

int main(void)
{
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	RUN(test_missing_manifest);
	RUN(test_missing_prefix);
	RUN(test_close_null);
	RUN(test_profile_files);
	RUN(test_mount_at_rule);
	RUN(test_bench_user_rule);
	harness_remove_tree(dir);
	return HARNESS_EXIT();
}
