/* fuzz_events: libFuzzer target for the progress event stream reader (split at odd offsets). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "hoststream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int sink(void *ctx, const struct events_event *ev)
{
	struct errbuf eb = {{0}};

	*(unsigned *)ctx += (unsigned)ev->kind;
	/* what rarlab fetches: only the three expected names, results.json among them */
	if (ev->kind == EVENTS_DONE && hoststream_files_ok(ev, &eb) == 0) {
		bool results = false;
		for (size_t i = 0; i < ev->nfiles; i++) {
			const char *n = ev->files[i].name;
			if (strcmp(n, "results.json") != 0 && strcmp(n, "results.tsv") != 0 &&
			    strcmp(n, "journal.jsonl") != 0)
				__builtin_trap();
			results |= strcmp(n, "results.json") == 0;
		}
		if (!results)
			__builtin_trap();
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct events_reader *r = events_reader_new();
	struct errbuf eb = {{0}};
	unsigned acc = 0;
	bool done;
	size_t cut = size ? data[0] % (size + 1) : 0;

	if (r == NULL)
		return 0;
	if (events_feed(r, (const char *)data, cut, sink, &acc, &eb) == 0 &&
	    events_feed(r, (const char *)data + cut, size - cut, sink, &acc, &eb) == 0)
		events_finish(r, sink, &acc, &done, &eb);
	events_reader_free(r);
	return 0;
}
