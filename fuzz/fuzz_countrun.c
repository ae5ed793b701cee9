/* fuzz_countrun: libFuzzer target for the counted run's files (callgrind headers, valgrind logs). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "countrun.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The input split at each "\f" into files: a first byte 'L' makes a file a valgrind log, else
 * a callgrind file; then the run finished. Whatever it accepts adds up.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct countrun *c = calloc(1, sizeof(*c));
	struct errbuf eb = {{0}};
	const char *p = (const char *)data, *end = p + size;
	uint64_t sum = 0;

	if (c == NULL)
		return 0;
	while (p < end) {
		const char *ff = memchr(p, '\f', (size_t)(end - p));
		const char *fe = ff != NULL ? ff : end;

		if (fe > p && p[0] == 'L')
			(void)countrun_parse_log(c, p + 1, (size_t)(fe - p - 1), "log", &eb);
		else
			(void)countrun_parse_callgrind(c, p, (size_t)(fe - p), "cg", &eb);
		if (ff == NULL)
			break;
		p = ff + 1;
	}
	if (countrun_finish(c, &eb) == 0) {
		for (size_t i = 0; i < c->nprocs; i++) {
			if (c->procs[i].name[0] == '\0' || c->procs[i].parts == 0)
				__builtin_trap();
			sum += c->procs[i].instructions;
		}
		if (sum != c->instructions)
			__builtin_trap();
	}
	free(c);
	return 0;
}
