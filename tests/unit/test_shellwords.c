/* Tests for shellwords: POSIX shell-word splitting without expansion (hyperfine -N). */
#include "harness.h"
#include "shellwords.h"

static void check_split(const char *in, const char *const *want, size_t n)
{
	struct errbuf eb = {{0}};
	char **w = shellwords_split(in, &eb);

	CHECK(w != NULL);
	if (w == NULL)
		return;
	CHECK_INT_EQ(shellwords_count(w), n);
	for (size_t i = 0; i < n && w[i] != NULL; i++)
		CHECK_STR_EQ(w[i], want[i]);
	shellwords_free(w);
}

static void test_plain(void)
{
	const char *want[] = {"bin/sudo", "/usr/bin/true"};

	check_split("  bin/sudo \t /usr/bin/true  ", want, 2);
}

static void test_quotes(void)
{
	const char *want[] = {"sh", "-c", "exit 3", "a b\"c", "x'y", ""};

	check_split("sh -c 'exit 3' \"a b\\\"c\" x\\'y ''", want, 6);
}

static void test_double_quote_escapes(void)
{
	/* Inside "...", only \ $ ` " and newline are escapable; \n stays two characters. */
	const char *want[] = {"a\\nb$c"};

	check_split("\"a\\nb\\$c\"", want, 1);
}

static void test_adjacent_and_comment(void)
{
	const char *want[] = {"abc", "d#e"};

	check_split("a'b'\"c\" d#e # a comment", want, 2);
}

static void test_backslash_newline(void)
{
	const char *want[] = {"ab", "c"};

	check_split("a\\\nb c", want, 2);
}

static void test_empty(void)
{
	check_split("", NULL, 0);
	check_split("   ", NULL, 0);
}

static void test_errors(void)
{
	struct errbuf eb = {{0}};

	CHECK(shellwords_split("echo 'oops", &eb) == NULL);
	CHECK(strstr(eb.msg, "unterminated single quote") != NULL);
	CHECK(shellwords_split("echo \"oops", &eb) == NULL);
	CHECK(strstr(eb.msg, "unterminated double quote") != NULL);
	CHECK(shellwords_split("echo oops\\", &eb) == NULL);
	CHECK(strstr(eb.msg, "trailing backslash") != NULL);
	shellwords_free(NULL);
}

int main(void)
{
	RUN(test_plain);
	RUN(test_quotes);
	RUN(test_double_quote_escapes);
	RUN(test_adjacent_and_comment);
	RUN(test_backslash_newline);
	RUN(test_empty);
	RUN(test_errors);
	return HARNESS_EXIT();
}
