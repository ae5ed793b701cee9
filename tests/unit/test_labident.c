/* Tests for labident: a host's probe output parsed (hostile bytes bounded and sanitised), the
 * probe command, a lab compared and grouped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "labident.h"

#define FACTS_SUDO(sha)                                                                            \
	"{\"bench_user\": \"rarperf\", \"bench_uid\": 4242, \"rarperf\": {\"version\": "           \
	"\"0.1.0\", "                                                                              \
	"\"commit\": \"abc\"}, \"tools\": {\"sudo\": {\"present\": true, \"version\": "            \
	"\"1.9.13p3\", "                                                                           \
	"\"sha256\": \"" sha "\", \"source\": \"debian:sudo\", \"configure\": \"--x\"}, "          \
	"\"doas\": {\"present\": false}}}"
#define LIVE(nofile)                                                                               \
	"\n" LABIDENT_MARK "\ncpus=4\nmem_kb=8045000\ncpu_model=Xeon\nkernel=6.1.0-18-amd64\n"     \
	"debian=12\nlimit.nofile=" nofile "\n"

static struct labident *parse(const char *text)
{
	struct errbuf eb = {{0}};
	struct labident *id = labident_parse(text, strlen(text), &eb);

	if (id == NULL)
		fprintf(stderr, "    parse: %s\n", eb.msg);
	return id;
}

static void test_parse_reads_facts_and_live_keys(void)
{
	struct labident *id = parse(FACTS_SUDO("aa") LIVE("1048576"));

	CHECK(id != NULL);
	if (id == NULL)
		return;
	CHECK_STR_EQ(labident_get(id, "cpus"), "4");
	CHECK_STR_EQ(labident_get(id, "memory_gib"), "7.7");
	CHECK_STR_EQ(labident_get(id, "limit.nofile"), "1048576");
	CHECK_STR_EQ(labident_get(id, "tool.sudo.sha256"), "aa");
	CHECK_STR_EQ(labident_get(id, "tool.sudo.version"), "1.9.13p3");
	CHECK_STR_EQ(labident_get(id, "tool.doas.present"), "no");
	CHECK_STR_EQ(labident_get(id, "bench_user"), "rarperf");
	CHECK_STR_EQ(labident_get(id, "bench_uid"), "4242");
	CHECK_STR_EQ(labident_get(id, "rarperf"), "0.1.0 abc");
	CHECK(labident_get(id, "facts") == NULL);
	labident_free(id);
}

static void test_parse_hostile_output(void)
{
	struct errbuf eb = {{0}};
	struct labident *id;
	char *big;

	/* no facts.json: the live keys only, "facts" says it is missing */
	id = parse(LIVE("1024"));
	CHECK(id != NULL && strcmp(labident_get(id, "facts"), "(missing)") == 0);
	labident_free(id);
	/* not JSON, escapes in values, bad keys: sanitised or skipped */
	id = parse("{oops\n" LABIDENT_MARK "\nkernel=\x1b]52;c;AAAA\x07x\nBAD KEY=1\n=x\nnoeq\n");
	CHECK(id != NULL);
	if (id != NULL) {
		CHECK_STR_EQ(labident_get(id, "facts"), "not a JSON object");
		CHECK(strchr(labident_get(id, "kernel"), '\x1b') == NULL);
		CHECK(labident_get(id, "BAD KEY") == NULL);
	}
	labident_free(id);
	/* no mark: an error, not a guess */
	CHECK(labident_parse("cpus=4\n", 7, &eb) == NULL && strstr(eb.msg, LABIDENT_MARK) != NULL);
	/* too many keys, too many bytes */
	big = malloc(LABIDENT_OUTPUT_MAX_BYTES + 2);
	CHECK(big != NULL);
	if (big == NULL)
		return;
	size_t len = (size_t)snprintf(big, 64, "\n%s\n", LABIDENT_MARK);
	for (int i = 0; i < LABIDENT_KEYS_MAX + 5; i++)
		len += (size_t)snprintf(big + len, 32, "k%d=v\n", i);
	CHECK(labident_parse(big, len, &eb) == NULL && strstr(eb.msg, "keys") != NULL);
	memset(big, 'x', LABIDENT_OUTPUT_MAX_BYTES + 1);
	CHECK(labident_parse(big, LABIDENT_OUTPUT_MAX_BYTES + 1, &eb) == NULL);
	free(big);
}

static void test_command_lists_pinned_limits(void)
{
	const char *lim[] = {"nofile", "nproc"}, *bad[] = {"no;file"};
	char cmd[2048];

	CHECK_INT_EQ(labident_command(cmd, sizeof(cmd), "/opt/rarperf", lim, 2), 0);
	CHECK(strncmp(cmd, "awk -v f='/opt/rarperf/facts.json' -v p='nofile,nproc' '", 56) == 0);
	CHECK_INT_EQ(labident_command(cmd, sizeof(cmd), "/opt/rarperf", bad, 1), -1);
	CHECK_INT_EQ(labident_command(cmd, sizeof(cmd), "/opt/it's", lim, 1), -1);
	CHECK_INT_EQ(labident_command(cmd, 64, "/opt/rarperf", lim, 1), -1);
	CHECK_INT_EQ(labident_command(cmd, sizeof(cmd), "/opt/a\\b", lim, 1), -1);
}

static void test_compare_groups_hosts(void)
{
	const char *names[] = {"a", "b", "c", "d", "e"};
	struct labident *h[5] = {
	    parse(FACTS_SUDO("aa") LIVE("1048576")), parse(FACTS_SUDO("aa") LIVE("1048576")),
	    parse(FACTS_SUDO("aa") LIVE("4096")), parse(FACTS_SUDO("bb") LIVE("1048576")), NULL};
	struct errbuf eb = {{0}};
	struct labident_cmp *c = labident_compare(h, names, 5, &eb);
	char *json, buf[2048];
	FILE *f;

	CHECK(c != NULL);
	if (c == NULL)
		goto out;
	CHECK_INT_EQ((int)labident_cmp_ndiffs(c), 2);
	CHECK_INT_EQ((int)labident_cmp_ngroups(c), 3);
	CHECK(labident_cmp_group(c, 0) == 1 && labident_cmp_group(c, 1) == 1);
	CHECK(labident_cmp_group(c, 2) == 2 && labident_cmp_group(c, 3) == 3);
	CHECK(labident_cmp_group(c, 4) == 0);
	json = labident_cmp_json(c);
	CHECK_STR_EQ(json,
		     "{\"identical\":false,\"differs\":[\"limit.nofile\",\"tool.sudo.sha256\"],"
		     "\"groups\":[{\"group\":\"g1\",\"hosts\":[\"a\",\"b\"],\"values\":{"
		     "\"limit.nofile\":\"1048576\",\"tool.sudo.sha256\":\"aa\"}},{\"group\":"
		     "\"g2\",\"hosts\":[\"c\"],\"values\":{\"limit.nofile\":\"4096\",\"tool."
		     "sudo.sha256\":\"aa\"}},{\"group\":\"g3\",\"hosts\":[\"d\"],\"values\":{"
		     "\"limit.nofile\":\"1048576\",\"tool.sudo.sha256\":\"bb\"}}]}");
	free(json);
	f = fmemopen(buf, sizeof(buf), "w");
	CHECK(f != NULL);
	if (f != NULL) {
		labident_cmp_print(c, f, 1);
		fclose(f);
		CHECK(strstr(buf, "  limit.nofile:\n    1048576                  a and 2 more\n"
				  "    4096                     c\n") != NULL);
		CHECK(strstr(buf, "  tool.sudo.sha256:\n    aa                       a and 2 more\n"
				  "    bb                       d\n") != NULL);
	}
	labident_cmp_free(c);
	/* the identical part alone: nothing differs, one group */
	c = labident_compare(h, names, 2, &eb);
	CHECK(c != NULL && labident_cmp_ndiffs(c) == 0 && labident_cmp_ngroups(c) == 1);
	labident_cmp_free(c);
out:
	for (int i = 0; i < 5; i++)
		labident_free(h[i]);
}

int main(void)
{
	RUN(test_parse_reads_facts_and_live_keys);
	RUN(test_parse_hostile_output);
	RUN(test_command_lists_pinned_limits);
	RUN(test_compare_groups_hosts);
	return HARNESS_EXIT();
}
