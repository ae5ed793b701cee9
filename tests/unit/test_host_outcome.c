/* Tests for host_outcome: the outcome names and the end a job returns. */
#include <string.h>

#include "harness.h"
#include "host_outcome.h"

static void test_names(void)
{
	static const char *const want[] = {"ok",      "connect", "hostkey",     "auth",   "exec",
					   "timeout", "exit=7",  "interrupted", "results"};
	char buf[16];

	for (int o = HOST_OK; o <= HOST_RESULTS; o++)
		CHECK_STR_EQ(host_outcome_name((enum host_outcome)o, 7, buf, sizeof(buf)), want[o]);
	CHECK_STR_EQ(host_outcome_name((enum host_outcome)42, 0, buf, sizeof(buf)), "?");
	CHECK_STR_EQ(host_outcome_name(HOST_EXIT, -1, buf, sizeof(buf)), "exit=-1");
}

static void test_end_set(void)
{
	struct host_end end = {HOST_EXIT, 3, {"before"}};

	CHECK_INT_EQ(host_end_set(&end, HOST_TIMEOUT, "no output for %d s", 5), -1);
	CHECK_INT_EQ(end.outcome, HOST_TIMEOUT);
	CHECK_INT_EQ(end.exit_code, 0);
	CHECK_STR_EQ(end.eb.msg, "no output for 5 s");
	/* NULL: the message a callee already wrote stays */
	end.exit_code = 9;
	CHECK_INT_EQ(host_end_set(&end, HOST_AUTH, NULL), -1);
	CHECK_INT_EQ(end.outcome, HOST_AUTH);
	CHECK_INT_EQ(end.exit_code, 0);
	CHECK_STR_EQ(end.eb.msg, "no output for 5 s");
	/* a long message is cut to the errbuf, NUL-terminated */
	char long_msg[2 * ERRBUF_MSG_MAX];
	memset(long_msg, 'x', sizeof(long_msg) - 1);
	long_msg[sizeof(long_msg) - 1] = '\0';
	host_end_set(&end, HOST_EXEC, "%s", long_msg);
	CHECK_INT_EQ((long)strlen(end.eb.msg), ERRBUF_MSG_MAX - 1);
}

int main(void)
{
	RUN(test_names);
	RUN(test_end_set);
	return HARNESS_EXIT();
}
