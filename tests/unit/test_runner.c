/* Tests for runner (src/sweep/runner.h): the opaque run's setup refusals and exit statuses, and
 * the profile files it reads back (runner_profile.h). The runs themselves need a provisioned
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
#include "runner_profile.h"
#include "sweep.h"

static const char manifest_text[] =
    "{\"name\":\"t\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"a\","
    "\"format\":\"doas\"}],\"axes\":{\"nb_tasks\":[1,10]}}";

static char dir[] = "/tmp/rarperf-test-runner-XXXXXX";

/* Writes text to dir/name; its path into path (PATH_MAX). 0 or -1. */
static int put(const char *name, const char *text, char *path)
{
	FILE *f;

	snprintf(path, PATH_MAX, "%s/%s", dir, name);
	f = fopen(path, "we");
	if (f == NULL)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/* Opens a dry run of manifest against prefix; its exit status, what it wrote into *msg. */
static int open_dry(const char *manifest, const char *prefix, char **msg)
{
	struct runner_config cfg = {0};
	struct runner *r = NULL;
	size_t len = 0;
	int status;

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

/* A manifest that cannot be read is the user's input: exit 2, one line naming it. */
static void test_missing_manifest(void)
{
	char path[PATH_MAX], *msg = NULL;

	snprintf(path, sizeof(path), "%s/none.json", dir);
	CHECK_INT_EQ(open_dry(path, dir, &msg), RUNNER_EXIT_USAGE);
	CHECK(msg != NULL && strstr(msg, "none.json") != NULL);
	CHECK(msg != NULL && strchr(msg, '\n') == strrchr(msg, '\n'));
	free(msg);
}

/* A prefix that is not there is this host's failure (exit 1), named; nothing is created. */
static void test_missing_prefix(void)
{
	char path[PATH_MAX], prefix[PATH_MAX], *msg = NULL;
	struct stat st;

	CHECK_INT_EQ(put("m.json", manifest_text, path), 0);
	snprintf(prefix, sizeof(prefix), "%s/no-prefix", dir);
	CHECK_INT_EQ(open_dry(path, prefix, &msg), RUNNER_EXIT_FAIL);
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
	struct manifest *m =
	    manifest_parse_all(manifest_text, strlen(manifest_text), "m.json", 0, NULL, &eb);
	struct sweep *s = m != NULL ? sweep_new(m, &eb) : NULL;
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
	harness_remove_tree(dir);
	return HARNESS_EXIT();
}
