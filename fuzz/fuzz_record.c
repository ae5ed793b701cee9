/* fuzz_record: libFuzzer target for the record a crashed manifest run leaves
 * (PREFIX/run/state.json). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "runner_guard.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct runner_target t[MANIFEST_SUBJECTS_MAX];
	struct errbuf eb = {{0}};
	cJSON *record = cJSON_ParseWithLength((const char *)data, size);
	size_t n = 0;

	if (runner_guard_record_targets("/tmp", record, t, &n, &eb) == 0) {
		/* Whatever it said, a target it accepts lies under etc_real. */
		for (size_t i = 0; i < n; i++)
			if (t[i].policy == NULL || t[i].id == NULL)
				__builtin_trap();
	}
	cJSON_Delete(record);
	return 0;
}
