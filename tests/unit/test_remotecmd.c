/* Tests for remotecmd: quoting, and a stop script that signals only a real pid from its file. */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fileio.h"
#include "harness.h"
#include "remotecmd.h"

static char tmp[64];

static void test_words_are_quoted(void)
{
	char buf[64] = "";

	CHECK_INT_EQ(remotecmd_word(buf, sizeof(buf), "a b"), 0);
	CHECK_INT_EQ(remotecmd_word(buf, sizeof(buf), "it's $(x)"), 0);
	CHECK_STR_EQ(buf, "'a b' 'it'\\''s $(x)'");
	/* too long: -1, buf as it was */
	CHECK_INT_EQ(remotecmd_word(buf, 24, "0123456789"), -1);
	CHECK_STR_EQ(buf, "'a b' 'it'\\''s $(x)'");
	CHECK_INT_EQ(remotecmd_run(buf, sizeof(buf), "/opt/rarperf", "/m.json", "/r"), -1);
}

static void test_run_command(void)
{
	char buf[REMOTECMD_MAX_BYTES];

	CHECK_INT_EQ(remotecmd_run(buf, sizeof(buf), "/opt/rarperf", ".rarlab/r1/h1/q.json",
				   ".rarlab/r1/h1"),
		     0);
	CHECK_STR_EQ(buf,
		     "echo $$ >'.rarlab/r1/h1/rarbench.pid' && exec '/opt/rarperf/bin/rarbench' "
		     "'--manifest' '.rarlab/r1/h1/q.json' '--out' '.rarlab/r1/h1/out' "
		     "'--progress' 'jsonl' '--resume'");
}

/*
 * Runs the stop script for a pid file holding content (NULL: no file), with kill and sleep
 * replaced by shell functions that only log (a function wins over a regular
 * built-in): nothing is ever signalled. Returns what was logged.
 */
static const char *stop_with(const char *content)
{
	static char log[1024];
	char script[REMOTECMD_MAX_BYTES], cmd[REMOTECMD_MAX_BYTES + 512], path[256];
	char *text = NULL;
	struct errbuf eb = {{0}};
	size_t len = 0;
	FILE *f;
	pid_t pid;
	int status;

	log[0] = '\0';
	snprintf(path, sizeof(path), "%s/rarbench.pid", tmp);
	unlink(path);
	if (content != NULL) {
		f = fopen(path, "we");
		if (f == NULL)
			return "cannot write the pid file";
		fputs(content, f);
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/kill.log", tmp);
	unlink(path);
	if (remotecmd_stop(script, sizeof(script), tmp) < 0)
		return "remotecmd_stop failed";
	snprintf(cmd, sizeof(cmd),
		 "kill() { echo \"kill $*\" >>'%s'; return 1; }; sleep() { :; }; %s", path, script);
	pid = fork();
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return "the stop script failed";
	if (fileio_read(path, sizeof(log) - 1, NULL, &text, &len, &eb) == 0) {
		snprintf(log, sizeof(log), "%s", text);
		free(text);
	}
	return log;
}

static void test_stop_signals_only_a_real_pid(void)
{
	static const char *const refused[] = {
	    "-1\n",        "-1",      "0\n",          "1\n",          "",
	    "\n",          "-4242\n", "+4242\n",      "4242 1\n",     "99999999 4242\n",
	    "1 -1\n",      "0042\n",  "42a\n",        "1234567890\n", "4242;reboot\n",
	    "$(reboot)\n", " 4242\n", "4242\n4243\n",
	};

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		const char *log = stop_with(refused[i]);
		CHECK_STR_EQ(log, "");
		if (log[0] != '\0')
			fprintf(stderr, "  pid file '%s'\n", refused[i]);
	}
	CHECK_STR_EQ(stop_with("4242\n"),
		     "kill -INT -- -4242\nkill -0 -- -4242\nkill -KILL -- -4242\n");
	CHECK_STR_EQ(stop_with("2"), "kill -INT -- -2\nkill -0 -- -2\nkill -KILL -- -2\n");
	CHECK_STR_EQ(stop_with("123456789\n"), "kill -INT -- -123456789\nkill -0 -- -123456789\n"
					       "kill -KILL -- -123456789\n");
	/* no pid file: nothing */
	CHECK_STR_EQ(stop_with(NULL), "");
}

int main(void)
{
	snprintf(tmp, sizeof(tmp), "/tmp/rp-test-remotecmd.XXXXXX");
	if (mkdtemp(tmp) == NULL)
		return 1;
	RUN(test_words_are_quoted);
	RUN(test_run_command);
	RUN(test_stop_signals_only_a_real_pid);
	if (harness_remove_tree(tmp) != 0)
		return 1;
	return HARNESS_EXIT();
}
