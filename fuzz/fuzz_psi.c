/* fuzz_psi: libFuzzer target for psi's parsers of kernel text (psi.h): cpu.pressure, a
 * mountinfo line, /proc/self/cgroup. Whatever they accept fits its buffer and is terminated. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "psi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	char mnt[64], root[64], path[64];
	uint64_t us;

	if (psi_parse_some_total(text, size, &us) == 0 && (size < 12 || memcmp(text, "some ", 5)))
		__builtin_trap();
	if (psi_parse_mountinfo_line(text, size, mnt, root, sizeof(mnt)) == 1 &&
	    (strnlen(mnt, sizeof(mnt)) >= sizeof(mnt) ||
	     strnlen(root, sizeof(root)) >= sizeof(root) || mnt[0] != '/' || root[0] != '/'))
		__builtin_trap();
	if (psi_parse_cgroup(text, size, path, sizeof(path)) == 0 &&
	    (strnlen(path, sizeof(path)) >= sizeof(path) || path[0] != '/'))
		__builtin_trap();
	return 0;
}
