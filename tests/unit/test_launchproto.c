/* Tests for launchproto: requests built and parsed back, and every malformed message refused. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "harness.h"
#include "launchproto.h"

static char *test_argv[] = {"/usr/bin/sudo", "-u", "root", "/usr/bin/true", NULL};
static char *test_envp[] = {"PATH=/usr/bin:/bin", "LANG=C", NULL};
static const gid_t test_groups[] = {100, 4242};
static const struct launch_limit test_limits[] = {{.resource = 7, .soft = 1024, .hard = 2048}};

static struct launch_spec spec_of(void)
{
	struct launch_spec s = {.flags = LAUNCH_F_IN | LAUNCH_F_OUT | LAUNCH_F_ERR | LAUNCH_F_USER |
					 LAUNCH_F_PIN,
				.timeout_ms = 1500,
				.uid = 4242,
				.gid = 4242,
				.groups = test_groups,
				.n_groups = 2,
				.path = "/usr/bin/sudo",
				.argv = test_argv,
				.envp = test_envp,
				.nlimits = 1,
				.limits = test_limits,
				.umask = 022,
				.cwd = "/"};
	return s;
}

/* An aligned copy of a message, as rarlaunch receives it into its static buffer. */
static unsigned char msg[LAUNCH_REQ_MAX_BYTES + 64] __attribute__((aligned(16)));
static char *strv[LAUNCH_STRV_MAX + 2];

static void test_request_round_trip(void)
{
	struct launch_spec s = spec_of();
	struct launch_job job;
	struct errbuf eb = {{0}};
	unsigned char *req = NULL;
	size_t len = 0;

	CHECK_INT_EQ(launch_req_build(&s, &req, &len, &eb), 0);
	if (req == NULL)
		return;
	launch_req_set_seq(req, 77);
	memcpy(msg, req, len);
	CHECK_INT_EQ(launch_req_parse(msg, len, 3, &job, strv, &eb), 0);
	CHECK_INT_EQ(job.seq, 77);
	CHECK_INT_EQ(job.timeout_ms, 1500);
	CHECK_INT_EQ(job.uid, 4242);
	CHECK_INT_EQ(job.n_groups, 2);
	CHECK_INT_EQ(job.groups[1], 4242);
	CHECK_STR_EQ(job.path, "/usr/bin/sudo");
	CHECK_STR_EQ(job.argv[3], "/usr/bin/true");
	CHECK(job.argv[4] == NULL);
	CHECK_STR_EQ(job.envp[1], "LANG=C");
	CHECK(job.envp[2] == NULL);
	CHECK_STR_EQ(job.cwd, "/");
	CHECK_INT_EQ(job.umask, 022);
	CHECK_INT_EQ(job.nlimits, 1);
	CHECK_INT_EQ(job.limits[0].hard, 2048);
	CHECK(job.cpus == NULL);
	/* The descriptors must be the ones the flags announce. */
	CHECK_INT_EQ(launch_req_parse(msg, len, 2, &job, strv, &eb), -1);
	CHECK_INT_EQ(launch_req_parse(msg, len, 4, &job, strv, &eb), -1);
	free(req);
}

/* Every prefix of a request, and every request with one byte changed in its header, is refused
 * or parses within bounds; the untouched one parses. */
static void test_request_malformed(void)
{
	struct launch_spec s = spec_of();
	struct launch_job job;
	struct errbuf eb = {{0}};
	unsigned char *req = NULL;
	size_t len = 0, refused = 0;
	uint32_t v;

	CHECK_INT_EQ(launch_req_build(&s, &req, &len, &eb), 0);
	if (req == NULL)
		return;
	for (size_t cut = 0; cut < len; cut++) {
		memcpy(msg, req, cut);
		CHECK_INT_EQ(launch_req_parse(msg, cut, 3, &job, strv, &eb), -1);
	}
	/* An unterminated last string. */
	memcpy(msg, req, len);
	msg[len - 1] = 'x';
	CHECK_INT_EQ(launch_req_parse(msg, len, 3, &job, strv, &eb), -1);
	/* Counts that do not fit the message. */
	memcpy(msg, req, len);
	v = LAUNCH_STRV_MAX;
	memcpy(msg + offsetof(struct launch_req_hdr, nenv), &v, sizeof(v));
	CHECK_INT_EQ(launch_req_parse(msg, len, 3, &job, strv, &eb), -1);
	memcpy(msg, req, len);
	v = 0xffffffffu;
	memcpy(msg + offsetof(struct launch_req_hdr, n_groups), &v, sizeof(v));
	CHECK_INT_EQ(launch_req_parse(msg, len, 3, &job, strv, &eb), -1);
	memcpy(msg, req, len);
	v = LAUNCH_LIMITS_MAX + 1;
	memcpy(msg + offsetof(struct launch_req_hdr, nlimits), &v, sizeof(v));
	CHECK_INT_EQ(launch_req_parse(msg, len, 3, &job, strv, &eb), -1);
	memcpy(msg, req, len);
	v = 0x100;
	memcpy(msg + offsetof(struct launch_req_hdr, flags), &v, sizeof(v));
	CHECK_INT_EQ(launch_req_parse(msg, len, 0, &job, strv, &eb), -1);
	/* One more byte after the strings. */
	memcpy(msg, req, len);
	msg[len] = '\0';
	CHECK_INT_EQ(launch_req_parse(msg, len + 1, 3, &job, strv, &eb), -1);
	for (size_t i = 0; i < sizeof(struct launch_req_hdr); i += 4) {
		memcpy(msg, req, len);
		msg[i] ^= 0x5a;
		if (launch_req_parse(msg, len, 3, &job, strv, &eb) != 0)
			refused++;
		else
			CHECK(job.argv[0] != NULL && job.nlimits <= LAUNCH_LIMITS_MAX);
	}
	CHECK(refused > 0);
	free(req);
}

static void test_request_too_big(void)
{
	static char big[LAUNCH_REQ_MAX_BYTES];
	char *argv[] = {"/bin/echo", big, NULL};
	struct launch_spec s = {.path = "/bin/echo", .argv = argv, .envp = test_envp, .umask = -1};
	struct errbuf eb = {{0}};
	unsigned char *req = NULL;
	size_t len;

	memset(big, 'a', sizeof(big) - 1);
	CHECK_INT_EQ(launch_req_build(&s, &req, &len, &eb), -1);
	CHECK(req == NULL);
	CHECK(strstr(eb.msg, "KiB") != NULL);
}

/* What rarlaunch's parser refuses is refused when built, by name (it could answer only EPROTO). */
static void test_request_relative_path_refused(void)
{
	char *argv[] = {"bin/sudo", "/usr/bin/true", NULL};
	struct launch_spec s = {.path = "bin/sudo", .argv = argv, .envp = test_envp, .umask = -1};
	struct errbuf eb = {{0}};
	unsigned char *req = NULL;
	size_t len;

	CHECK_INT_EQ(launch_req_build(&s, &req, &len, &eb), -1);
	CHECK(req == NULL);
	CHECK_STR_EQ(eb.msg, "program path 'bin/sudo' is not absolute");
}

static struct launch_reply reply_of(uint32_t seq)
{
	struct launch_reply r;

	memset(&r, 0, sizeof(r));
	r.magic = LAUNCH_REPLY_MAGIC;
	r.version = LAUNCH_PROTO_VERSION;
	r.seq = seq;
	r.pid = 1234;
	r.status = 3 << 8; /* exit 3 */
	r.wall_ns = 1000000;
	r.maxrss_kib = 1100;
	return r;
}

static void test_reply_checks(void)
{
	struct launch_reply r = reply_of(9), got, bad;
	struct errbuf eb = {{0}};
	unsigned char buf[sizeof(r) + 1];

	CHECK_INT_EQ(launch_reply_parse(&r, sizeof(r), LAUNCH_REPLY_MAGIC, 9, &got, &eb), 0);
	CHECK_INT_EQ(got.maxrss_kib, 1100);
	CHECK_INT_EQ(WEXITSTATUS(got.status), 3);
	/* Wrong length, short and long. */
	CHECK_INT_EQ(launch_reply_parse(&r, sizeof(r) - 1, LAUNCH_REPLY_MAGIC, 9, &got, &eb), -1);
	memcpy(buf, &r, sizeof(r));
	buf[sizeof(r)] = 0;
	CHECK_INT_EQ(launch_reply_parse(buf, sizeof(buf), LAUNCH_REPLY_MAGIC, 9, &got, &eb), -1);
	CHECK_INT_EQ(launch_reply_parse(&r, 0, LAUNCH_REPLY_MAGIC, 9, &got, &eb), -1);
	/* Another run's reply, another kind of message. */
	CHECK_INT_EQ(launch_reply_parse(&r, sizeof(r), LAUNCH_REPLY_MAGIC, 8, &got, &eb), -1);
	CHECK(strstr(eb.msg, "not 8") != NULL);
	CHECK_INT_EQ(launch_reply_parse(&r, sizeof(r), LAUNCH_HELLO_MAGIC, 9, &got, &eb), -1);
	bad = r;
	bad.flags = 0x80;
	CHECK_INT_EQ(launch_reply_parse(&bad, sizeof(bad), LAUNCH_REPLY_MAGIC, 9, &got, &eb), -1);
	bad = r;
	bad.status = 0x7f; /* stopped: never a final status */
	CHECK_INT_EQ(launch_reply_parse(&bad, sizeof(bad), LAUNCH_REPLY_MAGIC, 9, &got, &eb), -1);
	bad = r;
	bad.flags = LAUNCH_R_EXEC_FAILED; /* a failure without its errno */
	CHECK_INT_EQ(launch_reply_parse(&bad, sizeof(bad), LAUNCH_REPLY_MAGIC, 9, &got, &eb), -1);
	bad.err = -5;
	CHECK_INT_EQ(launch_reply_parse(&bad, sizeof(bad), LAUNCH_REPLY_MAGIC, 9, &got, &eb), -1);
	bad.err = ENOENT;
	CHECK_INT_EQ(launch_reply_parse(&bad, sizeof(bad), LAUNCH_REPLY_MAGIC, 9, &got, &eb), 0);
	bad = r;
	bad.pid = 0;
	CHECK_INT_EQ(launch_reply_parse(&bad, sizeof(bad), LAUNCH_REPLY_MAGIC, 9, &got, &eb), -1);
	bad = r;
	bad.status = SIGKILL; /* killed: a final status */
	bad.flags = LAUNCH_R_TIMED_OUT;
	CHECK_INT_EQ(launch_reply_parse(&bad, sizeof(bad), LAUNCH_REPLY_MAGIC, 9, &got, &eb), 0);
}

/* Version 2: the CPU stall, and a reply of another protocol version refused by name. */
static void test_reply_stall_and_version(void)
{
	struct launch_reply r = reply_of(4), got, bad;
	struct errbuf eb = {{0}};

	r.flags = LAUNCH_R_STALL;
	r.stall_ns = 250000;
	CHECK_INT_EQ(launch_reply_parse(&r, sizeof(r), LAUNCH_REPLY_MAGIC, 4, &got, &eb), 0);
	CHECK_INT_EQ(got.stall_ns, 250000);
	/* A stall as long as the run: it waited throughout. Longer: impossible. */
	bad = r;
	bad.stall_ns = bad.wall_ns;
	CHECK_INT_EQ(launch_reply_parse(&bad, sizeof(bad), LAUNCH_REPLY_MAGIC, 4, &got, &eb), 0);
	bad.stall_ns = bad.wall_ns + 1;
	CHECK_INT_EQ(launch_reply_parse(&bad, sizeof(bad), LAUNCH_REPLY_MAGIC, 4, &got, &eb), -1);
	CHECK(strstr(eb.msg, "stall") != NULL);
	/* A stall without the flag that says it is known. */
	bad = r;
	bad.flags = 0;
	CHECK_INT_EQ(launch_reply_parse(&bad, sizeof(bad), LAUNCH_REPLY_MAGIC, 4, &got, &eb), -1);
	bad = r;
	bad.stall_err = -1;
	CHECK_INT_EQ(launch_reply_parse(&bad, sizeof(bad), LAUNCH_REPLY_MAGIC, 4, &got, &eb), -1);
	/* An old or newer rarlaunch: its version, whatever else the message holds. */
	bad = r;
	bad.version = 1;
	CHECK_INT_EQ(launch_reply_parse(&bad, sizeof(bad), LAUNCH_REPLY_MAGIC, 4, &got, &eb), -1);
	CHECK(strstr(eb.msg, "version 1") != NULL);
	/* A hello without PSI says why. */
	bad = r;
	bad.magic = LAUNCH_HELLO_MAGIC;
	bad.seq = 0;
	bad.flags = 0;
	bad.stall_ns = 0;
	bad.stall_err = ENOENT;
	CHECK_INT_EQ(launch_reply_parse(&bad, sizeof(bad), LAUNCH_HELLO_MAGIC, 0, &got, &eb), 0);
	CHECK_INT_EQ(got.stall_err, ENOENT);
}

int main(void)
{
	RUN(test_request_round_trip);
	RUN(test_request_malformed);
	RUN(test_request_too_big);
	RUN(test_request_relative_path_refused);
	RUN(test_reply_checks);
	RUN(test_reply_stall_and_version);
	return HARNESS_EXIT();
}
