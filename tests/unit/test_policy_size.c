/* Tests for policy_size: the computed sizes equal the files the writers write, byte for byte. */
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "confgen_testutil.h"
#include "harness.h"
#include "policy.h"
#include "policy_doas.h"
#include "policy_polkit.h"
#include "policy_file.h"
#include "policy_please.h"
#include "policy_rar_cbor.h"
#include "policy_rar_json.h"
#include "policy_size.h"
#include "policy_sudoers.h"

/* On tmpfs when there is one: the writers fsync every file, and a disk makes that the cost. */
static char dir[64];
static int files_compared;
static uint64_t bytes_compared;

/* Commands whose names put CBOR text heads on both sides of 24 and 256 bytes. */
static char cmd_b235[240], cmd_b254[260], cmd_l256[260], cmd_l1024[1030], cmd_l22[24],
    cmd_l253[256];

/* lead then n copies of ch into buf (which holds them). */
static void make_command(char *buf, const char *lead, size_t n, char ch)
{
	size_t len = strlen(lead);

	memcpy(buf, lead, len);
	memset(buf + len, ch, n);
	buf[len + n] = '\0';
}

static void make_commands(void)
{
	make_command(cmd_b235, "/", 234, 'b');   /* L 235: fillers 253..258 */
	make_command(cmd_b254, "/", 254, 'c');   /* L 255: head 2, fillers 3 */
	make_command(cmd_l256, "/d/", 253, 'e'); /* L 256: head 3 */
	make_command(cmd_l1024, "/", 1023, 'f');
	make_command(cmd_l22, "/", 21, 'g');   /* seed names 23..25 */
	make_command(cmd_l253, "/", 252, 'h'); /* seed names 254..256 */
}

static const char *describe(const struct policy_shape *s, char *buf, size_t len)
{
	snprintf(buf, len, "R=%u U=%u T=%u C=%u uid=%u match=%s%s command-len=%zu", s->roles,
		 s->users, s->tasks, s->commands, s->uid, policy_match_name(s->match),
		 s->seed_compat ? " seed-compat" : "", strlen(s->command));
	return buf;
}

static long long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* Files larger than this are not written (the writer's time, not the check, would dominate). */
#define TEST_FILE_BYTES_MAX (32ull << 20)

static void expect_size(const char *what, const char *shape, const char *path, uint64_t computed)
{
	long long real = file_size(path);

	files_compared++;
	bytes_compared += computed;
	if (real < 0 || (uint64_t)real != computed) {
		fprintf(stderr, "  %s, %s: computed %llu bytes, the writer wrote %lld\n", shape,
			what, (unsigned long long)computed, real);
		harness_failed_checks++;
	}
}

/*
 * Writes every format of shape into d (sudoers in both layouts, RootAsRole
 * for one version: the versions take turns, shape by shape), or only
 * rar-cbor, and compares each file with policy_size.
 */
static void check_shape_in(const struct policy_shape *shape, const char *d, bool cbor_only)
{
	static const char *const versions[] = {"3.3.4", "4.0.3"};
	static unsigned turn;
	const char *version = versions[turn++ % 2];
	struct errbuf eb = {0};
	struct policy *p = policy_build(shape, &eb);
	struct policy_size_bytes sz;
	char what[600], path[512], data[512], desc[200];
	char *abs = NULL;

	CHECK(p != NULL);
	if (p == NULL) {
		fprintf(stderr, "  %s\n", eb.msg);
		return;
	}
	describe(shape, desc, sizeof(desc));
	if (cbor_only)
		goto cbor;
	snprintf(path, sizeof(path), "%s/sudoers", d);
	for (int l = 0; l < SUDOERS_LAYOUT_COUNT; l++) {
		CHECK_INT_EQ(testutil_txn_end(policy_stage_sudoers(testutil_txn_fresh(), p, path,
								   (enum sudoers_layout)l, &eb),
					      &eb),
			     0);
		CHECK_INT_EQ(policy_size(p, POLICY_FORMAT_SUDOERS, (enum sudoers_layout)l, NULL,
					 NULL, &sz, &eb),
			     0);
		CHECK_INT_EQ(sz.data_bytes, 0);
		snprintf(what, sizeof(what), "sudoers %s",
			 policy_sudoers_layout_name((enum sudoers_layout)l));
		expect_size(what, desc, path, sz.policy_bytes);
	}
	if (policy_size(p, POLICY_FORMAT_DOAS, SUDOERS_LAYOUT_PER_ROLE, NULL, NULL, &sz, &eb) ==
		0 &&
	    sz.policy_bytes <= TEST_FILE_BYTES_MAX) {
		snprintf(path, sizeof(path), "%s/doas.conf", d);
		CHECK_INT_EQ(
		    testutil_txn_end(policy_stage_doas(testutil_txn_fresh(), p, path, &eb), &eb),
		    0);
		expect_size("doas", desc, path, sz.policy_bytes);
	}
	if (!shape->seed_compat) {
		/* please matches a name: names with and without bytes the regex escapes. */
		static const char *const users[] = {"rarperf", "bench.user_1", "x"};
		static unsigned user_turn;
		struct policy_shape named = *shape;
		struct policy *pn;

		named.user = users[user_turn++ % 3];
		pn = policy_build(&named, &eb);
		CHECK(pn != NULL);
		if (pn != NULL &&
		    policy_size(pn, POLICY_FORMAT_PLEASE, SUDOERS_LAYOUT_PER_ROLE, NULL, NULL, &sz,
				&eb) == 0 &&
		    sz.policy_bytes <= TEST_FILE_BYTES_MAX) {
			snprintf(path, sizeof(path), "%s/please.ini", d);
			CHECK_INT_EQ(
			    testutil_txn_end(
				policy_stage_please(testutil_txn_fresh(), pn, path, &eb), &eb),
			    0);
			snprintf(what, sizeof(what), "please user=%s", named.user);
			expect_size(what, desc, path, sz.policy_bytes);
		}
		policy_free(pn);
	}
	/* polkit rules: every shape but seed-compat's (refused: the seed wrote none). */
	if (policy_size(p, POLICY_FORMAT_POLKIT, SUDOERS_LAYOUT_PER_ROLE, NULL, NULL, &sz, &eb) ==
		0 &&
	    sz.policy_bytes <= TEST_FILE_BYTES_MAX) {
		snprintf(path, sizeof(path), "%s/50-rarperf.rules", d);
		CHECK_INT_EQ(
		    testutil_txn_end(policy_stage_polkit(testutil_txn_fresh(), p, path, &eb), &eb),
		    0);
		expect_size("polkit", desc, path, sz.policy_bytes);
	} else {
		CHECK(shape->seed_compat || sz.policy_bytes > TEST_FILE_BYTES_MAX);
	}

	snprintf(path, sizeof(path), "%s/rar.json", d);
	CHECK_INT_EQ(testutil_txn_end(
			 policy_stage_rar_json(testutil_txn_fresh(), p, path, version, &eb), &eb),
		     0);
	abs = policy_file_abspath(path, &eb);
	CHECK(abs != NULL);
	CHECK_INT_EQ(
	    policy_size(p, POLICY_FORMAT_RAR_JSON, SUDOERS_LAYOUT_PER_ROLE, version, abs, &sz, &eb),
	    0);
	CHECK_INT_EQ(sz.data_bytes, 0);
	snprintf(what, sizeof(what), "rar-json %s", version);
	expect_size(what, desc, path, sz.policy_bytes);
	free(abs);
cbor:
	snprintf(path, sizeof(path), "%s/rar-cbor.json", d);
	snprintf(data, sizeof(data), "%s/rar-cbor.bin", d);
	CHECK_INT_EQ(
	    testutil_txn_end(
		policy_stage_rar_cbor(testutil_txn_fresh(), p, path, data, version, &eb), &eb),
	    0);
	abs = policy_file_abspath(data, &eb);
	CHECK(abs != NULL);
	CHECK_INT_EQ(
	    policy_size(p, POLICY_FORMAT_RAR_CBOR, SUDOERS_LAYOUT_PER_ROLE, version, abs, &sz, &eb),
	    0);
	snprintf(what, sizeof(what), "rar-cbor %s settings", version);
	expect_size(what, desc, path, sz.policy_bytes);
	snprintf(what, sizeof(what), "rar-cbor %s data", version);
	expect_size(what, desc, data, sz.data_bytes);
	free(abs);
	policy_free(p);
}

static void check_shape(const struct policy_shape *shape)
{
	check_shape_in(shape, dir, false);
}

static const uint32_t uids[] = {0, 9, 10, 23, 24, 255, 256, 65535, 65536, 4242, 2147483647u};
/* Short commands for the many shapes; the long ones are test_cbor_head_steps' own. */
static const char *const commands[] = {POLICY_DEFAULT_COMMAND, "/a", "/usr/local/bin/x.y"};

/*
 * One count at a time across the digit-length boundaries (1, 9, 10, 99,
 * 100, ...), the others at 3 or 2, in every match position and seed-compat,
 * cycling through uids and commands.
 */
static void test_digit_boundaries(void)
{
	static const uint32_t values[] = {1, 2, 9, 10, 11, 99, 100, 101, 999, 1000};
	struct policy_shape s;
	unsigned k = 0;

	/* Four shapes a value, the RootAsRole versions taking turns: each value meets both. */

	for (int dim = 0; dim < 4; dim++) {
		for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
			for (int mode = 0; mode < POLICY_MATCH_COUNT + 1; mode++, k++) {
				uint32_t *field[4] = {&s.roles, &s.users, &s.tasks, &s.commands};

				policy_shape_init(&s);
				/* doas repeats every command per user: fewer beside large values */
				s.roles = s.tasks = s.commands = values[i] < 999 ? 3 : 2;
				s.users = values[i] < 999 ? 2 : 1;
				*field[dim] = values[i];
				s.uid = uids[k % (sizeof(uids) / sizeof(uids[0]))];
				s.command = commands[k % (sizeof(commands) / sizeof(commands[0]))];
				s.match = mode < POLICY_MATCH_COUNT ? (enum policy_match)mode
								    : POLICY_MATCH_LAST;
				s.seed_compat = mode == POLICY_MATCH_COUNT;
				check_shape(&s);
			}
		}
	}
}

/*
 * Command names whose CBOR text heads step inside one policy: filler
 * lengths across 24 and 256 bytes (3 to 6 digits: R 3, T 10, C 100), the
 * match's own length on either side, and seed-compat names across them.
 */
static void test_cbor_head_steps(void)
{
	const char *cmds[] = {
	    "/a",    POLICY_DEFAULT_COMMAND, cmd_b235, cmd_b254, cmd_l256, cmd_l1024, cmd_l22,
	    cmd_l253};
	struct policy_shape s;

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		/* The longest command once: its files are the largest here. */
		for (int seed = 0; seed < (cmds[i] == cmd_l1024 ? 1 : 2); seed++) {
			policy_shape_init(&s);
			s.roles = 3;
			s.tasks = 10;
			s.commands = 100;
			s.uid = 1000;
			s.command = cmds[i];
			s.seed_compat = seed != 0;
			s.match = seed ? POLICY_MATCH_LAST : POLICY_MATCH_MIDDLE;
			/* Elsewhere a name is its bytes: the short and the longest suffice. */
			check_shape_in(&s, dir, i > 1 && cmds[i] != cmd_l1024);
		}
	}
}

/*
 * Uids around every decimal and CBOR step, for the benchmark user and the
 * seed's fillers (5001..5000+U crosses 65536 with U > 60535).
 */
static void test_uids(void)
{
	struct policy_shape s;

	for (size_t i = 0; i < sizeof(uids) / sizeof(uids[0]); i++) {
		for (int seed = 0; seed < 2; seed++) {
			policy_shape_init(&s);
			s.roles = 2;
			s.users = 2;
			s.uid = uids[i];
			s.seed_compat = seed != 0;
			check_shape(&s);
		}
	}
	policy_shape_init(&s);
	s.users = 61000; /* 5001..66000 */
	s.roles = 2;
	s.uid = 77;
	s.seed_compat = true;
	check_shape(&s);
}

/*
 * Larger counts, one dimension at a time: the 10^4 and 10^5 digit steps,
 * CBOR array heads past 65535.
 */
static void test_larger_counts(void)
{
	static const uint32_t shapes[][4] = {
	    {10000, 1, 1, 1}, {1, 100000, 1, 1}, {1, 1, 10000, 2},
	    {1, 1, 1, 70000}, {2, 3, 99, 101},
	};
	struct policy_shape s;

	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		policy_shape_init(&s);
		s.roles = shapes[i][0];
		s.users = shapes[i][1];
		s.tasks = shapes[i][2];
		s.commands = shapes[i][3];
		s.uid = 4242;
		s.match = (enum policy_match)(i % POLICY_MATCH_COUNT);
		check_shape(&s);
	}
}

/* splitmix64, for reproducible random shapes. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Random shapes from boundary values, bounded in size, every option drawn at random. */
static void test_random_shapes(void)
{
	static const uint32_t values[] = {1,  2,  3,   7,   9,   10,  11,  12,
					  98, 99, 100, 101, 250, 999, 1000};
	const size_t nv = sizeof(values) / sizeof(values[0]);
	uint64_t state = 20240601;
	struct policy_shape s;
	int done = 0;

	while (done < 40) {
		policy_shape_init(&s);
		s.roles = values[next_random(&state) % nv];
		s.users = values[next_random(&state) % nv];
		s.tasks = values[next_random(&state) % nv];
		s.commands = values[next_random(&state) % nv];
		if ((uint64_t)s.roles * s.users * s.tasks * s.commands > 20000 ||
		    (uint64_t)s.roles * s.tasks * s.commands > 10000 ||
		    (uint64_t)s.roles * s.users > 10000)
			continue;
		s.uid = uids[next_random(&state) % (sizeof(uids) / sizeof(uids[0]))];
		s.command =
		    commands[next_random(&state) % (sizeof(commands) / sizeof(commands[0]))];
		s.match = (enum policy_match)(next_random(&state) % POLICY_MATCH_COUNT);
		s.seed_compat = s.match == POLICY_MATCH_LAST && next_random(&state) % 2 == 0;
		check_shape(&s);
		done++;
	}
}

/* A directory whose path needs JSON escapes ('"', '\\', a tab, a control byte) and UTF-8. */
static void test_escaped_path(void)
{
	char weird[512];
	struct policy_shape s;

	snprintf(weird, sizeof(weird), "%s/q\"b\\s\tt\x01u\xc3\xa9", dir);
	CHECK_INT_EQ(mkdir(weird, 0755), 0);
	policy_shape_init(&s);
	s.tasks = 12;
	s.uid = 1000;
	check_shape_in(&s, weird, false);
	testutil_rm_dir(weird);
}

/*
 * Every file's size (policy and data apart) at shape s, into out[0..6); a
 * doas.conf beyond its rule limit counts as UINT64_MAX. 0 or -1.
 */
static int sizes_of(const struct policy_shape *s, uint64_t out[6])
{
	struct errbuf eb = {0};
	struct policy *p = policy_build(s, &eb);
	struct policy_size_bytes sz[5];
	int rc = -1;

	if (p == NULL)
		return -1;
	if (policy_doas_validate(s, &eb) != 0)
		sz[2].policy_bytes = UINT64_MAX;
	else if (policy_size(p, POLICY_FORMAT_DOAS, SUDOERS_LAYOUT_PER_ROLE, NULL, NULL, &sz[2],
			     &eb) != 0)
		goto out;
	if (policy_size(p, POLICY_FORMAT_SUDOERS, SUDOERS_LAYOUT_PER_ROLE, NULL, NULL, &sz[0],
			&eb) == 0 &&
	    policy_size(p, POLICY_FORMAT_SUDOERS, SUDOERS_LAYOUT_PER_TASK, NULL, NULL, &sz[1],
			&eb) == 0 &&
	    policy_size(p, POLICY_FORMAT_RAR_JSON, SUDOERS_LAYOUT_PER_ROLE, NULL, "/p.json", &sz[3],
			&eb) == 0 &&
	    policy_size(p, POLICY_FORMAT_RAR_CBOR, SUDOERS_LAYOUT_PER_ROLE, "4.0.3", "/p.bin",
			&sz[4], &eb) == 0) {
		for (int i = 0; i < 5; i++)
			out[i] = sz[i].policy_bytes;
		out[5] = sz[4].data_bytes;
		rc = 0;
	}
out:
	policy_free(p);
	return rc;
}

/*
 * Sizes never shrink when a count grows by one (across the digit steps too),
 * in every match position and seed-compat: the manifest's max_policy_bytes
 * check sizes the point of the largest values only (src/sweep/manifest_size.c).
 */
static void test_sizes_grow_with_every_count(void)
{
	static const uint32_t values[] = {1, 2, 9, 10, 99, 100};
	const size_t nv = sizeof(values) / sizeof(values[0]);
	struct policy_shape s;
	uint64_t base[6], next[6];
	int bad = 0;

	for (size_t i = 0; i < nv * nv * nv * nv; i++) {
		for (int mode = 0; mode < POLICY_MATCH_COUNT + 1; mode++) {
			uint32_t *field[4] = {&s.roles, &s.users, &s.tasks, &s.commands};

			policy_shape_init(&s);
			s.roles = values[i % nv];
			s.users = values[i / nv % nv];
			s.tasks = values[i / nv / nv % nv];
			s.commands = values[i / nv / nv / nv];
			s.uid = 1000;
			s.match =
			    mode < POLICY_MATCH_COUNT ? (enum policy_match)mode : POLICY_MATCH_LAST;
			s.seed_compat = mode == POLICY_MATCH_COUNT;
			if (sizes_of(&s, base) != 0) {
				CHECK(0);
				return;
			}
			for (int a = 0; a < 4; a++) {
				(*field[a])++;
				CHECK_INT_EQ(sizes_of(&s, next), 0);
				for (int f = 0; f < 6; f++)
					if (next[f] < base[f] && bad++ < 5)
						fprintf(stderr,
							"  file %d shrinks from %llu to %llu\n", f,
							(unsigned long long)base[f],
							(unsigned long long)next[f]);
				(*field[a])--;
			}
		}
	}
	CHECK_INT_EQ(bad, 0);
}

/* Refusals, in the writers' words. */
static void test_errors(void)
{
	struct policy_shape s;
	struct errbuf eb = {0};
	struct policy_size_bytes sz = {1, 1};
	struct policy *p;

	policy_shape_init(&s);
	s.users = 1000;
	s.tasks = 1000000;
	s.commands = 100;
	p = policy_build(&s, &eb);
	CHECK(p != NULL);
	if (p == NULL)
		return;
	CHECK_INT_EQ(
	    policy_size(p, POLICY_FORMAT_DOAS, SUDOERS_LAYOUT_PER_ROLE, NULL, NULL, &sz, &eb), -1);
	CHECK(strstr(eb.msg, "rules, the limit is") != NULL);
	CHECK_INT_EQ(
	    policy_size(p, POLICY_FORMAT_RAR_JSON, SUDOERS_LAYOUT_PER_ROLE, NULL, NULL, &sz, &eb),
	    -1);
	CHECK(strstr(eb.msg, "rar-json: the size needs the path") != NULL);
	CHECK_INT_EQ(
	    policy_size(p, POLICY_FORMAT_RAR_CBOR, SUDOERS_LAYOUT_PER_ROLE, "4.0", "/x", &sz, &eb),
	    -1);
	CHECK(strstr(eb.msg, "expected MAJOR.MINOR.PATCH") != NULL);
	/* please matches a name: none given, refused. */
	CHECK_INT_EQ(
	    policy_size(p, POLICY_FORMAT_PLEASE, SUDOERS_LAYOUT_PER_ROLE, NULL, NULL, &sz, &eb),
	    -1);
	CHECK(strstr(eb.msg, "--user") != NULL);
	CHECK_INT_EQ(
	    policy_size(p, POLICY_FORMAT_SUDOERS, (enum sudoers_layout)7, NULL, NULL, &sz, &eb),
	    -1);
	CHECK_INT_EQ(
	    policy_size(p, (enum policy_format)9, SUDOERS_LAYOUT_PER_ROLE, NULL, NULL, &sz, &eb),
	    -1);
	CHECK_INT_EQ(sz.policy_bytes, 0);
	policy_free(p);
}

static uint64_t elapsed_ns(const struct timespec *a, const struct timespec *b)
{
	return (uint64_t)(b->tv_sec - a->tv_sec) * 1000000000ull + (uint64_t)b->tv_nsec -
	       (uint64_t)a->tv_nsec;
}

/*
 * The shape, 10^6 tasks x 100 commands (10^8 commands): every format
 * sized in well under 100 ms (closed form), sizes that grow as they must.
 */
static void test_huge_shape_is_fast(void)
{
	struct policy_shape s;
	struct errbuf eb = {0};
	struct policy_size_bytes sz[POLICY_FORMAT_COUNT];
	struct timespec t0, t1;
	struct policy *p;

	policy_shape_init(&s);
	s.tasks = 1000000;
	s.commands = 100;
	s.uid = 1000;
	s.user = "rarperf"; /* please's */
	p = policy_build(&s, &eb);
	CHECK(p != NULL);
	if (p == NULL)
		return;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int f = 0; f < POLICY_FORMAT_COUNT; f++)
		CHECK_INT_EQ(policy_size(p, (enum policy_format)f, SUDOERS_LAYOUT_PER_TASK, "4.0.3",
					 "/opt/rarperf/etc/rootasrole.bin", &sz[f], &eb),
			     0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	CHECK(elapsed_ns(&t0, &t1) < 100000000ull);
	/* Each of the 10^8 commands costs at least its 30-byte name in every format. */
	for (int f = 0; f < POLICY_FORMAT_COUNT; f++)
		CHECK(sz[f].policy_bytes + sz[f].data_bytes > 3000000000ull);
	CHECK(sz[POLICY_FORMAT_RAR_CBOR].policy_bytes < 200);
	policy_free(p);
}

/* A FILE that only counts what is written to it (fopencookie). */
static ssize_t count_write(void *cookie, const char *buf, size_t n)
{
	(void)buf;
	*(uint64_t *)cookie += n;
	return (ssize_t)n;
}

/* 10^5 tasks (the 99999/100000 step) through the CBOR stream into a counter, no disk. */
static void test_cbor_stream_counted(void)
{
	cookie_io_functions_t io = {.write = count_write};
	struct policy_shape s;
	struct errbuf eb = {0};
	struct policy_size_bytes sz;
	uint64_t counted = 0;
	struct policy *p;
	FILE *out;

	policy_shape_init(&s);
	s.tasks = 100000;
	s.commands = 2;
	s.match = POLICY_MATCH_MIDDLE;
	p = policy_build(&s, &eb);
	out = fopencookie(&counted, "w", io);
	CHECK(p != NULL && out != NULL);
	if (p != NULL && out != NULL) {
		CHECK_INT_EQ(policy_rar_cbor_stream(p, out, NULL, &eb), 0);
		fclose(out);
		CHECK_INT_EQ(policy_size(p, POLICY_FORMAT_RAR_CBOR, SUDOERS_LAYOUT_PER_ROLE, NULL,
					 "/x.bin", &sz, &eb),
			     0);
		CHECK_INT_EQ(sz.data_bytes, counted);
	}
	policy_free(p);
}

/*
 * Only with RARPERF_TEST_LARGE=1 (main): the seed's sudo-side uids
 * wrapping at 2^32 (1000 * roles, roles > 4294967), ~3.8 GB of files in
 * ~20 s on tmpfs. Manifests cannot reach it (at most 10^6 roles).
 */
static void test_large_seed_uid_wrap(void)
{
	struct policy_shape s;

	policy_shape_init(&s);
	s.roles = 4294968;
	s.users = 2;
	s.uid = 1000;
	s.seed_compat = true;
	check_shape(&s);
}

int main(void)
{
	struct stat st;

	snprintf(dir, sizeof(dir), "%s/rarperf-test-policy-size-XXXXXX",
		 stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) && access("/dev/shm", W_OK) == 0
		     ? "/dev/shm"
		     : "/tmp");
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	make_commands();
	RUN(test_digit_boundaries);
	RUN(test_cbor_head_steps);
	RUN(test_uids);
	RUN(test_larger_counts);
	RUN(test_random_shapes);
	RUN(test_escaped_path);
	RUN(test_sizes_grow_with_every_count);
	RUN(test_errors);
	RUN(test_huge_shape_is_fast);
	RUN(test_cbor_stream_counted);
	if (getenv("RARPERF_TEST_LARGE") != NULL && strcmp(getenv("RARPERF_TEST_LARGE"), "1") == 0)
		RUN(test_large_seed_uid_wrap);
	printf("# %d files (%llu bytes) compared with their computed sizes\n", files_compared,
	       (unsigned long long)bytes_compared);
	testutil_rm_dir(dir);
	return HARNESS_EXIT();
}
