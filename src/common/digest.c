/* digest: SHA-256 of a buffer or a file, as lowercase hex. */
#include "digest.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

static void digest_to_hex(const unsigned char *md, char out[DIGEST_SHA256_HEX_LEN + 1])
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < 32; i++) {
		out[2 * i] = digits[md[i] >> 4];
		out[2 * i + 1] = digits[md[i] & 15];
	}
	out[DIGEST_SHA256_HEX_LEN] = '\0';
}

void digest_sha256_hex(const void *data, size_t len, char out[DIGEST_SHA256_HEX_LEN + 1])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;

	EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL);
	digest_to_hex(md, out);
}

int digest_sha256_file(const char *path, char out[DIGEST_SHA256_HEX_LEN + 1], struct errbuf *eb)
{
	unsigned char buf[65536], md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	EVP_MD_CTX *ctx = NULL;
	int rc = -1, fd = -1;
	struct stat st;
	ssize_t n;

	/* O_NONBLOCK: a FIFO at path opens at once and is refused, instead of blocking. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		errbuf_set_errno(eb, errno, "%s: cannot open", path);
		goto out;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		errbuf_set(eb, "%s: not a regular file", path);
		goto out;
	}
	ctx = EVP_MD_CTX_new();
	if (ctx == NULL || EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1) {
		errbuf_set(eb, "%s: cannot start SHA-256", path);
		goto out;
	}
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			errbuf_set_errno(eb, errno, "%s: read", path);
			goto out;
		}
		EVP_DigestUpdate(ctx, buf, (size_t)n);
	}
	if (EVP_DigestFinal_ex(ctx, md, &mdlen) != 1) {
		errbuf_set(eb, "%s: SHA-256 failed", path);
		goto out;
	}
	digest_to_hex(md, out);
	rc = 0;
out:
	EVP_MD_CTX_free(ctx);
	if (fd >= 0)
		close(fd);
	return rc;
}
