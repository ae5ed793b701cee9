/* policy_format: the policy file formats' names, and the tool and storage each implies. */
#ifndef RARPERF_POLICY_FORMAT_H
#define RARPERF_POLICY_FORMAT_H

/*
 * The one place the formats are spelled. confgen writes them (policy.h
 * includes this header), manifests and results name them, and src/fit reads
 * them back; fit may use src/common only, so the table lives here rather than
 * in confgen.
 */
enum policy_format {
	POLICY_FORMAT_SUDOERS,
	POLICY_FORMAT_DOAS,
	POLICY_FORMAT_RAR_JSON,
	POLICY_FORMAT_RAR_CBOR,
	POLICY_FORMAT_PLEASE,
	/* Added at the end: results and manifests name formats, never their numbers. */
	POLICY_FORMAT_POLKIT
};
#define POLICY_FORMAT_COUNT 6

/* "sudoers", "doas", "rar-json", "rar-cbor", "please" or "polkit"; "?" for a value out of range. */
const char *policy_format_name(enum policy_format f);

/* Parses a format name into *f. Returns 0, or -1 when s names none. */
int policy_format_parse(const char *s, enum policy_format *f);

/*
 * The program that reads format f as the prefix installs it, named as
 * facts.json names tools: "sudo", "doas", "dosr-json", "dosr-cbor" (the
 * default build of RootAsRole for each storage), "please", "pkexec"; "?" out of range.
 */
const char *policy_format_program(enum policy_format f);

/* RootAsRole's storage for f ("json", "cbor"), or NULL when f is not RootAsRole's. */
const char *policy_format_rar_storage(enum policy_format f);

#endif
