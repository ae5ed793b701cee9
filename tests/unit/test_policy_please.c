/* Tests for policy_please: please.ini's text, its regex escapes, deny-all, refusals and mode. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "confgen_testutil.h"
#include "harness.h"
#include "policy.h"
#include "policy_please.h"

static char dir[] = "/tmp/rarperf-test-policy-please-XXXXXX";

/* Writes shape as please.ini into dir/name; returns the text (malloc'd) or NULL with eb. */
static char *write_please(const struct policy_shape *s, const char *name, struct errbuf *eb)
{
	char path[256];
	struct policy *p = policy_build(s, eb);
	char *text = NULL;
	size_t len = 0;

	if (p == NULL)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (testutil_txn_end(policy_stage_please(testutil_txn_fresh(), p, path, eb), eb) == 0)
		text = testutil_read_file(path, &len);
	policy_free(p);
	return text;
}

static void test_escape(void)
{
	char buf[64];

	CHECK_INT_EQ(policy_please_escape("/usr/bin/true", buf, sizeof(buf)), 13);
	CHECK_STR_EQ(buf, "/usr/bin/true");
	CHECK_STR_EQ((policy_please_escape("/a.b+c", buf, sizeof(buf)), buf), "/a\\.b\\+c");
	/* Every metacharacter of Rust's regex outside a class; %{USER} is not expanded. */
	CHECK_STR_EQ((policy_please_escape("\\.+*?()|[]{}^$%", buf, sizeof(buf)), buf),
		     "\\\\\\.\\+\\*\\?\\(\\)\\|\\[\\]\\{\\}\\^\\$%");
	CHECK_STR_EQ((policy_please_escape("%{USER}", buf, sizeof(buf)), buf), "%\\{USER\\}");
	CHECK_INT_EQ(policy_please_escape_extra("/a.b+c-d@e~f_g"), 2);
	/* Truncated, never overrun: room for whole escapes only. */
	CHECK_INT_EQ(policy_please_escape("....", buf, 6), 4);
	CHECK_STR_EQ(buf, "\\.\\.");
}

/* Two roles of two users, two tasks of two commands, the match last: every piece once. */
static void test_small_policy_text(void)
{
	static const char want[] =
	    "# rarperf confgen: roles=2 users=2 tasks=2 commands=2 uid=4242 user=rarperf "
	    "match=last\n"
	    "[R1T1]\n"
	    "name = ^(?:#2147483648|#2147483649)$\n"
	    "target = ^root$\n"
	    "rule = ^(?:/nonexistent/true\\.1\\.1\\.1|/nonexistent/true\\.1\\.1\\.2)$\n"
	    "require_pass = false\n"
	    "[R1T2]\n"
	    "name = ^(?:#2147483648|#2147483649)$\n"
	    "target = ^root$\n"
	    "rule = ^(?:/nonexistent/true\\.1\\.2\\.1|/nonexistent/true\\.1\\.2\\.2)$\n"
	    "require_pass = false\n"
	    "[R2T1]\n"
	    "name = ^(?:#2147483650|rarperf)$\n"
	    "target = ^root$\n"
	    "rule = ^(?:/nonexistent/true\\.2\\.1\\.1|/nonexistent/true\\.2\\.1\\.2)$\n"
	    "require_pass = false\n"
	    "[R2T2]\n"
	    "name = ^(?:#2147483650|rarperf)$\n"
	    "target = ^root$\n"
	    "rule = ^(?:/nonexistent/true\\.2\\.2\\.1|/usr/bin/true)$\n"
	    "require_pass = false\n";
	struct policy_shape s;
	struct errbuf eb = {{0}};
	char *text;
	struct stat st;
	char path[256];

	policy_shape_init(&s);
	s.roles = s.users = s.tasks = s.commands = 2;
	s.uid = 4242;
	s.user = "rarperf";
	text = write_please(&s, "small.ini", &eb);
	CHECK(text != NULL);
	if (text != NULL)
		CHECK_STR_EQ(text, want);
	free(text);
	/* Not writable by group or others (please refuses it), readable for `please -c`. */
	snprintf(path, sizeof(path), "%s/small.ini", dir);
	CHECK(stat(path, &st) == 0 && (st.st_mode & 07777) == 0644);
}

/* One user, one command: no group; the first position; a command that needs escapes. */
static void test_first_and_escaped_command(void)
{
	static const char want[] =
	    "# rarperf confgen: roles=1 users=1 tasks=2 commands=1 uid=1000 user=bench.user "
	    "match=first\n"
	    "[R1T1]\n"
	    "name = ^bench\\.user$\n"
	    "target = ^root$\n"
	    "rule = ^/opt/x\\+y/a\\.b$\n"
	    "require_pass = false\n"
	    "[R1T2]\n"
	    "name = ^bench\\.user$\n"
	    "target = ^root$\n"
	    "rule = ^/nonexistent/a\\.b\\.1\\.2\\.1$\n"
	    "require_pass = false\n";
	struct policy_shape s;
	struct errbuf eb = {{0}};
	char *text;

	policy_shape_init(&s);
	s.tasks = 2;
	s.uid = 1000;
	s.user = "bench.user";
	s.command = "/opt/x+y/a.b";
	s.match = POLICY_MATCH_FIRST;
	text = write_please(&s, "first.ini", &eb);
	CHECK(text != NULL);
	if (text != NULL)
		CHECK_STR_EQ(text, want);
	free(text);
}

/* Deny-all: the header only (please denies what no section permits), no name needed. */
static void test_deny_all(void)
{
	struct policy_shape s;
	struct errbuf eb = {{0}};
	char *text;

	policy_shape_init(&s);
	s.tasks = 50;
	s.uid = 4242;
	s.deny_all = true;
	text = write_please(&s, "deny.ini", &eb);
	CHECK(text != NULL);
	if (text != NULL)
		CHECK_STR_EQ(text,
			     "# rarperf confgen: roles=1 users=1 tasks=50 commands=1 uid=4242 "
			     "user=- match=none\n");
	free(text);
}

static void test_refusals(void)
{
	struct policy_shape s;
	struct errbuf eb = {{0}};

	/* No name: please cannot match a uid. */
	policy_shape_init(&s);
	s.uid = 4242;
	CHECK(write_please(&s, "noname.ini", &eb) == NULL);
	CHECK(strstr(eb.msg, "--user") != NULL);
	/* The original generator wrote no please.ini. */
	s.user = "rarperf";
	s.seed_compat = true;
	CHECK(write_please(&s, "seed.ini", &eb) == NULL);
	CHECK(strstr(eb.msg, "seed-compat") != NULL);
	/* Names that are not plain user names: refused where the shape is checked. */
	s.seed_compat = false;
	s.user = "a b";
	CHECK_INT_EQ(policy_shape_validate(&s, &eb), -1);
	CHECK(strstr(eb.msg, "--user: byte 1 (0x20)") != NULL);
	s.user = "-x";
	CHECK_INT_EQ(policy_shape_validate(&s, &eb), -1);
	s.user = "%{USER}";
	CHECK_INT_EQ(policy_shape_validate(&s, &eb), -1);
	s.user = "";
	CHECK_INT_EQ(policy_shape_validate(&s, &eb), -1);
	s.user = "abcdefghijabcdefghijabcdefghijabc"; /* 33 bytes */
	CHECK_INT_EQ(policy_shape_validate(&s, &eb), -1);
	s.user = "abcdefghijabcdefghijabcdefghijab"; /* 32 */
	CHECK_INT_EQ(policy_shape_validate(&s, &eb), 0);
	/* The machine's own policy is never written. */
	s.user = "rarperf";
	{
		struct policy *p = policy_build(&s, &eb);

		CHECK(p != NULL);
		if (p != NULL) {
			CHECK_INT_EQ(testutil_txn_end(policy_stage_please(testutil_txn_fresh(), p,
									  "/etc/please.ini", &eb),
						      &eb),
				     -1);
			CHECK(strstr(eb.msg, "refusing") != NULL);
		}
		policy_free(p);
	}
}

int main(void)
{
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	RUN(test_escape);
	RUN(test_small_policy_text);
	RUN(test_first_and_escaped_command);
	RUN(test_deny_all);
	RUN(test_refusals);
	testutil_rm_dir(dir);
	return HARNESS_EXIT();
}
