/* plan_testutil: fixture set-up that the tests of the plan and of the run share (src/plan,
 * src/sweep): a file written whole, and a manifest parsed from its text with its sweep. */
#ifndef RARPERF_PLAN_TESTUTIL_H
#define RARPERF_PLAN_TESTUTIL_H

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "errbuf.h"
#include "manifest.h"
#include "points.h"

/* Writes text to path (made or emptied), then gives the file mode. 0 or -1. */
static inline int testutil_put_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "we");

	if (f == NULL)
		return -1;
	fputs(text, f);
	if (fclose(f) != 0)
		return -1;
	return chmod(path, mode);
}

/*
 * The manifest of text (named source in its messages, as a file rarbench read) into *mp and its
 * sweep. NULL with eb saying why when either fails; *mp is then NULL or the manifest. The
 * caller frees both (sweep_free, manifest_free: NULL-safe).
 */
static inline struct sweep *testutil_sweep_of(const char *text, const char *source,
					      struct manifest **mp, struct errbuf *eb)
{
	*mp = manifest_parse_all(text, strlen(text), source, 0, NULL, eb);
	return *mp != NULL ? sweep_new(*mp, eb) : NULL;
}

#endif
