/* fuzz_straceprof: libFuzzer target for the strace traces the profile pass parses. */
#include <stddef.h>
#include <stdint.h>

#include "straceprof.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct straceprof p;
	struct errbuf eb = {{0}};
	uint64_t sum = 0;

	straceprof_init(&p);
	/* Half the inputs read as a straceprof_cmd trace, rarlaunch's first lines left out. */
	if (size > 0 && (data[0] & 1))
		straceprof_skip_launcher(&p);
	if (straceprof_parse(&p, (const char *)data, size, &eb) == 0) {
		/* Whatever it accepted adds up: every call is one of a named syscall. */
		for (size_t i = 0; i < p.nsyscalls; i++) {
			if (p.syscalls[i].failed > p.syscalls[i].calls)
				__builtin_trap();
			sum += p.syscalls[i].calls;
		}
		if (sum != p.calls || p.failed > p.calls)
			__builtin_trap();
	}
	straceprof_clear(&p);
	return 0;
}
