/* between_file: between.tsv written and read back (between_file.h). */
#include "between_file.h"

#include <stdio.h>
#include <stdlib.h>

#include "atomicfile.h"
#include "fileio.h"
#include "sanitize.h"

int between_write(const struct between *b, const char *what, const char *path, struct errbuf *eb)
{
	struct atomicfile *af = atomicfile_open(path, 0644, eb);
	FILE *f;

	if (af == NULL)
		return -1;
	f = atomicfile_stream(af);
	fputs("# ", f);
	sanitize_fputs(what, SANITIZE_TEXT, f);
	fputs("\n" BETWEEN_HEADER "\n", f);
	for (size_t j = 0; j < b->n; j++) {
		if (b->rows[j].sweeps < 2)
			continue;
		fprintf(f, "%s\t%zu\t%.6g\t%.6g\n", b->rows[j].name, b->rows[j].sweeps,
			b->rows[j].between_log_sd, b->rows[j].within_log_sd);
	}
	return atomicfile_commit(af, eb);
}

int between_load(const char *path, struct between *b, struct errbuf *eb)
{
	char *buf = NULL;
	size_t len = 0;
	int rc;

	if (fileio_read(path, BETWEEN_FILE_MAX_BYTES, NULL, &buf, &len, eb) < 0)
		return -1;
	rc = between_parse(buf, len, path, b, eb);
	free(buf);
	return rc;
}
