/* fuzz_hostresults: libFuzzer target for a host's results.json: the check, the merge's rewrite. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cJSON.h>

#include "hostresults.h"
#include "jsonspan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The number of members named host in the parameters of each result; traps on more than one. */
static void one_host_each(const char *text, size_t len)
{
	cJSON *root = cJSON_ParseWithLength(text, len), *r;

	/* cJSON refuses some strict JSON (a lone \ud800): nothing to compare then */
	if (root == NULL)
		return;
	cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(root, "results"))
	{
		const cJSON *p = cJSON_GetObjectItemCaseSensitive(r, "parameters"), *it;
		int hosts = 0;
		if (!cJSON_IsObject(r) || !cJSON_IsObject(p))
			__builtin_trap();
		cJSON_ArrayForEach(it, p)
		{
			if (it->string != NULL && strcmp(it->string, "host") == 0)
				hosts++;
		}
		if (hosts != 1)
			__builtin_trap();
	}
	cJSON_Delete(root);
}

static char path[] = "/tmp/fuzz_hostresults.XXXXXX";

static void remove_file(void)
{
	unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	struct hostresults_counts counts;
	struct errbuf eb = {{0}};
	struct jsonspan v;
	char *out = NULL;
	size_t len = 0;
	bool first = true;
	FILE *f;

	if (fd < 0) {
		/* one file, rewritten for each input (hostresults reads a path) */
		fd = mkostemp(path, O_CLOEXEC);
		if (fd < 0)
			return 0;
		atexit(remove_file);
	}
	if (ftruncate(fd, 0) < 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	(void)jsonspan_check((const char *)data, size, &v, &eb);
	if (hostresults_check(path, &counts, &eb) < 0)
		return 0;
	f = open_memstream(&out, &len);
	if (f == NULL)
		return 0;
	fputs("{\"results\":[", f);
	if (hostresults_write(f, path, "h\"1", &first, &counts, &eb) < 0)
		__builtin_trap(); /* the file was accepted: writing it cannot fail */
	fputs("]}", f);
	fclose(f);
	/* what the merge writes is strict JSON, with exactly one host per result */
	if (jsonspan_check(out, len, &v, &eb) < 0)
		__builtin_trap();
	one_host_each(out, len);
	free(out);
	/* the reference's results, written the same way: strict JSON, one host each */
	out = NULL;
	len = 0;
	first = true;
	f = open_memstream(&out, &len);
	if (f == NULL)
		return 0;
	fputs("{\"results\":[", f);
	if (hostresults_write_reference(f, path, "h\"1", "", &first, &eb) < 0)
		__builtin_trap();
	fputs("]}", f);
	fclose(f);
	if (jsonspan_check(out, len, &v, &eb) < 0)
		__builtin_trap();
	one_host_each(out, len);
	free(out);
	return 0;
}
