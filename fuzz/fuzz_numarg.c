/* fuzz_numarg: libFuzzer target for the number parsers of command lines and files (numarg.h). */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numarg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct numarg_bounds pct = {0, 100, NUMARG_OPEN_HI | NUMARG_PERCENT_SIGN};
	const struct numarg_words w = {"--opt", "a number", NUMARG_WORDING_QUOTED};
	struct errbuf eb = {{0}};
	char *s = malloc(size + 1), back[32];
	const char *end = NULL;
	uint64_t u = 0;
	double d = 0;
	long ms = 0;
	int64_t i = 0;
	int base;

	if (s == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	/* A count read is the count written back, leading zeros aside. */
	if (numarg_u64(s, 0, UINT64_MAX, &u) == NUMARG_OK) {
		uint64_t again = 0;

		snprintf(back, sizeof(back), "%" PRIu64, u);
		if (numarg_u64(back, 0, UINT64_MAX, &again) != NUMARG_OK || again != u)
			abort();
	}
	if (numarg_double(s, &pct, &d) == NUMARG_OK && !(d >= 0 && d < 100))
		abort();
	if (numarg_seconds_ms(s, 86400.0 * 30, &ms) == NUMARG_OK && !(ms >= 1 && ms <= 2592000000L))
		abort();
	if (numarg_double_prefix(s, NULL, &d, &end) == NUMARG_OK &&
	    (!isfinite(d) || end < s || end > s + strlen(s)))
		abort();
	if (numarg_get_u64(&w, s, 1, 1024, &u, &eb) != 0 && eb.msg[0] == '\0')
		abort(); /* a refusal always says why */
	/* The file readers: the end stays inside s, and nothing read is a 0 with the end at s. */
	base = size > 0 ? (int[]){0, 8, 10, 16}[data[0] & 3] : 10;
	if ((numarg_i64_prefix(s, base, &i, &end) == NUMARG_NOT_NUMBER && (i != 0 || end != s)) ||
	    end < s || end > s + strlen(s))
		abort();
	if ((numarg_u64_prefix(s, base, &u, &end) == NUMARG_NOT_NUMBER && (u != 0 || end != s)) ||
	    end < s || end > s + strlen(s))
		abort();
	if ((numarg_any_double_prefix(s, &d, &end) == NUMARG_NOT_NUMBER && (d != 0 || end != s)) ||
	    end < s || end > s + strlen(s))
		abort();
	(void)numarg_leading_double(s);
	(void)numarg_leading_u64(s);
	free(s);
	return 0;
}
