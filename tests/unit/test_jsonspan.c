/* Tests for jsonspan: strict JSON in place, walks, compact copies. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "jsonspan.h"

static int check(const char *text)
{
	struct jsonspan v;
	struct errbuf eb = {{0}};

	return jsonspan_check(text, strlen(text), &v, &eb);
}

static void test_valid(void)
{
	static const char *const good[] = {
	    "{}",
	    "[]",
	    " {\"a\" : [1, -2.5e+3, 0, 0.25, true, false, null]} ",
	    "\"x\"",
	    "\"\\u00e9\\n\\\\\\\"\\/\"",
	    "\"caf\xc3\xa9\"",
	    "-0",
	    "1E5",
	    "[[[[]]]]",
	    "{\"a\":{\"b\":{\"c\":\"d\"}}}",
	};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		CHECK_INT_EQ(check(good[i]), 0);
		if (check(good[i]) != 0)
			fprintf(stderr, "  refused: %s\n", good[i]);
	}
}

static void test_invalid(void)
{
	static const char *const bad[] = {
	    "",
	    "{",
	    "{\"a\"}",
	    "{\"a\":}",
	    "[1,]",
	    "{\"a\":1,}",
	    "01",
	    "1.",
	    ".5",
	    "1e",
	    "+1",
	    "NaN",
	    "tru",
	    "nul",
	    "\"\\x\"",
	    "\"\\u12g4\"",
	    "\"a\tb\"",
	    "\"\xff\"",
	    "\"\xc0\xaf\"",
	    "\"\xed\xa0\x80\"",
	    "[1] [2]",
	    "{} x",
	    "{'a':1}",
	    "[1 2]",
	    "\"unterminated",
	    "{\"a\" 1}",
	    "[,1]",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_INT_EQ(check(bad[i]), -1);
		if (check(bad[i]) != -1)
			fprintf(stderr, "  accepted: %s\n", bad[i]);
	}
}

static void test_depth_is_bounded(void)
{
	char deep[2 * (JSONSPAN_DEPTH_MAX + 1) + 1];
	int n = JSONSPAN_DEPTH_MAX + 1;

	for (int i = 0; i < n; i++) {
		deep[i] = '[';
		deep[n + i] = ']';
	}
	deep[2 * n] = '\0';
	CHECK_INT_EQ(check(deep), -1);
	/* one level less is fine */
	deep[n - 1] = ' ';
	deep[n] = ' ';
	CHECK_INT_EQ(check(deep), 0);
}

static void test_walk_and_keys(void)
{
	static const char text[] = " { \"res\\u0075lts\" : [ 1 , {\"a\" : 2} ] , \"meta\":null } ";
	struct jsonspan doc = jsonspan_trim(text, strlen(text)), k, v;
	struct jsonspan_iter it, inner;
	struct errbuf eb = {{0}};
	int n = 0;

	CHECK_INT_EQ(jsonspan_walk(&it, doc, 0, &eb), 0);
	CHECK_INT_EQ(jsonspan_next(&it, &k, &v, &eb), JSONSPAN_MEMBER);
	/* keys compare decoded: an escape cannot hide "results" */
	CHECK(jsonspan_string_is(k, "results"));
	CHECK(!jsonspan_string_is(k, "result"));
	CHECK(!jsonspan_string_is(k, "resultss"));
	CHECK_INT_EQ(jsonspan_walk(&inner, v, 1, &eb), 0);
	while (jsonspan_next(&inner, &k, &v, &eb) == JSONSPAN_MEMBER) {
		CHECK(k.p == NULL);
		n++;
	}
	CHECK_INT_EQ(n, 2);
	CHECK_INT_EQ(jsonspan_next(&it, &k, &v, &eb), JSONSPAN_MEMBER);
	CHECK(jsonspan_string_is(k, "meta"));
	CHECK_INT_EQ(jsonspan_next(&it, &k, &v, &eb), JSONSPAN_END);
	CHECK_INT_EQ(jsonspan_next(&it, &k, &v, &eb), JSONSPAN_END);
	/* bytes after the container's end are an error of the walk */
	doc = jsonspan_trim("{\"a\":1} {", 9);
	CHECK_INT_EQ(jsonspan_walk(&it, doc, 0, &eb), 0);
	CHECK_INT_EQ(jsonspan_next(&it, &k, &v, &eb), JSONSPAN_MEMBER);
	CHECK_INT_EQ(jsonspan_next(&it, &k, &v, &eb), JSONSPAN_BAD);
}

/* Each step of a walk names what it read: an empty container ends at once, a missing ',' is bad. */
static void test_walk_steps_are_named(void)
{
	struct jsonspan k, v, doc;
	struct jsonspan_iter it;
	struct errbuf eb = {{0}};

	doc = jsonspan_trim("[]", 2);
	CHECK_INT_EQ(jsonspan_walk(&it, doc, 0, &eb), 0);
	CHECK_INT_EQ(jsonspan_next(&it, &k, &v, &eb), JSONSPAN_END);
	doc = jsonspan_trim("[1 2]", 5);
	CHECK_INT_EQ(jsonspan_walk(&it, doc, 0, &eb), 0);
	CHECK_INT_EQ(jsonspan_next(&it, &k, &v, &eb), JSONSPAN_MEMBER);
	CHECK(k.p == NULL);
	CHECK_INT_EQ(jsonspan_next(&it, &k, &v, &eb), JSONSPAN_BAD);
	CHECK_STR_EQ(eb.msg, "byte 3: expected ',' or ']'");
	doc = jsonspan_trim("{1:2}", 5);
	CHECK_INT_EQ(jsonspan_walk(&it, doc, 0, &eb), 0);
	CHECK_INT_EQ(jsonspan_next(&it, &k, &v, &eb), JSONSPAN_BAD);
	CHECK_STR_EQ(eb.msg, "byte 1: expected a key");
}

static void test_write_compact(void)
{
	static const char text[] = "{ \"a b\" : [ 1 ,\n\t2 ] , \"s\" : \" x \\\" y \" }";
	struct jsonspan v;
	struct errbuf eb = {{0}};
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	CHECK_INT_EQ(jsonspan_check(text, strlen(text), &v, &eb), 0);
	CHECK_INT_EQ(jsonspan_write_compact(f, v), 0);
	fclose(f);
	CHECK_STR_EQ(out, "{\"a b\":[1,2],\"s\":\" x \\\" y \"}");
	free(out);
}

int main(void)
{
	RUN(test_valid);
	RUN(test_invalid);
	RUN(test_depth_is_bounded);
	RUN(test_walk_and_keys);
	RUN(test_walk_steps_are_named);
	RUN(test_write_compact);
	return HARNESS_EXIT();
}
