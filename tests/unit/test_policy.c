/* Tests for policy: validation, the single match at the asked position, and the naming schemes. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "policy.h"

static struct policy_shape shape_of(uint32_t r, uint32_t u, uint32_t t, uint32_t c, uint32_t uid,
				    enum policy_match m)
{
	struct policy_shape s;

	policy_shape_init(&s);
	s.roles = r;
	s.users = u;
	s.tasks = t;
	s.commands = c;
	s.uid = uid;
	s.match = m;
	return s;
}

/* Expects validation to fail with a message starting with prefix. */
static void expect_invalid(const struct policy_shape *s, const char *prefix)
{
	struct errbuf eb = {{0}};

	CHECK_INT_EQ(policy_shape_validate(s, &eb), -1);
	if (strncmp(eb.msg, prefix, strlen(prefix)) != 0) {
		fprintf(stderr, "  message \"%s\" does not start with \"%s\"\n", eb.msg, prefix);
		CHECK(0);
	}
	CHECK(policy_build(s, &eb) == NULL);
}

static void test_validate_rejects_bad_shapes(void)
{
	struct policy_shape s = shape_of(1, 1, 1, 1, 4242, POLICY_MATCH_LAST);
	struct errbuf eb = {{0}};

	CHECK_INT_EQ(policy_shape_validate(&s, &eb), 0);
	s.roles = 0;
	expect_invalid(&s, "--roles:");
	s = shape_of(1, 0, 1, 1, 4242, POLICY_MATCH_LAST);
	expect_invalid(&s, "--users:");
	s = shape_of(1, 1, 0, 1, 4242, POLICY_MATCH_LAST);
	expect_invalid(&s, "--tasks:");
	s = shape_of(1, 1, 1, 0, 4242, POLICY_MATCH_LAST);
	expect_invalid(&s, "--commands:");
	s = shape_of(1000, 1, 1000, 101, 4242, POLICY_MATCH_LAST); /* 101 M commands */
	expect_invalid(&s, "--roles * --tasks * --commands:");
	s = shape_of(1000, 1, 1000, 100, 4242, POLICY_MATCH_LAST); /* exactly 100 M: fine */
	CHECK_INT_EQ(policy_shape_validate(&s, &eb), 0);
	s = shape_of(10001, 1000, 1, 1, 4242, POLICY_MATCH_LAST);
	expect_invalid(&s, "--roles * --users:");
	s = shape_of(1, 1, 1, 1, POLICY_FILLER_UID_BASE, POLICY_MATCH_LAST);
	expect_invalid(&s, "--uid:");
	s = shape_of(1, 1, 1, 1, 4242, POLICY_MATCH_LAST);
	s.command = "usr/bin/true";
	expect_invalid(&s, "--command:");
	s.command = "/usr/bin/true x";
	expect_invalid(&s, "--command:");
	s.command = "/usr/bin/a,b";
	expect_invalid(&s, "--command:");
	s.command = "/usr/bin/";
	expect_invalid(&s, "--command:");
	s.command = "/usr/local/bin/my-true_2.0";
	CHECK_INT_EQ(policy_shape_validate(&s, &eb), 0);
	s = shape_of(1, 1, 1, 1, 4242, POLICY_MATCH_FIRST);
	s.seed_compat = true;
	expect_invalid(&s, "--match:");
}

/*
 * Walks every actor and command of a shape and checks: the bench uid appears
 * exactly once, at want's role/user; the matching command exactly once, at
 * want's role/task/command; every other actor is a filler uid and every
 * other command a filler path, all distinct.
 */
static void check_single_match(uint32_t r, uint32_t u, uint32_t t, uint32_t c, enum policy_match m,
			       struct policy_position want)
{
	struct policy_shape s = shape_of(r, u, t, c, 4242, m);
	struct errbuf eb = {{0}};
	struct policy *p = policy_build(&s, &eb);
	char name[POLICY_NAME_LEN_MAX], prev[POLICY_NAME_LEN_MAX] = "";
	unsigned uid_hits = 0, cmd_hits = 0;
	struct policy_position got;

	CHECK(p != NULL);
	if (p == NULL)
		return;
	got = policy_match_position(p);
	CHECK_INT_EQ(got.role, want.role);
	CHECK_INT_EQ(got.user, want.user);
	CHECK_INT_EQ(got.task, want.task);
	CHECK_INT_EQ(got.command, want.command);
	for (enum policy_side side = POLICY_SIDE_SUDO; side <= POLICY_SIDE_RAR; side++) {
		uid_hits = cmd_hits = 0;
		for (uint32_t ri = 0; ri < r; ri++) {
			for (uint32_t ui = 0; ui < u; ui++) {
				uint32_t uid = policy_actor_uid(p, side, ri, ui);
				if (uid == 4242) {
					uid_hits++;
					CHECK_INT_EQ(ri, want.role);
					CHECK_INT_EQ(ui, want.user);
				} else {
					CHECK(uid >= POLICY_FILLER_UID_BASE);
					CHECK_INT_EQ(uid, POLICY_FILLER_UID_BASE + ri * u + ui);
				}
			}
			for (uint32_t ti = 0; ti < t; ti++)
				for (uint32_t ci = 0; ci < c; ci++) {
					size_t n = policy_command_name(p, side, ri, ti, ci, name,
								       sizeof(name));
					CHECK_INT_EQ(n, strlen(name));
					if (strcmp(name, "/usr/bin/true") == 0) {
						cmd_hits++;
						CHECK(policy_is_match_command(p, side, ri, ti, ci));
						CHECK_INT_EQ(ri, want.role);
						CHECK_INT_EQ(ti, want.task);
						CHECK_INT_EQ(ci, want.command);
					} else {
						CHECK(
						    !policy_is_match_command(p, side, ri, ti, ci));
						CHECK(strncmp(name, "/nonexistent/true.", 18) == 0);
						/* generated in order, so distinct when different
						 * from the previous filler */
						CHECK(strcmp(name, prev) != 0);
						memcpy(prev, name, n + 1);
					}
				}
		}
		CHECK_INT_EQ(uid_hits, 1);
		CHECK_INT_EQ(cmd_hits, 1);
	}
	policy_free(p);
}

static void test_match_last_first_middle(void)
{
	check_single_match(2, 2, 50, 3, POLICY_MATCH_LAST, (struct policy_position){1, 1, 49, 2});
	check_single_match(2, 2, 50, 3, POLICY_MATCH_FIRST, (struct policy_position){0, 0, 0, 0});
	check_single_match(2, 2, 50, 3, POLICY_MATCH_MIDDLE, (struct policy_position){0, 0, 24, 1});
	check_single_match(3, 5, 7, 4, POLICY_MATCH_MIDDLE, (struct policy_position){1, 2, 3, 1});
	check_single_match(1, 1, 1, 1, POLICY_MATCH_MIDDLE, (struct policy_position){0, 0, 0, 0});
	check_single_match(1, 1, 1, 1, POLICY_MATCH_LAST, (struct policy_position){0, 0, 0, 0});
}

static void test_filler_names(void)
{
	struct policy_shape s = shape_of(10, 3, 10000, 10, 4242, POLICY_MATCH_LAST);
	struct errbuf eb = {{0}};
	struct policy *p = policy_build(&s, &eb);
	char name[POLICY_NAME_LEN_MAX];

	CHECK(p != NULL);
	if (p == NULL)
		return;
	policy_command_name(p, POLICY_SIDE_RAR, 0, 0, 0, name, sizeof(name));
	CHECK_STR_EQ(name, "/nonexistent/true.1.1.1");
	policy_command_name(p, POLICY_SIDE_SUDO, 9, 9999, 8, name, sizeof(name));
	CHECK_STR_EQ(name, "/nonexistent/true.10.10000.9");
	policy_command_name(p, POLICY_SIDE_SUDO, 9, 9999, 9, name, sizeof(name));
	CHECK_STR_EQ(name, "/usr/bin/true");
	/* A short buffer truncates, still terminated. */
	CHECK_INT_EQ(policy_command_name(p, POLICY_SIDE_SUDO, 0, 0, 0, name, 8), 7);
	CHECK_STR_EQ(name, "/nonexi");
	CHECK_INT_EQ(policy_actor_uid(p, POLICY_SIDE_SUDO, 9, 2), 4242);
	CHECK_INT_EQ(policy_actor_uid(p, POLICY_SIDE_SUDO, 9, 1), 2147483648u + 28);
	/* The policy owns a copy of the command. */
	CHECK(policy_get_shape(p)->command != s.command);
	CHECK_STR_EQ(policy_get_shape(p)->command, "/usr/bin/true");
	policy_free(p);
	policy_free(NULL);
}

/* The original generator (spec §4): different actors and commands on each side. */
static void test_seed_compat_names(void)
{
	struct policy_shape s = shape_of(2, 2, 2, 2, 1000, POLICY_MATCH_LAST);
	struct errbuf eb = {{0}};
	struct policy *p;
	char name[POLICY_NAME_LEN_MAX];

	s.seed_compat = true;
	p = policy_build(&s, &eb);
	CHECK(p != NULL);
	if (p == NULL)
		return;
	/* sudo side: #(u + 1000*roles), the caller last in every role */
	CHECK_INT_EQ(policy_actor_uid(p, POLICY_SIDE_SUDO, 0, 0), 2001);
	CHECK_INT_EQ(policy_actor_uid(p, POLICY_SIDE_SUDO, 0, 1), 1000);
	CHECK_INT_EQ(policy_actor_uid(p, POLICY_SIDE_SUDO, 1, 1), 1000);
	/* RootAsRole side: 5000 + u, the caller only last of the last role */
	CHECK_INT_EQ(policy_actor_uid(p, POLICY_SIDE_RAR, 0, 0), 5001);
	CHECK_INT_EQ(policy_actor_uid(p, POLICY_SIDE_RAR, 0, 1), 5002);
	CHECK_INT_EQ(policy_actor_uid(p, POLICY_SIDE_RAR, 1, 1), 1000);
	policy_command_name(p, POLICY_SIDE_SUDO, 0, 1, 1, name, sizeof(name));
	CHECK_STR_EQ(name, "/usr/bin/true212");
	policy_command_name(p, POLICY_SIDE_SUDO, 1, 1, 1, name, sizeof(name));
	CHECK_STR_EQ(name, "/usr/bin/true");
	policy_command_name(p, POLICY_SIDE_RAR, 0, 1, 1, name, sizeof(name));
	CHECK_STR_EQ(name, "/usr/bin/true2");
	policy_command_name(p, POLICY_SIDE_RAR, 1, 0, 0, name, sizeof(name));
	CHECK_STR_EQ(name, "/usr/bin/true1");
	policy_free(p);
}

static void test_names_parse(void)
{
	enum policy_match m;
	enum policy_format f;

	CHECK_INT_EQ(policy_match_parse("middle", &m), 0);
	CHECK_INT_EQ(m, POLICY_MATCH_MIDDLE);
	CHECK_INT_EQ(policy_match_parse("Last", &m), -1);
	CHECK_STR_EQ(policy_match_name(POLICY_MATCH_FIRST), "first");
	CHECK_INT_EQ(policy_format_parse("rar-cbor", &f), 0);
	CHECK_INT_EQ(f, POLICY_FORMAT_RAR_CBOR);
	CHECK_INT_EQ(policy_format_parse("cbor", &f), -1);
	CHECK_STR_EQ(policy_format_name(POLICY_FORMAT_DOAS), "doas");
}

int main(void)
{
	RUN(test_validate_rejects_bad_shapes);
	RUN(test_match_last_first_middle);
	RUN(test_filler_names);
	RUN(test_seed_compat_names);
	RUN(test_names_parse);
	return HARNESS_EXIT();
}
