/* binhint: a missing program's nearest name among its directory's executables ("sr-cbor" ->
 * "dosr-cbor"), so that a manifest's typo is answered with the prefix's real name rather than with
 * "make provision", which would build nothing new. */
#include "binhint.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "suggest.h"

/* A prefix's bin/ holds a few dozen programs; more are not listed, only compared. */
#define BINHINT_NAMES_MAX 256
#define BINHINT_LISTED 12

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The executables' names in dir, sorted, NULL-terminated; their count in *n. */
static char **read_names(const char *dir, size_t *n)
{
	char **names = calloc(BINHINT_NAMES_MAX + 1, sizeof(*names));
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat st;

	*n = 0;
	if (names == NULL || d == NULL)
		goto out;
	while ((e = readdir(d)) != NULL && *n < BINHINT_NAMES_MAX) {
		if (e->d_name[0] == '.' || fstatat(dirfd(d), e->d_name, &st, 0) != 0 ||
		    !S_ISREG(st.st_mode) || (st.st_mode & 0111) == 0)
			continue;
		names[*n] = strdup(e->d_name);
		if (names[*n] != NULL)
			(*n)++;
	}
	qsort(names, *n, sizeof(*names), by_name);
out:
	if (d != NULL)
		closedir(d);
	return names;
}

void binhint_for(const char *program, char *buf, size_t len)
{
	const char *slash = strrchr(program, '/'), *near;
	char dir[4096];
	char **names = NULL;
	size_t n = 0, i, used;
	int w;

	if (len == 0)
		return;
	buf[0] = '\0';
	if (slash == NULL || slash == program || (size_t)(slash - program) >= sizeof(dir))
		return;
	memcpy(dir, program, (size_t)(slash - program));
	dir[slash - program] = '\0';
	names = read_names(dir, &n);
	if (names == NULL || n == 0)
		goto out;
	near = suggest_nearest(slash + 1, (const char *const *)names);
	if (near != NULL) {
		w = snprintf(buf, len, "did you mean %s/%s? ", dir, near); /* lint: not a path */
		if (w < 0 || (size_t)w >= len) /* cut: never half a hint */
			buf[0] = '\0';
		goto out;
	}
	w = snprintf(buf, len, "%s has ", dir);
	used = w < 0 ? len : (size_t)w;
	for (i = 0; i < n && i < BINHINT_LISTED && used < len; i++) {
		w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", names[i]);
		used += w < 0 ? len : (size_t)w;
	}
	if (used < len)
		snprintf(buf + used, len - used, "%s; ", n > BINHINT_LISTED ? ", ..." : "");
	if (used >= len) /* cut: never half a hint */
		buf[0] = '\0';
out:
	for (i = 0; names != NULL && i < n; i++)
		free(names[i]);
	free(names);
}
