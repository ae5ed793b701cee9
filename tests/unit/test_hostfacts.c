/* Tests for hostfacts: sane host facts. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hostfacts.h"

static void test_collect(void)
{
	struct hostfacts hf;
	cJSON *j;
	char *s;

	hostfacts_collect(&hf);
	CHECK(hf.cpus >= 1);
	CHECK(hf.mem_bytes > 0);
	CHECK(strncmp(hf.kernel, "Linux ", 6) == 0);
	CHECK(hf.hostname[0] != '\0');
	CHECK(hf.virtualization[0] != '\0');
	CHECK(hf.governor[0] != '\0');
	j = hostfacts_to_json(&hf);
	CHECK(j != NULL);
	s = j ? cJSON_PrintUnformatted(j) : NULL;
	CHECK(s != NULL && strstr(s, "\"cpu_model\":") != NULL &&
	      strstr(s, "\"governor\":") != NULL);
	free(s);
	cJSON_Delete(j);
}

int main(void)
{
	RUN(test_collect);
	return HARNESS_EXIT();
}
