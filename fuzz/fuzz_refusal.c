/* fuzz_refusal: libFuzzer target for a refusal's error line (outside input: a measured tool's
 * stderr) made safe and classified: the line stays within its bound and holds nothing unsafe. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "refusal.h"
#include "sanitize.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char line[REFUSAL_LINE_MAX];
	size_t n;
	int status;

	if (size < 2)
		return 0;
	/* The first two bytes: a wait status (exited with a code, or killed by a signal). */
	status = data[0] & 1 ? data[1] & 0x7f : (int)data[1] << 8;
	n = refusal_line(line, sizeof(line), (const char *)data + 2, size - 2);
	if (n >= sizeof(line) || n != strlen(line) || sanitize_unsafe_at(line, n) != n)
		abort();
	if ((unsigned)refusal_classify(status, data[0] & 2, line) >= REFUSAL_CLASS_COUNT)
		abort();
	return 0;
}
