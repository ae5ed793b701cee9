/* plan_prefix: a prefix's paths resolved, the rule that confines a policy to PREFIX/etc, and the
 * default prefix. */
#include "plan_prefix.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fileio.h"

const char *plan_prefix_default(void)
{
	const char *env = getenv("RARPERF_PREFIX");

	return env != NULL && env[0] != '\0' ? env : PLAN_PREFIX_DEFAULT;
}

int plan_prefix_confine(const char *etc_real, const char *path, struct errbuf *eb)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(path, '/');
	size_t len = strlen(etc_real);

	if (slash == NULL)
		snprintf(dir, sizeof(dir), "."); /* lint: sized to fit */
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/"); /* lint: sized to fit */
	else if (fileio_fmt(dir, sizeof(dir), "%.*s", (int)(slash - path), path) < 0)
		return errbuf_set(eb, "%s: path too long", path);
	if (realpath(dir, real) == NULL)
		return errbuf_set_errno(eb, errno, "%s: directory %s", path, dir);
	if (strncmp(real, etc_real, len) != 0 || (real[len] != '\0' && real[len] != '/'))
		return errbuf_set(eb,
				  "%s: policies may only be written in %s (this one's directory "
				  "is %s)",
				  path, etc_real, real);
	return 0;
}

int plan_prefix_locate(struct plan_prefix *p, const char *prefix, struct errbuf *eb)
{
	char etc[PATH_MAX];
	struct stat st;

	memset(p, 0, sizeof(*p));
	p->given = prefix;
	if (realpath(prefix, p->real) == NULL)
		return errbuf_set_errno(eb, errno, "%s (provision it first: make provision)",
					prefix);
	if (fileio_fmt(etc, sizeof(etc), "%s/etc", p->real) < 0 || realpath(etc, p->etc) == NULL)
		return errbuf_set(eb, "%s/etc: missing (provision it first: make provision)",
				  p->real);
	if (stat(p->real, &st) != 0)
		return errbuf_set_errno(eb, errno, "%s", p->real);
	p->dev = (uint64_t)st.st_dev;
	p->ino = (uint64_t)st.st_ino;
	return 0;
}
