/* fuzz_pamstack: libFuzzer target feeding arbitrary bytes to the PAM service-file scanner; every
 * name it reports must be a non-empty NUL-terminated string shorter than PAMSTACK_NAME_MAX. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pamstack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fuzz_check(enum pamstack_kind kind, const char *name, int optional, void *arg)
{
	size_t n = strlen(name);

	(void)arg;
	if (n == 0 || n >= PAMSTACK_NAME_MAX ||
	    (kind != PAMSTACK_MODULE && kind != PAMSTACK_INCLUDE) ||
	    (optional != 0 && optional != 1))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pamstack_scan((const char *)data, size, fuzz_check, NULL);
	return 0;
}
