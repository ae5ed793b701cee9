/* fuzz_history: libFuzzer target for rarplot --history's reading of fits.tsv: whatever the bytes,
 * history_run returns 0 (and appends its section to report.md) or -1 with a message, and never
 * crashes, reads out of bounds or leaks. The input is the whole fits.tsv of a scratch directory. */
#include <ftw.h>
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

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)type, (void)ftw;
	return remove(path);
}

/* libFuzzer ends with exit() (runs, time or a crash's own path): the scratch directory goes with
 * it, else every run of make fuzz leaves one under /tmp. */
static void remove_dir(void)
{
	if (dir[0] != '\0')
		nftw(dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
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
		atexit(remove_dir);
	}
	if (put("fits.tsv", data, size) != 0 || put("report.md", (const uint8_t *)"", 0) != 0)
		abort();
	rc = history_run(&o, &eb);
	if (rc != 0 && (rc != -1 || eb.msg[0] == '\0'))
		__builtin_trap();
	return 0;
}
