/* fuzz_manifest: libFuzzer target for the manifest parser (outside input: any JSON file). */
#include <stddef.h>
#include <stdint.h>

#include "manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct errbuf eb = {0};
	struct manifest *m =
	    manifest_parse_all((const char *)data, size, "fuzz.json", 0, NULL, &eb);

	manifest_free(m);
	return 0;
}
