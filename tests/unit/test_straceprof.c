/* Tests for straceprof: counts from strace -f -qq traces, resumed calls, failures, and refusals. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "straceprof.h"

/* Lines as strace 6.1 prints them with -f -qq -o FILE (taken from a real trace). */
static const char trace[] =
    "17512 execve(\"/usr/bin/sh\", [\"sh\", \"-c\", \"cat\"...], 0x7ffd367971a0 /* 35 vars */) = "
    "0\n"
    "17512 access(\"/etc/ld.so.preload\", R_OK) = -1 ENOENT (No such file or directory)\n"
    "17512 openat(AT_FDCWD, \"/etc/ld.so.cache\", O_RDONLY|O_CLOEXEC) = 3\n"
    "17512 read(3, \"\\177ELF\\2\\1\\1\\3\\0\\0\\0\\0\\0\"..., 832) = 832\n"
    "17512 close(3)                          = 0\n"
    "17512 vfork( <unfinished ...>\n"
    "17514 execve(\"/usr/bin/cat\", [\"cat\", \"/etc/passwd\"], 0x5599ff438c78 /* 35 vars */ "
    "<unfinished ...>\n"
    "17512 <... vfork resumed>)              = 17514\n"
    "17512 wait4(-1,  <unfinished ...>\n"
    "17514 <... execve resumed>)             = 0\n"
    "17514 openat(AT_FDCWD, \"/etc/passwd\", O_RDONLY) = 3\n"
    "17514 read(3, \"root:x:0:0:root:/root:/bin/bash\\n\"..., 131072) = 1200\n"
    "17514 read(3, \"\", 131072)              = 0\n"
    "17514 write(1, \"a = b) = c\", 10) = 10\n"
    "17514 openat(AT_FDCWD, \"/etc/passwd\", O_RDONLY) = 3\n"
    "17514 openat(AT_FDCWD, \"/nonexist\", O_RDONLY) = -1 ENOENT (No such file or directory)\n"
    "17514 close(3)                          = 0\n"
    "17514 openat(AT_FDCWD, \"/proc/17514/stat\", O_RDONLY) = 3\n"
    "17514 openat(AT_FDCWD, \"/proc/9/stat\", O_RDONLY) = 3\n"
    "17514 openat(AT_FDCWD, \"/dev/pts/12\", O_RDWR) = 3\n"
    "17514 exit_group(0)                     = ?\n"
    "17514 +++ exited with 0 +++\n"
    "17512 <... wait4 resumed>[{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = 17514\n"
    "17512 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=17514} ---\n"
    "17512 fcntl(0, F_GETFL)                 = 0x8000 (flags O_RDONLY|O_LARGEFILE)\n";

static const struct straceprof_path *path_of(const struct straceprof *p, const char *s, bool exec)
{
	for (size_t i = 0; i < p->npaths; i++)
		if (p->paths[i].exec == exec && strcmp(p->paths[i].path, s) == 0)
			return &p->paths[i];
	return NULL;
}

static void test_counts(void)
{
	struct straceprof p;
	struct errbuf eb = {{0}};
	const struct straceprof_path *pp;

	straceprof_init(&p);
	CHECK_INT_EQ(straceprof_parse(&p, trace, strlen(trace), &eb), 0);
	CHECK_STR_EQ(eb.msg, "");
	CHECK_INT_EQ(straceprof_find(&p, "read")->calls, 3);
	CHECK_INT_EQ(straceprof_find(&p, "openat")->calls, 7);
	CHECK_INT_EQ(straceprof_find(&p, "openat")->failed, 1);
	CHECK_INT_EQ(straceprof_find(&p, "access")->failed, 1);
	CHECK_INT_EQ(straceprof_find(&p, "close")->calls, 2);
	CHECK_INT_EQ(straceprof_find(&p, "vfork")->calls, 1);
	CHECK_INT_EQ(straceprof_find(&p, "wait4")->calls, 1);
	CHECK_INT_EQ(straceprof_find(&p, "exit_group")->calls, 1);
	CHECK(straceprof_find(&p, "SIGCHLD") == NULL);
	CHECK_INT_EQ(p.bytes_read, 832 + 1200);
	/* A " = " inside a quoted string is not the return value. */
	CHECK_INT_EQ(p.bytes_written, 10);
	CHECK_INT_EQ(p.execs, 2);
	CHECK_INT_EQ(p.processes, 2);
	CHECK_INT_EQ(p.calls, 20);
	CHECK(path_of(&p, "/dev/pts/N", false) != NULL);
	/* A process's own /proc entries under one name, whatever its pid. */
	pp = path_of(&p, "/proc/PID/stat", false);
	CHECK(pp != NULL && pp->count == 2);
	CHECK_INT_EQ(p.failed, 2);
	pp = path_of(&p, "/etc/passwd", false);
	CHECK(pp != NULL && pp->count == 2 && pp->failed == 0);
	pp = path_of(&p, "/nonexist", false);
	CHECK(pp != NULL && pp->count == 1 && pp->failed == 1);
	/* The resumed execve keeps the path its unfinished line showed. */
	pp = path_of(&p, "/usr/bin/cat", true);
	CHECK(pp != NULL && pp->count == 1);
	CHECK(path_of(&p, "/usr/bin/sh", true) != NULL);
	straceprof_clear(&p);
	straceprof_clear(&p); /* cleared twice: a no-op */
}

/* Each refused with the line's number. */
static void test_refusals(void)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
	    {"read(3, \"\", 1) = 0\n", "line 1: does not start with a process id"},
	    {"12 close(3) = 0\n0 close(3) = 0\n", "line 2: does not start with a process id"},
	    {"12 close(3)\n", "line 1: no return value"},
	    {"12 close(3) = banana\n", "line 1: no return value"},
	    {"12 Close(3) = 0\n", "line 1: not a system call name"},
	    {"12 nothing here\n", "line 1: not a system call"},
	    {"12 <... read resumed>) = 1\n12 <... read resumed\n", "line 2: bad resumed call"},
	    {"12 read(3, <unfinished ...>\n12 <... close resumed>) = 0\n",
	     "line 2: close resumed while read was pending"},
	    {"12 read(3, <unfinished ...>\n12 close(3 <unfinished ...>\n",
	     "line 2: two unfinished calls of process 12"},
	    {"12 openat(AT_FDCWD, \"/etc/pa\x01sswd\", O_RDONLY) = 3\n", "line 1: bad path"},
	    {"99999999999 close(3) = 0\n", "line 1: does not start with a process id"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct straceprof p;
		struct errbuf eb = {{0}};

		straceprof_init(&p);
		CHECK_INT_EQ(straceprof_parse(&p, bad[i].text, strlen(bad[i].text), &eb), -1);
		CHECK_STR_EQ(eb.msg, bad[i].msg);
		straceprof_clear(&p);
	}
}

/* Distinct paths past the bound: an error, not a crash or a silent drop. */
static void test_bounds(void)
{
	struct straceprof p;
	struct errbuf eb = {{0}};
	char line[128];
	int rc = 0;

	straceprof_init(&p);
	for (int i = 0; i <= STRACEPROF_PATHS_MAX && rc == 0; i++) {
		int n =
		    snprintf(line, sizeof(line), "7 openat(AT_FDCWD, \"/f%d\", O_RDONLY) = 3", i);
		rc = straceprof_line(&p, line, (size_t)n, (uint64_t)i + 1, &eb);
	}
	CHECK_INT_EQ(rc, -1);
	CHECK(strstr(eb.msg, "distinct paths") != NULL);
	CHECK_INT_EQ(p.npaths, STRACEPROF_PATHS_MAX);
	straceprof_clear(&p);
}

/* A real trace of a real program, read from its file. */
static void test_real_trace(void)
{
	char path[] = "/tmp/test_straceprof.XXXXXX";
	struct straceprof p;
	struct errbuf eb = {{0}};
	char cmd[256];
	int fd = mkstemp(path);

	if (fd < 0 || system("command -v strace >/dev/null 2>&1") != 0) {
		printf("# skip: strace is not installed\n");
		if (fd >= 0) {
			close(fd);
			unlink(path);
		}
		return;
	}
	close(fd);
	snprintf(cmd, sizeof(cmd),
		 "strace -f -qq -o %s sh -c 'head -c 100 /etc/passwd >/dev/null; true' "
		 ">/dev/null 2>&1",
		 path);
	if (system(cmd) != 0) {
		printf("# skip: strace cannot trace here (ptrace forbidden?)\n");
		unlink(path);
		return;
	}
	straceprof_init(&p);
	CHECK_INT_EQ(straceprof_read_file(&p, path, &eb), 0);
	CHECK_STR_EQ(eb.msg, "");
	CHECK(p.execs >= 2);
	CHECK(p.processes >= 2);
	CHECK(path_of(&p, "/etc/passwd", false) != NULL);
	straceprof_clear(&p);
	unlink(path);
}

/*
 * A straceprof_cmd trace begins with rarlaunch --exec's own calls (its execve, its pin, its
 * identity switch): left out with straceprof_skip_launcher, so that the counts are the
 * program's alone, the same as the trace of the program started by strace itself.
 */
static void test_skip_launcher(void)
{
	static const char launcher[] =
	    "17512 execve(\"/opt/x/bin/rarlaunch\", [\"rarlaunch\", \"--exec\", \"4c52\"...], "
	    "0x7ffd /* 2 vars */) = 0\n"
	    "17512 prlimit64(0, RLIMIT_FSIZE, {rlim_cur=1024*1024, rlim_max=1024*1024}, NULL) = 0\n"
	    "17512 chdir(\"/tmp\")                     = 0\n"
	    "17512 openat(AT_FDCWD, \"/should/not/count\", O_RDONLY) = 3\n"
	    "17512 execve(\"/nonexistent\", [\"x\"], 0x1 /* 1 var */) = -1 ENOENT (No such file or "
	    "directory)\n"
	    "17512 setresuid(4242, 4242, 4242)       = 0\n";
	struct straceprof plain, skipped;
	struct errbuf eb = {{0}};
	char *both = malloc(sizeof(launcher) + sizeof(trace));

	CHECK(both != NULL);
	if (both == NULL)
		return;
	snprintf(both, sizeof(launcher) + sizeof(trace), "%s%s", launcher, trace);
	straceprof_init(&plain);
	straceprof_init(&skipped);
	straceprof_skip_launcher(&skipped);
	CHECK_INT_EQ(straceprof_parse(&plain, trace, strlen(trace), &eb), 0);
	CHECK_INT_EQ(straceprof_parse(&skipped, both, strlen(both), &eb), 0);
	CHECK_STR_EQ(eb.msg, "");
	CHECK_INT_EQ(skipped.calls, plain.calls);
	CHECK_INT_EQ(skipped.execs, plain.execs);
	CHECK_INT_EQ(skipped.processes, plain.processes);
	CHECK_INT_EQ(skipped.npaths, plain.npaths);
	CHECK(straceprof_find(&skipped, "chdir") == NULL &&
	      straceprof_find(&skipped, "prlimit64") == NULL);
	CHECK(path_of(&skipped, "/should/not/count", false) == NULL);
	CHECK(path_of(&skipped, "/opt/x/bin/rarlaunch", true) == NULL);
	CHECK(path_of(&skipped, "/usr/bin/sh", true) != NULL);
	/* Without the program's execve (rarlaunch failed): nothing counted. */
	straceprof_clear(&skipped);
	straceprof_init(&skipped);
	straceprof_skip_launcher(&skipped);
	CHECK_INT_EQ(straceprof_parse(&skipped, launcher, strlen(launcher), &eb), 0);
	CHECK_INT_EQ(skipped.calls, 0);
	CHECK_INT_EQ(skipped.execs, 0);
	straceprof_clear(&plain);
	straceprof_clear(&skipped);
	free(both);
}

int main(void)
{
	RUN(test_counts);
	RUN(test_skip_launcher);
	RUN(test_refusals);
	RUN(test_bounds);
	RUN(test_real_trace);
	return HARNESS_EXIT();
}
