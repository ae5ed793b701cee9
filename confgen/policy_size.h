/* policy_size: the bytes each policy file of a format would have, computed without writing it. */
#ifndef RARPERF_POLICY_SIZE_H
#define RARPERF_POLICY_SIZE_H

#include <stdint.h>

#include "errbuf.h"
#include "policy.h"

/* The files one format writes, in bytes. */
struct policy_size_bytes {
	uint64_t policy_bytes; /* sudoers, doas.conf, the RootAsRole JSON or CBOR settings file */
	uint64_t data_bytes;   /* rar-cbor: the CBOR data file; 0 for the other formats */
};

/*
 * Fills *out with the exact sizes the writer of format f (policy_stage_sudoers,
 * _doas, _rar_json, _rar_cbor) would give its files for p, writing nothing.
 * layout is read for sudoers only; rar_version (NULL: POLICY_RAR_VERSION) for
 * rar-json and rar-cbor only. named_path is the path a RootAsRole settings
 * document names, as the writer puts it there (policy_file_abspath of the
 * rar-json file itself, or of the rar-cbor data file); it is ignored (may be
 * NULL) for sudoers and doas.
 *
 * Closed form: sums of decimal (and CBOR head) lengths over index ranges, a
 * few hundred operations whatever the shape, so 10^8 commands cost well
 * under a microsecond of work per format (selfbench/policy_size.sh). Every
 * count fits: the largest file confgen's limits allow is below 2^57 bytes.
 *
 * Returns 0, or -1 with eb filled (the writer would refuse too): an unknown
 * format or layout, a bad rar_version, a missing named_path for a rar
 * format, or a doas file beyond POLICY_DOAS_RULES_MAX rules.
 */
int policy_size(const struct policy *p, enum policy_format f, enum sudoers_layout layout,
		const char *rar_version, const char *named_path, struct policy_size_bytes *out,
		struct errbuf *eb) __attribute__((warn_unused_result));

#endif
