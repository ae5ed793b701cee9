/* runner_passfile: one point's file of a pass written whole. */
#include "runner_passfile.h"

#include <stdio.h>
#include <stdlib.h>

#include "atomicfile.h"

int runner_passfile_write(const char *path, const cJSON *doc, struct errbuf *eb)
{
	struct atomicfile *af;
	char *text = cJSON_Print(doc);
	int rc = -1;

	if (text == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	if ((af = atomicfile_open_regular(path, 0644, eb)) == NULL)
		goto out;
	fputs(text, atomicfile_stream(af));
	fputc('\n', atomicfile_stream(af));
	rc = atomicfile_rename(af, eb);
out:
	free(text);
	return rc;
}
