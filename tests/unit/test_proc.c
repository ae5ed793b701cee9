/* Tests for proc: spawning real programs, exit codes, signal deaths, PATH lookup, output and users.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"
#include "proc.h"

static struct proc_cmd *mk(char *const *argv, struct errbuf *eb)
{
	struct proc_opts o = {0};

	o.stdin_null = true;
	return proc_cmd_new(argv, &o, eb);
}

static void test_true(void)
{
	char *argv[] = {"true", NULL};
	struct errbuf eb = {{0}};
	struct proc_cmd *c = mk(argv, &eb);
	struct proc_sample s;

	CHECK(c != NULL);
	if (c == NULL)
		return;
	for (int i = 0; i < 3; i++) {
		CHECK_INT_EQ(proc_run(c, &s, &eb), 0);
		CHECK_INT_EQ(s.exit_code, 0);
		CHECK(s.wall_ns > 0);
		CHECK(s.wall_ns < 5000000000ULL);
	}
	CHECK_STR_EQ(proc_cmd_argv(c)[0], "true");
	proc_cmd_free(c);
}

static void test_exit_code(void)
{
	char *argv[] = {"sh", "-c", "exit 3", NULL};
	struct errbuf eb = {{0}};
	struct proc_cmd *c = mk(argv, &eb);
	struct proc_sample s;

	CHECK(c != NULL && proc_run(c, &s, &eb) == 0);
	if (c != NULL)
		CHECK_INT_EQ(s.exit_code, 3);
	proc_cmd_free(c);
}

static void test_signal_death(void)
{
	char *argv[] = {"sh", "-c", "kill -TERM $$", NULL};
	struct errbuf eb = {{0}};
	struct proc_cmd *c = mk(argv, &eb);
	struct proc_sample s;

	CHECK(c != NULL && proc_run(c, &s, &eb) == 0);
	if (c != NULL)
		CHECK_INT_EQ(s.exit_code, 128 + SIGTERM);
	proc_cmd_free(c);
}

static void test_sleep_wall_time(void)
{
	char *argv[] = {"sleep", "0.05", NULL};
	struct errbuf eb = {{0}};
	struct proc_cmd *c = mk(argv, &eb);
	struct proc_sample s;

	CHECK(c != NULL && proc_run(c, &s, &eb) == 0);
	/* Loose bounds: a loaded machine can only make it slower. */
	if (c != NULL) {
		CHECK(s.wall_ns >= 50000000ULL);
		CHECK(s.wall_ns < 2000000000ULL);
		CHECK(s.user_ns < s.wall_ns);
	}
	proc_cmd_free(c);
}

static void test_cpu_time_is_the_childs(void)
{
	char *argv[] = {"sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done", NULL};
	struct errbuf eb = {{0}};
	struct proc_cmd *c = mk(argv, &eb);
	struct proc_sample s;

	CHECK(c != NULL && proc_run(c, &s, &eb) == 0);
	if (c != NULL) {
		CHECK(s.user_ns + s.system_ns > 0);
		CHECK(s.user_ns + s.system_ns <= s.wall_ns + 10000000ULL);
	}
	proc_cmd_free(c);
}

static void test_missing_program(void)
{
	char *argv[] = {"rarperf-no-such-program", NULL};
	char *argv2[] = {"/nonexistent/prog", NULL};
	char *empty[] = {NULL};
	struct errbuf eb = {{0}};

	CHECK(mk(argv, &eb) == NULL);
	CHECK(strstr(eb.msg, "cannot find program 'rarperf-no-such-program'") != NULL);
	CHECK(mk(argv2, &eb) == NULL);
	CHECK(strstr(eb.msg, "/nonexistent/prog") != NULL);
	CHECK(mk(empty, &eb) == NULL);
	proc_cmd_free(NULL);
}

static void test_output_to_fd(void)
{
	char path[] = "/tmp/rarperf-test-proc-XXXXXX";
	char *argv[] = {"sh", "-c", "echo hello; echo err >&2", NULL};
	int fd = mkstemp(path);
	struct proc_opts o = {0};
	struct errbuf eb = {{0}};
	struct proc_cmd *c;
	struct proc_sample s;
	char buf[32] = {0};

	CHECK(fd >= 0);
	o.output = PROC_OUTPUT_FD;
	o.output_fd = fd;
	c = proc_cmd_new(argv, &o, &eb);
	CHECK(c != NULL && proc_run(c, &s, &eb) == 0);
	proc_cmd_free(c);
	CHECK(pread(fd, buf, sizeof(buf) - 1, 0) == 6);
	CHECK_STR_EQ(buf, "hello\n"); /* stderr went to /dev/null, like hyperfine --output=FILE */
	close(fd);
	unlink(path);
}

static void test_env_is_passed(void)
{
	char *argv[] = {"sh", "-c", "[ \"$RARPERF_T\" = yes ] && [ -z \"$HOME\" ]", NULL};
	char *envp[] = {"RARPERF_T=yes", "PATH=/usr/bin:/bin", NULL};
	struct proc_opts o = {0};
	struct errbuf eb = {{0}};
	struct proc_cmd *c;
	struct proc_sample s;

	o.envp = envp;
	c = proc_cmd_new(argv, &o, &eb);
	CHECK(c != NULL && proc_run(c, &s, &eb) == 0);
	if (c != NULL)
		CHECK_INT_EQ(s.exit_code, 0);
	proc_cmd_free(c);
}

static void test_user_lookup_and_env(void)
{
	struct proc_user u;
	struct errbuf eb = {{0}};
	char **env;

	CHECK_INT_EQ(proc_user_lookup("root", &u, &eb), 0);
	CHECK_INT_EQ(u.uid, 0);
	CHECK(u.n_groups >= 1);
	env = proc_env_for_user(&u, &eb);
	CHECK(env != NULL);
	if (env != NULL) {
		CHECK_STR_EQ(env[0], "PATH=/usr/local/bin:/usr/bin:/bin");
		CHECK_STR_EQ(env[2], "USER=root");
		CHECK_STR_EQ(env[5], "LANG=C");
	}
	proc_env_free(env);
	proc_user_clear(&u);
	CHECK_INT_EQ(proc_user_lookup("0", &u, &eb), 0);
	CHECK_STR_EQ(u.name, "root");
	proc_user_clear(&u);
	CHECK_INT_EQ(proc_user_lookup("rarperf-no-such-user", &u, &eb), -1);
	CHECK(strstr(eb.msg, "no such user") != NULL);
	proc_user_clear(NULL);
}

static void test_as_user_nobody(void)
{
	/* Runs as nobody (exists on Debian) and checks the uid from inside; only root may. */
	struct proc_user u;
	struct proc_opts o = {0};
	struct errbuf eb = {{0}};
	struct proc_cmd *c;
	struct proc_sample s;
	char uid[16];

	CHECK_INT_EQ(proc_user_lookup("nobody", &u, &eb), 0);
	snprintf(uid, sizeof(uid), "%u", (unsigned)u.uid);
	{
		char *argv[] = {"sh", "-c", "[ \"$(id -u)\" = \"$0\" ] && [ \"$USER\" = nobody ]",
				uid, NULL};

		o.as = &u;
		c = proc_cmd_new(argv, &o, &eb);
	}
	if (geteuid() != 0) {
		CHECK(c == NULL);
		CHECK(strstr(eb.msg, "needs root") != NULL);
	} else {
		char **env = proc_env_for_user(&u, &eb);
		struct proc_cmd *c2;
		char *argv[] = {"sh", "-c", "[ \"$(id -u)\" = \"$0\" ] && [ \"$USER\" = nobody ]",
				uid, NULL};

		o.envp = env;
		c2 = proc_cmd_new(argv, &o, &eb);
		CHECK(c2 != NULL && proc_run(c2, &s, &eb) == 0);
		if (c2 != NULL)
			CHECK_INT_EQ(s.exit_code, 0);
		proc_cmd_free(c2);
		proc_env_free(env);
	}
	proc_cmd_free(c);
	proc_user_clear(&u);
}

int main(void)
{
	RUN(test_true);
	RUN(test_exit_code);
	RUN(test_signal_death);
	RUN(test_sleep_wall_time);
	RUN(test_cpu_time_is_the_childs);
	RUN(test_missing_program);
	RUN(test_output_to_fd);
	RUN(test_env_is_passed);
	RUN(test_user_lookup_and_env);
	RUN(test_as_user_nobody);
	return HARNESS_EXIT();
}
