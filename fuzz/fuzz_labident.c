/* fuzz_labident: libFuzzer target feeding arbitrary bytes to rarlab's parser of a host's identity
 * probe, then comparing the host with itself and a fixed host: every value read must be inert
 * (no control byte) and the comparison's JSON must parse. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "labident.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char fixed[] = "{}\n" LABIDENT_MARK "\ncpus=2\nkernel=6.1\n";
	const char *names[] = {"x", "y", "z"};
	struct errbuf eb = {{0}};
	struct labident *h[3] = {labident_parse((const char *)data, size, &eb), NULL, NULL};
	struct labident_cmp *c;
	char *json;

	if (h[0] == NULL)
		return 0;
	h[1] = labident_parse((const char *)data, size, &eb);
	h[2] = labident_parse(fixed, sizeof(fixed) - 1, &eb);
	c = labident_compare(h, names, 3, &eb);
	if (c != NULL) {
		if (labident_cmp_group(c, 0) != labident_cmp_group(c, 1))
			abort(); /* a host always equals itself */
		json = labident_cmp_json(c);
		if (json != NULL) {
			cJSON *p = cJSON_Parse(json);
			if (p == NULL)
				abort();
			for (const char *s = json; *s; s++)
				if ((unsigned char)*s < 0x20)
					abort();
			cJSON_Delete(p);
		}
		free(json);
	}
	labident_cmp_free(c);
	for (int i = 0; i < 3; i++)
		labident_free(h[i]);
	return 0;
}
