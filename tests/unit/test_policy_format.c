/* Tests for policy_format: every format's name round-trips, and the tool and storage it implies. */
#include <string.h>

#include "harness.h"
#include "policy_format.h"

static void test_names_round_trip(void)
{
	static const char *const names[POLICY_FORMAT_COUNT] = {"sudoers", "doas", "rar-json",
							       "rar-cbor", "please", "polkit"};
	enum policy_format f = POLICY_FORMAT_SUDOERS;

	for (int i = 0; i < POLICY_FORMAT_COUNT; i++) {
		CHECK_STR_EQ(policy_format_name((enum policy_format)i), names[i]);
		CHECK_INT_EQ(policy_format_parse(names[i], &f), 0);
		CHECK_INT_EQ(f, i);
	}
	CHECK_STR_EQ(policy_format_name((enum policy_format)POLICY_FORMAT_COUNT), "?");
	f = POLICY_FORMAT_DOAS;
	CHECK_INT_EQ(policy_format_parse("rar-", &f), -1);
	CHECK_INT_EQ(policy_format_parse("SUDOERS", &f), -1);
	CHECK_INT_EQ(policy_format_parse("", &f), -1);
	CHECK_INT_EQ(f, POLICY_FORMAT_DOAS); /* untouched on failure */
}

static void test_program_and_storage(void)
{
	CHECK_STR_EQ(policy_format_program(POLICY_FORMAT_SUDOERS), "sudo");
	CHECK_STR_EQ(policy_format_program(POLICY_FORMAT_DOAS), "doas");
	CHECK_STR_EQ(policy_format_program(POLICY_FORMAT_RAR_JSON), "dosr-json");
	CHECK_STR_EQ(policy_format_program(POLICY_FORMAT_RAR_CBOR), "dosr-cbor");
	CHECK_STR_EQ(policy_format_program(POLICY_FORMAT_PLEASE), "please");
	CHECK_STR_EQ(policy_format_program(POLICY_FORMAT_POLKIT), "pkexec");
	CHECK_STR_EQ(policy_format_program((enum policy_format)POLICY_FORMAT_COUNT), "?");
	CHECK(policy_format_rar_storage(POLICY_FORMAT_POLKIT) == NULL);
	CHECK(policy_format_rar_storage(POLICY_FORMAT_SUDOERS) == NULL);
	CHECK(policy_format_rar_storage(POLICY_FORMAT_DOAS) == NULL);
	CHECK_STR_EQ(policy_format_rar_storage(POLICY_FORMAT_RAR_JSON), "json");
	CHECK_STR_EQ(policy_format_rar_storage(POLICY_FORMAT_RAR_CBOR), "cbor");
	CHECK(policy_format_rar_storage(POLICY_FORMAT_PLEASE) == NULL);
	CHECK(policy_format_rar_storage((enum policy_format)POLICY_FORMAT_COUNT) == NULL);
}

int main(void)
{
	RUN(test_names_round_trip);
	RUN(test_program_and_storage);
	return HARNESS_EXIT();
}
