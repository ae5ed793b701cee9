/* test_countrun: the counted run's command and its files read back (src/bench/countrun.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "countrun.h"
#include "harness.h"

/* A callgrind file's header as valgrind 3.19 writes it (the body is never read). */
static const char *header(char *buf, size_t len, unsigned pid, const char *cmd, unsigned part,
			  unsigned long long start, unsigned long long stop, const char *trigger,
			  unsigned long long ir)
{
	snprintf(buf, len,
		 "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: %u\ncmd:  %s\n"
		 "part: %u\n\n\ndesc: I1 cache: \ndesc: D1 cache: \ndesc: LL cache: \n\n"
		 "desc: Timerange: Basic block %llu - %llu\ndesc: Trigger: %s\n\n"
		 "positions: line\nevents: Ir\nsummary: %llu\n\n\nob=(1) /lib/ld.so\n",
		 pid, cmd, part, start, stop, trigger, ir);
	return buf;
}

static int add(struct countrun *c, unsigned pid, const char *cmd, unsigned part,
	       unsigned long long start, unsigned long long stop, const char *trigger,
	       unsigned long long ir)
{
	char buf[1024];
	struct errbuf eb = {{0}};
	int rc;

	header(buf, sizeof(buf), pid, cmd, part, start, stop, trigger, ir);
	rc = countrun_parse_callgrind(c, buf, strlen(buf), "cg", &eb);
	if (rc != 0)
		fprintf(stderr, "  %s\n", eb.msg);
	return rc;
}

static int add_log(struct countrun *c, unsigned pid, unsigned ppid)
{
	char buf[512];
	struct errbuf eb = {{0}};

	snprintf(buf, sizeof(buf),
		 "==%u== Callgrind, a call-graph generating cache profiler\n==%u== Command: x\n"
		 "==%u== Parent PID: %u\n==%u== \n",
		 pid, pid, pid, ppid, pid);
	return countrun_parse_log(c, buf, strlen(buf), "vg", &eb);
}

/* sudo as the counted run sees it: the parent dumps before fork, the child before execve. */
static void test_fork_and_exec(void)
{
	struct countrun *c = calloc(1, sizeof(*c));
	struct errbuf eb = {{0}};
	cJSON *o = cJSON_CreateObject(), *procs;

	CHECK_INT_EQ(add(c, 100, "/opt/rarperf/bin/sudo -n /usr/bin/true", 1, 0, 5000,
			 "--dump-before=fork", 2000000),
		     0);
	CHECK_INT_EQ(add(c, 100, "/opt/rarperf/bin/sudo -n /usr/bin/true", 2, 5000, 6000,
			 "Program termination", 300000),
		     0);
	CHECK_INT_EQ(add(c, 101, "/opt/rarperf/bin/sudo -n /usr/bin/true", 1, 5000, 5200,
			 "--dump-before=execve", 180000),
		     0);
	CHECK_INT_EQ(add_log(c, 100, 42), 0);
	CHECK_INT_EQ(add_log(c, 101, 100), 0);
	CHECK_INT_EQ(countrun_finish(c, &eb), 0);
	CHECK_INT_EQ(c->instructions, 2480000);
	CHECK_INT_EQ(c->nprocs, 2);
	CHECK_STR_EQ(c->procs[0].name, "sudo");
	CHECK_INT_EQ(c->procs[0].instructions, 2300000);
	CHECK(!c->procs[0].execs);
	CHECK_STR_EQ(c->procs[1].name, "sudo.child1");
	CHECK_INT_EQ(c->procs[1].instructions, 180000);
	CHECK(c->procs[1].execs);
	CHECK_STR_EQ(c->version, "callgrind-3.19.0");
	countrun_json(c, o);
	procs = cJSON_GetObjectItem(o, "processes");
	CHECK_INT_EQ(cJSON_GetArraySize(procs), 2);
	CHECK_INT_EQ(cJSON_GetObjectItem(o, "instructions")->valuedouble, 2480000);
	cJSON_Delete(o);
	free(c);
}

/* A child that did not start at a dump of its parent would count its parent's work twice. */
static void test_untied_child_refused(void)
{
	struct countrun *c = calloc(1, sizeof(*c));
	struct errbuf eb = {{0}};

	CHECK_INT_EQ(add(c, 200, "/x/dosr a", 1, 0, 9000, "Program termination", 900), 0);
	CHECK_INT_EQ(add(c, 201, "/x/dosr a", 1, 4000, 4100, "--dump-before=execve", 50), 0);
	CHECK_INT_EQ(add_log(c, 200, 1), 0);
	CHECK_INT_EQ(add_log(c, 201, 200), 0);
	CHECK_INT_EQ(countrun_finish(c, &eb), -1);
	CHECK(strstr(eb.msg, "not started right after a dump of its parent") != NULL);
	/* A process whose last part is not at an exec, exit() or its end lost the rest. */
	memset(c, 0, sizeof(*c));
	CHECK_INT_EQ(add(c, 400, "/x/dosr-4.0.3-cbor a", 1, 0, 90, "--dump-before=(below main)", 5),
		     0);
	CHECK_INT_EQ(countrun_finish(c, &eb), -1);
	CHECK(strstr(eb.msg, "stops at a dump before it ended") != NULL);
	memset(c, 0, sizeof(*c));
	CHECK_INT_EQ(add(c, 400, "/x/dosr-cbor a", 1, 0, 90, "--dump-before=exit", 5), 0);
	CHECK_INT_EQ(countrun_finish(c, &eb), 0);
	free(c);
}

/*
 * RootAsRole 4.x's monitor polls for the command (waitpid with WNOHANG in a loop): the parts
 * from one wait to the next are its turns, counted apart; the part up to the first wait and
 * the one after the last are its work, the same in every run.
 */
static void test_wait_loop_counted_apart(void)
{
	struct countrun *c = calloc(1, sizeof(*c));
	struct errbuf eb = {{0}};
	const char *cmd = "/x/dosr-4.0.3-cbor /usr/bin/true";
	cJSON *o = cJSON_CreateObject();

	CHECK_INT_EQ(add(c, 500, cmd, 1, 0, 100, "--dump-before=fork", 1000000), 0);
	CHECK_INT_EQ(add(c, 500, cmd, 2, 100, 110, "--dump-before=waitpid", 300), 0);
	CHECK_INT_EQ(add(c, 500, cmd, 3, 110, 120, "--dump-before=waitpid", 40), 0);
	CHECK_INT_EQ(add(c, 500, cmd, 4, 120, 130, "--dump-before=wait4", 40), 0);
	CHECK_INT_EQ(add(c, 500, cmd, 5, 130, 200, "--dump-before=exit", 200000), 0);
	CHECK_INT_EQ(add(c, 500, cmd, 6, 200, 210, "Program termination", 5000), 0);
	CHECK_INT_EQ(add(c, 501, cmd, 1, 100, 105, "--dump-before=execve", 5500), 0);
	CHECK_INT_EQ(add_log(c, 500, 1), 0);
	CHECK_INT_EQ(add_log(c, 501, 500), 0);
	CHECK_INT_EQ(countrun_finish(c, &eb), 0);
	CHECK_INT_EQ(c->instructions, 1000000 + 300 + 200000 + 5000 + 5500);
	CHECK_INT_EQ(c->polls, 2);
	CHECK_INT_EQ(c->poll_instructions, 80);
	CHECK_STR_EQ(c->procs[0].name, "dosr-4.0.3-cbor");
	CHECK_INT_EQ(c->procs[0].polls, 2);
	CHECK(c->procs[0].ends_well && !c->procs[0].execs);
	/* A wait is not a fork: the child is tied to the fork's dump only. */
	CHECK_STR_EQ(c->procs[1].name, "dosr-4.0.3-cbor.child1");
	countrun_json(c, o);
	CHECK_INT_EQ(cJSON_GetObjectItem(o, "polls")->valuedouble, 2);
	CHECK_INT_EQ(cJSON_GetObjectItem(o, "poll_instructions")->valuedouble, 80);
	cJSON_Delete(o);
	/* A process that waited once (sudo-rs's parent, a blocking wait) has no turn. */
	memset(c, 0, sizeof(*c));
	CHECK_INT_EQ(add(c, 600, "/x/sudo-rs", 1, 0, 100, "--dump-before=wait4", 700), 0);
	CHECK_INT_EQ(add(c, 600, "/x/sudo-rs", 2, 100, 200, "Program termination", 800), 0);
	CHECK_INT_EQ(countrun_finish(c, &eb), 0);
	CHECK_INT_EQ(c->instructions, 1500);
	CHECK_INT_EQ(c->polls, 0);
	free(c);
}

/* doas executes the command itself: one process, counted up to its execve. */
static void test_single_process_and_errors(void)
{
	struct countrun *c = calloc(1, sizeof(*c));
	struct errbuf eb = {{0}};
	const char *bad[] = {
	    "not callgrind\n",
	    "# callgrind format\npid: 0\npart: 1\ndesc: Timerange: Basic block 0 - 1\nsummary: 1\n",
	    "# callgrind format\npid: 5\npart: 1\nsummary: 1\n",
	    "# callgrind format\npid: 5\npart: 1\ndesc: Timerange: Basic block 9 - 1\nsummary: 1\n",
	    "# callgrind format\npid: 5\npart: 1\ndesc: Timerange: Basic block 0 - 1\nsummary: x\n",
	    "# callgrind format\npid: 5\npart: 1\ndesc: Timerange: Basic block 0 - 1\n",
	};

	CHECK_INT_EQ(add(c, 300, "/opt/rarperf/bin/doas -n /usr/bin/true", 1, 0, 777,
			 "--dump-before=execve", 1234567),
		     0);
	CHECK_INT_EQ(countrun_finish(c, &eb), 0);
	CHECK_INT_EQ(c->instructions, 1234567);
	CHECK_STR_EQ(c->procs[0].name, "doas");
	CHECK(c->procs[0].execs);
	/* The same part twice is not two parts. */
	CHECK_INT_EQ(add(c, 300, "/opt/rarperf/bin/doas", 1, 0, 777, "--dump-before=execve", 1),
		     -1);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct countrun *d = calloc(1, sizeof(*d));

		CHECK_INT_EQ(countrun_parse_callgrind(d, bad[i], strlen(bad[i]), "bad", &eb), -1);
		free(d);
	}
	memset(c, 0, sizeof(*c));
	CHECK_INT_EQ(countrun_finish(c, &eb), -1);
	CHECK(strstr(eb.msg, "no count") != NULL);
	free(c);
}

/* The command: setpriv's identity, then valgrind's options, then the subject's argv. */
static void test_argv(void)
{
	gid_t groups[] = {4242, 27};
	struct countrun_identity id = {.ruid = 4242, .euid = 0, .rgid = 4242, .egid = 4242,
				       .groups = groups, .ngroups = 2, .setuid = true};
	char *const argv[] = {"/opt/rarperf/bin/sudo", "-n", "/usr/bin/true", NULL};
	struct errbuf eb = {{0}};
	char **a = countrun_argv("/usr/bin/setpriv", "/usr/bin/valgrind", &id, "/o/counts/run",
				 argv, &eb);
	size_t n = 0, dd = 0;
	bool log = false, out = false, only = false;

	CHECK(a != NULL);
	if (a == NULL)
		return;
	while (a[n] != NULL) {
		if (strcmp(a[n], "--") == 0)
			dd = n;
		log |= strcmp(a[n], "--log-file=/o/counts/run/vg.%p") == 0;
		out |= strcmp(a[n], "--callgrind-out-file=/o/counts/run/cg.%p") == 0;
		only |= strcmp(a[n], "--command-line-only=yes") == 0;
		n++;
	}
	CHECK_STR_EQ(a[0], "/usr/bin/setpriv");
	CHECK_STR_EQ(a[1], "--ruid=4242");
	CHECK_STR_EQ(a[2], "--euid=0");
	CHECK_STR_EQ(a[5], "--groups=4242,27");
	CHECK_STR_EQ(a[dd + 1], "/usr/bin/valgrind");
	CHECK(log && out && only);
	CHECK_STR_EQ(a[n - 3], "/opt/rarperf/bin/sudo");
	CHECK_STR_EQ(a[n - 1], "/usr/bin/true");
	countrun_argv_free(a);
	/* A capable file: its permitted set made ambient. */
	snprintf(id.caps, sizeof(id.caps), "-all,+chown");
	id.euid = 4242;
	a = countrun_argv("/usr/bin/setpriv", "/usr/bin/valgrind", &id, "/o", argv, &eb);
	CHECK(a != NULL && strcmp(a[6], "--inh-caps=-all,+chown") == 0 &&
	      strcmp(a[7], "--ambient-caps=-all,+chown") == 0);
	countrun_argv_free(a);
}

/* The identity of a set-user-ID file, and of a plain one, for a user. */
static void test_identity(void)
{
	char dir[] = "/tmp/test_countrun.XXXXXX", path[64];
	gid_t g = 4242;
	struct proc_user u = {.name = "rarperf", .uid = 4242, .gid = 4242, .groups = &g,
			      .n_groups = 1};
	struct countrun_identity id;
	struct errbuf eb = {{0}};
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/prog", dir);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f != NULL)
		fclose(f);
	CHECK_INT_EQ(chmod(path, 04755), 0);
	CHECK_INT_EQ(countrun_identity_of(path, &u, &id, &eb), 0);
	CHECK(id.setuid);
	CHECK_INT_EQ(id.ruid, 4242);
	CHECK_INT_EQ(id.euid, geteuid());
	CHECK_INT_EQ(id.egid, 4242);
	CHECK_STR_EQ(id.caps, "");
	CHECK_INT_EQ(chmod(path, 0755), 0);
	CHECK_INT_EQ(countrun_identity_of(path, &u, &id, &eb), 0);
	CHECK(!id.setuid);
	CHECK_INT_EQ(id.euid, 4242);
	unlink(path);
	CHECK_INT_EQ(countrun_identity_of(path, &u, &id, &eb), -1);
	rmdir(dir);
}

int main(void)
{
	RUN(test_fork_and_exec);
	RUN(test_untied_child_refused);
	RUN(test_wait_loop_counted_apart);
	RUN(test_single_process_and_errors);
	RUN(test_argv);
	RUN(test_identity);
	return HARNESS_EXIT();
}
