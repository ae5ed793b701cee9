/* Tests for digest: SHA-256 known answers (memory and file). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "digest.h"
#include "harness.h"

static void test_sha256_known_answers(void)
{
	char hex[DIGEST_SHA256_HEX_LEN + 1];

	/* FIPS 180-2 examples. */
	digest_sha256_hex("abc", 3, hex);
	CHECK_STR_EQ(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	digest_sha256_hex("", 0, hex);
	CHECK_STR_EQ(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

static void test_sha256_file(void)
{
	char path[] = "/tmp/rarperf-test-digest-XXXXXX", hex[DIGEST_SHA256_HEX_LEN + 1];
	struct errbuf eb = {0};
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK_INT_EQ(write(fd, "abc", 3), 3);
	close(fd);
	CHECK_INT_EQ(digest_sha256_file(path, hex, &eb), 0);
	CHECK_STR_EQ(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	unlink(path);
	CHECK_INT_EQ(digest_sha256_file(path, hex, &eb), -1);
	CHECK(strstr(eb.msg, path) != NULL);
}

int main(void)
{
	RUN(test_sha256_known_answers);
	RUN(test_sha256_file);
	return HARNESS_EXIT();
}
