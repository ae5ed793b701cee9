/* fuzz_claims: libFuzzer target feeding arbitrary bytes to rarplot's claims-file parser, and each
 * claim parsed to the Markdown writer, whose output must hold no control, bidi control, invalid
 * UTF-8 nor unescaped '<'. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claims.h"
#include "claims_file.h"
#include "fuzz_markdown.h"

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
	for (i = 0; i < c->n; i++) {
		struct claims_check ck;
		char *out = NULL;
		size_t out_len = 0;
		FILE *f;

		if (c->items[i].id[0] == '\0' || c->items[i].source == NULL ||
		    (unsigned)c->items[i].quantity > CLAIMS_CROSSOVER)
			__builtin_trap();
		memset(&ck, 0, sizeof(ck));
		ck.claim = &c->items[i];
		ck.host = "-";
		ck.measured.value = ck.measured.se = ck.measured.lo = ck.measured.hi = NAN;
		ck.verdict = CLAIMS_NOT_MEASURED;
		f = open_memstream(&out, &out_len);
		if (f == NULL)
			continue;
		claims_print_markdown(&ck, 1, "task", f);
		fclose(f);
		if (!fuzz_markdown_inert(out, out_len))
			__builtin_trap();
		free(out);
	}
	claims_free(c);
	return 0;
}
