/* fuzz_journal: libFuzzer target for the journal reader (outside input: a file left by a crash). */
#include <stddef.h>
#include <stdint.h>

#include "journal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct journal_contents c;
	struct errbuf eb = {0};

	if (journal_parse((const char *)data, size, "fuzz.jsonl", &c, &eb) == 0)
		journal_contents_clear(&c);
	return 0;
}
