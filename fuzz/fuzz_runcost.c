/* fuzz_runcost: libFuzzer target feeding arbitrary bytes to the dry run's reader of the last
 * sweep's results.json (runcost_sweep_parse), then asking each line it may hold. */
#include <stddef.h>
#include <stdint.h>

#include "runcost.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct errbuf eb = {{0}};
	struct runcost_sweep *sw = NULL;
	struct runcost c;

	if (runcost_sweep_parse((const char *)data, size, &sw, &eb) == 0) {
		if (runcost_sweep_line(sw, "sudo", &c) && !(runcost_at(&c, 1e6) >= 0))
			__builtin_trap();
		(void)runcost_sweep_line(sw, NULL, &c);
	}
	runcost_sweep_free(sw);
	return 0;
}
