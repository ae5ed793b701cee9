/* Tests for labprofile (src/rarlab): what comparing the hosts' profile counters did. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "labprofile.h"
#include "manifest.h"

static char dir[] = "/tmp/rarperf-test-labprofile-XXXXXX";

static struct manifest *manifest_with(const char *profile)
{
	char text[512];
	struct errbuf eb = {{0}};

	snprintf(text, sizeof(text),
		 "{\"name\":\"t\",\"bench_user\":\"nobody\",%s\"subjects\":[{\"id\":\"a\","
		 "\"format\":\"doas\"}],\"axes\":{\"nb_tasks\":[1,10]}}",
		 profile);
	return manifest_parse_all(text, strlen(text), "m.json", MANIFEST_REMOTE, NULL, &eb);
}

/* Without a profile pass nothing is read, printed or added to the lab's comparison. */
static void test_no_profile_pass_does_nothing(void)
{
	struct manifest *m = manifest_with("");
	struct merge_host h = {.name = "h1"};
	struct errbuf eb = {{0}};
	char *lab_json = NULL, *out = NULL;

	CHECK(m != NULL);
	if (m == NULL)
		return;
	h.status.state = HOSTPOOL_FINISHED;
	h.status.outcome = HOST_OK;
	HARNESS_PRINTED(out, CHECK_INT_EQ(labprofile_compare(dir, m, &h, 1, &lab_json, f, &eb),
					  LABPROFILE_NOT_PROFILED));
	CHECK(out != NULL && out[0] == '\0');
	CHECK(lab_json == NULL);
	CHECK_STR_EQ(h.profile, "");
	free(out);
	manifest_free(m);
}

/* With a profile pass, an ok host whose results.json cannot be read fails the comparison. */
static void test_unreadable_results_fail(void)
{
	struct manifest *m = manifest_with("\"profile\":true,");
	struct merge_host h = {.name = "h1"};
	struct errbuf eb = {{0}};
	char *lab_json = NULL;

	CHECK(m != NULL);
	if (m == NULL)
		return;
	h.status.state = HOSTPOOL_FINISHED;
	h.status.outcome = HOST_OK;
	CHECK_INT_EQ(labprofile_compare(dir, m, &h, 1, &lab_json, NULL, &eb), LABPROFILE_FAILED);
	CHECK(strstr(eb.msg, "h1/results.json") != NULL);
	CHECK(lab_json == NULL);
	manifest_free(m);
}

int main(void)
{
	if (mkdtemp(dir) == NULL)
		return 1;
	RUN(test_no_profile_pass_does_nothing);
	RUN(test_unreadable_results_fail);
	rmdir(dir);
	return HARNESS_EXIT();
}
