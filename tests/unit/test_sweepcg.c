/* sweepcg: a sweep's cgroup holds what its process starts (a child, a grandchild that made its
 * own session), kills all of it but the caller, and a dead run's is emptied and removed. Needs
 * root and a cgroup2 mount; reports itself skipped otherwise. */
#include "harness.h"
#include "sweepcg.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* A child that starts a grandchild in a session of its own (out of its process group), then
 * both sleep; returns the child's pid, the grandchild's in *grand. */
static pid_t start_pair(pid_t *grand)
{
	int fds[2];
	pid_t pid;

	*grand = -1;
	if (pipe(fds) != 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		pid_t g = fork();

		if (g == 0) {
			setsid();
			execl("/bin/sleep", "sleep", "60", (char *)NULL);
			_exit(127);
		}
		if (write(fds[1], &g, sizeof(g)) != (ssize_t)sizeof(g))
			_exit(1);
		execl("/bin/sleep", "sleep", "60", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	if (pid > 0 && read(fds[0], grand, sizeof(*grand)) != (ssize_t)sizeof(*grand))
		*grand = -1;
	close(fds[0]);
	return pid;
}

static bool alive(pid_t pid)
{
	char path[64], state = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	f = fopen(path, "r");
	if (f == NULL)
		return false;
	if (fscanf(f, "%*d %*s %c", &state) != 1)
		state = 0;
	fclose(f);
	return state != 0 && state != 'Z';
}

/* Whether pid's cgroup2 path ends with suffix. */
static bool in_cgroup(pid_t pid, const char *suffix)
{
	char path[64], line[PATH_MAX + 8];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/cgroup", (long)pid);
	f = fopen(path, "r");
	if (f == NULL)
		return false;
	while (!found && fgets(line, sizeof(line), f) != NULL) {
		size_t n = strcspn(line, "\n"), k = strlen(suffix);

		line[n] = '\0';
		found = strncmp(line, "0::", 3) == 0 && n >= k && strcmp(line + n - k, suffix) == 0;
	}
	fclose(f);
	return found;
}

static void test_holds_and_kills_all_but_self(void)
{
	struct errbuf eb = {{0}};
	struct sweepcg *cg = sweepcg_create(&eb);
	char path[PATH_MAX];
	pid_t child, grand, nested = -1;
	struct stat st;
	int status;

	CHECK(cg != NULL);
	if (cg == NULL) {
		fprintf(stderr, "  %s\n", eb.msg);
		return;
	}
	snprintf(path, sizeof(path), "%s", sweepcg_path(cg));
	CHECK(strstr(path, "/rarperf-sweep-") != NULL);
	CHECK_INT_EQ(sweepcg_enter(cg, &eb), 0);
	child = start_pair(&grand);
	CHECK(child > 0 && grand > 0);
	CHECK(alive(child) && alive(grand));
	/* One in a child cgroup, as a launcher puts its runs in one of its own. */
	{
		char sub[PATH_MAX + 32];
		FILE *f;

		snprintf(sub, sizeof(sub), "%s/sub", path);
		CHECK_INT_EQ(mkdir(sub, 0755), 0);
		nested = fork();
		if (nested == 0) {
			snprintf(sub, sizeof(sub), "%s/sub/cgroup.procs", path);
			f = fopen(sub, "w");
			if (f == NULL || fputs("0\n", f) < 0 || fclose(f) != 0)
				_exit(1);
			execl("/bin/sleep", "sleep", "60", (char *)NULL);
			_exit(127);
		}
		for (int i = 0; i < 100 && !in_cgroup(nested, "/sub"); i++)
			usleep(10000);
		CHECK(in_cgroup(nested, "/sub"));
	}
	/* Both, the one in a session of its own too; never the caller. */
	CHECK(sweepcg_kill_others(cg) >= 3);
	waitpid(child, &status, 0);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	waitpid(nested, &status, 0);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	for (int i = 0; i < 100 && alive(grand); i++)
		usleep(10000);
	CHECK(!alive(grand));
	sweepcg_free(cg);
	CHECK(stat(path, &st) != 0);
}

/* What a successor does with a dead run's recorded cgroup. */
static void test_leftover_emptied_and_removed(void)
{
	struct errbuf eb = {{0}};
	struct sweepcg *cg = NULL;
	char path[PATH_MAX];
	size_t killed = 0;
	pid_t run, child = -1, grand = -1;
	int fds[2], status;
	struct stat st;

	/* A "run" that makes its cgroup, enters it, starts a pair and dies by SIGKILL. */
	CHECK_INT_EQ(pipe(fds), 0);
	run = fork();
	if (run == 0) {
		struct errbuf ceb = {{0}};
		struct sweepcg *c = sweepcg_create(&ceb);
		pid_t g;

		if (c == NULL || sweepcg_enter(c, &ceb) != 0)
			_exit(1);
		snprintf(path, sizeof(path), "%s", sweepcg_path(c));
		child = start_pair(&g);
		if (write(fds[1], path, sizeof(path)) != (ssize_t)sizeof(path) ||
		    write(fds[1], &g, sizeof(g)) != (ssize_t)sizeof(g))
			_exit(1);
		pause();
		_exit(0);
	}
	close(fds[1]);
	CHECK(read(fds[0], path, sizeof(path)) == (ssize_t)sizeof(path));
	CHECK(read(fds[0], &grand, sizeof(grand)) == (ssize_t)sizeof(grand));
	close(fds[0]);
	kill(run, SIGKILL);
	waitpid(run, &status, 0);
	CHECK(grand > 0 && alive(grand));
	/* Paths not of its form are refused. */
	CHECK(sweepcg_remove_leftover("/sys/fs/cgroup", &killed, &eb) < 0);
	CHECK(sweepcg_remove_leftover("/tmp/rarperf-sweep-1", &killed, &eb) < 0);
	CHECK_INT_EQ(sweepcg_remove_leftover(path, &killed, &eb), 0);
	CHECK(killed >= 2);
	for (int i = 0; i < 100 && alive(grand); i++)
		usleep(10000);
	CHECK(!alive(grand));
	CHECK(stat(path, &st) != 0);
	/* Gone already: nothing to do. */
	CHECK_INT_EQ(sweepcg_remove_leftover(path, &killed, &eb), 0);
	/* A stale cgroup named after this pid (no record named it): emptied and made anew. */
	{
		char mine[PATH_MAX];
		struct sweepcg *again;

		cg = sweepcg_create(&eb);
		CHECK(cg != NULL);
		if (cg != NULL) {
			snprintf(mine, sizeof(mine), "%s", sweepcg_path(cg));
			again =
			    sweepcg_create(&eb); /* the first one left in place, as a crash would */
			CHECK(again != NULL && strcmp(sweepcg_path(again), mine) == 0);
			sweepcg_free(again);
			CHECK(stat(mine, &st) != 0);
			sweepcg_free(cg); /* its directory went with again's: a no-op now */
			cg = NULL;
		}
	}
	(void)child;
}

int main(void)
{
	struct errbuf eb = {{0}};
	struct sweepcg *probe;

	if (geteuid() != 0) {
		printf("ok - sweepcg # SKIP needs root\n");
		return 0;
	}
	probe = sweepcg_create(&eb);
	if (probe == NULL) {
		printf("ok - sweepcg # SKIP no writable cgroup2 (%s)\n", eb.msg);
		return 0;
	}
	sweepcg_free(probe);
	RUN(test_holds_and_kills_all_but_self);
	RUN(test_leftover_emptied_and_removed);
	return HARNESS_EXIT();
}
