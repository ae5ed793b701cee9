/* fuzz_history: libFuzzer target for rarplot --history's reading of fits.tsv: whatever the bytes,
 * history_run returns 0 (and appends its section to report.md) or -1 with a message, and never
 * crashes, reads out of bounds or leaks. The input is the whole fits.tsv of a scratch directory. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "history.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];

static int put(const char *name, const uint8_t *data, size_t size)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "we");
	if (f == NULL)
		return -1;
	fwrite(data, 1, size, f);
	return fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct errbuf eb = {{0}};
	const struct history_opts o = {
	    .out_dir = dir, .anchor = "sudo", .alpha = 0.05, .min_rel_pct = 3.0};
	int rc;

	if (dir[0] == '\0') {
		snprintf(dir, sizeof(dir), "/tmp/rp-fuzz-history.XXXXXX");
		if (mkdtemp(dir) == NULL)
			abort();
	}
	if (put("fits.tsv", data, size) != 0 || put("report.md", (const uint8_t *)"", 0) != 0)
		abort();
	rc = history_run(&o, &eb);
	if (rc != 0 && (rc != -1 || eb.msg[0] == '\0'))
		__builtin_trap();
	return 0;
}
