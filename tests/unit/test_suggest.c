/* Tests for suggest: the distance, the budget that keeps unrelated names apart, ties, prefixes. */
#include <string.h>

#include "harness.h"
#include "suggest.h"

static void test_distance_counts_edits_and_swaps(void)
{
	CHECK_INT_EQ((int)suggest_distance("", ""), 0);
	CHECK_INT_EQ((int)suggest_distance("abc", ""), 3);
	CHECK_INT_EQ((int)suggest_distance("kitten", "sitting"), 3);
	CHECK_INT_EQ((int)suggest_distance("repetition", "repetitions"), 1);
	CHECK_INT_EQ((int)suggest_distance("nb_role", "nb_roles"), 1);
	CHECK_INT_EQ((int)suggest_distance("sr-cbor", "dosr-cbor"), 2);
	/* An adjacent swap is one edit, not two. */
	CHECK_INT_EQ((int)suggest_distance("nb_rloes", "nb_roles"), 1);
	CHECK_INT_EQ((int)suggest_distance("ab", "ba"), 1);
}

static void test_distance_refuses_overlong_words(void)
{
	char long_word[SUGGEST_WORD_MAX + 2];

	memset(long_word, 'a', sizeof(long_word) - 1);
	long_word[sizeof(long_word) - 1] = '\0';
	CHECK_INT_EQ((int)suggest_distance(long_word, "a"), SUGGEST_WORD_MAX + 1);
	CHECK(suggest_nearest(long_word, (const char *const[]){"a", NULL}) == NULL);
}

static void test_nearest_finds_the_newcomers_typos(void)
{
	static const char *const keys[] = {"name",        "description", "subjects", "axes",
					   "repetitions", "rounds",      "seed",     NULL};
	static const char *const axes[] = {"nb_roles", "nb_users", "nb_tasks", "nb_commands", NULL};
	static const char *const bins[] = {"confgen",  "doas", "dosr-cbor", "dosr-json",
					   "rarbench", "sudo", "sudo-rs",   NULL};

	CHECK_STR_EQ(suggest_nearest("repetition", keys), "repetitions");
	CHECK_STR_EQ(suggest_nearest("Repetitions", keys), "repetitions");
	CHECK_STR_EQ(suggest_nearest("nb_role", axes), "nb_roles");
	CHECK_STR_EQ(suggest_nearest("nb_task", axes), "nb_tasks");
	CHECK_STR_EQ(suggest_nearest("sr-cbor", bins), "dosr-cbor");
	CHECK_STR_EQ(suggest_nearest("sudors", bins), "sudo-rs");
}

static void test_nearest_says_nothing_for_unrelated_words(void)
{
	static const char *const keys[] = {"name", "axes", "seed", NULL};

	CHECK(suggest_nearest("zzzzzzzz", keys) == NULL);
	CHECK(suggest_nearest("", keys) == NULL);
	/* An exact match is not a suggestion: the caller refused it for another reason. */
	CHECK(suggest_nearest("name", keys) == NULL);
	/* Short words get one edit at most: "id" is not "sr". */
	CHECK(suggest_nearest("sr", (const char *const[]){"id", NULL}) == NULL);
}

static void test_ties_go_to_the_earliest_and_a_unique_prefix_wins(void)
{
	CHECK_STR_EQ(suggest_nearest("ab", (const char *const[]){"ax", "ay", NULL}), "ax");
	CHECK_STR_EQ(
	    suggest_nearest("nb_com", (const char *const[]){"nb_roles", "nb_commands", NULL}),
	    "nb_commands");
	/* Two candidates start with the word and neither is near: no guess. */
	CHECK(suggest_nearest("nb_", (const char *const[]){"nb_roles", "nb_tasks", NULL}) == NULL);
}

int main(void)
{
	RUN(test_distance_counts_edits_and_swaps);
	RUN(test_distance_refuses_overlong_words);
	RUN(test_nearest_finds_the_newcomers_typos);
	RUN(test_nearest_says_nothing_for_unrelated_words);
	RUN(test_ties_go_to_the_earliest_and_a_unique_prefix_wins);
	return HARNESS_EXIT();
}
