/* Tests for the plan layer (src/plan/plan.h) over fixture prefixes made here, as any user: the
 * prefix's paths, the manifest's and the prefix's problems and their one verdict, subject
 * resolution, the trust rule, PAM, the environment against this host, the estimate and the
 * printed plan: what tests/integration/41-*, 46-* and 47-* check as root on a provisioned one. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "digest.h"
#include "fileio.h"
#include "harness.h"
#include "plan.h"
#include "plan_env.h"
#include "plan_estimate.h"
#include "plan_print.h"
#include "plan_testutil.h"

static char dir[] = "/tmp/rarperf-test-plan-XXXXXX";

/*
 * A file or directory no trust rule accepts, whoever runs the test: another user's when the
 * test runs as root (its own files would be root's), the test user's otherwise.
 */
static void untrusted(const char *path)
{
	if (geteuid() == 0 && chown(path, 65534, 65534) != 0)
		perror(path);
}

/* The facts.json a provisioning writes, for the prefix at prefix (its tools under it). */
static void write_facts(const char *prefix, const char *recorded_prefix)
{
	char path[PATH_MAX], text[8192];

	CHECK_INT_EQ(fileio_fmt(path, sizeof(path), "%s/facts.json", prefix), 0);
	snprintf(text, sizeof(text),
		 "{\"schema\": 1, \"prefix\": \"%s\", \"bench_user\": \"nobody\", "
		 "\"bench_uid\": 65534, \"tools\": {"
		 "\"sudo\": {\"present\": true, \"version\": \"1.9.13p3\", \"path\": "
		 "\"%s/bin/sudo\", \"policy\": \"%s/etc/sudoers\", \"format\": \"sudoers\", "
		 "\"pam\": false},"
		 "\"doas\": {\"present\": true, \"version\": \"6.8.2\", \"path\": \"%s/bin/doas\", "
		 "\"policy\": \"%s/etc/doas.conf\", \"format\": \"doas\", \"pam\": false},"
		 "\"dosr-json\": {\"present\": true, \"version\": \"3.3.4\", \"path\": "
		 "\"%s/bin/dosr-json\", \"settings\": \"%s/etc/rootasrole-json.json\", \"policy\": "
		 "\"%s/etc/rootasrole-json.json\", \"format\": \"rar-json\", \"pam\": false},"
		 "\"sudo-pam\": {\"present\": true, \"version\": \"1.9.13p3\", \"path\": "
		 "\"%s/bin/sudo-pam\", \"policy\": \"%s/etc/sudoers\", \"format\": \"sudoers\", "
		 "\"pam\": true, \"pam_service\": \"sudo\", \"pam_stack\": "
		 "\"%s/share/rarperf/pam.d/sudo\"},"
		 "\"sudo-rs\": {\"present\": true, \"version\": \"0.2.15\", \"path\": "
		 "\"%s/bin/sudo-rs\", \"policy\": \"%s/etc/sudoers-rs\", \"policy_mounted_at\": "
		 "\"/etc/sudoers-rs\", \"format\": \"sudoers\", \"pam\": true},"
		 "\"dosr-4.2.0-json\": {\"present\": false, \"reason\": \"not built here\", "
		 "\"version\": \"4.2.0\", \"format\": \"rar-json\", \"path\": "
		 "\"%s/bin/dosr-4.2.0-json\"}}}",
		 recorded_prefix, prefix, prefix, prefix, prefix, prefix, prefix, prefix, prefix,
		 prefix, prefix, prefix, prefix, prefix);
	CHECK_INT_EQ(testutil_put_file(path, text, 0644), 0);
}

/*
 * A fixture prefix DIR/name as provisioning leaves one: bin/ (its tools, 0755), etc/,
 * share/rarperf/pam.d/sudo and facts.json; its path into prefix (PATH_MAX).
 */
static void make_prefix(const char *name, char *prefix)
{
	/* mytool: a program of the prefix that facts.json does not know */
	static const char *const tools[] = {"sudo",     "doas",    "dosr-json",
					    "sudo-pam", "sudo-rs", "mytool"};
	static const char *const dirs[] = {"",       "/bin",           "/etc",
					   "/share", "/share/rarperf", "/share/rarperf/pam.d"};
	char path[PATH_MAX];

	CHECK_INT_EQ(fileio_fmt(prefix, PATH_MAX, "%s/%s", dir, name), 0);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		CHECK_INT_EQ(fileio_fmt(path, sizeof(path), "%s%s", prefix, dirs[i]), 0);
		CHECK(mkdir(path, 0755) == 0 || errno == EEXIST);
		CHECK_INT_EQ(chmod(path, 0755), 0);
	}
	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		CHECK_INT_EQ(fileio_fmt(path, sizeof(path), "%s/bin/%s", prefix, tools[i]), 0);
		CHECK_INT_EQ(testutil_put_file(path, "#!/bin/sh\nexit 0\n", 0755), 0);
	}
	CHECK_INT_EQ(fileio_fmt(path, sizeof(path), "%s/share/rarperf/pam.d/sudo", prefix), 0);
	CHECK_INT_EQ(testutil_put_file(path, "auth sufficient pam_permit.so\n", 0644), 0);
	write_facts(prefix, prefix);
}

/*
 * A fixture prefix whose etc/ is a link to root's /etc: its policies' directory is root's along
 * its whole path whoever runs the test (nothing is written there: a plan writes nothing).
 */
static void make_trusted_etc_prefix(const char *name, char *prefix)
{
	char path[PATH_MAX];

	make_prefix(name, prefix);
	CHECK_INT_EQ(fileio_fmt(path, sizeof(path), "%s/etc", prefix), 0);
	CHECK_INT_EQ(rmdir(path), 0);
	CHECK_INT_EQ(symlink("/etc", path), 0);
}

/* The outcome of a plan: its return (0 or -1), the plan and the last line. */
struct planned {
	int rc;
	struct plan *p;
	struct errbuf eb;
};

/* Plans manifest text (written as DIR/x.json, named "x.json") against prefix. */
static struct planned plan_text(const char *prefix, const char *text, bool this_host)
{
	struct planned r = {0};
	struct plan_config cfg = {
	    .manifest = "x.json", .prefix = prefix, .out = NULL, .this_host = this_host};

	CHECK_INT_EQ(testutil_put_file("x.json", text, 0644), 0);
	r.rc = plan_open(&cfg, &r.p, &r.eb);
	if (r.rc == 0)
		r.rc = plan_resolve(r.p, &r.eb);
	return r;
}

/* Whether any problem line (or the last line) of r holds want. */
static bool said(const struct planned *r, const char *want)
{
	if (strstr(r->eb.msg, want) != NULL)
		return true;
	for (size_t i = 0; r->p != NULL && i < r->p->nproblems; i++)
		if (strstr(r->p->problems[i], want) != NULL)
			return true;
	return false;
}

/* Checks that r said want, printing what it said when not. */
#define CHECK_SAID(r, want)                                                                        \
	do {                                                                                       \
		if (!said(&(r), (want))) {                                                         \
			fprintf(stderr, "  %s:%d: expected \"%s\" in \"%s\" (%zu problems)\n",     \
				__FILE__, __LINE__, (want), (r).eb.msg,                            \
				(r).p != NULL ? (r).p->nproblems : 0);                             \
			for (size_t k_ = 0; (r).p != NULL && k_ < (r).p->nproblems; k_++)          \
				fprintf(stderr, "    %s\n", (r).p->problems[k_]);                  \
			harness_failed_checks++;                                                   \
		}                                                                                  \
	} while (0)

/* One subject of format fmt with more keys (may be ""), the bench user the fixtures record. */
static const char *one_subject(const char *subject_keys, const char *more_keys)
{
	static char text[4096];

	snprintf(text, sizeof(text),
		 "{\"name\": \"t\", \"bench_user\": \"nobody\", \"subjects\": [{\"id\": \"s\"%s}], "
		 "\"axes\": {\"nb_tasks\": [1, 10]}%s}",
		 subject_keys, more_keys);
	return text;
}

static char fx[PATH_MAX], tfx[PATH_MAX];

/* --- the prefix's paths --- */

static void test_prefix_locates_real_and_etc(void)
{
	struct plan_prefix w;
	struct errbuf eb = {{0}};
	char want[PATH_MAX];

	CHECK_INT_EQ(plan_prefix_locate(&w, tfx, &eb), 0);
	CHECK(realpath(tfx, want) != NULL);
	CHECK_STR_EQ(w.real, want);
	CHECK_STR_EQ(w.etc, "/etc"); /* the link resolved */
	CHECK(w.given == tfx);
	CHECK(w.ino != 0);
}

static void test_prefix_missing(void)
{
	struct plan_prefix w;
	struct errbuf eb = {{0}};

	CHECK_INT_EQ(plan_prefix_locate(&w, "/nonexistent/rarperf", &eb), -1);
	CHECK(strstr(eb.msg, "/nonexistent/rarperf") != NULL);
	CHECK(strstr(eb.msg, "provision it first: make provision") != NULL);
}

static void test_prefix_without_etc(void)
{
	struct plan_prefix w;
	struct errbuf eb = {{0}};
	char p[PATH_MAX];

	CHECK_INT_EQ(fileio_fmt(p, sizeof(p), "%s/noetc", dir), 0);
	CHECK_INT_EQ(mkdir(p, 0755), 0);
	CHECK_INT_EQ(plan_prefix_locate(&w, p, &eb), -1);
	CHECK(strstr(eb.msg, "/etc: missing (provision it first") != NULL);
}

static void test_confine_inside_etc(void)
{
	struct plan_prefix w;
	struct errbuf eb = {{0}};
	char path[PATH_MAX];

	CHECK_INT_EQ(plan_prefix_locate(&w, fx, &eb), 0);
	CHECK_INT_EQ(fileio_fmt(path, sizeof(path), "%s/etc/sudoers", fx), 0);
	CHECK_INT_EQ(plan_prefix_confine(w.etc, path, &eb), 0);
	/* A file not yet written: only its directory must exist. */
	CHECK_INT_EQ(fileio_fmt(path, sizeof(path), "%s/etc/not-yet", fx), 0);
	CHECK_INT_EQ(plan_prefix_confine(w.etc, path, &eb), 0);
}

static void test_confine_outside_etc(void)
{
	struct plan_prefix w;
	struct errbuf eb = {{0}};
	char path[PATH_MAX];

	CHECK_INT_EQ(plan_prefix_locate(&w, fx, &eb), 0);
	CHECK_INT_EQ(plan_prefix_confine(w.etc, "/tmp/victim", &eb), -1);
	CHECK(strstr(eb.msg, "policies may only be written in") != NULL);
	/* A way out through "..", and a directory whose name only starts like etc's. */
	CHECK_INT_EQ(fileio_fmt(path, sizeof(path), "%s/etc/../bin/sudo", fx), 0);
	CHECK_INT_EQ(plan_prefix_confine(w.etc, path, &eb), -1);
	CHECK_INT_EQ(fileio_fmt(path, sizeof(path), "%s/etcetera", fx), 0);
	CHECK_INT_EQ(mkdir(path, 0755), 0);
	CHECK_INT_EQ(fileio_fmt(path, sizeof(path), "%s/etcetera/x", fx), 0);
	CHECK_INT_EQ(plan_prefix_confine(w.etc, path, &eb), -1);
}

static void test_confine_missing_directory(void)
{
	struct plan_prefix w;
	struct errbuf eb = {{0}};
	char path[PATH_MAX];

	CHECK_INT_EQ(plan_prefix_locate(&w, fx, &eb), 0);
	CHECK_INT_EQ(fileio_fmt(path, sizeof(path), "%s/etc/nodir/sudoers", fx), 0);
	CHECK_INT_EQ(plan_prefix_confine(w.etc, path, &eb), -1);
	CHECK(strstr(eb.msg, "directory") != NULL);
}

/* --- the manifest's half --- */

static void test_open_unknown_key_is_one_line(void)
{
	struct planned r = plan_text(fx,
				     "{\"name\": \"x\", \"colour\": 1, \"subjects\": "
				     "[{\"id\": \"s\", \"format\": \"sudoers\"}]}",
				     true);

	CHECK_INT_EQ(r.rc, -1);
	CHECK(r.p != NULL && r.p->bad_input);
	CHECK(r.p != NULL && r.p->nproblems == 0);
	CHECK(strstr(r.eb.msg, "x.json: $.colour: unknown key") != NULL);
	plan_free(r.p);
}

static void test_open_every_problem_then_count(void)
{
	struct planned r =
	    plan_text(fx,
		      "{\"name\": \"x\", \"colour\": 1, \"warmup\": \"3\", \"axes\": "
		      "{\"nb_tasks\": []}, \"subjects\": [{\"id\": \"s\", \"format\": "
		      "\"yaml\"}]}",
		      true);

	CHECK_INT_EQ(r.rc, -1);
	CHECK(r.p->bad_input);
	CHECK_INT_EQ(r.p->nproblems, 4);
	CHECK_SAID(r, "x.json: $.colour: unknown key");
	CHECK_SAID(r, "x.json: $.warmup: expected an integer");
	CHECK_SAID(r, "x.json: $.axes.nb_tasks: empty axis");
	CHECK_SAID(r, "x.json: $.subjects[0].format: unknown format");
	CHECK_STR_EQ(r.eb.msg, "x.json: 4 problems (above)");
	plan_free(r.p);
}

static void test_open_missing_manifest(void)
{
	struct plan_config cfg = {.manifest = "no-such.json", .prefix = fx, .this_host = true};
	struct errbuf eb = {{0}};
	struct plan *p = NULL;

	CHECK_INT_EQ(plan_open(&cfg, &p, &eb), -1);
	CHECK(p != NULL && p->bad_input);
	CHECK(strstr(eb.msg, "no-such.json") != NULL);
	plan_free(p);
}

static void test_open_default_out(void)
{
	struct planned r = plan_text(fx,
				     "{\"name\": \".a/b c\", \"bench_user\": \"nobody\", "
				     "\"subjects\": [{\"id\": \"s\", \"format\": \"doas\"}]}",
				     true);
	struct plan_config cfg = {
	    .manifest = "x.json", .prefix = fx, .out = "/tmp/elsewhere", .this_host = true};
	struct errbuf eb = {{0}};
	struct plan *p = NULL;

	CHECK(r.p != NULL && r.p->out != NULL);
	if (r.p != NULL && r.p->out != NULL)
		CHECK_STR_EQ(r.p->out, "results/_a_b_c");
	plan_free(r.p);
	CHECK_INT_EQ(plan_open(&cfg, &p, &eb), 0);
	CHECK_STR_EQ(p->out, "/tmp/elsewhere");
	plan_free(p);
}

static void test_open_repetitions_warning(void)
{
	char line[ERRBUF_MSG_MAX];
	struct planned r =
	    plan_text(fx, one_subject(", \"format\": \"doas\"", ", \"repetitions\": 3"), true);

	CHECK(plan_warning(r.p, line, sizeof(line)));
	CHECK(strstr(line, "warning: \"repetitions\": 3 measures each point 3 times") == line);
	plan_free(r.p);
	r = plan_text(fx, one_subject(", \"format\": \"doas\"", ""), true);
	CHECK(!plan_warning(r.p, line, sizeof(line)));
	CHECK(!plan_warning(NULL, line, sizeof(line)));
	plan_free(r.p);
}

static void test_open_sha_and_points(void)
{
	const char *text = one_subject(", \"format\": \"doas\"", "");
	char want[DIGEST_SHA256_HEX_LEN + 1];
	struct planned r = plan_text(fx, text, true);

	digest_sha256_hex(text, strlen(text), want);
	CHECK_STR_EQ(r.p->manifest_sha, want);
	CHECK_INT_EQ(sweep_count(r.p->sweep), 2);
	CHECK(r.p->m != NULL && r.p->m->nsubjects == 1);
	plan_free(r.p);
}

/* --- the prefix's half: facts.json --- */

static void test_resolve_missing_prefix_is_this_host(void)
{
	struct planned r =
	    plan_text("/nonexistent/rarperf", one_subject(", \"format\": \"doas\"", ""), true);

	CHECK_INT_EQ(r.rc, -1);
	CHECK(!r.p->bad_input); /* exit 1: this host's prefix, not the manifest */
	CHECK(strstr(r.eb.msg, "provision it first") != NULL);
	plan_free(r.p);
}

static void test_resolve_missing_facts(void)
{
	char p[PATH_MAX], path[PATH_MAX];
	struct planned r;

	make_prefix("nofacts", p);
	CHECK_INT_EQ(fileio_fmt(path, sizeof(path), "%s/facts.json", p), 0);
	CHECK_INT_EQ(unlink(path), 0);
	r = plan_text(p, one_subject(", \"format\": \"doas\"", ""), true);
	CHECK_INT_EQ(r.rc, -1);
	CHECK(!r.p->bad_input);
	CHECK(strstr(r.eb.msg, "provision the prefix first") != NULL);
	plan_free(r.p);
}

static void test_resolve_facts_not_an_object(void)
{
	char p[PATH_MAX], path[PATH_MAX];
	struct planned r;

	make_prefix("badfacts", p);
	CHECK_INT_EQ(fileio_fmt(path, sizeof(path), "%s/facts.json", p), 0);
	CHECK_INT_EQ(testutil_put_file(path, "[1, 2]", 0644), 0);
	r = plan_text(p, one_subject(", \"format\": \"doas\"", ""), true);
	CHECK_INT_EQ(r.rc, -1);
	CHECK(!r.p->bad_input);
	CHECK(strstr(r.eb.msg, "not a JSON object") != NULL);
	plan_free(r.p);
}

static void test_resolve_copied_prefix_refused(void)
{
	char p[PATH_MAX];
	struct planned r;

	make_prefix("copy", p);
	write_facts(p, "/opt/rarperf-original");
	r = plan_text(p, one_subject(", \"format\": \"doas\"", ""), true);
	CHECK_INT_EQ(r.rc, -1);
	CHECK(r.p->bad_input); /* exit 2: the copy is the user's doing */
	CHECK(strstr(r.eb.msg, "prefix: provisioned as /opt/rarperf-original") != NULL);
	CHECK(strstr(r.eb.msg, "make provision RARPERF_PREFIX=") != NULL);
	plan_free(r.p);
}

static void test_resolve_bench_user_not_the_prefix(void)
{
	struct planned r = plan_text(
	    fx,
	    "{\"name\": \"t\", \"bench_user\": \"daemon\", \"subjects\": [{\"id\": \"s\", "
	    "\"format\": \"doas\"}]}",
	    true);

	CHECK_INT_EQ(r.rc, -1);
	CHECK(r.p->bad_input);
	CHECK_SAID(r, "x.json: $.bench_user: \"daemon\" is not the prefix's bench user");
	plan_free(r.p);
}

/* --- subjects --- */

static void test_subject_missing_program_names_nearest(void)
{
	struct planned r = plan_text(
	    fx, one_subject(", \"format\": \"sudoers\", \"program\": \"{prefix}/bin/sudoo\"", ""),
	    true);

	CHECK_INT_EQ(r.rc, -1);
	CHECK(r.p->bad_input);
	/* One problem is the one line. */
	CHECK(strstr(r.eb.msg, "x.json: $.subjects[0].program: ") == r.eb.msg);
	CHECK(strstr(r.eb.msg, "/bin/sudoo is missing (did you mean ") != NULL);
	CHECK(strstr(r.eb.msg, "/bin/sudo? make provision builds every tool of the prefix") !=
	      NULL);
	CHECK_INT_EQ(r.p->nproblems, 0);
	plan_free(r.p);
}

static void test_subject_optional_missing_is_skipped(void)
{
	struct planned r =
	    plan_text(tfx,
		      "{\"name\": \"t\", \"bench_user\": \"nobody\", \"subjects\": ["
		      "{\"id\": \"a\", \"format\": \"sudoers\", \"program\": \"/usr/bin/true\", "
		      "\"policy\": \"/etc/rarperf-test-sudoers\"},"
		      "{\"id\": \"b\", \"format\": \"doas\", \"optional\": true, \"program\": "
		      "\"{prefix}/bin/nothing-here\"}], \"axes\": {\"nb_tasks\": [1]}}",
		      true);

	CHECK_INT_EQ(r.rc, 0);
	CHECK_INT_EQ(r.p->nsubjects, 2);
	CHECK_INT_EQ(r.p->nactive, 1);
	CHECK(r.p->subjects[0].skip_reason == NULL);
	CHECK(r.p->subjects[1].skip_reason != NULL &&
	      strstr(r.p->subjects[1].skip_reason, "nothing-here is missing") != NULL);
	plan_free(r.p);
}

static void test_subject_absent_tool_is_skipped_with_its_reason(void)
{
	struct planned r = plan_text(
	    fx,
	    one_subject(", \"format\": \"rar-json\", \"program\": \"{prefix}/bin/dosr-4.2.0-json\"",
			""),
	    true);

	CHECK(r.p->subjects != NULL && r.p->subjects[0].skip_reason != NULL);
	if (r.p->subjects != NULL && r.p->subjects[0].skip_reason != NULL)
		CHECK(strstr(r.p->subjects[0].skip_reason,
			     "absent from this prefix (facts.json: not built here") != NULL);
	CHECK_INT_EQ(r.p->nactive, 0);
	plan_free(r.p);
}

static void test_subject_rar_version_the_prefix_lacks(void)
{
	struct planned r = plan_text(
	    fx, one_subject(", \"format\": \"rar-json\", \"rar_version\": \"4.0.3\"", ""), true);

	CHECK_INT_EQ(r.rc, -1);
	CHECK(r.p->bad_input);
	CHECK_SAID(r, "$.subjects[0].rar_version: 4.0.3: the prefix has no RootAsRole 4.0.3 "
		      "build (it has 3.3.4;");
	CHECK_SAID(r, "make provision builds those of rarperf_rootasrole_extra_versions");
	plan_free(r.p);
}

static void test_subject_optional_rar_version_is_skipped(void)
{
	struct planned r = plan_text(
	    fx,
	    one_subject(
		", \"format\": \"rar-json\", \"rar_version\": \"4.0.3\", \"optional\": true", ""),
	    true);

	CHECK(r.p->subjects != NULL && r.p->subjects[0].skip_reason != NULL &&
	      strstr(r.p->subjects[0].skip_reason, "no RootAsRole 4.0.3 build") != NULL);
	CHECK(!said(&r, "$.subjects[0].rar_version"));
	plan_free(r.p);
}

static void test_subject_policy_outside_etc(void)
{
	struct planned r = plan_text(
	    fx, one_subject(", \"format\": \"doas\", \"policy\": \"/tmp/rarperf-plan-victim\"", ""),
	    true);

	CHECK_INT_EQ(r.rc, -1);
	CHECK_SAID(r, "x.json: $.subjects[0].policy: /tmp/rarperf-plan-victim: policies may only "
		      "be written in");
	CHECK(access("/tmp/rarperf-plan-victim", F_OK) != 0);
	plan_free(r.p);
}

static void test_subject_format_its_tool_does_not_read(void)
{
	struct planned r = plan_text(
	    fx,
	    one_subject(", \"format\": \"rar-cbor\", \"program\": \"{prefix}/bin/dosr-json\"", ""),
	    true);

	CHECK_SAID(r, "x.json: $.subjects[0].format: ");
	CHECK_SAID(r, "dosr-json reads rar-json policies, not rar-cbor");
	plan_free(r.p);
}

static void test_subject_policy_its_tool_does_not_read(void)
{
	struct planned r = plan_text(
	    fx, one_subject(", \"format\": \"doas\", \"policy\": \"{prefix}/etc/other.conf\"", ""),
	    true);

	CHECK_SAID(r, "x.json: $.subjects[0].policy: ");
	CHECK_SAID(r, "/etc/doas.conf, not ");
	plan_free(r.p);
}

static void test_subjects_every_problem_in_one_pass(void)
{
	struct planned r = plan_text(
	    fx,
	    "{\"name\": \"typos\", \"bench_user\": \"nobody\", \"subjects\": ["
	    "{\"id\": \"a\", \"format\": \"sudoers\", \"program\": \"{prefix}/bin/sudoo\"},"
	    "{\"id\": \"b\", \"format\": \"rar-json\", \"rar_version\": \"4.1.7\"},"
	    "{\"id\": \"c\", \"format\": \"doas\", \"policy\": \"/tmp/rarperf-plan-victim\"},"
	    "{\"id\": \"d\", \"format\": \"rar-cbor\", \"program\": \"{prefix}/bin/dosr-json\"}],"
	    "\"axes\": {\"nb_tasks\": [1, 10]}}",
	    true);

	CHECK_INT_EQ(r.rc, -1);
	CHECK(r.p->bad_input);
	CHECK(r.p->nproblems >= 4);
	CHECK_SAID(r, "$.subjects[0].program");
	CHECK_SAID(r, "$.subjects[1].rar_version: 4.1.7");
	CHECK_SAID(r, "$.subjects[2].policy");
	CHECK_SAID(r, "$.subjects[3].format");
	CHECK(strstr(r.eb.msg, "problems with its subjects (above)") != NULL);
	plan_free(r.p);
}

static void test_subject_strings_expanded(void)
{
	struct planned r = plan_text(
	    tfx,
	    one_subject(", \"format\": \"sudoers\", \"program\": \"/usr/bin/true\", \"args\": "
			"[\"-n\", \"{command}\", \"{prefix}\"], \"policy\": "
			"\"/etc/rarperf-test-sudoers\"",
			", \"command\": \"/usr/bin/id\""),
	    true);
	char want[3 * PATH_MAX];

	CHECK_INT_EQ(r.rc, 0);
	if (r.rc == 0) {
		CHECK_INT_EQ(r.p->subjects[0].argc, 4);
		CHECK_STR_EQ(r.p->subjects[0].argv[0], "/usr/bin/true");
		CHECK_STR_EQ(r.p->subjects[0].argv[2], "/usr/bin/id");
		CHECK_STR_EQ(r.p->subjects[0].argv[3], tfx);
		CHECK(r.p->subjects[0].argv[4] == NULL);
		snprintf(want, sizeof(want), "/usr/bin/true -n /usr/bin/id %s", tfx);
		CHECK_STR_EQ(r.p->subjects[0].command_line, want);
		CHECK_STR_EQ(r.p->subjects[0].policy, "/etc/rarperf-test-sudoers");
	} else {
		fprintf(stderr, "  %s\n", r.eb.msg);
	}
	plan_free(r.p);
}

/* --- the trust rule --- */

static void test_trust_root_program_outside_prefix_passes(void)
{
	struct planned r = plan_text(tfx,
				     one_subject(", \"format\": \"sudoers\", \"program\": "
						 "\"/usr/bin/true\", \"policy\": "
						 "\"/etc/rarperf-test-sudoers\"",
						 ""),
				     true);

	CHECK_INT_EQ(r.rc, 0);
	CHECK(!r.p->bad_input);
	CHECK_INT_EQ(r.p->nproblems, 0);
	CHECK_INT_EQ(r.p->nactive, 1);
	CHECK(r.p->subjects[0].unsafe == NULL);
	plan_free(r.p);
}

static void test_trust_program_not_roots(void)
{
	char prog[PATH_MAX];
	struct planned r;

	CHECK_INT_EQ(fileio_fmt(prog, sizeof(prog), "%s/bin/sudo", fx), 0);
	untrusted(prog);
	r = plan_text(fx, one_subject(", \"format\": \"sudoers\"", ""), true);
	CHECK_INT_EQ(r.rc, -1);
	CHECK(r.p->bad_input);
	CHECK_SAID(r, "$.subjects[0].program: ");
	CHECK_SAID(r, "is not root's alone");
	CHECK_SAID(r, "\"unsafe_program\": true");
	plan_free(r.p);
}

static void test_trust_unsafe_program_is_said(void)
{
	char prog[PATH_MAX];
	struct planned r;

	CHECK_INT_EQ(fileio_fmt(prog, sizeof(prog), "%s/bin/mytool", tfx), 0);
	untrusted(prog);
	r = plan_text(
	    tfx,
	    one_subject(", \"format\": \"sudoers\", \"program\": \"{prefix}/bin/mytool\", "
			"\"unsafe_program\": true, \"policy\": \"/etc/rarperf-test-sudoers\"",
			""),
	    true);
	CHECK_INT_EQ(r.p->nproblems, 0);
	CHECK(r.p->subjects != NULL && r.p->subjects[0].unsafe != NULL &&
	      strncmp(r.p->subjects[0].unsafe, "UNSAFE: subject s's program ", 28) == 0);
	plan_free(r.p);
}

static void test_trust_unsafe_program_refused_with_profile(void)
{
	char prog[PATH_MAX];
	struct planned r;

	CHECK_INT_EQ(fileio_fmt(prog, sizeof(prog), "%s/bin/mytool", tfx), 0);
	untrusted(prog);
	r = plan_text(
	    tfx,
	    one_subject(", \"format\": \"sudoers\", \"program\": \"{prefix}/bin/mytool\", "
			"\"unsafe_program\": true, \"policy\": \"/etc/rarperf-test-sudoers\"",
			", \"profile\": true"),
	    true);
	CHECK_INT_EQ(r.rc, -1);
	CHECK(r.p->bad_input);
	CHECK_SAID(r, "$.subjects[0].program: ");
	plan_free(r.p);
}

static void test_trust_relative_program(void)
{
	struct planned r = plan_text(
	    "fx", one_subject(", \"format\": \"sudoers\", \"program\": \"{prefix}/bin/sudo\"", ""),
	    true);

	CHECK_INT_EQ(r.rc, -1);
	CHECK_SAID(r, "$.subjects[0].program: fx/bin/sudo: expected an absolute path");
	plan_free(r.p);
}

static void test_trust_program_through_proc(void)
{
	struct planned r = plan_text(
	    fx, one_subject(", \"format\": \"sudoers\", \"program\": \"/proc/self/cwd/x\"", ""),
	    true);
	struct planned r2 = plan_text(
	    fx, one_subject(", \"format\": \"sudoers\", \"program\": \"/dev/fd/3\"", ""), true);

	/* Missing or not, a path through /proc is refused as such (or as missing). */
	CHECK_INT_EQ(r.rc, -1);
	CHECK(r.p->bad_input);
	CHECK_SAID(r, "$.subjects[0].program: ");
	CHECK_INT_EQ(r2.rc, -1);
	CHECK(r2.p->bad_input);
	plan_free(r.p);
	plan_free(r2.p);
}

static void test_trust_setuid_outside_prefix(void)
{
	const char *setuid = access("/usr/bin/passwd", X_OK) == 0 ? "/usr/bin/passwd" : "/bin/su";
	char keys[512];
	struct planned r;

	snprintf(keys, sizeof(keys),
		 ", \"format\": \"sudoers\", \"program\": \"%s\", \"unsafe_program\": true, "
		 "\"policy\": \"/etc/rarperf-test-sudoers\"",
		 setuid);
	r = plan_text(tfx, one_subject(keys, ""), true);
	CHECK_INT_EQ(r.rc, -1);
	CHECK_SAID(r, "is set-user-ID or set-group-ID (or has file capabilities) and outside the "
		      "prefix");
	plan_free(r.p);
}

static void test_trust_policy_mount_at_rule(void)
{
	struct planned r = plan_text(
	    fx,
	    one_subject(", \"format\": \"sudoers\", \"program\": \"{prefix}/bin/sudo-rs\", "
			"\"policy\": \"{prefix}/etc/sudoers-rs\", \"policy_mount_at\": "
			"\"/etc/ld.so.preload\"",
			""),
	    true);

	CHECK_INT_EQ(r.rc, -1);
	CHECK_SAID(r, "$.subjects[0].policy_mount_at: /etc/ld.so.preload is not where ");
	CHECK_SAID(r, "(facts.json: /etc/sudoers-rs)");
	plan_free(r.p);
}

/* --- PAM --- */

static void test_pam_on_for_a_tool_without_pam(void)
{
	struct planned r =
	    plan_text(fx, one_subject(", \"format\": \"sudoers\", \"pam\": true", ""), true);

	CHECK_SAID(r, "$.subjects[0].pam: ");
	CHECK_SAID(r, "never opens PAM (facts.json: \"pam\": false)");
	plan_free(r.p);
}

static void test_pam_dir_relative(void)
{
	struct planned r = plan_text(
	    "fx",
	    one_subject(", \"format\": \"sudoers\", \"program\": \"/usr/bin/true\", \"pam\": true",
			""),
	    true);

	CHECK_SAID(r, "$.subjects[0].pam: fx/share/rarperf/pam.d: expected an absolute directory");
	plan_free(r.p);
}

static void test_pam_dir_missing(void)
{
	struct planned r = plan_text(
	    fx,
	    one_subject(", \"format\": \"sudoers\", \"program\": \"{prefix}/bin/sudo-pam\", "
			"\"pam\": \"/nonexistent/pam.d\"",
			""),
	    true);

	CHECK_SAID(r, "$.subjects[0].pam: /nonexistent/pam.d: no such directory (make provision "
		      "stores Debian's PAM service files there)");
	plan_free(r.p);
}

static void test_pam_auto_uses_the_prefix_stack(void)
{
	struct planned r = plan_text(
	    fx,
	    one_subject(", \"format\": \"sudoers\", \"program\": \"{prefix}/bin/sudo-pam\"", ""),
	    true);
	char want[PATH_MAX];

	CHECK_INT_EQ(fileio_fmt(want, sizeof(want), "%s/share/rarperf/pam.d", fx), 0);
	CHECK(r.p->subjects != NULL);
	if (r.p->subjects != NULL) {
		CHECK_STR_EQ(r.p->subjects[0].pam_dir, want);
		CHECK_STR_EQ(r.p->subjects[0].pam_service, "sudo");
	}
	plan_free(r.p);
}

static void test_pam_dir_not_roots(void)
{
	char pam[PATH_MAX];
	struct planned r;

	CHECK_INT_EQ(fileio_fmt(pam, sizeof(pam), "%s/share/rarperf/pam.d", fx), 0);
	untrusted(pam);
	r = plan_text(fx,
		      one_subject(", \"format\": \"sudoers\", \"program\": \"/usr/bin/true\", "
				  "\"policy\": \"{prefix}/etc/sudoers\", \"pam\": true",
				  ""),
		      true);
	CHECK_INT_EQ(r.rc, -1);
	CHECK_SAID(r, "$.subjects[0].pam: ");
	CHECK_SAID(r, "can run code as root (say \"unsafe_pam\": true to use it anyway)");
	plan_free(r.p);
}

static void test_pam_unsafe_is_said(void)
{
	char pam[PATH_MAX];
	struct planned r;

	CHECK_INT_EQ(fileio_fmt(pam, sizeof(pam), "%s/share/rarperf/pam.d", tfx), 0);
	untrusted(pam);
	r = plan_text(tfx,
		      one_subject(", \"format\": \"sudoers\", \"program\": \"/usr/bin/true\", "
				  "\"policy\": \"/etc/rarperf-test-sudoers\", \"pam\": "
				  "true, \"unsafe_pam\": true",
				  ""),
		      true);
	CHECK_INT_EQ(r.rc, 0);
	CHECK(r.p->subjects != NULL && r.p->subjects[0].unsafe != NULL &&
	      strstr(r.p->subjects[0].unsafe, "PAM directory") != NULL &&
	      strstr(r.p->subjects[0].unsafe, "can run code as root") != NULL);
	plan_free(r.p);
}

static void test_pam_dir_through_proc(void)
{
	struct planned r = plan_text(
	    fx,
	    one_subject(", \"format\": \"sudoers\", \"program\": \"/usr/bin/true\", \"pam\": "
			"\"/proc/self/cwd\", \"unsafe_pam\": true",
			""),
	    true);

	CHECK_INT_EQ(r.rc, -1);
	CHECK(r.p->bad_input);
	CHECK_SAID(r, "$.subjects[0].pam");
	plan_free(r.p);
}

static void test_pam_files_shown(void)
{
	struct manifest_subject ms = {.policy_mount_at = (char *)"/etc/sudoers-rs"};
	char pam[PATH_MAX], path[PATH_MAX];
	struct plan_subject s = {.ms = &ms, .pam_dir = pam};
	static struct plan_pam_files shown;
	struct errbuf eb = {{0}};

	CHECK_INT_EQ(fileio_fmt(pam, sizeof(pam), "%s/pamfiles", dir), 0);
	CHECK_INT_EQ(mkdir(pam, 0755), 0);
	CHECK_INT_EQ(fileio_fmt(path, sizeof(path), "%s/sudo", pam), 0);
	CHECK_INT_EQ(testutil_put_file(path, "auth sufficient pam_permit.so\n", 0644), 0);
	CHECK_INT_EQ(fileio_fmt(path, sizeof(path), "%s/other", pam), 0);
	CHECK_INT_EQ(testutil_put_file(path, "auth required pam_deny.so\n", 0644), 0);
	CHECK_INT_EQ(fileio_fmt(path, sizeof(path), "%s/.hidden", pam), 0);
	CHECK_INT_EQ(testutil_put_file(path, "x\n", 0644), 0);
	CHECK_INT_EQ(plan_pam_files(&s, "/x/etc/sudoers-rs", &shown, &eb), 0);
	CHECK_INT_EQ(shown.n, 3);
	/* The policy's overlay first (/etc), then /etc/pam.d's files, sorted. */
	CHECK_STR_EQ(shown.file[0].target, "/etc/sudoers-rs");
	CHECK_STR_EQ(shown.file[0].source, "/x/etc/sudoers-rs");
	CHECK_STR_EQ(shown.file[1].target, "/etc/pam.d/other");
	CHECK_STR_EQ(shown.file[2].target, "/etc/pam.d/sudo");
	CHECK_INT_EQ(fileio_fmt(path, sizeof(path), "%s/sudo", pam), 0);
	CHECK_STR_EQ(shown.file[2].source, path);
}

static void test_pam_files_empty_dir(void)
{
	struct manifest_subject ms = {0};
	char pam[PATH_MAX];
	struct plan_subject s = {.ms = &ms, .pam_dir = pam};
	static struct plan_pam_files shown;
	struct errbuf eb = {{0}};

	CHECK_INT_EQ(fileio_fmt(pam, sizeof(pam), "%s/pamempty", dir), 0);
	CHECK_INT_EQ(mkdir(pam, 0755), 0);
	CHECK_INT_EQ(plan_pam_files(&s, NULL, &shown, &eb), -1);
	CHECK(strstr(eb.msg, "holds no PAM service file") != NULL);
	s.pam_dir = NULL;
	CHECK_INT_EQ(plan_pam_files(&s, NULL, &shown, &eb), 0);
	CHECK_INT_EQ(shown.n, 0);
}

static void test_pam_explain_missing_module(void)
{
	char pam[PATH_MAX], path[PATH_MAX], why[1024];
	struct plan_subject s = {.pam_dir = pam, .pam_service = (char *)"sudo"};

	CHECK_INT_EQ(fileio_fmt(pam, sizeof(pam), "%s/pamexplain", dir), 0);
	CHECK_INT_EQ(mkdir(pam, 0755), 0);
	CHECK_INT_EQ(fileio_fmt(path, sizeof(path), "%s/sudo", pam), 0);
	CHECK_INT_EQ(testutil_put_file(path,
				       "-auth required pam_rarperf_optional.so\n"
				       "@include common-rarperf\n",
				       0644),
		     0);
	CHECK_INT_EQ(fileio_fmt(path, sizeof(path), "%s/common-rarperf", pam), 0);
	CHECK_INT_EQ(testutil_put_file(path, "auth required pam_rarperf_missing.so\n", 0644), 0);
	plan_pam_explain(&s, why, sizeof(why));
	CHECK(strstr(why, "; PAM service sudo (") != NULL);
	CHECK(strstr(why, ", through an include") != NULL);
	CHECK(strstr(why, "module pam_rarperf_missing.so is in none of PAM's module directories") !=
	      NULL);
	/* An optional module missing explains nothing. */
	CHECK_INT_EQ(testutil_put_file(path, "-auth required pam_rarperf_missing.so\n", 0644), 0);
	plan_pam_explain(&s, why, sizeof(why));
	CHECK_STR_EQ(why, "");
}

static void test_pam_meta(void)
{
	struct planned r = plan_text(
	    fx,
	    "{\"name\": \"t\", \"bench_user\": \"nobody\", \"subjects\": ["
	    "{\"id\": \"p\", \"format\": \"sudoers\", \"program\": \"{prefix}/bin/sudo-pam\"},"
	    "{\"id\": \"q\", \"format\": \"doas\", \"optional\": true, \"program\": "
	    "\"{prefix}/bin/none\"}]}",
	    true);
	cJSON *meta = plan_pam_meta(r.p);
	char *text = cJSON_PrintUnformatted(meta);

	CHECK(text != NULL &&
	      strstr(text, "\"p\":{\"service\":\"sudo\",\"shown_at_etc_pam_d\":") != NULL);
	CHECK(text != NULL && strstr(text, "\"q\"") == NULL); /* skipped: not measured */
	free(text);
	cJSON_Delete(meta);
	plan_free(r.p);
}

/* --- the environment against this host --- */

static void test_env_limit_above_hard_limit(void)
{
	struct planned r = plan_text(tfx,
				     one_subject(", \"format\": \"sudoers\", \"program\": "
						 "\"/usr/bin/true\", \"policy\": "
						 "\"/etc/rarperf-test-sudoers\"",
						 ", \"limits\": {\"nofile\": 4000000000}"),
				     true);

	CHECK_INT_EQ(r.rc, -1);
	CHECK(r.p->bad_input);
	CHECK(strstr(r.eb.msg,
		     "x.json: $.limits.nofile: 4000000000 is above this host's hard limit") ==
	      r.eb.msg);
	plan_free(r.p);
}

static void test_env_cpu_not_here(void)
{
	struct planned r = plan_text(tfx,
				     one_subject(", \"format\": \"sudoers\", \"program\": "
						 "\"/usr/bin/true\", \"policy\": "
						 "\"/etc/rarperf-test-sudoers\"",
						 ", \"cpus\": [1000]"),
				     true);

	CHECK_INT_EQ(r.rc, -1);
	CHECK(r.p->bad_input);
	CHECK_SAID(r, "x.json: $.cpus[0]: CPU 1000 is not one this process may run on here");
	plan_free(r.p);
}

static void test_env_swept_limit_above_hard_limit(void)
{
	struct planned r = plan_text(tfx,
				     one_subject(", \"format\": \"sudoers\", \"program\": "
						 "\"/usr/bin/true\", \"policy\": "
						 "\"/etc/rarperf-test-sudoers\"",
						 ", \"limits\": {\"nofile\": [1024, 4000000000]}"),
				     true);

	CHECK_INT_EQ(r.rc, -1);
	CHECK_SAID(r, "x.json: $.limits.nofile[1]: 4000000000 is above this host's hard limit");
	plan_free(r.p);
}

static void test_env_not_this_host(void)
{
	struct planned r =
	    plan_text(tfx,
		      one_subject(", \"format\": \"sudoers\", \"program\": "
				  "\"/usr/bin/true\", \"policy\": "
				  "\"/etc/rarperf-test-sudoers\"",
				  ", \"limits\": {\"nofile\": 4000000000}, \"cpus\": [1000]"),
		      false);

	/* rarlab's controller plans for other hosts: their limits are theirs. */
	CHECK_INT_EQ(r.rc, 0);
	CHECK(!r.p->bad_input);
	plan_free(r.p);
}

/* --- the tracer, the disk and the problems list --- */

static void test_tracer_missing_with_profile(void)
{
	struct planned r;

	setenv("RARPERF_STRACE", "/nonexistent/strace", 1);
	r = plan_text(tfx,
		      one_subject(", \"format\": \"sudoers\", \"program\": \"/usr/bin/true\", "
				  "\"policy\": \"/etc/rarperf-test-sudoers\"",
				  ", \"profile\": true"),
		      true);
	CHECK_INT_EQ(r.rc, -1);
	CHECK(r.p->bad_input);
	CHECK(strstr(r.eb.msg, "x.json: \"profile\" needs /nonexistent/strace: install Debian's "
			       "package strace") != NULL);
	plan_free(r.p);
	/* Without a profile pass the tracer is only named. */
	r = plan_text(tfx,
		      one_subject(", \"format\": \"sudoers\", \"program\": \"/usr/bin/true\", "
				  "\"policy\": \"/etc/rarperf-test-sudoers\"",
				  ""),
		      true);
	CHECK_INT_EQ(r.rc, 0);
	CHECK_STR_EQ(r.p->tracer, "/nonexistent/strace");
	plan_free(r.p);
	unsetenv("RARPERF_STRACE");
}

static void test_disk_larger_than_free(void)
{
	/* 16 doas.conf of 10^6 tasks x 100 commands (~61 bytes a rule; confgen writes at most
	 * 10^8 commands), twice while a point replaces the one before: about 195 GB. */
	char text[8192];
	size_t off = 0;
	struct statvfs vfs;
	struct planned r;

	if (statvfs("/etc", &vfs) == 0 && (double)vfs.f_bavail * vfs.f_frsize > 1.9e11) {
		printf("# more than 190 GB free in /etc: the refusal is not reached\n");
		return;
	}
	off += (size_t)snprintf(text + off, sizeof(text) - off,
				"{\"name\": \"huge\", \"bench_user\": \"nobody\", \"subjects\": [");
	for (int i = 1; i <= 16; i++)
		off += (size_t)snprintf(text + off, sizeof(text) - off,
					"%s{\"id\": \"d%d\", \"format\": \"doas\", \"program\": "
					"\"/usr/bin/true\", \"policy\": \"/etc/rarperf-test-%d\"}",
					i > 1 ? ", " : "", i, i);
	snprintf(text + off, sizeof(text) - off,
		 "], \"axes\": {\"nb_tasks\": [1000000], \"nb_commands\": [100]}, "
		 "\"max_policy_bytes\": 68719476736}");
	r = plan_text(tfx, text, true);
	CHECK_INT_EQ(r.rc, -1);
	CHECK(r.p->bad_input);
	CHECK(strstr(r.eb.msg, "x.json: $.axes: nb_roles=1,nb_users=1,nb_tasks=1000000,"
			       "nb_commands=100 needs ") == r.eb.msg);
	CHECK(strstr(r.eb.msg, " is free") != NULL);
	if (strstr(r.eb.msg, " is free") == NULL)
		fprintf(stderr, "  got: %s\n", r.eb.msg);
	plan_free(r.p);
}

static void test_problems_capped(void)
{
	struct plan p = {.manifest = "x.json"};
	struct errbuf eb = {{0}};

	for (int i = 0; i < PLAN_PROBLEMS_MAX + 10; i++)
		CHECK_INT_EQ(plan_problem(&p, &eb, "$.k", "problem %d", i), 0);
	CHECK_INT_EQ(p.nproblems, PLAN_PROBLEMS_MAX);
	CHECK_STR_EQ(p.problems[0], "x.json: $.k: problem 0");
	CHECK_INT_EQ(plan_problems_verdict(&p, " here", &eb), -1);
	CHECK(p.bad_input);
	CHECK_STR_EQ(eb.msg, "x.json: 64 problems here (above)");
	plan_problems_clear(&p);
	CHECK_INT_EQ(p.nproblems, 0);
	CHECK(p.problems == NULL);
}

static void test_verdict_of_one_and_none(void)
{
	struct plan p = {.manifest = "x.json"};
	struct errbuf eb = {{0}};

	CHECK_INT_EQ(plan_problems_verdict(&p, "", &eb), 0);
	CHECK(!p.bad_input);
	CHECK_INT_EQ(plan_problem(&p, &eb, "$.a", "one"), 0);
	CHECK_INT_EQ(plan_problems_verdict(&p, "", &eb), -1);
	CHECK(p.bad_input);
	CHECK_STR_EQ(eb.msg, "x.json: $.a: one");
	CHECK_INT_EQ(p.nproblems, 0); /* the one line is the message */
	plan_free(NULL);
}

/* --- the estimate and the printed plan --- */

static const char *const good_manifest =
    "{\"name\": \"good\", \"bench_user\": \"nobody\", \"subjects\": ["
    "{\"id\": \"t\", \"format\": \"sudoers\", \"program\": \"/usr/bin/true\", \"policy\": "
    "\"/etc/rarperf-test-sudoers\"},"
    "{\"id\": \"gone\", \"format\": \"doas\", \"optional\": true, \"program\": "
    "\"{prefix}/bin/no-such-\\u001b[2J\"}],"
    "\"axes\": {\"nb_tasks\": [1, 10, 100]}, \"min_runs\": 10, \"warmup\": 2, \"rounds\": 2}";

static void test_point_entries_and_runs(void)
{
	struct sweep_point pt = {.value = {2, 3, 5, 7}};
	struct planned r = plan_text(tfx, good_manifest, true);

	/* R x T x C + R x U */
	CHECK(plan_point_entries(&pt) == 2.0 * 5 * 7 + 2.0 * 3);
	CHECK(r.p->m != NULL && plan_runs_per_round(r.p->m, 0.001) >= 5);
	plan_free(r.p);
}

static void test_pilot_points(void)
{
	struct planned r = plan_text(tfx, good_manifest, true);
	size_t lo = 9, hi = 9;

	plan_pilot_points(r.p, &lo, &hi);
	CHECK_INT_EQ(lo, 0);
	CHECK_INT_EQ(hi, 2);
	plan_free(r.p);
}

static void test_estimate_without_pilot(void)
{
	struct planned r = plan_text(tfx, good_manifest, true);
	struct errbuf eb = {{0}};
	char *text = NULL;
	int rc = -1;

	CHECK_INT_EQ(r.rc, 0);
	HARNESS_PRINTED(text, rc = plan_estimate_print(r.p, f, false, &eb));
	CHECK_INT_EQ(rc, 0);
	CHECK(text != NULL && strstr(text, "Estimated wall time: about ") != NULL);
	CHECK(text != NULL && strstr(text, "cost per run from ") != NULL);
	free(text);
	plan_free(r.p);
}

static void test_print_the_plan(void)
{
	struct planned r = plan_text(tfx, good_manifest, true);
	struct errbuf eb = {{0}};
	char *text = NULL, want[PATH_MAX + 64], real[PATH_MAX];
	int rc = -1;

	CHECK_INT_EQ(r.rc, 0);
	HARNESS_PRINTED(text, rc = plan_print(r.p, NULL, f, &eb));
	CHECK_INT_EQ(rc, 0);
	CHECK(realpath(tfx, real) != NULL);
	snprintf(want, sizeof(want), "Plan of x.json (good) against %s; nothing was written.\n",
		 real);
	CHECK(text != NULL && strncmp(text, want, strlen(want)) == 0);
	CHECK(text != NULL && strstr(text, "Subjects (1 measured):") != NULL);
	CHECK(text != NULL && strstr(text, "skipped: ") != NULL);
	CHECK(text != NULL && strstr(text, "\nPoints: 3 (") != NULL);
	CHECK(text != NULL && strstr(text, "2 rounds each, points shuffled per round") != NULL);
	CHECK(text != NULL && strstr(text, "\nDisk: at most ") != NULL);
	/* Every string from the manifest reaches the terminal escaped. */
	CHECK(text != NULL && strchr(text, '\033') == NULL);
	CHECK(text != NULL && strstr(text, "\\x1b[2J") != NULL);
	CHECK(text != NULL && strstr(text, "Pilot (") == NULL);
	free(text);
	plan_free(r.p);
}

static void test_print_with_a_pilot(void)
{
	struct planned r = plan_text(tfx, good_manifest, true);
	struct plan_pilot pilot[2] = {{.point = 0, .write_s = 0.01, .run_s = {0.002}},
				      {.point = 2, .write_s = 0.02, .run_s = {0.004}}};
	struct errbuf eb = {{0}};
	char *text = NULL;
	int rc = -1;

	HARNESS_PRINTED(text, rc = plan_print(r.p, pilot, f, &eb));
	CHECK_INT_EQ(rc, 0);
	CHECK(text != NULL &&
	      strstr(text, "Pilot (5 runs of each subject at points 1 and 3):") != NULL);
	CHECK(text != NULL && strstr(text, "       2.000 ms       4.000 ms") != NULL);
	CHECK(text != NULL &&
	      strstr(text, "linear in the policy size between the pilot's points") != NULL);
	free(text);
	plan_free(r.p);
}

static void test_print_says_unsafe_first(void)
{
	struct planned r = plan_text(
	    tfx,
	    "{\"name\": \"u\", \"bench_user\": \"nobody\", \"command\": \"/bin/sh\", "
	    "\"unsafe_command\": true, \"subjects\": [{\"id\": \"t\", \"format\": \"sudoers\", "
	    "\"program\": \"/usr/bin/true\", \"policy\": \"/etc/rarperf-test-sudoers\"}]}",
	    true);
	struct errbuf eb = {{0}};
	char *text = NULL, *unsafe;
	int rc = -1;

	CHECK_INT_EQ(r.rc, 0);
	if (r.rc == 0) {
		HARNESS_PRINTED(text, rc = plan_print(r.p, NULL, f, &eb));
		CHECK_INT_EQ(rc, 0);
		unsafe =
		    text != NULL ? strstr(text, "UNSAFE: the command /bin/sh is granted") : NULL;
		CHECK(unsafe != NULL && unsafe < strstr(text, "Subjects ("));
		free(text);
	} else {
		fprintf(stderr, "  %s\n", r.eb.msg);
	}
	plan_free(r.p);
}

int main(void)
{
	char cwd[PATH_MAX];

	if (mkdtemp(dir) == NULL || chmod(dir, 0755) != 0 || getcwd(cwd, sizeof(cwd)) == NULL ||
	    chdir(dir) != 0) {
		perror(dir);
		return 1;
	}
	make_prefix("fx", fx);
	make_trusted_etc_prefix("tfx", tfx);
	RUN(test_prefix_locates_real_and_etc);
	RUN(test_prefix_missing);
	RUN(test_prefix_without_etc);
	RUN(test_confine_inside_etc);
	RUN(test_confine_outside_etc);
	RUN(test_confine_missing_directory);
	RUN(test_open_unknown_key_is_one_line);
	RUN(test_open_every_problem_then_count);
	RUN(test_open_missing_manifest);
	RUN(test_open_default_out);
	RUN(test_open_repetitions_warning);
	RUN(test_open_sha_and_points);
	RUN(test_resolve_missing_prefix_is_this_host);
	RUN(test_resolve_missing_facts);
	RUN(test_resolve_facts_not_an_object);
	RUN(test_resolve_copied_prefix_refused);
	RUN(test_resolve_bench_user_not_the_prefix);
	RUN(test_subject_missing_program_names_nearest);
	RUN(test_subject_optional_missing_is_skipped);
	RUN(test_subject_absent_tool_is_skipped_with_its_reason);
	RUN(test_subject_rar_version_the_prefix_lacks);
	RUN(test_subject_optional_rar_version_is_skipped);
	RUN(test_subject_policy_outside_etc);
	RUN(test_subject_format_its_tool_does_not_read);
	RUN(test_subject_policy_its_tool_does_not_read);
	RUN(test_subjects_every_problem_in_one_pass);
	RUN(test_subject_strings_expanded);
	RUN(test_trust_root_program_outside_prefix_passes);
	RUN(test_trust_program_not_roots);
	RUN(test_trust_unsafe_program_is_said);
	RUN(test_trust_unsafe_program_refused_with_profile);
	RUN(test_trust_relative_program);
	RUN(test_trust_program_through_proc);
	RUN(test_trust_setuid_outside_prefix);
	RUN(test_trust_policy_mount_at_rule);
	RUN(test_pam_on_for_a_tool_without_pam);
	RUN(test_pam_dir_relative);
	RUN(test_pam_dir_missing);
	RUN(test_pam_auto_uses_the_prefix_stack);
	RUN(test_pam_dir_not_roots);
	RUN(test_pam_unsafe_is_said);
	RUN(test_pam_dir_through_proc);
	RUN(test_pam_files_shown);
	RUN(test_pam_files_empty_dir);
	RUN(test_pam_explain_missing_module);
	RUN(test_pam_meta);
	RUN(test_env_limit_above_hard_limit);
	RUN(test_env_cpu_not_here);
	RUN(test_env_swept_limit_above_hard_limit);
	RUN(test_env_not_this_host);
	RUN(test_tracer_missing_with_profile);
	RUN(test_disk_larger_than_free);
	RUN(test_problems_capped);
	RUN(test_verdict_of_one_and_none);
	RUN(test_point_entries_and_runs);
	RUN(test_pilot_points);
	RUN(test_estimate_without_pilot);
	RUN(test_print_the_plan);
	RUN(test_print_with_a_pilot);
	RUN(test_print_says_unsafe_first);
	if (chdir(cwd) != 0)
		perror(cwd);
	harness_remove_tree(dir);
	return HARNESS_EXIT();
}
