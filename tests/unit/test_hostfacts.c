/* Tests for hostfacts: SHA-256 known answers (memory and file) and sane host facts. */
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"
#include "hostfacts.h"

static void test_sha256_known_answers(void)
{
	char hex[HOSTFACTS_SHA256_HEX_LEN + 1];

	/* FIPS 180-2 examples. */
	hostfacts_sha256_hex("abc", 3, hex);
	CHECK_STR_EQ(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	hostfacts_sha256_hex("", 0, hex);
	CHECK_STR_EQ(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

static void test_sha256_file(void)
{
	char path[] = "/tmp/rarperf-test-hostfacts-XXXXXX", hex[HOSTFACTS_SHA256_HEX_LEN + 1];
	struct errbuf eb = {0};
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK_INT_EQ(write(fd, "abc", 3), 3);
	close(fd);
	CHECK_INT_EQ(hostfacts_sha256_file(path, hex, &eb), 0);
	CHECK_STR_EQ(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	unlink(path);
	CHECK_INT_EQ(hostfacts_sha256_file(path, hex, &eb), -1);
	CHECK(strstr(eb.msg, path) != NULL);
}

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
	RUN(test_sha256_known_answers);
	RUN(test_sha256_file);
	RUN(test_collect);
	return HARNESS_EXIT();
}
