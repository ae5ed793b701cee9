/* fuzz_events: libFuzzer target for the progress event stream reader (split at odd offsets). */
#include <stdint.h>
#include <stdlib.h>

#include "events.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int sink(void *ctx, const struct events_event *ev)
{
	*(unsigned *)ctx += (unsigned)ev->kind;
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
