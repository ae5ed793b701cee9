/* siteout: pages written whole, raw files copied (siteout.h). */
#include "siteout.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomicfile.h"
#include "fileio.h"
#include "siteload.h"

#define COPY_MAX (256u * 1024 * 1024)

struct siteout_page {
	struct atomicfile *af;
};

/* out_dir/rel into path, and rel's folders made. */
static int prepare(const char *out_dir, const char *rel, char *path, size_t size, struct errbuf *eb)
{
	char *slash;

	if (fileio_join(path, size, out_dir, rel, eb) != 0)
		return -1;
	slash = strrchr(path, '/');
	if (slash != NULL) {
		int rc;

		*slash = '\0';
		rc = fileio_mkdirs(path, eb);
		*slash = '/';
		if (rc != 0)
			return -1;
	}
	return 0;
}

struct siteout_page *siteout_open(const char *out_dir, const char *rel, struct errbuf *eb)
{
	char path[SITELOAD_PATH_MAX];
	struct siteout_page *p;

	if (prepare(out_dir, rel, path, sizeof(path), eb) != 0)
		return NULL;
	p = calloc(1, sizeof(*p));
	if (p == NULL) {
		errbuf_set(eb, "out of memory");
		return NULL;
	}
	p->af = atomicfile_open(path, 0644, eb);
	if (p->af == NULL) {
		free(p);
		return NULL;
	}
	return p;
}

FILE *siteout_stream(struct siteout_page *p)
{
	return atomicfile_stream(p->af);
}

int siteout_commit(struct siteout_page *p, struct errbuf *eb)
{
	int rc = atomicfile_rename(p->af, eb);

	free(p);
	return rc;
}

void siteout_abort(struct siteout_page *p)
{
	if (p == NULL)
		return;
	atomicfile_abort(p->af);
	free(p);
}

int siteout_write(const char *out_dir, const char *rel, const char *data, size_t len,
		  struct errbuf *eb)
{
	struct siteout_page *p = siteout_open(out_dir, rel, eb);

	if (p == NULL)
		return -1;
	if (len > 0 && fwrite(data, 1, len, siteout_stream(p)) != len) {
		siteout_abort(p);
		return errbuf_set(eb, "%s/%s: write failed", out_dir, rel);
	}
	return siteout_commit(p, eb);
}

int siteout_copy(const char *src, const char *out_dir, const char *rel, struct errbuf *eb)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (fileio_read(src, COPY_MAX, NULL, &text, &len, eb) != 0)
		return -1;
	rc = siteout_write(out_dir, rel, text, len, eb);
	free(text);
	return rc;
}

bool siteout_exists(const char *out_dir, const char *rel)
{
	char path[SITELOAD_PATH_MAX];
	struct stat st;

	return fileio_fmt(path, sizeof(path), "%s/%s", out_dir, rel) == 0 && stat(path, &st) == 0 &&
	       S_ISREG(st.st_mode);
}
