/* Tests for manifest: defaults, axes (list, logspace, range), and one line per bad manifest. */
#include <stdlib.h>
#include <sys/resource.h>

#include "harness.h"
#include "points.h"
#include "manifest.h"

static struct manifest *parse(const char *text, struct errbuf *eb)
{
	return manifest_parse_all(text, strlen(text), "x.json", 0, NULL, eb);
}

#define GOOD_SUBJECTS "\"subjects\":[{\"id\":\"sudo\",\"format\":\"sudoers\"}]"

static void test_logspace_matches_log_py(void)
{
	uint32_t v[32];
	size_t n = manifest_logspace(1, 10000, 15, v, 32);
	static const uint32_t expected[] = {1,   3,   7,   13,   26,   51,   100,
					    193, 372, 719, 1389, 2682, 5179, 10000};
	size_t i;

	CHECK_INT_EQ(n, 14);
	for (i = 0; i < 14 && i < n; i++)
		CHECK_INT_EQ(v[i], expected[i]);
	CHECK_INT_EQ(manifest_logspace(1, 1000, 6, v, 32), 6); /* 1 3 15 63 251 1000 */
	CHECK_INT_EQ(v[2], 15);
	CHECK_INT_EQ(v[5], 1000);
	CHECK_INT_EQ(manifest_logspace(5, 5, 1, v, 32), 1);
	CHECK_INT_EQ(v[0], 5);
	CHECK_INT_EQ(manifest_logspace(1, 10, 100, v, 32), 10); /* 1..10, each once */
}

static void test_defaults(void)
{
	struct errbuf eb = {0};
	struct manifest *m =
	    parse("{\"name\":\"t\",\"bench_user\":\"nobody\"," GOOD_SUBJECTS "}", &eb);

	CHECK(m != NULL);
	if (m == NULL) {
		fprintf(stderr, "  %s\n", eb.msg);
		return;
	}
	CHECK_STR_EQ(m->name, "t");
	/* Absent: no profile pass (a manifest written before the key measures as it did). */
	CHECK(!m->profile);
	CHECK_INT_EQ(m->nsubjects, 1);
	CHECK_STR_EQ(m->subjects[0].program, "{prefix}/bin/sudo");
	CHECK_STR_EQ(m->subjects[0].policy, "{prefix}/etc/sudoers");
	CHECK_INT_EQ(m->subjects[0].nargs, 2);
	CHECK_STR_EQ(m->subjects[0].args[1], "{command}");
	CHECK_STR_EQ(m->command, "/usr/bin/true");
	CHECK_INT_EQ(m->axes[MANIFEST_AXIS_TASKS].n, 1);
	CHECK_INT_EQ(m->axes[MANIFEST_AXIS_TASKS].values[0], 1);
	CHECK_INT_EQ(m->order, MEASURE_ORDER_INTERLEAVED);
	CHECK_INT_EQ(m->repetitions, 1);
	CHECK_INT_EQ(m->min_runs, 10);
	CHECK_INT_EQ(m->max_runs, 0);
	CHECK(m->bench_uid != 0);
	CHECK_INT_EQ(m->text_len, strlen(m->text));
	/* Absent: a refusal skips the subject's larger sizes. */
	CHECK_INT_EQ(m->after_refusal, MANIFEST_AFTER_REFUSAL_SKIP_LARGER);
	manifest_free(m);
}

static void expect_error(const char *text, const char *want);

/* "after_refusal": its two values, and a misspelt one answered with the nearest. */
static void test_after_refusal(void)
{
	struct errbuf eb = {0};
	struct manifest *m = parse("{\"name\":\"t\",\"bench_user\":\"nobody\","
				   "\"after_refusal\":\"try_larger\"," GOOD_SUBJECTS "}",
				   &eb);

	CHECK(m != NULL);
	if (m != NULL)
		CHECK_INT_EQ(m->after_refusal, MANIFEST_AFTER_REFUSAL_TRY_LARGER);
	manifest_free(m);
	CHECK_STR_EQ(manifest_after_refusal_name(MANIFEST_AFTER_REFUSAL_SKIP_LARGER),
		     "skip_larger");
	CHECK(manifest_after_refusal_name(MANIFEST_AFTER_REFUSAL_COUNT) == NULL);
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"after_refusal\":"
		     "\"skip_large\"," GOOD_SUBJECTS "}",
		     "$.after_refusal: unknown after_refusal \"skip_large\" (did you mean "
		     "\"skip_larger\"?)");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"after_refusal\":true," GOOD_SUBJECTS "}",
	    "$.after_refusal: expected a string, got a boolean");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"after_refusals\":\"try_"
		     "larger\"," GOOD_SUBJECTS "}",
		     "$.after_refusals: unknown key (did you mean \"after_refusal\"?)");
}

static void test_full_manifest(void)
{
	struct errbuf eb = {0};
	struct manifest *m = parse(
	    "{\"name\":\"full\",\"description\":\"d\",\"subjects\":["
	    "{\"id\":\"sr-cbor\",\"format\":\"rar-cbor\",\"program\":\"{prefix}/bin/dosr-cbor\"},"
	    "{\"id\":\"doas\",\"format\":\"doas\",\"args\":[\"{command}\"],\"policy\":\"/tmp/d\"}],"
	    "\"axes\":{\"nb_roles\":[1,2],\"nb_tasks\":{\"logspace\":[1,10000,15]},"
	    "\"nb_users\":{\"range\":[1,10,3]}},\"match\":\"first\",\"command\":\"/bin/true\","
	    "\"bench_user\":\"nobody\",\"warmup\":3,\"min_runs\":5,\"max_runs\":7,"
	    "\"min_time_s\":0.5,\"order\":\"random\",\"seed\":9,\"repetitions\":2,"
	    "\"sudoers_layout\":\"per-task\",\"seed_compat\":false,\"profile\":true}",
	    &eb);

	CHECK(m != NULL);
	if (m == NULL) {
		fprintf(stderr, "  %s\n", eb.msg);
		return;
	}
	CHECK_STR_EQ(m->subjects[0].policy_data, "{prefix}/etc/rootasrole-cbor.bin");
	CHECK_STR_EQ(m->subjects[0].policy, "{prefix}/etc/rootasrole-cbor.json");
	CHECK_STR_EQ(m->subjects[1].policy, "/tmp/d");
	CHECK_INT_EQ(m->subjects[1].nargs, 1);
	CHECK_INT_EQ(m->axes[MANIFEST_AXIS_ROLES].n, 2);
	CHECK_INT_EQ(m->axes[MANIFEST_AXIS_TASKS].n, 14);
	CHECK_INT_EQ(m->axes[MANIFEST_AXIS_USERS].n, 4); /* 1 4 7 10 */
	CHECK_INT_EQ(m->axes[MANIFEST_AXIS_USERS].values[3], 10);
	CHECK_INT_EQ(m->match, POLICY_MATCH_FIRST);
	CHECK_INT_EQ(m->min_time_ns, 500000000);
	CHECK_INT_EQ(m->order, MEASURE_ORDER_RANDOM);
	CHECK_INT_EQ(m->seed, 9);
	CHECK_INT_EQ(m->repetitions, 2);
	CHECK_INT_EQ(m->sudoers_layout, SUDOERS_LAYOUT_PER_TASK);
	CHECK(m->profile);
	manifest_free(m);
}

/* Each bad manifest: NULL, and the message names the file and the JSON path. */
/* "nb_files": sudoers subjects only, at most one file per task; the points carry it. */
static void test_files_axis(void)
{
	struct errbuf eb = {0};
	struct manifest *m = parse("{\"name\":\"t\",\"bench_user\":\"nobody\",\"axes\":{"
				   "\"nb_tasks\":[100],\"nb_files\":[1,10]},\"subjects\":[{"
				   "\"id\":\"sudo\",\"format\":\"sudoers\"}]}",
				   &eb);
	struct sweep *sw = NULL;

	CHECK(m != NULL);
	if (m != NULL) {
		CHECK_INT_EQ(m->files.n, 2);
		sw = sweep_new(m, &eb);
		CHECK(sw != NULL && sweep_count(sw) == 2);
		if (sw != NULL && sweep_count(sw) == 2) {
			CHECK_INT_EQ(sweep_at(sw, 1)->value[MANIFEST_VALUE_FILES], 10);
			CHECK_STR_EQ(sweep_at(sw, 1)->id, "nb_roles=1,nb_users=1,nb_tasks=100,"
							  "nb_commands=1,nb_files=10,repetition=1");
		}
		sweep_free(sw);
	}
	manifest_free(m);
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"axes\":{\"nb_files\":[1,2]},"
		     "\"subjects\":[{\"id\":\"sudo\",\"format\":\"sudoers\"},{\"id\":\"d\","
		     "\"format\":\"doas\"}]}",
		     "$.axes.nb_files: subject \"d\" (doas) cannot be split over files");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"axes\":{\"nb_files\":[2]},"
		     "\"subjects\":[{\"id\":\"r\",\"format\":\"rar-cbor\"}]}",
		     "subject \"r\" (rar-cbor) cannot be split over files");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"axes\":{\"nb_tasks\":[5,50],"
	    "\"nb_files\":[1,10]},\"subjects\":[{\"id\":\"sudo\",\"format\":\"sudoers\"}]}",
	    "nb_files=10 at nb_roles=1 nb_tasks=5");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"profile\":true,\"axes\":{"
		     "\"nb_files\":[1,2]}," GOOD_SUBJECTS "}",
		     "$.axes.nb_files: not with \"profile\" yet");
}

static void expect_error(const char *text, const char *want)
{
	struct errbuf eb = {0};
	struct manifest *m = parse(text, &eb);

	CHECK(m == NULL);
	manifest_free(m);
	if (strstr(eb.msg, want) == NULL || strncmp(eb.msg, "x.json: ", 8) != 0 ||
	    strchr(eb.msg, '\n') != NULL) {
		fprintf(stderr, "  got \"%s\", expected it to contain \"%s\"\n", eb.msg, want);
		harness_failed_checks++;
	}
}

static void test_bad_manifests(void)
{
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"colour\":1," GOOD_SUBJECTS "}",
		     "$.colour: unknown key");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"warmup\":\"3\"," GOOD_SUBJECTS
		     "}",
		     "$.warmup: expected an integer, got a string");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"axes\":{\"nb_tasks\":[]}," GOOD_SUBJECTS
	    "}",
	    "$.axes.nb_tasks: empty axis");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"a\","
		     "\"format\":\"sudoers\"},{\"id\":\"b\",\"format\":\"yaml\"}]}",
		     "$.subjects[1].format: unknown format \"yaml\" (expected sudoers, doas, "
		     "rar-json, rar-cbor, please, polkit)");
	expect_error("{\"name\":\"t\",\"bench_user\":\"no-such-user-rarperf\"," GOOD_SUBJECTS "}",
		     "$.bench_user: no such user \"no-such-user-rarperf\"");
	expect_error("{\"name\":\"t\",\"bench_user\":\"root\"," GOOD_SUBJECTS "}",
		     "$.bench_user: \"root\" is root");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\"}", "$.subjects: missing");
	expect_error("{\"bench_user\":\"nobody\"," GOOD_SUBJECTS "}", "$.name: missing");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"axes\":{\"nb_tasks\":"
		     "{\"logspace\":[1,10]}}," GOOD_SUBJECTS "}",
		     "$.axes.nb_tasks.logspace: expected an array of 3 integers");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"axes\":{\"nb_tasks\":"
		     "{\"range\":[10,1,1]}}," GOOD_SUBJECTS "}",
		     "$.axes.nb_tasks.range: stop (1) is below start (10)");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"axes\":{\"nb_tasks\":[1,0]}," GOOD_SUBJECTS
	    "}",
	    "$.axes.nb_tasks[1]: 0 is out of range");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"axes\":{\"nb_task\":[1]}," GOOD_SUBJECTS
	    "}",
	    "$.axes.nb_task: unknown key");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"a\","
		     "\"format\":\"doas\",\"program\":\"{prefx}/bin/doas\"}]}",
		     "$.subjects[0].program: unknown placeholder");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"a\","
		     "\"format\":\"doas\"},{\"id\":\"a\",\"format\":\"sudoers\"}]}",
		     "$.subjects[1].id: duplicate subject id");
	expect_error("{\"name\":\"t\",\"name\":\"u\",\"bench_user\":\"nobody\"," GOOD_SUBJECTS "}",
		     "$.name: duplicate key");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"min_runs\":5,\"max_runs\":2," GOOD_SUBJECTS
	    "}",
	    "$.max_runs: 2 is below min_runs (5)");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"order\":\"zigzag\"," GOOD_SUBJECTS
		     "}",
		     "$.order: unknown order \"zigzag\"");
	expect_error("{\"name\":\"t\",\n\"bench_user\":\"nobody\",,}",
		     "line 2, column 24: not valid JSON");
	/* A trailing comma: the column of the bracket, and the fix. */
	expect_error("{\"name\":\"t\",\n  \"seed\": 1,\n}",
		     "line 3, column 1: not valid JSON (a comma before a closing bracket: JSON "
		     "allows no trailing comma, remove it)");
	expect_error("{\"name\":\"t\",\"axes\":{\"nb_roles\":[1,2,]}}",
		     "line 1, column 37: not valid JSON (a comma before a closing bracket");
	expect_error("{\"name\":\"t\",\n\"axes\":{\"nb_roles\":[1,",
		     "not valid JSON (the file ends with a bracket or a quote left open");
	/* Did you mean: a key, an axis, an enum value, an axis spec. */
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"repetition\":3," GOOD_SUBJECTS
		     "}",
		     "$.repetition: unknown key (did you mean \"repetitions\"?)");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"axes\":{\"nb_role\":[1]}," GOOD_SUBJECTS
	    "}",
	    "$.axes.nb_role: unknown key (did you mean \"nb_roles\"?)");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"order\":\"interleave\"," GOOD_SUBJECTS "}",
	    "$.order: unknown order \"interleave\" (did you mean \"interleaved\"?)");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"axes\":{\"nb_tasks\":"
	    "{\"logspac\":[1,10,2]}}," GOOD_SUBJECTS "}",
	    "$.axes.nb_tasks.logspac: unknown key \"logspac\" (did you mean \"logspace\"?)");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"min_runs\":4,\"rounds\":5," GOOD_SUBJECTS
	    "}",
	    "$.rounds: 5 is above min_runs (4)");
	expect_error("[1,2]", "$: expected an object, got an array");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"min_time_s\":-1," GOOD_SUBJECTS
		     "}",
		     "$.min_time_s: -1 is out of range");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"a\","
		     "\"format\":\"doas\",\"args\":[1]}]}",
		     "$.subjects[0].args[0]: expected a string, got a number");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"a\","
	    "\"format\":\"rar-cbor\",\"rar_version\":\"4.0\"}]}",
	    "$.subjects[0].rar_version: RootAsRole version \"4.0\": expected MAJOR.MINOR.PATCH");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"a\","
		     "\"format\":\"sudoers\",\"rar_version\":\"4.0.3\"}]}",
		     "$.subjects[0].rar_version: only a rar-json or rar-cbor subject has one");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"a\","
	    "\"format\":\"sudoers\",\"policy_mount_at\":\"etc/sudoers-rs\"}]}",
	    "$.subjects[0].policy_mount_at: \"etc/sudoers-rs\": expected an absolute path");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"a\","
		     "\"format\":\"doas\",\"pam\":1}]}",
		     "$.subjects[0].pam: expected true, false or a directory, got a number");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"a\","
	    "\"format\":\"doas\",\"pam\":\"pam.d\"}]}",
	    "$.subjects[0].pam: \"pam.d\": expected an absolute directory or {prefix}/...");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"a\","
		     "\"format\":\"doas\",\"pam\":\"/{prefx}/p\"}]}",
		     "$.subjects[0].pam: unknown placeholder");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"a\","
		     "\"format\":\"doas\",\"sudoers_layout\":\"per-task\"}]}",
		     "$.subjects[0].sudoers_layout: only a sudoers subject has one");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"a\","
		     "\"format\":\"sudoers\",\"sudoers_layout\":\"flat\"}]}",
		     "$.subjects[0].sudoers_layout: unknown sudoers_layout \"flat\"");
}

/*
 * A sweep whose largest point confgen would refuse is refused when it loads,
 * naming the axis values, not when the run reaches that point.
 */
static void test_too_large_points(void)
{
	struct errbuf eb = {0};
	struct manifest *m;

	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"axes\":{\"nb_tasks\":[1,"
		     "1000000],\"nb_commands\":[1,1000]}," GOOD_SUBJECTS "}",
		     "$.axes: nb_roles=1 * nb_tasks=1000000 * nb_commands=1000 = 1000000000 "
		     "commands at the largest point; confgen's limit is 100000000");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"axes\":{\"nb_roles\":"
		     "{\"range\":[1,100,99]},\"nb_users\":[1000000]}," GOOD_SUBJECTS "}",
		     "$.axes: nb_roles=100 * nb_users=1000000 = 100000000 users at the largest "
		     "point; confgen's limit is 10000000");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"s\","
		     "\"format\":\"sudoers\"},{\"id\":\"d\",\"format\":\"doas\"}],\"axes\":"
		     "{\"nb_users\":[1,1000],\"nb_tasks\":{\"logspace\":[1,1000000,7]}}}",
		     "$.axes: nb_roles=1 * nb_users=1000 * nb_tasks=1000000 * nb_commands=1 = "
		     "1000000000 doas rules at the largest point; confgen's limit is 100000000");
	/* The same axes without a doas subject are fine: sudoers has aliases. */
	m = parse("{\"name\":\"t\",\"bench_user\":\"nobody\",\"axes\":{\"nb_users\":[1,1000],"
		  "\"nb_tasks\":{\"logspace\":[1,1000000,7]}}," GOOD_SUBJECTS "}",
		  &eb);
	CHECK(m != NULL);
	manifest_free(m);
	/* Exactly at the limits: 10^8 commands, a 3.7 GB sudoers file (max_policy_bytes' own). */
	m = parse(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"max_policy_bytes\":68719476736,"
	    "\"axes\":{\"nb_roles\":[10],"
	    "\"nb_users\":[1000000],\"nb_tasks\":[1000000],\"nb_commands\":[10]}," GOOD_SUBJECTS
	    "}",
	    &eb);
	CHECK(m != NULL);
	manifest_free(m);
}

/* The subject keys for RootAsRole versions, fixed policy paths and a per-subject layout. */
static void test_subject_dialects(void)
{
	struct errbuf eb = {0};
	struct manifest *m =
	    parse("{\"name\":\"d\",\"bench_user\":\"nobody\",\"sudoers_layout\":\"per-role\","
		  "\"subjects\":[{\"id\":\"sudo\",\"format\":\"sudoers\"},"
		  "{\"id\":\"sudo-rs\",\"format\":\"sudoers\",\"program\":\"{prefix}/bin/sudo-rs\","
		  "\"policy\":\"{prefix}/etc/sudoers-rs\",\"policy_mount_at\":\"/etc/sudoers-rs\","
		  "\"sudoers_layout\":\"per-task\"},"
		  "{\"id\":\"sr-cbor-4.0.3\",\"format\":\"rar-cbor\",\"rar_version\":\"4.0.3\"},"
		  "{\"id\":\"sudo-pam\",\"format\":\"sudoers\",\"pam\":true},"
		  "{\"id\":\"doas\",\"format\":\"doas\",\"pam\":false},"
		  "{\"id\":\"doas-x\",\"format\":\"doas\",\"pam\":\"/tmp/pam.d\"}]}",
		  &eb);

	CHECK(m != NULL);
	if (m == NULL) {
		fprintf(stderr, "  %s\n", eb.msg);
		return;
	}
	CHECK(!m->subjects[0].has_sudoers_layout);
	CHECK(m->subjects[0].policy_mount_at == NULL);
	CHECK(m->subjects[1].has_sudoers_layout);
	CHECK_INT_EQ(m->subjects[1].sudoers_layout, SUDOERS_LAYOUT_PER_TASK);
	CHECK_STR_EQ(m->subjects[1].policy_mount_at, "/etc/sudoers-rs");
	CHECK_STR_EQ(m->subjects[2].rar_version, "4.0.3");
	CHECK(m->subjects[0].rar_version == NULL);
	CHECK_INT_EQ(m->subjects[0].pam, MANIFEST_PAM_AUTO);
	CHECK(m->subjects[0].pam_dir == NULL);
	CHECK_INT_EQ(m->subjects[3].pam, MANIFEST_PAM_ON);
	CHECK_STR_EQ(m->subjects[3].pam_dir, MANIFEST_PAM_DIR_DEFAULT);
	CHECK_INT_EQ(m->subjects[4].pam, MANIFEST_PAM_OFF);
	CHECK_STR_EQ(m->subjects[5].pam_dir, "/tmp/pam.d");
	CHECK(!m->subjects[5].unsafe_pam && !m->subjects[5].unsafe_program);
	manifest_free(m);
}

/* Format please: its program, policy and fixed path by default, -n; no build, no layout. */
static void test_subject_please(void)
{
	struct errbuf eb = {0};
	struct manifest *m = parse("{\"name\":\"p\",\"bench_user\":\"nobody\",\"subjects\":["
				   "{\"id\":\"please\",\"format\":\"please\"},"
				   "{\"id\":\"p2\",\"format\":\"please\",\"args\":[\"{command}\"],"
				   "\"policy_mount_at\":\"/etc/please.ini\"}]}",
				   &eb);

	CHECK(m != NULL);
	if (m == NULL) {
		fprintf(stderr, "  %s\n", eb.msg);
		return;
	}
	CHECK_INT_EQ(m->subjects[0].format, POLICY_FORMAT_PLEASE);
	CHECK_STR_EQ(m->subjects[0].program, "{prefix}/bin/please");
	CHECK_STR_EQ(m->subjects[0].policy, "{prefix}/etc/please.ini");
	CHECK_STR_EQ(m->subjects[0].policy_mount_at, "/etc/please.ini");
	CHECK(m->subjects[0].policy_data == NULL);
	CHECK_INT_EQ(m->subjects[0].nargs, 2);
	CHECK_STR_EQ(m->subjects[0].args[0], "-n");
	CHECK_STR_EQ(m->subjects[0].args[1], "{command}");
	CHECK_INT_EQ(m->subjects[1].nargs, 1);
	manifest_free(m);
	expect_error("{\"name\":\"p\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"p\","
		     "\"format\":\"please\",\"build\":\"dev\"}]}",
		     "$.subjects[0].build: please has no build from a source tree");
	expect_error("{\"name\":\"p\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"p\","
		     "\"format\":\"please\",\"sudoers_layout\":\"per-task\"}]}",
		     "$.subjects[0].sudoers_layout: only a sudoers subject has one");
	expect_error("{\"name\":\"p\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"p\","
		     "\"format\":\"please\",\"rar_version\":\"4.0.3\"}]}",
		     "$.subjects[0].rar_version: only a rar-json or rar-cbor subject has one");
	/* please -c FILE parses any file as root before any policy is read (R43). */
	expect_error("{\"name\":\"p\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"p\","
		     "\"format\":\"please\",\"args\":[\"-c\",\"/etc/shadow\",\"{command}\"]}]}",
		     "$.subjects[0].args[0]: \"-c\": before {command} a please subject takes only -n "
		     "(please -c reads any file as root; doc/security.md R43)");
	expect_error("{\"name\":\"p\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"p\","
		     "\"format\":\"please\",\"args\":[\"-n\",\"-w\"]}]}",
		     "$.subjects[0].args[1]: \"-w\": before {command} a please subject takes only -n "
		     "(please -c reads any file as root; doc/security.md R43)");
	expect_error("{\"name\":\"p\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"p\","
		     "\"format\":\"please\",\"args\":[\"-n\"]}]}",
		     "$.subjects[0].args: a please subject's arguments must hold {command}");
}

/* unsafe_program and unsafe_pam: booleans per subject, false when absent (plan_trust.c). */
static void test_subject_unsafe_keys(void)
{
	struct errbuf eb = {0};
	struct manifest *m =
	    parse("{\"name\":\"u\",\"bench_user\":\"nobody\",\"subjects\":["
		  "{\"id\":\"a\",\"format\":\"doas\",\"pam\":\"/tmp/p\",\"unsafe_pam\":true,"
		  "\"program\":\"/tmp/x\",\"unsafe_program\":true},"
		  "{\"id\":\"b\",\"format\":\"doas\",\"unsafe_pam\":false}]}",
		  &eb);

	CHECK(m != NULL);
	if (m != NULL) {
		CHECK(m->subjects[0].unsafe_pam && m->subjects[0].unsafe_program);
		CHECK(!m->subjects[1].unsafe_pam && !m->subjects[1].unsafe_program);
	}
	manifest_free(m);
	m = parse("{\"name\":\"u\",\"bench_user\":\"nobody\",\"subjects\":["
		  "{\"id\":\"a\",\"format\":\"doas\",\"unsafe_pam\":\"yes\"}]}",
		  &eb);
	CHECK(m == NULL);
	CHECK(strstr(eb.msg, "$.subjects[0].unsafe_pam: expected a boolean, got a string") != NULL);
	manifest_free(m);
}

/* build: a source tree's subject (make provision-dev) gets that build's program and files. */
static void test_subject_build(void)
{
	struct errbuf eb = {0};
	struct manifest *m = parse("{\"name\":\"d\",\"bench_user\":\"nobody\",\"subjects\":["
				   "{\"id\":\"base\",\"format\":\"rar-cbor\"},"
				   "{\"id\":\"cand\",\"format\":\"rar-cbor\",\"build\":\"dev\"},"
				   "{\"id\":\"j\",\"format\":\"rar-json\",\"build\":\"dev-fast.2\","
				   "\"rar_version\":\"4.0.3\"},"
				   "{\"id\":\"s\",\"format\":\"sudoers\",\"build\":\"dev\"},"
				   "{\"id\":\"d\",\"format\":\"doas\",\"build\":\"dev-x\","
				   "\"program\":\"/usr/bin/doas\"}]}",
				   &eb);

	CHECK(m != NULL);
	if (m == NULL) {
		fprintf(stderr, "  %s\n", eb.msg);
		return;
	}
	CHECK(m->subjects[0].build == NULL);
	CHECK_STR_EQ(m->subjects[0].program, "{prefix}/bin/dosr-cbor");
	CHECK_STR_EQ(m->subjects[1].build, "dev");
	CHECK_STR_EQ(m->subjects[1].program, "{prefix}/bin/dosr-dev-cbor");
	/* The tree's baked paths are as long as its release's (rootasrole-cbor.json): "d" and the
	 * start of sha256("dev-cbor") = 1c68787d..., as dev.yml names them (issue 46's A/A). */
	CHECK_STR_EQ(m->subjects[1].policy, "{prefix}/etc/rootasrole-d1c6.json");
	CHECK_STR_EQ(m->subjects[1].policy_data, "{prefix}/etc/rootasrole-d1c6.bin");
	/* The build names the program; the version the length of the files' names
	 * (rootasrole-4.0.3-json.json): sha256("dev-fast.2-json") = f4684fced5e5... */
	CHECK_STR_EQ(m->subjects[2].program, "{prefix}/bin/dosr-dev-fast.2-json");
	CHECK_STR_EQ(m->subjects[2].policy, "{prefix}/etc/rootasrole-df4684fced.json");
	CHECK_INT_EQ(strlen(m->subjects[2].policy),
		     strlen("{prefix}/etc/rootasrole-4.0.3-json.json"));
	CHECK(m->subjects[2].policy_data == NULL);
	CHECK_STR_EQ(m->subjects[2].rar_version, "4.0.3");
	CHECK_STR_EQ(m->subjects[3].program, "{prefix}/bin/sudo-dev");
	CHECK_STR_EQ(m->subjects[3].policy, "{prefix}/etc/sudo-dev/sudoers");
	CHECK_STR_EQ(m->subjects[4].program, "/usr/bin/doas");
	CHECK_STR_EQ(m->subjects[4].policy, "{prefix}/etc/doas-dev-x/doas.conf");
	manifest_free(m);
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"a\","
		     "\"format\":\"rar-cbor\",\"build\":\"release\"}]}",
		     "$.subjects[0].build: \"release\": expected \"dev\" or \"dev-NAME\"");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"a\","
		     "\"format\":\"rar-cbor\",\"build\":\"dev-\"}]}",
		     "$.subjects[0].build: \"dev-\": expected");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"a\","
		     "\"format\":\"doas\",\"build\":\"dev-A/b\"}]}",
		     "$.subjects[0].build: \"dev-A/b\": expected");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"a\","
		     "\"format\":\"doas\",\"build\":\"devx\"}]}",
		     "$.subjects[0].build: \"devx\": expected");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"a\","
	    "\"format\":\"doas\",\"build\":\"dev-0123456789012345678901234567890123456\"}]}",
	    "$.subjects[0].build: \"dev-0123456789");
}

static void test_expand(void)
{
	struct errbuf eb = {0};
	char *s =
	    manifest_expand("{prefix}/bin/sudo {command}{prefix}", "/opt/r", "/bin/true", &eb);

	CHECK_STR_EQ(s, "/opt/r/bin/sudo /bin/true/opt/r");
	free(s);
	CHECK(manifest_expand("{nope}", "/p", "/c", &eb) == NULL);
	CHECK(strstr(eb.msg, "unknown placeholder") != NULL);
}

/* Precision mode: its defaults, explicit values, and what it refuses. */
static void test_precision(void)
{
	struct errbuf eb = {0};
	struct manifest *m =
	    parse("{\"name\":\"t\",\"bench_user\":\"nobody\"," GOOD_SUBJECTS "}", &eb);

	/* the fixed procedure stays the default: an old manifest means what it meant */
	CHECK(m != NULL && m->precision == 0 && m->max_rounds == 1 && m->remeasure == 0 &&
	      m->estimator == ESTIMATE_MEDIAN && m->contended == ESTIMATE_CONTENDED_KEEP);
	manifest_free(m);
	m = parse("{\"name\":\"t\",\"bench_user\":\"nobody\",\"precision\":true," GOOD_SUBJECTS "}",
		  &eb);
	CHECK(m != NULL);
	if (m != NULL) {
		CHECK(m->precision == MANIFEST_PRECISION_DEFAULT_PCT / 100.0);
		CHECK_INT_EQ(m->warmup, MANIFEST_PRECISION_WARMUP);
		CHECK_INT_EQ(m->min_runs, MANIFEST_PRECISION_MIN_RUNS);
		CHECK_INT_EQ(m->max_runs, MANIFEST_PRECISION_MAX_RUNS);
		CHECK_INT_EQ(m->rounds, MANIFEST_PRECISION_ROUNDS);
		CHECK_INT_EQ(m->remeasure, MANIFEST_PRECISION_REMEASURE);
		CHECK_INT_EQ(m->min_time_ns, 0);
		/* rounds of min_runs / rounds runs until max_runs */
		CHECK_INT_EQ(m->max_rounds,
			     MANIFEST_PRECISION_MAX_RUNS /
				 (MANIFEST_PRECISION_MIN_RUNS / MANIFEST_PRECISION_ROUNDS));
	}
	manifest_free(m);
	m = parse("{\"name\":\"t\",\"bench_user\":\"nobody\",\"precision\":0.5,"
		  "\"estimator\":\"trimmed\",\"contended\":\"drop\",\"contention_limit\":0.25,"
		  "\"remeasure\":3,\"min_runs\":30,\"max_runs\":95,\"rounds\":3,\"warmup\":"
		  "6," GOOD_SUBJECTS "}",
		  &eb);
	CHECK(m != NULL);
	if (m != NULL) {
		CHECK(m->precision == 0.005);
		CHECK_INT_EQ(m->estimator, ESTIMATE_TRIMMED);
		CHECK(m->contended == ESTIMATE_CONTENDED_DROP && m->contention_limit == 0.25);
		CHECK_INT_EQ(m->remeasure, 3);
		CHECK_INT_EQ(m->warmup, 6);
		/* 3 rounds of 10, then ceil((95 - 30) / 10) = 7 more */
		CHECK_INT_EQ(m->max_rounds, 10);
	}
	manifest_free(m);
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"precision\":\"1%\"," GOOD_SUBJECTS
		     "}",
		     "x.json: $.precision: expected true, false or a percentage, got a string");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"precision\":100," GOOD_SUBJECTS
		     "}",
		     "x.json: $.precision: 100 is out of range");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"precision\":1,\"min_time_s\":"
		     "3," GOOD_SUBJECTS "}",
		     "x.json: $.min_time_s: does not apply in precision mode");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"estimator\":\"mode\"," GOOD_SUBJECTS "}",
	    "x.json: $.estimator: unknown");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"contention_limit\":2," GOOD_SUBJECTS "}",
	    "x.json: $.contention_limit: 2 is out of range (0 to 1)");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"contended\":\"hide\"," GOOD_SUBJECTS "}",
	    "x.json: $.contended: unknown");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"remeasure\":11," GOOD_SUBJECTS
		     "}",
		     "x.json: $.remeasure:");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"precision\":1,\"min_runs\":1,"
		     "\"rounds\":1,\"max_runs\":10000000," GOOD_SUBJECTS "}",
		     "x.json: $.max_runs: 10000000 runs in rounds of 1 would take more than");
}

/* precision_baseline: a subject's id, in precision mode, with another subject to compare. */
static void test_precision_baseline(void)
{
#define TWO_SUBJECTS                                                                               \
	"\"subjects\":[{\"id\":\"sudo\",\"format\":\"sudoers\"},{\"id\":\"doas\",\"format\":"      \
	"\"doas\"}]"
	struct manifest *m = parse("{\"name\":\"t\",\"bench_user\":\"nobody\",\"precision\":true,"
				   "\"precision_baseline\":\"sudo\"," TWO_SUBJECTS "}",
				   NULL);

	CHECK(m != NULL && m->precision_baseline != NULL &&
	      strcmp(m->precision_baseline, "sudo") == 0);
	manifest_free(m);
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"precision\":true,"
		     "\"precision_baseline\":\"ghost\"," TWO_SUBJECTS "}",
		     "x.json: $.precision_baseline: \"ghost\" is not a subject's id");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\","
		     "\"precision_baseline\":\"sudo\"," TWO_SUBJECTS "}",
		     "x.json: $.precision_baseline: applies only in precision mode");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"precision\":true,"
		     "\"precision_baseline\":\"sudo\"," GOOD_SUBJECTS "}",
		     "x.json: $.precision_baseline: needs another subject");
#undef TWO_SUBJECTS
}

/* reference: absent or false none; true the default units; a whole number that many. */
static void test_reference(void)
{
	struct manifest *m =
	    parse("{\"name\":\"t\",\"bench_user\":\"nobody\"," GOOD_SUBJECTS "}", NULL);

	CHECK(m != NULL && !m->reference && m->reference_units == 0);
	manifest_free(m);
	m = parse("{\"name\":\"t\",\"bench_user\":\"nobody\",\"reference\":true," GOOD_SUBJECTS "}",
		  NULL);
	CHECK(m != NULL && m->reference && m->reference_units == MANIFEST_REFERENCE_UNITS_DEFAULT);
	manifest_free(m);
	m = parse("{\"name\":\"t\",\"bench_user\":\"nobody\",\"reference\":0," GOOD_SUBJECTS "}",
		  NULL);
	CHECK(m != NULL && m->reference && m->reference_units == 0);
	manifest_free(m);
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"reference\":1.5," GOOD_SUBJECTS
		     "}",
		     "x.json: $.reference: 1.5 is not a whole number from 0 to 100000");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"reference\":\"yes\"," GOOD_SUBJECTS "}",
	    "x.json: $.reference: expected true, false or a number of work units");
	/* kernel_reference: a boolean, and only beside the reference (issue 43, item 3). */
	m = parse("{\"name\":\"t\",\"bench_user\":\"nobody\",\"reference\":true,"
		  "\"kernel_reference\":true," GOOD_SUBJECTS "}",
		  NULL);
	CHECK(m != NULL && m->reference && m->kernel_reference);
	manifest_free(m);
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"kernel_reference\":true," GOOD_SUBJECTS
	    "}",
	    "x.json: $.kernel_reference: needs \"reference\" too");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"reference\":true,"
		     "\"kernel_reference\":1," GOOD_SUBJECTS "}",
		     "x.json: $.kernel_reference: expected true or false, got a number");
}

/* page_cache: evict by default (issue 46's A/A), or before every round; "as_found" re-runs a 0.6
 * manifest as it was. */
static void test_page_cache(void)
{
	struct manifest *m =
	    parse("{\"name\":\"t\",\"bench_user\":\"nobody\"," GOOD_SUBJECTS "}", NULL);

	CHECK(m != NULL && !m->env.page_cache_as_found);
	manifest_free(m);
	m = parse(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"page_cache\":\"as_found\"," GOOD_SUBJECTS
	    "}",
	    NULL);
	CHECK(m != NULL && m->env.page_cache_as_found);
	manifest_free(m);
	m = parse(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"page_cache\":\"evict\"," GOOD_SUBJECTS "}",
	    NULL);
	CHECK(m != NULL && !m->env.page_cache_as_found && !m->env.page_cache_each_round);
	manifest_free(m);
	m = parse("{\"name\":\"t\",\"bench_user\":\"nobody\",\"page_cache\":\"evict_each_"
		  "round\"," GOOD_SUBJECTS "}",
		  NULL);
	CHECK(m != NULL && !m->env.page_cache_as_found && m->env.page_cache_each_round);
	manifest_free(m);
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"page_cache\":\"drop\"," GOOD_SUBJECTS "}",
	    "x.json: $.page_cache: expected \"evict\", \"evict_each_round\" or \"as_found\"");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"page_cache\":true," GOOD_SUBJECTS "}",
	    "x.json: $.page_cache: expected \"evict\", \"evict_each_round\" or \"as_found\"");
}

/*
 * max_policy_bytes: the 10^6 tasks x 100 commands refused at load
 * under the default 256 MiB, in one line naming the point, the subject,
 * the size and the cap; the key's own range.
 */
static void test_policy_bytes_cap(void)
{
	struct errbuf eb = {0};
	struct manifest *m;
	const char *big = "\"axes\":{\"nb_tasks\":[10,1000000],\"nb_commands\":[100]},";
	char text[1024];

	m = parse("{\"name\":\"t\",\"bench_user\":\"nobody\"," GOOD_SUBJECTS "}", &eb);
	CHECK(m != NULL && m->max_policy_bytes == MANIFEST_POLICY_BYTES_DEFAULT);
	CHECK_INT_EQ(MANIFEST_POLICY_BYTES_DEFAULT, 268435456);
	manifest_free(m);
	snprintf(text, sizeof(text),
		 "{\"name\":\"t\",\"bench_user\":\"nobody\",%s" GOOD_SUBJECTS "}", big);
	expect_error(text,
		     "x.json: $.axes: nb_roles=1,nb_users=1,nb_tasks=1000000,nb_commands=100: "
		     "subject \"sudo\" (sudoers) would write ");
	expect_error(text, "would write 3130667485 bytes of policy (2.9 GiB)");
	expect_error(text, "over max_policy_bytes 268435456 (256.0 MiB); shrink the axes or raise "
			   "max_policy_bytes (at most 68719476736)");
	/* Raised, it loads; the same for doas (10^8 rules, its limit) under the largest cap. */
	snprintf(text, sizeof(text),
		 "{\"name\":\"t\",\"bench_user\":\"nobody\",\"max_policy_bytes\":68719476736,%s"
		 "\"subjects\":[{\"id\":\"sudo\",\"format\":\"sudoers\"},{\"id\":\"doas\","
		 "\"format\":\"doas\"},{\"id\":\"j\",\"format\":\"rar-json\"},{\"id\":\"c\","
		 "\"format\":\"rar-cbor\"}]}",
		 big);
	m = parse(text, &eb);
	CHECK(m != NULL);
	if (m == NULL)
		fprintf(stderr, "  %s\n", eb.msg);
	manifest_free(m);
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"max_policy_bytes\":1000," GOOD_SUBJECTS
	    "}",
	    "x.json: $.max_policy_bytes: 1000 is out of range (1024 to 68719476736)");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"max_policy_bytes\":"
		     "68719476737," GOOD_SUBJECTS "}",
		     "x.json: $.max_policy_bytes: 68719476737 is out of range");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"max_policy_bytes\":\"1G\"," GOOD_SUBJECTS
	    "}",
	    "x.json: $.max_policy_bytes: expected an integer, got a string");
}

/*
 * Under any cap, the point named is the first one over it in sweep order,
 * and its first subject over it: the same as sizing every point and
 * subject (the check itself sizes one point per axis value).
 */
static void test_policy_bytes_first_point_over(void)
{
	static const char *const axes =
	    "\"match\":\"middle\",\"axes\":{\"nb_roles\":[3,1,2],\"nb_users\":[2,1],"
	    "\"nb_tasks\":[5,50,1],\"nb_commands\":[1,20]},\"subjects\":[{\"id\":\"s\","
	    "\"format\":\"sudoers\"},{\"id\":\"d\",\"format\":\"doas\"},{\"id\":\"j\","
	    "\"format\":\"rar-json\"},{\"id\":\"c\",\"format\":\"rar-cbor\"}]}";
	static const uint64_t caps[] = {1024, 1500, 2000, 4000, 8000, 20000, 50000, 100000};
	char text[1024], want[256];
	struct errbuf eb = {0};
	struct manifest *m;

	snprintf(text, sizeof(text), "{\"name\":\"t\",\"bench_user\":\"nobody\",%s", axes);
	m = parse(text, &eb);
	CHECK(m != NULL);
	if (m == NULL)
		return;
	for (size_t c = 0; c < sizeof(caps) / sizeof(caps[0]); c++) {
		size_t n[MANIFEST_AXIS_COUNT], combos = 1, k, i = 0;
		uint32_t v[MANIFEST_AXIS_COUNT];
		struct policy_size_bytes sz;
		int found = 0;

		for (int a = 0; a < MANIFEST_AXIS_COUNT; a++)
			combos *= n[a] = m->axes[a].n;
		for (k = 0; k < combos && !found; k++) {
			size_t rest = k;

			for (int a = MANIFEST_AXIS_COUNT - 1; a >= 0; a--) {
				v[a] = m->axes[a].values[rest % n[a]];
				rest /= n[a];
			}
			for (i = 0; i < m->nsubjects && !found; i++) {
				CHECK_INT_EQ(manifest_policy_bytes(m, v, i, NULL, &sz, &eb), 0);
				found = sz.policy_bytes + sz.data_bytes > caps[c];
			}
		}
		snprintf(text, sizeof(text),
			 "{\"name\":\"t\",\"bench_user\":\"nobody\",\"max_policy_bytes\":%llu,%s",
			 (unsigned long long)caps[c], axes);
		if (!found) {
			struct manifest *ok = parse(text, &eb);

			CHECK(ok != NULL);
			manifest_free(ok);
			continue;
		}
		snprintf(want, sizeof(want),
			 "$.axes: nb_roles=%u,nb_users=%u,nb_tasks=%u,nb_commands=%u: subject "
			 "\"%s\" (%s) would write %llu bytes",
			 v[0], v[1], v[2], v[3], m->subjects[i - 1].id,
			 policy_format_name(m->subjects[i - 1].format),
			 (unsigned long long)(sz.policy_bytes + sz.data_bytes));
		expect_error(text, want);
	}
	manifest_free(m);
}

/* min_time_s beyond 60 s needs max_runs; manifest_policy_bytes' own refusals. */
static void test_min_time_bound(void)
{
	struct errbuf eb = {0};
	struct manifest *m;
	uint32_t v[MANIFEST_AXIS_COUNT] = {1, 1, 1, 1};
	struct policy_size_bytes sz;

	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"min_time_s\":60.5," GOOD_SUBJECTS "}",
	    "x.json: $.min_time_s: 60.5 s without max_runs: a fast command would run for "
	    "that long at every point, each run's sample kept; give max_runs, or at most 60 "
	    "s");
	m = parse("{\"name\":\"t\",\"bench_user\":\"nobody\",\"min_time_s\":60," GOOD_SUBJECTS "}",
		  &eb);
	CHECK(m != NULL);
	manifest_free(m);
	m = parse("{\"name\":\"t\",\"bench_user\":\"nobody\",\"min_time_s\":3600,"
		  "\"max_runs\":1000," GOOD_SUBJECTS "}",
		  &eb);
	CHECK(m != NULL);
	if (m != NULL) {
		CHECK_INT_EQ(manifest_policy_bytes(m, v, 0, NULL, &sz, &eb), 0);
		CHECK(sz.policy_bytes > 0 && sz.data_bytes == 0);
		CHECK_INT_EQ(manifest_policy_bytes(m, v, 1, NULL, &sz, &eb), -1);
		CHECK(strstr(eb.msg, "subject 1: the manifest has 1") != NULL);
		v[MANIFEST_AXIS_COMMANDS] = 0;
		CHECK_INT_EQ(manifest_policy_bytes(m, v, 0, NULL, &sz, &eb), -1);
		CHECK(strstr(eb.msg, "subject sudo: --commands: must be at least 1") != NULL);
	}
	manifest_free(m);
}

static void test_load_missing_file(void)
{
	struct errbuf eb = {0};

	CHECK(manifest_load_all("/nonexistent/m.json", 0, NULL, &eb) == NULL);
	CHECK(strstr(eb.msg, "/nonexistent/m.json") != NULL);
}

/* Only a command that runs nothing else and opens no file may be granted without
 * "unsafe_command"; the timeout has a default and bounds. */
static void test_command_safety_and_timeout(void)
{
	struct errbuf eb = {0};
	struct manifest *m;

	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"command\":\"/bin/sh\"," GOOD_SUBJECTS "}",
	    "$.command: \"/bin/sh\" would be granted to the bench user as root");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"command\":\"/usr/bin/env\"," GOOD_SUBJECTS
	    "}",
	    "unsafe_command");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"command\":\"/tmp/true\"," GOOD_SUBJECTS
	    "}",
	    "$.command");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"profile\":\"yes\"," GOOD_SUBJECTS
		     "}",
		     "$.profile: expected a boolean, got a string");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"unsafe_command\":1," GOOD_SUBJECTS
		     "}",
		     "$.unsafe_command: expected a boolean");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"run_timeout_s\":0," GOOD_SUBJECTS
		     "}",
		     "$.run_timeout_s");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"run_timeout_s\":86400," GOOD_SUBJECTS "}",
	    "$.run_timeout_s");
	m = parse("{\"name\":\"t\",\"bench_user\":\"nobody\",\"command\":\"/bin/sh\","
		  "\"unsafe_command\":true,\"run_timeout_s\":5," GOOD_SUBJECTS "}",
		  &eb);
	CHECK(m != NULL);
	if (m != NULL) {
		CHECK(m->unsafe_command);
		CHECK_INT_EQ(m->run_timeout_ms, 5000);
	}
	manifest_free(m);
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"profile_budget\":1001," GOOD_SUBJECTS "}",
	    "$.profile_budget");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"profile_budget\":-1," GOOD_SUBJECTS "}",
	    "$.profile_budget");
	m = parse("{\"name\":\"t\",\"bench_user\":\"nobody\"," GOOD_SUBJECTS "}", &eb);
	CHECK(m != NULL);
	if (m != NULL) {
		CHECK_INT_EQ(m->run_timeout_ms, MANIFEST_RUN_TIMEOUT_DEFAULT_S * 1000);
		CHECK_INT_EQ(m->profile_budget_pct, MANIFEST_PROFILE_BUDGET_DEFAULT_PCT);
	}
	manifest_free(m);
	m = parse("{\"name\":\"t\",\"bench_user\":\"nobody\",\"profile\":true,\"profile_budget\":"
		  "0," GOOD_SUBJECTS "}",
		  &eb);
	CHECK(m != NULL);
	if (m != NULL)
		CHECK_INT_EQ(m->profile_budget_pct, 0);
	manifest_free(m);
	CHECK(manifest_command_is_safe("/usr/bin/true"));
	CHECK(manifest_command_is_safe("/bin/id"));
	CHECK(!manifest_command_is_safe("/usr/bin/true/../sh"));
	CHECK(!manifest_command_is_safe("/usr/bin/python3"));
	CHECK(!manifest_command_is_safe("/usr/local/bin/true"));
}

/* The pinned environment: nofile 1024 by default; limits, env, umask, cwd and cpus checked. */
/* The names a manifest's env may set: an allow-list, exact names only. */
static void test_env_allow_list(void)
{
	static const char *const allowed[] = {
	    "PATH=/usr/bin", "HOME=/",  "LANG=C",    "LC_ALL=C", "LC_CTYPE=C.UTF-8",
	    "LC_MESSAGES=C", "TZ=UTC0", "TERM=dumb", "USER=x",   "LOGNAME=x",
	    "SHELL=/bin/sh", "PATH",    "LANG="};
	static const char *const refused[] = {"LD_PRELOAD=/tmp/x.so",
					      "LD_LIBRARY_PATH=/tmp",
					      "LD_AUDIT=x",
					      "GCONV_PATH=/tmp",
					      "MALLOC_CHECK_=3",
					      "MALLOC_ARENA_MAX=1",
					      "GLIBC_TUNABLES=x",
					      "LOCPATH=/tmp",
					      "NLSPATH=/tmp",
					      "HOSTALIASES=/tmp/h",
					      "RES_OPTIONS=x",
					      "TMPDIR=/tmp",
					      "PYTHONPATH=/tmp",
					      "PERL5LIB=/tmp",
					      "BASH_ENV=/tmp/x",
					      "ENV=/tmp/x",
					      "IFS= ",
					      "PATHX=/bin",
					      "PAT=/bin",
					      "LC_=x",
					      "LC_FOO=x",
					      "lang=C",
					      "TZDIR=/tmp",
					      "FOO=bar",
					      "=x",
					      ""};

	for (size_t i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++)
		if (!manifest_env_name_allowed(allowed[i])) {
			fprintf(stderr, "  %s refused\n", allowed[i]);
			harness_failed_checks++;
		}
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (manifest_env_name_allowed(refused[i])) {
			fprintf(stderr, "  %s allowed\n", refused[i]);
			harness_failed_checks++;
		}
}

static void test_pinned_environment(void)
{
	struct errbuf eb = {0};
	struct manifest *m;

	m = parse("{\"name\":\"t\",\"bench_user\":\"nobody\"," GOOD_SUBJECTS "}", &eb);
	CHECK(m != NULL);
	if (m != NULL) {
		CHECK_INT_EQ(m->env.nlimits, 1);
		CHECK_STR_EQ(m->env.limits[0].name, "nofile");
		CHECK_INT_EQ(m->env.limits[0].value, 1024);
		CHECK(!m->env.has_env);
		CHECK_INT_EQ(m->env.umask, 022);
		CHECK_STR_EQ(m->env.cwd, "/");
		CHECK_INT_EQ(m->env.ncpus, 0);
	}
	manifest_free(m);
	m = parse("{\"name\":\"t\",\"bench_user\":\"nobody\",\"limits\":{\"nofile\":65536,"
		  "\"stack\":\"unlimited\"},\"env\":[\"PATH=/usr/bin\",\"LC_ALL=C\"],"
		  "\"umask\":\"077\",\"cwd\":\"/tmp\",\"cpus\":[0]," GOOD_SUBJECTS "}",
		  &eb);
	CHECK(m != NULL);
	if (m != NULL) {
		CHECK_INT_EQ(m->env.nlimits, 2);
		CHECK_INT_EQ(m->env.limits[0].value, 65536);
		CHECK(m->env.limits[1].unlimited);
		CHECK_INT_EQ(m->env.nenv, 2);
		CHECK_STR_EQ(m->env.env[1], "LC_ALL=C");
		CHECK_INT_EQ(m->env.umask, 077);
		CHECK_STR_EQ(m->env.cwd, "/tmp");
		CHECK_INT_EQ(m->env.ncpus, 1);
	}
	manifest_free(m);
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"limits\":{\"nofiles\":1}," GOOD_SUBJECTS
	    "}",
	    "$.limits.nofiles: unknown limit");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"limits\":{\"nofile\":-1}," GOOD_SUBJECTS
	    "}",
	    "$.limits.nofile");
	/* Core files are off for every child (issue 52, finding 5): "core" may only be 0. */
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"limits\":{\"core\":"
		     "\"unlimited\",\"fsize\":16777216}," GOOD_SUBJECTS "}",
		     "$.limits.core: only 0: every child of a run has core files off");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"limits\":{\"core\":1}," GOOD_SUBJECTS "}",
	    "$.limits.core: only 0");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"limits\":{\"core\":[1,2]}," GOOD_SUBJECTS
	    "}",
	    "$.limits.core: only 0");
	m = parse("{\"name\":\"t\",\"bench_user\":\"nobody\",\"limits\":{\"core\":0}," GOOD_SUBJECTS
		  "}",
		  &eb);
	CHECK(m != NULL && m->env.nlimits == 1 && m->env.limits[0].resource == RLIMIT_CORE);
	manifest_free(m);
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"env\":[\"NOEQUALS\"]," GOOD_SUBJECTS "}",
	    "$.env[0]: expected \"NAME=value\"");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"env\":[\"1X=a\"]," GOOD_SUBJECTS
		     "}",
		     "$.env[0]");
	/* An allow-list of names (issue 45, finding 1): what steers a loader or an interpreter of
	 * a set-user-ID tool is refused, named with its index. */
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"env\":[\"PATH=/usr/bin\","
	    "\"LD_PRELOAD=/tmp/x.so\"]," GOOD_SUBJECTS "}",
	    "$.env[1]: LD_PRELOAD is not allowed (a manifest's env may set only PATH, HOME");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"env\":[\"GCONV_PATH=/tmp\"]"
		     "," GOOD_SUBJECTS "}",
		     "$.env[0]: GCONV_PATH is not allowed");
	/* A relative program: found from a working directory the manifest may choose. */
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"a\","
		     "\"format\":\"doas\",\"program\":\"usr/bin/true\"}]}",
		     "$.subjects[0].program: \"usr/bin/true\": expected an absolute path");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"env\":[\"FOO=bar\"]," GOOD_SUBJECTS "}",
	    "$.env[0]: FOO is not allowed");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"umask\":\"999\"," GOOD_SUBJECTS
		     "}",
		     "$.umask");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"cwd\":\"tmp\"," GOOD_SUBJECTS "}",
		     "$.cwd: must be an absolute path");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"cpus\":[0,0]," GOOD_SUBJECTS "}",
		     "$.cpus[1]: CPU 0 given twice");
	/* A limit given as an array is swept: ascending, positive, one such limit. */
	m = parse("{\"name\":\"t\",\"bench_user\":\"nobody\",\"limits\":{\"stack\":8388608,"
		  "\"nofile\":[1024,65536,1048576]}," GOOD_SUBJECTS "}",
		  &eb);
	CHECK(m != NULL);
	if (m != NULL) {
		CHECK_INT_EQ(m->env.nlimit_values, 3);
		CHECK_INT_EQ(m->env.limit_axis, 1);
		CHECK_STR_EQ(m->env.limits[1].name, "nofile");
		CHECK_INT_EQ(m->env.limits[1].value, 1024);
		CHECK_INT_EQ(m->env.limit_values[2], 1048576);
	}
	manifest_free(m);
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"limits\":{\"nofile\":[1024,"
		     "512]}," GOOD_SUBJECTS "}",
		     "$.limits.nofile[1]: 512: expected values in increasing order");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"limits\":{\"nofile\":[0]}," GOOD_SUBJECTS
	    "}",
	    "$.limits.nofile[0]");
	expect_error(
	    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"limits\":{\"nofile\":[]}," GOOD_SUBJECTS
	    "}",
	    "$.limits.nofile: expected 1 to 16 values");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"limits\":{\"nofile\":[1,2],"
		     "\"stack\":[1,2]}," GOOD_SUBJECTS "}",
		     "$.limits.stack: only one limit may be swept (nofile already is)");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"limits\":{\"nofile\":[1,"
		     "\"x\"]}," GOOD_SUBJECTS "}",
		     "$.limits.nofile[1]");
}

/* Every problem in one pass, one line each with its path; the first is eb's. */
static void test_every_problem_in_one_pass(void)
{
	const char *text = "{\"name\":\"t\",\"bench_user\":\"nobody\",\"colour\":1,\"shape\":2,"
			   "\"subjects\":[{\"id\":\"a\",\"format\":\"yaml\"},{\"id\":\"b\","
			   "\"format\":\"sudoers\",\"program\":3}],\"warmup\":\"x\","
			   "\"axes\":{\"nb_tasks\":[]}}";
	static const char *const want[] = {"x.json: $.colour: unknown key",
					   "x.json: $.shape: unknown key",
					   "x.json: $.subjects[0].format: unknown format",
					   "x.json: $.subjects[1].program: expected a string",
					   "x.json: $.axes.nb_tasks: empty axis",
					   "x.json: $.warmup: expected an integer"};
	struct manifest_problems pr;
	struct errbuf eb = {0};
	struct manifest *m = manifest_parse_all(text, strlen(text), "x.json", 0, &pr, &eb);

	CHECK(m == NULL);
	CHECK_INT_EQ(pr.n, 6);
	for (size_t i = 0; i < pr.n && i < 6; i++) {
		CHECK(strncmp(pr.line[i], want[i], strlen(want[i])) == 0);
		CHECK(strchr(pr.line[i], '\n') == NULL);
	}
	CHECK(pr.n > 0 && strcmp(eb.msg, pr.line[0]) == 0);
	manifest_problems_clear(&pr);
	manifest_free(m);
}

/* "counts": true, false, or {"instrument": ...}; absent false; typos named. */
static void test_counts_key(void)
{
	struct errbuf eb = {0};
	struct manifest *m;

	m = parse("{\"name\":\"t\",\"bench_user\":\"nobody\"," GOOD_SUBJECTS "}", &eb);
	CHECK(m != NULL && !m->counts);
	manifest_free(m);
	m = parse("{\"name\":\"t\",\"bench_user\":\"nobody\",\"counts\":true," GOOD_SUBJECTS "}",
		  &eb);
	CHECK(m != NULL && m->counts && m->counts_instrument == MANIFEST_INSTRUMENT_CALLGRIND);
	manifest_free(m);
	m = parse("{\"name\":\"t\",\"bench_user\":\"nobody\",\"counts\":{\"instrument\":"
		  "\"auto\"}," GOOD_SUBJECTS "}",
		  &eb);
	CHECK(m != NULL && m->counts && m->counts_instrument == MANIFEST_INSTRUMENT_AUTO);
	manifest_free(m);
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"counts\":1," GOOD_SUBJECTS "}",
		     "$.counts: expected a boolean or an object, got a number");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"counts\":{\"instrumnet\":"
		     "\"perf\"}," GOOD_SUBJECTS "}",
		     "did you mean \"instrument\"");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"counts\":{\"instrument\":"
		     "\"lackey\"}," GOOD_SUBJECTS "}",
		     "$.counts.instrument");
	expect_error("{\"name\":\"t\",\"bench_user\":\"nobody\",\"count\":true," GOOD_SUBJECTS "}",
		     "did you mean \"counts\"");
}

int main(void)
{
	RUN(test_counts_key);
	RUN(test_page_cache);
	RUN(test_logspace_matches_log_py);
	RUN(test_defaults);
	RUN(test_after_refusal);
	RUN(test_full_manifest);
	RUN(test_bad_manifests);
	RUN(test_too_large_points);
	RUN(test_subject_dialects);
	RUN(test_subject_please);
	RUN(test_subject_unsafe_keys);
	RUN(test_subject_build);
	RUN(test_expand);
	RUN(test_precision);
	RUN(test_precision_baseline);
	RUN(test_reference);
	RUN(test_policy_bytes_cap);
	RUN(test_policy_bytes_first_point_over);
	RUN(test_min_time_bound);
	RUN(test_load_missing_file);
	RUN(test_command_safety_and_timeout);
	RUN(test_pinned_environment);
	RUN(test_files_axis);
	RUN(test_env_allow_list);
	RUN(test_every_problem_in_one_pass);
	return HARNESS_EXIT();
}
