/* fuzz_countprice: libFuzzer target feeding arbitrary bytes, as a results.json, to the reader of
 * counted instructions and rarref's counts (rarplot --counts-from, predicted.md's counts ×
 * prices), and to the machine identity that decides whether counts may join times. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "countprice.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct errbuf eb = {{0}};
	struct countprice_source src = {0};
	char machine[sizeof(src.machine)];
	cJSON *root = cJSON_ParseWithLength((const char *)data, size);
	volatile double sink = 0;

	if (root == NULL)
		return 0;
	src.path = "fuzz";
	src.ref_instructions = NAN;
	countprice_machine(root, machine, sizeof(machine));
	if (countprice_add_file(&src, root, "nb_tasks", &eb) == 0) {
		/* Read every point back, so a half-filled one shows up under ASan/UBSan. */
		for (size_t i = 0; i < src.n; i++)
			sink += countprice_find(&src, src.points[i].subject, src.points[i].x);
		sink += countprice_same_machine(&src, "fuzz", machine, &eb);
	}
	countprice_clear(&src);
	cJSON_Delete(root);
	(void)sink;
	return 0;
}
