/* diary_file: a diary file read (diary_file.h). */
#include "diary_file.h"

#include <stdlib.h>

#include "fileio.h"

struct diary *diary_load(const char *path, struct errbuf *eb)
{
	struct diary *d;
	char *text = NULL;
	size_t len = 0;

	if (fileio_read(path, DIARY_FILE_MAX, NULL, &text, &len, eb) != 0)
		return NULL;
	d = diary_parse(text, len, path, eb);
	free(text);
	return d;
}
