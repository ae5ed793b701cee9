/* policy_format: the policy file formats' names, and the tool and storage each implies. */
#include "policy_format.h"

#include <stddef.h>
#include <string.h>

/* Indexed by enum policy_format. */
static const struct {
	const char *name, *program, *rar_storage;
} policy_formats[POLICY_FORMAT_COUNT] = {
    {"sudoers", "sudo", NULL},
    {"doas", "doas", NULL},
    {"rar-json", "dosr-json", "json"},
    {"rar-cbor", "dosr-cbor", "cbor"},
    /* issue 54: please (crate pleaser) */
    {"please", "please", NULL},
    {"polkit", "pkexec", NULL},
};

const char *policy_format_name(enum policy_format f)
{
	return (unsigned)f < POLICY_FORMAT_COUNT ? policy_formats[f].name : "?";
}

int policy_format_parse(const char *s, enum policy_format *f)
{
	for (size_t i = 0; i < POLICY_FORMAT_COUNT; i++)
		if (strcmp(s, policy_formats[i].name) == 0) {
			*f = (enum policy_format)i;
			return 0;
		}
	return -1;
}

const char *policy_format_program(enum policy_format f)
{
	return (unsigned)f < POLICY_FORMAT_COUNT ? policy_formats[f].program : "?";
}

const char *policy_format_rar_storage(enum policy_format f)
{
	return (unsigned)f < POLICY_FORMAT_COUNT ? policy_formats[f].rar_storage : NULL;
}
