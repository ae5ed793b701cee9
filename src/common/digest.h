/* digest: SHA-256 of a buffer or a file, as lowercase hex. */
#ifndef RARPERF_DIGEST_H
#define RARPERF_DIGEST_H

#include <stddef.h>

#include "errbuf.h"

#define DIGEST_SHA256_HEX_LEN 64

/* SHA-256 of len bytes as 64 lowercase hex digits plus NUL in out. */
void digest_sha256_hex(const void *data, size_t len, char out[DIGEST_SHA256_HEX_LEN + 1]);

/* SHA-256 of the file at path, as above. Returns 0, or -1 with eb filled. */
int digest_sha256_file(const char *path, char out[DIGEST_SHA256_HEX_LEN + 1], struct errbuf *eb)
    __attribute__((warn_unused_result));

#endif
