/* Tests for refusal (src/sweep/refusal.h): a failed grant check classified from its wait status
 * and the tool's own line (the real tools' words), and that line made safe and bounded. */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "harness.h"
#include "refusal.h"
#include "sanitize.h"

/* A raw wait status: exited with code, or killed by sig. */
#define EXITED(code) ((code) << 8)
#define KILLED(sig) (sig)

/* The tools' own words at their limits, parse errors and crashes. */
static void test_classify_tools_words(void)
{
	/* sudo-rs 0.2.15 past its list limit (its first stderr line; exit 1). */
	CHECK_INT_EQ(refusal_classify(EXITED(1), false,
				      "sudo-rs: /etc/sudoers-rs:2:4012: too many items in list"),
		     REFUSAL_LIMIT);
	CHECK_INT_EQ(refusal_classify(EXITED(1), false, "Argument list TOO LONG"), REFUSAL_LIMIT);
	CHECK_INT_EQ(refusal_classify(EXITED(1), false, "sudo: /etc/sudoers:3:12: syntax error"),
		     REFUSAL_PARSE);
	CHECK_INT_EQ(
	    refusal_classify(EXITED(1), false, "doas: /etc/doas.conf:7: syntax error at line 7"),
	    REFUSAL_PARSE);
	CHECK_INT_EQ(refusal_classify(EXITED(1), false, "Error: Parse error at 1:4"),
		     REFUSAL_PARSE);
	/* please 0.6.0 past its 10 MiB of configuration, and on a rule that is no regex (both
	 * on stdout, which its grant check keeps: PROC_OUTPUT_BOTH_FD; exit 1). */
	CHECK_INT_EQ(
	    refusal_classify(EXITED(1), false, "Exiting as too much config has already been read."),
	    REFUSAL_LIMIT);
	CHECK_INT_EQ(refusal_classify(EXITED(1), false, "Error parsing /etc/please.ini: R1T1:4"),
		     REFUSAL_PARSE);
	/* Its plain denial stays one. */
	CHECK_INT_EQ(refusal_classify(EXITED(1), false,
				      "You may not execute \"/usr/bin/true\" on host as root"),
		     REFUSAL_NONE);
	/* Rust's panic: exit 101, or its words whatever the status. */
	CHECK_INT_EQ(refusal_classify(EXITED(101), false, ""), REFUSAL_CRASH);
	CHECK_INT_EQ(
	    refusal_classify(EXITED(1), false,
			     "thread 'main' panicked at src/main.rs:3:5: index out of bounds"),
	    REFUSAL_CRASH);
	CHECK_INT_EQ(refusal_classify(KILLED(SIGSEGV), false, NULL), REFUSAL_CRASH);
	CHECK_INT_EQ(refusal_classify(KILLED(SIGABRT), false, "too many items"), REFUSAL_CRASH);
	/* "stack overflow" is a crash, not a limit's "overflow". */
	CHECK_INT_EQ(refusal_classify(EXITED(1), false,
				      "thread 'main' has overflowed its stack; "
				      "fatal runtime error: stack overflow"),
		     REFUSAL_CRASH);
	CHECK_INT_EQ(refusal_classify(EXITED(1), true, ""), REFUSAL_TIMEOUT);
	CHECK_INT_EQ(refusal_classify(KILLED(SIGKILL), true, NULL), REFUSAL_TIMEOUT);
}

/* A plain denial, silence or a success is no refusal: the sweep stops as it did. */
static void test_classify_denial_is_none(void)
{
	CHECK_INT_EQ(
	    refusal_classify(EXITED(1), false,
			     "Sorry, user rarperf is not allowed to execute '/usr/bin/true' "
			     "as root on host."),
	    REFUSAL_NONE);
	CHECK_INT_EQ(
	    refusal_classify(EXITED(1), false, "I'm sorry rarperf. I'm afraid I can't do that"),
	    REFUSAL_NONE);
	CHECK_INT_EQ(refusal_classify(EXITED(1), false, "doas: Operation not permitted"),
		     REFUSAL_NONE);
	CHECK_INT_EQ(refusal_classify(EXITED(1), false, ""), REFUSAL_NONE);
	CHECK_INT_EQ(refusal_classify(EXITED(1), false, NULL), REFUSAL_NONE);
	CHECK_INT_EQ(refusal_classify(EXITED(0), false, "too many items in list"), REFUSAL_NONE);
}

static void test_class_names(void)
{
	CHECK_STR_EQ(refusal_class_name(REFUSAL_LIMIT), "limit");
	CHECK_STR_EQ(refusal_class_name(REFUSAL_PARSE), "parse");
	CHECK_STR_EQ(refusal_class_name(REFUSAL_CRASH), "crash");
	CHECK_STR_EQ(refusal_class_name(REFUSAL_TIMEOUT), "timeout");
	CHECK_STR_EQ(refusal_class_name(REFUSAL_NONE), "none");
	CHECK_STR_EQ(refusal_class_name(REFUSAL_CLASS_COUNT), "?");
}

/* The first non-blank line, its CR LF dropped. */
static void test_line_first_non_blank(void)
{
	char out[REFUSAL_LINE_MAX];
	const char raw[] = "\r\n\nsudo-rs: too many items in list\r\nI'm sorry\n";

	CHECK_INT_EQ(refusal_line(out, sizeof(out), raw, strlen(raw)),
		     strlen("sudo-rs: too many items in list"));
	CHECK_STR_EQ(out, "sudo-rs: too many items in list");
	CHECK_INT_EQ(refusal_line(out, sizeof(out), "", 0), 0);
	CHECK_STR_EQ(out, "");
	CHECK_INT_EQ(refusal_line(out, sizeof(out), NULL, 5), 0);
	CHECK_INT_EQ(refusal_line(out, 0, raw, strlen(raw)), 0);
}

/* Untrusted bytes: an escape sequence, a bidi override, invalid UTF-8 and a NUL are escaped,
 * never passed; a long line is cut within the bound at a whole escape. */
static void test_line_sanitised_and_bounded(void)
{
	char out[REFUSAL_LINE_MAX], big[4096];
	const char raw[] = "\x1b[2Jerr \xe2\x80\xae\xff\x00tail\nnext";
	size_t n;

	n = refusal_line(out, sizeof(out), raw, sizeof(raw) - 1);
	CHECK(n == strlen(out));
	CHECK_INT_EQ(sanitize_unsafe_at(out, n), n);
	CHECK(strchr(out, '\x1b') == NULL);
	CHECK(strstr(out, "\\x1b[2Jerr") == out);
	CHECK(strstr(out, "\\xe2\\x80\\xae") != NULL);
	CHECK(strstr(out, "\\xff\\x00tail") != NULL);
	CHECK(strstr(out, "next") == NULL);
	memset(big, '\x07', sizeof(big));
	n = refusal_line(out, sizeof(out), big, sizeof(big));
	CHECK(n < sizeof(out));
	CHECK_INT_EQ(n % 4, 0); /* whole "\x07" escapes only */
	CHECK_INT_EQ(sanitize_unsafe_at(out, n), n);
}

int main(void)
{
	RUN(test_classify_tools_words);
	RUN(test_classify_denial_is_none);
	RUN(test_class_names);
	RUN(test_line_first_non_blank);
	RUN(test_line_sanitised_and_bounded);
	return HARNESS_EXIT();
}
