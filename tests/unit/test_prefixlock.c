/* Tests for prefixlock: one owner at a time, the holder named, a dead holder's lock and record
 * taken over. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "prefixlock.h"

static char dir[] = "/tmp/rarperf-test-prefixlock-XXXXXX";

/* In a child: takes the lock and reports the outcome as its exit status (0 taken, 3 busy). */
static int lock_in_child(bool hold_and_die)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		struct errbuf eb = {{0}};
		struct prefixlock *l = NULL;
		char *stale = NULL;
		enum prefixlock_outcome rc =
		    prefixlock_acquire(dir, "child", false, NULL, &l, &stale, &eb);

		/* Dies holding it: no release, the holder file stays, the kernel drops the flock.
		 */
		if (hold_and_die)
			_exit(rc == PREFIXLOCK_TAKEN ? 0 : 1);
		if (rc == PREFIXLOCK_BUSY && strstr(eb.msg, "in use by pid") != NULL &&
		    strstr(eb.msg, "(parent)") != NULL)
			_exit(3);
		_exit(rc == PREFIXLOCK_TAKEN ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static void test_one_owner_at_a_time(void)
{
	struct errbuf eb = {{0}};
	struct prefixlock *l = NULL;
	char *stale = NULL;

	CHECK_INT_EQ(prefixlock_acquire(dir, "parent", false, NULL, &l, &stale, &eb),
		     PREFIXLOCK_TAKEN);
	CHECK(stale == NULL);
	/* A second would-be owner is told who holds it (flock is per open file, so a child
	 * opening the lock file itself competes like another process). */
	CHECK_INT_EQ(lock_in_child(false), 3);
	prefixlock_release(l);
	CHECK_INT_EQ(lock_in_child(false), 0);
}

static void test_dead_holder_is_taken_over_with_its_record(void)
{
	struct errbuf eb = {{0}};
	struct prefixlock *l = NULL;
	char *stale = NULL;
	cJSON *rec = cJSON_CreateObject(), *got = NULL;

	/* An owner that saved a record and died. (The child of the test before died holding it
	 * too: its description comes back here.) */
	CHECK_INT_EQ(prefixlock_acquire(dir, "first", false, NULL, &l, &stale, &eb),
		     PREFIXLOCK_TAKEN);
	free(stale);
	stale = NULL;
	cJSON_AddNumberToObject(rec, "pid", 1);
	CHECK_INT_EQ(prefixlock_save_record(l, rec, &eb), 0);
	prefixlock_release(l); /* the record stays: it was not cleared */
	CHECK_INT_EQ(lock_in_child(true), 0);
	CHECK_INT_EQ(prefixlock_acquire(dir, "next", false, NULL, &l, &stale, &eb),
		     PREFIXLOCK_TAKEN);
	CHECK(stale != NULL && strstr(stale, "(child)") != NULL);
	CHECK_INT_EQ(prefixlock_take_record(l, &got, &eb), 0);
	CHECK(got != NULL && cJSON_GetObjectItem(got, "pid") != NULL);
	CHECK_INT_EQ(prefixlock_clear_record(l, &eb), 0);
	cJSON_Delete(got);
	got = NULL;
	CHECK_INT_EQ(prefixlock_take_record(l, &got, &eb), 0);
	CHECK(got == NULL);
	prefixlock_release(l);
	free(stale);
	cJSON_Delete(rec);
}

/* A prefix made before run/ was root's alone: modes fixed at acquire; another user's refused. */
static void test_old_modes_fixed_foreign_refused(void)
{
	char run[256], lockf[256], holder[256];
	struct errbuf eb = {{0}};
	struct prefixlock *l = NULL;
	char *stale = NULL;
	struct stat st;
	FILE *f;

	snprintf(run, sizeof(run), "%s/run", dir);
	snprintf(lockf, sizeof(lockf), "%s/run/lock", dir);
	snprintf(holder, sizeof(holder), "%s/run/holder", dir);
	CHECK_INT_EQ(chmod(run, 0755), 0);
	CHECK_INT_EQ(chmod(lockf, 0644), 0);
	f = fopen(holder, "w");
	CHECK(f != NULL);
	if (f != NULL)
		fclose(f);
	CHECK_INT_EQ(chmod(holder, 0644), 0);
	CHECK_INT_EQ(prefixlock_acquire(dir, "fix", false, NULL, &l, &stale, &eb),
		     PREFIXLOCK_TAKEN);
	CHECK(stat(run, &st) == 0 && (st.st_mode & 07777) == 0700);
	CHECK(stat(lockf, &st) == 0 && (st.st_mode & 07777) == 0600);
	CHECK(stat(holder, &st) == 0 && (st.st_mode & 07777) == 0600);
	prefixlock_release(l);
	free(stale);
	stale = NULL;
	if (geteuid() != 0)
		return; /* giving the directory away needs root */
	CHECK_INT_EQ(chown(run, 65534, 65534), 0);
	CHECK_INT_EQ(prefixlock_acquire(dir, "foreign", false, NULL, &l, &stale, &eb),
		     PREFIXLOCK_FAILED);
	CHECK(l == NULL && strstr(eb.msg, "not root") != NULL);
	CHECK_INT_EQ(chown(run, 0, 0), 0);
	CHECK_INT_EQ(chown(lockf, 65534, 65534), 0);
	CHECK_INT_EQ(prefixlock_acquire(dir, "foreign", false, NULL, &l, &stale, &eb),
		     PREFIXLOCK_FAILED);
	CHECK(l == NULL && strstr(eb.msg, "lock") != NULL);
	CHECK_INT_EQ(chown(lockf, 0, 0), 0);
}

static void test_missing_prefix(void)
{
	struct errbuf eb = {{0}};
	struct prefixlock *l = NULL;
	char *stale = NULL;

	CHECK_INT_EQ(prefixlock_acquire("/nonexistent/rarperf", "x", false, NULL, &l, &stale, &eb),
		     PREFIXLOCK_FAILED);
	CHECK(l == NULL);
	CHECK(strstr(eb.msg, "/nonexistent/rarperf") != NULL);
}

int main(void)
{
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	RUN(test_one_owner_at_a_time);
	RUN(test_dead_holder_is_taken_over_with_its_record);
	RUN(test_old_modes_fixed_foreign_refused);
	RUN(test_missing_prefix);
	harness_remove_tree(dir);
	return HARNESS_EXIT();
}
