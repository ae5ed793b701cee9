/* fuzz_cgroup2: libFuzzer target for the parsers of kernel text: a mountinfo line and
 * /proc/self/cgroup (cgroup2.h), /proc/PID/schedstat (schedwait.h). Whatever they accept fits
 * its buffer and is terminated. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cgroup2.h"
#include "schedwait.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	char mnt[64], root[64], path[64];
	uint64_t us;

	/* An accepted schedstat is three numbers: at least "0 0 0". */
	if (schedwait_parse(text, size, &us) == 0 && (size < 5 || text[0] < '0' || text[0] > '9'))
		__builtin_trap();
	if (cgroup2_parse_mountinfo_line(text, size, mnt, root, sizeof(mnt)) ==
		CGROUP2_MOUNT_FOUND &&
	    (strnlen(mnt, sizeof(mnt)) >= sizeof(mnt) ||
	     strnlen(root, sizeof(root)) >= sizeof(root) || mnt[0] != '/' || root[0] != '/'))
		__builtin_trap();
	if (cgroup2_parse_self(text, size, path, sizeof(path)) == 0 &&
	    (strnlen(path, sizeof(path)) >= sizeof(path) || path[0] != '/'))
		__builtin_trap();
	return 0;
}
