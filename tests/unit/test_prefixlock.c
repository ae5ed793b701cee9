/* Tests for prefixlock: one owner at a time, the holder named, a dead holder's lock and record
 * taken over. */
#include <inttypes.h>
#include <limits.h>
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

/* In a child: takes the lock, saves a record, and dies holding both (exit 0 when it did). */
static int record_in_child_and_die(void)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		struct errbuf eb = {{0}};
		struct prefixlock *l = NULL;
		char *stale = NULL;
		cJSON *rec = cJSON_CreateObject();

		cJSON_AddNumberToObject(rec, "pid", (double)getpid());
		if (prefixlock_acquire(dir, "child", false, NULL, &l, &stale, &eb) !=
			PREFIXLOCK_TAKEN ||
		    prefixlock_save_record(l, rec, &eb) != 0)
			_exit(1);
		_exit(0); /* no release: the record and the holder stay */
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static void test_dead_holder_is_taken_over_with_its_record(void)
{
	struct errbuf eb = {{0}};
	struct prefixlock *l = NULL;
	char *stale = NULL, why[ERRBUF_MSG_MAX];
	cJSON *got = NULL;
	enum prefixlock_record_owner owner;

	/* An owner that saved a record and died: this prefix's, this boot's, gone. */
	CHECK_INT_EQ(record_in_child_and_die(), 0);
	CHECK_INT_EQ(prefixlock_acquire(dir, "next", false, NULL, &l, &stale, &eb),
		     PREFIXLOCK_TAKEN);
	CHECK(stale != NULL && strstr(stale, "(child)") != NULL);
	CHECK(stale != NULL && strchr(stale, '\n') == NULL);
	CHECK_INT_EQ(prefixlock_take_record(l, &got, &owner, why, sizeof(why), &eb), 0);
	CHECK_INT_EQ(owner, PREFIXLOCK_RECORD_DEAD);
	CHECK(got != NULL && cJSON_GetObjectItem(got, "pid") != NULL);
	CHECK(got != NULL && cJSON_GetObjectItem(got, "owner") != NULL);
	CHECK_INT_EQ(prefixlock_clear_record(l, &eb), 0);
	cJSON_Delete(got);
	got = NULL;
	CHECK_INT_EQ(prefixlock_take_record(l, &got, &owner, why, sizeof(why), &eb), 0);
	CHECK(got == NULL && owner == PREFIXLOCK_RECORD_NONE);
	prefixlock_release(l);
	free(stale);
}

/* Writes text as PREFIX/run/NAME (0600). */
static void put_run_file(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/run/%s", dir, name);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f == NULL)
		return;
	fputs(text, f);
	fclose(f);
	CHECK_INT_EQ(chmod(path, 0600), 0);
}

/*
 * Issue 45 finding 8: a prefix copied with its run/ (cp -a) holds the
 * original's holder and record, whose pid, cgroup and namespaces live. The
 * copy's next owner takes over nothing and undoes nothing of them; a record
 * of its own prefix whose process lives is not undone either, and an older
 * record (no owner) only when its pid is gone.
 */
static void test_copied_record_is_ignored(void)
{
	struct errbuf eb = {{0}};
	struct prefixlock *l = NULL;
	char *stale = NULL, why[ERRBUF_MSG_MAX], text[2 * PATH_MAX], real[PATH_MAX], boot[64] = "";
	cJSON *got = NULL;
	enum prefixlock_record_owner owner;
	unsigned long long start = 0;
	struct stat st;
	FILE *f;

	CHECK(realpath(dir, real) != NULL && stat(dir, &st) == 0);
	f = fopen("/proc/sys/kernel/random/boot_id", "r");
	if (f != NULL) {
		if (fgets(boot, sizeof(boot), f) != NULL)
			boot[strcspn(boot, "\n")] = '\0';
		fclose(f);
	}
	f = fopen("/proc/self/stat", "r");
	if (f != NULL) {
		char line[1024], *p;
		int i;

		if (fgets(line, sizeof(line), f) != NULL && (p = strrchr(line, ')')) != NULL) {
			for (i = 2; i < 22 && p != NULL; i++)
				p = strchr(p + 1, ' ');
			if (p != NULL)
				start = strtoull(p + 1, NULL, 10);
		}
		fclose(f);
	}
	/* The original's holder and record: the same path, another directory (this process,
	 * alive, plays the original's sweep). */
	snprintf(text, sizeof(text),
		 "pid %ld since 2026-01-01T00:00:00Z (original)\nowner %ju:%ju %s %ld %llu %s\n",
		 (long)getpid(), (uintmax_t)st.st_dev, (uintmax_t)st.st_ino + 1, boot,
		 (long)getpid(), start, real);
	put_run_file("holder", text);
	snprintf(text, sizeof(text),
		 "{\"pid\":%ld,\"cgroup\":\"/sys/fs/cgroup/"
		 "rarperf-sweep-%ld\",\"owner\":{\"prefix\":\"%s\","
		 "\"dev\":%ju,\"ino\":%ju,\"boot_id\":\"%s\",\"pid\":%ld,\"start\":%llu}}",
		 (long)getpid(), (long)getpid(), real, (uintmax_t)st.st_dev,
		 (uintmax_t)st.st_ino + 1, boot, (long)getpid(), start);
	put_run_file("state.json", text);
	CHECK_INT_EQ(prefixlock_acquire(dir, "copy", false, NULL, &l, &stale, &eb),
		     PREFIXLOCK_TAKEN);
	CHECK(stale == NULL); /* no "took over ... from pid N, which is gone" */
	CHECK_INT_EQ(prefixlock_take_record(l, &got, &owner, why, sizeof(why), &eb), 0);
	CHECK_INT_EQ(owner, PREFIXLOCK_RECORD_FOREIGN);
	CHECK(strstr(why, "another prefix") != NULL && strstr(why, "ignored") != NULL);
	cJSON_Delete(got);
	got = NULL;

	/* The same directory and boot, its process alive: not undone either. */
	snprintf(
	    text, sizeof(text),
	    "{\"owner\":{\"prefix\":\"%s\",\"dev\":%ju,\"ino\":%ju,\"boot_id\":\"%s\",\"pid\":%ld,"
	    "\"start\":%llu}}",
	    real, (uintmax_t)st.st_dev, (uintmax_t)st.st_ino, boot, (long)getpid(), start);
	put_run_file("state.json", text);
	CHECK_INT_EQ(prefixlock_take_record(l, &got, &owner, why, sizeof(why), &eb), 0);
	CHECK_INT_EQ(owner, boot[0] != '\0' ? PREFIXLOCK_RECORD_LIVE : PREFIXLOCK_RECORD_OLD_BOOT);
	cJSON_Delete(got);
	got = NULL;
	/* ... the same pid with another start time is a reused pid: its run is gone. */
	snprintf(
	    text, sizeof(text),
	    "{\"owner\":{\"prefix\":\"%s\",\"dev\":%ju,\"ino\":%ju,\"boot_id\":\"%s\",\"pid\":%ld,"
	    "\"start\":%llu}}",
	    real, (uintmax_t)st.st_dev, (uintmax_t)st.st_ino, boot, (long)getpid(), start + 1);
	put_run_file("state.json", text);
	CHECK_INT_EQ(prefixlock_take_record(l, &got, &owner, why, sizeof(why), &eb), 0);
	CHECK_INT_EQ(owner, boot[0] != '\0' ? PREFIXLOCK_RECORD_DEAD : PREFIXLOCK_RECORD_OLD_BOOT);
	cJSON_Delete(got);
	got = NULL;
	/* ... another boot's: its processes ended with it. */
	snprintf(text, sizeof(text),
		 "{\"owner\":{\"prefix\":\"%s\",\"dev\":%ju,\"ino\":%ju,\"boot_id\":\"0-other\","
		 "\"pid\":%ld,"
		 "\"start\":%llu}}",
		 real, (uintmax_t)st.st_dev, (uintmax_t)st.st_ino, (long)getpid(), start);
	put_run_file("state.json", text);
	CHECK_INT_EQ(prefixlock_take_record(l, &got, &owner, why, sizeof(why), &eb), 0);
	CHECK_INT_EQ(owner, PREFIXLOCK_RECORD_OLD_BOOT);
	cJSON_Delete(got);
	got = NULL;
	/* An older rarbench's record (no owner): its live pid keeps it untouched. */
	snprintf(text, sizeof(text), "{\"pid\":%ld}", (long)getpid());
	put_run_file("state.json", text);
	CHECK_INT_EQ(prefixlock_take_record(l, &got, &owner, why, sizeof(why), &eb), 0);
	CHECK_INT_EQ(owner, PREFIXLOCK_RECORD_FOREIGN);
	CHECK(strstr(why, "names no prefix") != NULL);
	cJSON_Delete(got);
	got = NULL;
	CHECK_INT_EQ(prefixlock_clear_record(l, &eb), 0);
	prefixlock_release(l);
	/* A holder of this prefix whose process runs is not reported as taken over either. */
	snprintf(text, sizeof(text),
		 "pid %ld since 2026-01-01T00:00:00Z (alive)\nowner %ju:%ju %s %ld %llu %s\n",
		 (long)getpid(), (uintmax_t)st.st_dev, (uintmax_t)st.st_ino, boot[0] ? boot : "-",
		 (long)getpid(), start, real);
	put_run_file("holder", text);
	CHECK_INT_EQ(prefixlock_acquire(dir, "next", false, NULL, &l, &stale, &eb),
		     PREFIXLOCK_TAKEN);
	CHECK(boot[0] == '\0' || stale == NULL);
	free(stale);
	prefixlock_release(l);
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
	RUN(test_copied_record_is_ignored);
	RUN(test_old_modes_fixed_foreign_refused);
	RUN(test_missing_prefix);
	harness_remove_tree(dir);
	return HARNESS_EXIT();
}
