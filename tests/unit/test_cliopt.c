/* Tests for cliopt: long options only in full, the option as written, one line for an unknown. */
#include <string.h>

#include "cliopt.h"
#include "harness.h"

static const struct option opts[] = {
    {"output", required_argument, NULL, 'o'}, {"out-dir", required_argument, NULL, 'd'},
    {"runs", required_argument, NULL, 'r'},   {"dry-run", no_argument, NULL, 'n'},
    {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
};

/* Parses argv (NULL-terminated, at most 8 words) from the start; the first option's result. */
static int first(char **argv, struct cliopt_seen *seen)
{
	int argc = 0;

	while (argv[argc] != NULL)
		argc++;
	optind = 0; /* glibc: 0 starts a new scan */
	return cliopt_next(argc, argv, ":o:r:hV", opts, seen);
}

static void test_full_names_and_short_options_pass(void)
{
	struct cliopt_seen seen;
	char *a[] = {"p", "--output", "x", NULL}, *b[] = {"p", "--output=y", NULL};
	char *c[] = {"p", "-o", "z", NULL}, *d[] = {"p", "--dry-run", NULL};

	CHECK_INT_EQ(first(a, &seen), 'o');
	CHECK_STR_EQ(optarg, "x");
	CHECK_STR_EQ(seen.typed, "--output");
	CHECK_INT_EQ(first(b, &seen), 'o');
	CHECK_STR_EQ(optarg, "y");
	CHECK_INT_EQ(first(c, &seen), 'o');
	CHECK_STR_EQ(seen.typed, "-o");
	CHECK_INT_EQ(first(d, &seen), 'n');
	CHECK_STR_EQ(seen.typed, "--dry-run");
}

static void test_abbreviations_are_refused(void)
{
	struct cliopt_seen seen;
	char *a[] = {"p", "--outp", "x", NULL}, *b[] = {"p", "--run=3", NULL};
	char *c[] = {"p", "--dry", NULL}, *d[] = {"p", "--outp", NULL};

	/* glibc alone would take each of these as the option it starts. */
	CHECK_INT_EQ(first(a, &seen), CLIOPT_ABBREVIATION);
	CHECK_STR_EQ(seen.typed, "--outp");
	CHECK_INT_EQ(first(b, &seen), CLIOPT_ABBREVIATION);
	CHECK_STR_EQ(seen.typed, "--run=3");
	CHECK_INT_EQ(first(c, &seen), CLIOPT_ABBREVIATION);
	/* An abbreviation without its value is an abbreviation first. */
	CHECK_INT_EQ(first(d, &seen), CLIOPT_ABBREVIATION);
}

static void test_unknown_and_missing_values_say_what_was_typed(void)
{
	struct cliopt_seen seen;
	char *a[] = {"p", "--dryrun", NULL}, *b[] = {"p", "-q", NULL}, *c[] = {"p", "--runs", NULL};

	CHECK_INT_EQ(first(a, &seen), '?');
	CHECK_STR_EQ(seen.typed, "--dryrun");
	CHECK_INT_EQ(first(b, &seen), '?');
	CHECK_STR_EQ(seen.typed, "-q");
	CHECK_INT_EQ(first(c, &seen), ':');
	CHECK_STR_EQ(seen.typed, "--runs");
}

static void test_unknown_names_the_nearest_or_the_whole_name(void)
{
	static const char *const extra[] = {"manifest", NULL};
	struct errbuf eb;

	CHECK_INT_EQ(cliopt_unknown("p", "--dryrun", opts, NULL, &eb), -1);
	CHECK_STR_EQ(eb.msg, "unknown option '--dryrun' (did you mean --dry-run? see p --help)");
	cliopt_unknown("p", "--run=3", opts, NULL, &eb);
	CHECK_STR_EQ(eb.msg,
		     "'--run' is not an option: long options are written in full (--runs; see p "
		     "--help)");
	cliopt_unknown("p", "--manif", opts, extra, &eb);
	CHECK(strstr(eb.msg, "(--manifest;") != NULL);
	/* Two names start with "--out": no whole name, the nearest. */
	cliopt_unknown("p", "--out", opts, NULL, &eb);
	CHECK(strstr(eb.msg, "unknown option '--out'") == eb.msg);
	cliopt_unknown("p", "--zzzzzzzz", opts, NULL, &eb);
	CHECK_STR_EQ(eb.msg, "unknown option '--zzzzzzzz' (see p --help)");
	cliopt_unknown("p", "-q", opts, NULL, &eb);
	CHECK_STR_EQ(eb.msg, "unknown option '-q' (see p --help)");
}

int main(void)
{
	RUN(test_full_names_and_short_options_pass);
	RUN(test_abbreviations_are_refused);
	RUN(test_unknown_and_missing_values_say_what_was_typed);
	RUN(test_unknown_names_the_nearest_or_the_whole_name);
	return HARNESS_EXIT();
}
