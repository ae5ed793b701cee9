/* fuzz_between: libFuzzer target for rarplot's between.tsv parser (--between): whatever it accepts
 * has at most BETWEEN_MAX_ROWS rows of printable, distinct names, sweeps in 2..64 and numbers in
 * [0, 10), and widening a comparison with it keeps each interval around its value. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "between.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct between b;
	struct errbuf eb = {{0}};
	struct compare_outcome o;

	if (between_parse((const char *)data, size, "f.tsv", &b, &eb) != 0) {
		if (strncmp(eb.msg, "f.tsv", 5) != 0)
			__builtin_trap();
		return 0;
	}
	if (b.n > BETWEEN_MAX_ROWS)
		__builtin_trap();
	memset(&o, 0, sizeof(o));
	o.paired = true;
	for (size_t i = 0; i < b.n; i++) {
		const struct between_row *r = &b.rows[i];

		if (r->sweeps < 2 || r->sweeps > COMPARE_MAX_SWEEPS || !(r->between_log_sd >= 0) ||
		    !(r->between_log_sd < 10) || !(r->within_log_sd >= 0) ||
		    !(r->within_log_sd < 10) || strlen(r->name) == 0)
			__builtin_trap();
		for (const char *c = r->name; *c; c++)
			if (*c < 0x20 || *c > 0x7e)
				__builtin_trap();
		for (size_t j = 0; j < i; j++)
			if (strcmp(b.rows[j].name, r->name) == 0)
				__builtin_trap();
		memcpy(o.q[o.n_q].name, r->name, COMPARE_NAME_MAX);
		o.q[o.n_q++].paired = (struct paired_ratio){0.9, 0.85, 0.95};
	}
	between_widen(&o, &b, 0.02);
	for (size_t i = 0; i < o.n_q; i++)
		if (!(o.q[i].paired.lo <= 0.85 && o.q[i].paired.hi >= 0.95))
			__builtin_trap();
	return 0;
}
