/* fuzz_claims: libFuzzer target feeding arbitrary bytes to rarplot's claims-file parser. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "claims.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct errbuf eb = {{0}};
	struct claims *c = claims_parse((const char *)data, size, "fuzz", &eb);
	size_t i;

	if (c == NULL) {
		/* Every refusal is one line. */
		if (eb.msg[0] == '\0' || strchr(eb.msg, '\n') != NULL)
			__builtin_trap();
		return 0;
	}
	for (i = 0; i < c->n; i++)
		if (c->items[i].id[0] == '\0' || c->items[i].source == NULL ||
		    (unsigned)c->items[i].quantity > CLAIMS_CROSSOVER)
			__builtin_trap();
	claims_free(c);
	return 0;
}
