/* Tests for tracedrun: real strace runs judged ok, exit_differs or untraceable, and their message.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "tracedrun.h"

#define STRACE "/usr/bin/strace"

static char dir[] = "/tmp/rarperf-test-tracedrun-XXXXXX";
static char trace[600];

/* A file in dir holding text, opened read-write; -1 on failure. */
static int file_with(const char *name, const char *text)
{
	char path[600];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	CHECK(fd >= 0);
	if (fd >= 0)
		CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	return fd;
}

static void test_stderr_line(void)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
	    {"", ""},
	    {"one\ntwo\n", "one"},
	    {"\n\r\nafter blank lines\r\nnext", "after blank lines"},
	    {"no newline at all", "no newline at all"},
	    {"\n\n\n", ""},
	    {"bell\a here\n", "bell\\x07 here"},
	};
	char buf[TRACEDRUN_MESSAGE_MAX + 1], small[6];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int fd = file_with("stderr", cases[i].text);

		tracedrun_stderr_line(fd, buf, sizeof(buf));
		CHECK_STR_EQ(buf, cases[i].want);
		close(fd);
	}
	{
		int fd = file_with("stderr", "a longer line\n");

		tracedrun_stderr_line(fd, small, sizeof(small));
		CHECK_STR_EQ(small, "a lon");
		close(fd);
	}
}

/* Runs argv under tracer with stderr to fd (-1: /dev/null), timeout_ms; into *t. */
static int run(const char *tracer, char *const *argv, int fd, uint32_t timeout_ms,
	       struct tracedrun *t)
{
	struct proc_opts po = {.output = fd >= 0 ? PROC_OUTPUT_STDERR_FD : PROC_OUTPUT_NULL,
			       .output_fd = fd,
			       .stdin_null = true,
			       .timeout_ms = timeout_ms};
	struct errbuf eb = {{0}};
	struct proc_cmd *cmd = straceprof_cmd(tracer, trace, NULL, argv, &po, &eb);
	int rc;

	CHECK(cmd != NULL);
	if (cmd == NULL)
		return -1;
	rc = tracedrun_run(t, cmd, trace, fd, timeout_ms, &eb);
	if (rc < 0)
		fprintf(stderr, "  tracedrun_run: %s\n", eb.msg);
	proc_cmd_free(cmd);
	unlink(trace);
	return rc;
}

/* The JSON tracedrun_json_status and _counts make of t, printed unformatted. */
static char *json_of(struct tracedrun *t)
{
	cJSON *o = cJSON_CreateObject();
	char *s;

	tracedrun_json_status(t, o);
	tracedrun_json_counts(t, o);
	s = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return s;
}

/*
 * Runs argv under tracer (stderr to fd, -1: not kept) and checks the
 * outcome: its status, its message (NULL: not checked) and, when json is
 * not NULL, that its JSON holds json. Returns the traced exit code.
 */
static int expect(const char *tracer, char *const *argv, int fd, uint32_t timeout_ms,
		  enum tracedrun_status status, const char *message, const char *json)
{
	struct tracedrun t = {0};
	char *j = NULL;
	int code;

	CHECK_INT_EQ(run(tracer, argv, fd, timeout_ms, &t), 0);
	CHECK_INT_EQ(t.status, status);
	if (message != NULL)
		CHECK_STR_EQ(t.message, message);
	/* counts only from a trace read whole */
	CHECK(status == TRACEDRUN_UNTRACEABLE || (t.prof.execs >= 1 && t.prof.calls > 0));
	j = json_of(&t);
	CHECK(j != NULL);
	if (j != NULL && json != NULL && strstr(j, json) == NULL) {
		fprintf(stderr, "  JSON %s lacks %s\n", j, json);
		CHECK(0);
	}
	CHECK(j != NULL && (status == TRACEDRUN_UNTRACEABLE) == (strstr(j, "\"calls\"") == NULL));
	code = t.sample.exit_code;
	free(j);
	tracedrun_clear(&t);
	return code;
}

static void test_ok_and_exit_differs(void)
{
	char *ok[] = {"/bin/true", NULL};
	char *differs[] = {"/bin/sh", "-c", "printf '\\nwhy it failed\\r\\nmore\\n' >&2; exit 3",
			   NULL};
	int fd = file_with("stderr", "stale text from an earlier run\n");

	CHECK_INT_EQ(expect(STRACE, ok, fd, 0, TRACEDRUN_OK, "",
			    "{\"status\":\"ok\",\"traced_exit_code\":0,\"calls\":"),
		     0);
	/* The first non-empty line of stderr, its CR dropped. */
	CHECK_INT_EQ(expect(STRACE, differs, fd, 0, TRACEDRUN_EXIT_DIFFERS, "why it failed",
			    "{\"status\":\"exit_differs\",\"message\":\"why it failed\","
			    "\"traced_exit_code\":3,\"calls\":"),
		     3);
	/* Without its stderr kept (plain mode): no message. */
	expect(STRACE, differs, -1, 0, TRACEDRUN_EXIT_DIFFERS, "",
	       "{\"status\":\"exit_differs\",\"traced_exit_code\":3,");
	close(fd);
}

static void test_untraceable(void)
{
	char *missing[] = {"/nonexistent/program", NULL};
	char *slow[] = {"/bin/sleep", "5", NULL};
	char *t[] = {"/bin/true", NULL};
	char junk_tracer[700], mute_tracer[700], want[800];
	int fd = file_with("stderr", ""), sfd;
	struct proc_opts po = {.output = PROC_OUTPUT_NULL};
	struct errbuf eb = {{0}};

	/* A program that is not there: no command at all (rarlaunch --exec gets the checked one).
	 */
	CHECK(straceprof_cmd(STRACE, trace, NULL, missing, &po, &eb) == NULL);
	CHECK(strstr(eb.msg, "/nonexistent/program") != NULL);
	/* A tracer that writes an empty trace and says why on stderr: its first line is the
	 * message. */
	snprintf(mute_tracer, sizeof(mute_tracer), "%s/mute-tracer", dir);
	sfd = file_with("mute-tracer", "#!/bin/sh\n: >\"$4\"\necho 'why: no trace' >&2\nexit 1\n");
	CHECK(sfd >= 0 && fchmod(sfd, 0755) == 0);
	close(sfd);
	expect(mute_tracer, t, fd, 0, TRACEDRUN_UNTRACEABLE, "why: no trace",
	       "{\"status\":\"untraceable\",\"message\":\"why: no trace\"");
	/* Its stderr not kept: the one fixed message. */
	expect(mute_tracer, t, -1, 0, TRACEDRUN_UNTRACEABLE, "strace could not run it", NULL);
	/* Killed at its timeout. */
	expect(STRACE, slow, fd, 1500, TRACEDRUN_UNTRACEABLE,
	       "the traced run passed 1 s and was killed", NULL);
	/* A trace the reader refuses: its error is the message, whatever stderr says. */
	snprintf(junk_tracer, sizeof(junk_tracer), "%s/junk-tracer", dir);
	sfd = file_with("junk-tracer", "#!/bin/sh\necho 'not a trace' >\"$4\"\necho noise >&2\n");
	CHECK(sfd >= 0 && fchmod(sfd, 0755) == 0);
	close(sfd);
	snprintf(want, sizeof(want), "%s: line 1: does not start with a process id", trace);
	expect(junk_tracer, t, fd, 0, TRACEDRUN_UNTRACEABLE, want, NULL);
	close(fd);
}

/* The text of dir/name, NUL-terminated, in buf (len bytes); "" when unreadable. */
static void read_back(const char *name, char *buf, size_t len)
{
	char path[700];
	ssize_t n = -1;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, len - 1);
		close(fd);
	}
	buf[n > 0 ? n : 0] = '\0';
}

/*
 * strace runs in a fixed environment of its own (its PATH and the kept marker), whatever the
 * command gets; the command gets exactly its environment, in its order (issue 45, finding 1:
 * a manifest's LD_PRELOAD reached root's strace). Each side reads its own /proc/PID/environ,
 * the environment its execve got.
 */
static void test_environments(void)
{
	char script[1600], tracer_env[512], tracee_env[512];
	char *envp[] = {"A=1", "LD_PRELOAD=", "PATH=/usr/bin:/bin", "RARPERF_MARK=x", NULL};
	char *argv[] = {"/bin/sh", "-c", script, NULL};
	struct proc_opts po = {.envp = envp, .output = PROC_OUTPUT_NULL, .stdin_null = true};
	struct errbuf eb = {{0}};
	struct proc_cmd *cmd;
	struct tracedrun t = {0};

	snprintf(script, sizeof(script),
		 "tr '\\0' '\\n' </proc/$PPID/environ >%s/tracer-env; "
		 "tr '\\0' '\\n' </proc/$$/environ >%s/tracee-env",
		 dir, dir);
	cmd = straceprof_cmd(STRACE, trace, "RARPERF_MARK=x", argv, &po, &eb);
	CHECK(cmd != NULL);
	if (cmd == NULL)
		return;
	CHECK_INT_EQ(tracedrun_run(&t, cmd, trace, -1, 0, &eb), 0);
	CHECK_INT_EQ(t.status, TRACEDRUN_OK);
	read_back("tracer-env", tracer_env, sizeof(tracer_env));
	read_back("tracee-env", tracee_env, sizeof(tracee_env));
	CHECK_STR_EQ(tracer_env, STRACEPROF_TRACER_PATH "\nRARPERF_MARK=x\n");
	CHECK_STR_EQ(tracee_env, "A=1\nLD_PRELOAD=\nPATH=/usr/bin:/bin\nRARPERF_MARK=x\n");
	tracedrun_clear(&t);
	proc_cmd_free(cmd);
	unlink(trace);
}

/* "Max NAME soft hard bytes", as /proc/PID/limits shows limit res of this process with the soft
 * limit given (squeezed blanks), into buf. */
static void limit_line(char *buf, size_t len, const char *name, int res, const char *soft)
{
	struct rlimit rl;
	char hard[32];

	CHECK_INT_EQ(getrlimit(res, &rl), 0);
	if (rl.rlim_max == RLIM_INFINITY)
		snprintf(hard, sizeof(hard), "unlimited");
	else
		snprintf(hard, sizeof(hard), "%llu", (unsigned long long)rl.rlim_max);
	snprintf(buf, len, "Max %s %s %s bytes\n", name, soft != NULL ? soft : hard, hard);
}

/*
 * The tracer keeps its own limits and working directory, with no core file; the traced program
 * alone gets the pin's limits, umask and cwd (issue 52, finding 5: root's strace took the
 * manifest's "core": "unlimited", "fsize" and "cwd", hit the file size limit writing the
 * trace and dumped a root core file into that directory). Each side reads its own
 * /proc/PID/limits and working directory (strace is the traced program's parent).
 */
static void test_pin_reaches_the_tracee_only(void)
{
	char script[1600], sub[700], tracer_text[1024], tracee_text[1024], want[1024], fsize[96],
	    core[96];
	char *argv[] = {"/bin/sh", "-c", script, NULL};
	struct proc_pin pin = {.nlimits = 2, .umask = 027, .cwd = sub};
	struct proc_opts po = {.output = PROC_OUTPUT_NULL, .stdin_null = true, .pin = &pin};
	struct errbuf eb = {{0}};
	struct proc_cmd *cmd;
	struct tracedrun t = {0};
	struct rlimit rl;

	snprintf(sub, sizeof(sub), "%s/cwd", dir);
	CHECK_INT_EQ(mkdir(sub, 0700), 0);
	pin.limits[0].resource = RLIMIT_FSIZE;
	pin.limits[0].soft = pin.limits[0].hard = 1048576;
	/* The core limit the pin may set (0, here: the same as the tracer's soft one, which a
	 * user cannot raise) */
	CHECK_INT_EQ(getrlimit(RLIMIT_CORE, &rl), 0);
	pin.limits[1].resource = RLIMIT_CORE;
	pin.limits[1].soft = pin.limits[1].hard = 0;
	snprintf(script, sizeof(script),
		 "{ grep -E '^Max (file size|core file size) ' /proc/$PPID/limits; "
		 "readlink /proc/$PPID/cwd; } | tr -s ' ' | sed 's/ $//' >%s/tracer; "
		 "{ grep -E '^Max (file size|core file size) ' /proc/$$/limits; pwd; umask; } | "
		 "tr -s ' ' | sed 's/ $//' >%s/tracee",
		 dir, dir);
	cmd = straceprof_cmd(STRACE, trace, NULL, argv, &po, &eb);
	CHECK(cmd != NULL);
	if (cmd == NULL) {
		fprintf(stderr, "  %s\n", eb.msg);
		return;
	}
	CHECK_INT_EQ(tracedrun_run(&t, cmd, trace, -1, 0, &eb), 0);
	CHECK_INT_EQ(t.status, TRACEDRUN_OK);
	read_back("tracer", tracer_text, sizeof(tracer_text));
	read_back("tracee", tracee_text, sizeof(tracee_text));
	/* the tracer: this process's file size limit, no core file, / */
	limit_line(fsize, sizeof(fsize), "file size", RLIMIT_FSIZE, NULL);
	limit_line(core, sizeof(core), "core file size", RLIMIT_CORE, "0");
	snprintf(want, sizeof(want), "%s%s/\n", fsize, core);
	CHECK_STR_EQ(tracer_text, want);
	/* the traced program: the pin's */
	snprintf(want, sizeof(want),
		 "Max file size 1048576 1048576 bytes\nMax core file size 0 0 bytes\n%s\n0027\n",
		 sub);
	CHECK_STR_EQ(tracee_text, want);
	tracedrun_clear(&t);
	proc_cmd_free(cmd);
	unlink(trace);
}

int main(void)
{
	if (proc_set_launcher("bin/rarlaunch", &(struct errbuf){{0}}) != 0) {
		fprintf(stderr, "bin/rarlaunch missing: make bin/rarlaunch\n");
		return 1;
	}
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(trace, sizeof(trace), "%s/trace", dir);
	RUN(test_stderr_line);
	if (access(STRACE, X_OK) != 0) {
		printf("ok - traced runs # SKIP needs %s\n", STRACE);
	} else {
		RUN(test_ok_and_exit_differs);
		RUN(test_untraceable);
		RUN(test_environments);
		RUN(test_pin_reaches_the_tracee_only);
	}
	harness_remove_tree(dir);
	return HARNESS_EXIT();
}
