/* fuzz_kernelcost: libFuzzer target feeding arbitrary bytes, as a results.json, to the reader of
 * the kernel's prices and to the prediction from each result's profile. */
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "kernelcost.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct errbuf eb = {{0}};
	struct kernelcost_prices p;
	struct kernelcost_parts parts;
	cJSON *root = cJSON_ParseWithLength((const char *)data, size);
	const cJSON *e;
	volatile double sink = 0;

	if (root == NULL)
		return 0;
	if (kernelcost_read(root, &p, &eb) == 1) {
		cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(root, "results"))
		{
			/* Read the parts, so a half-filled one shows up under ASan/UBSan. */
			if (kernelcost_predict(&p, cJSON_GetObjectItemCaseSensitive(e, "profile"),
					       1e6, &parts, &eb) == 0)
				sink += parts.kernel + parts.user;
		}
	}
	cJSON_Delete(root);
	(void)sink;
	return 0;
}
