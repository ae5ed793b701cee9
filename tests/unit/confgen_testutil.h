/* confgen_testutil: helpers the confgen unit tests share (scratch directory, file reading, CBOR
 * dump). */
#ifndef RARPERF_CONFGEN_TESTUTIL_H
#define RARPERF_CONFGEN_TESTUTIL_H

#include <cbor.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "policy_txn.h"

/* Reads a whole file into a NUL-terminated malloc'd buffer; *len gets its size. NULL on error. */
static inline char *testutil_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long size;

	if (f == NULL)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)size + 1);
		if (buf != NULL && fread(buf, 1, (size_t)size, f) != (size_t)size) {
			free(buf);
			buf = NULL;
		}
		if (buf != NULL) {
			buf[size] = '\0';
			if (len != NULL)
				*len = (size_t)size;
		}
	}
	fclose(f);
	return buf;
}

/* Removes every file in dir (no subdirectories are made by the tests), then dir. */
static inline void testutil_rm_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[512];

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

/* A growable text buffer for dumps. */
struct testutil_buf {
	char *s;
	size_t len, cap;
};

__attribute__((format(printf, 2, 3))) static inline void testutil_printf(struct testutil_buf *b,
									 const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		size_t room = b->cap - b->len;
		va_start(ap, fmt);
		n = vsnprintf(b->s == NULL ? NULL : b->s + b->len, b->s == NULL ? 0 : room, fmt,
			      ap);
		va_end(ap);
		if (n < 0)
			return;
		if (b->s != NULL && (size_t)n < room) {
			b->len += (size_t)n;
			return;
		}
		b->cap = (b->cap + (size_t)n + 1) * 2;
		b->s = realloc(b->s, b->cap);
		if (b->s == NULL)
			abort();
	}
}

/*
 * RFC 8949 diagnostic notation of item, one map entry or array element per
 * line: "{_" marks an indefinite map, "_1" after an integer the 2-byte form,
 * "_2" the 4-byte form (none means the shortest, inline form).
 */
static inline void testutil_cbor_diag(struct testutil_buf *b, const cbor_item_t *item, int depth)
{
	static const char *const width_suffix[] = {"_0", "_1", "_2", "_3"};
	size_t n;

	switch (cbor_typeof(item)) {
	case CBOR_TYPE_UINT: {
		uint64_t v = cbor_get_int(item);
		int w = (int)cbor_int_get_width(item);
		testutil_printf(b, "%llu%s", (unsigned long long)v, v < 24 ? "" : width_suffix[w]);
		break;
	}
	case CBOR_TYPE_STRING:
		if (cbor_string_is_indefinite(item)) {
			testutil_printf(b, "(_ indefinite text)");
			break;
		}
		testutil_printf(b, "\"%.*s\"", (int)cbor_string_length(item),
				(const char *)cbor_string_handle(item));
		break;
	case CBOR_TYPE_ARRAY:
		n = cbor_array_size(item);
		testutil_printf(b, "[%s", cbor_array_is_indefinite(item) ? "_" : "");
		for (size_t i = 0; i < n; i++) {
			cbor_item_t *e = cbor_array_get(item, i);
			testutil_printf(b, "\n%*s", (depth + 1) * 2, "");
			testutil_cbor_diag(b, e, depth + 1);
			cbor_decref(&e);
			if (i + 1 < n)
				testutil_printf(b, ",");
		}
		testutil_printf(b, "%s%*s]", n > 0 ? "\n" : "", n > 0 ? depth * 2 : 0, "");
		break;
	case CBOR_TYPE_MAP: {
		struct cbor_pair *pairs = cbor_map_handle(item);
		n = cbor_map_size(item);
		testutil_printf(b, "{%s", cbor_map_is_indefinite(item) ? "_" : "");
		for (size_t i = 0; i < n; i++) {
			testutil_printf(b, "\n%*s", (depth + 1) * 2, "");
			testutil_cbor_diag(b, pairs[i].key, depth + 1);
			testutil_printf(b, ": ");
			testutil_cbor_diag(b, pairs[i].value, depth + 1);
			if (i + 1 < n)
				testutil_printf(b, ",");
		}
		testutil_printf(b, "%s%*s}", n > 0 ? "\n" : "", n > 0 ? depth * 2 : 0, "");
		break;
	}
	default:
		testutil_printf(b, "(unexpected major type %d)", (int)cbor_typeof(item));
		break;
	}
}

/* Bytes as lowercase hex, 32 per line, space separated, final newline. */
static inline void testutil_hex(struct testutil_buf *b, const unsigned char *data, size_t len)
{
	for (size_t i = 0; i < len; i++)
		testutil_printf(b, "%02x%s", data[i], (i % 32 == 31 || i + 1 == len) ? "\n" : " ");
}

/*
 * One policy write as confgen's main and the runner do it:
 * testutil_txn_fresh() starts a transaction for one policy_stage_* call,
 * testutil_txn_end() commits it when that call returned 0 and aborts it
 * otherwise. Used as
 *   testutil_txn_end(policy_stage_doas(testutil_txn_fresh(), p, path, &eb), &eb)
 */
static struct policy_txn *testutil_txn;

static inline struct policy_txn *testutil_txn_fresh(void)
{
	struct errbuf eb = {{0}};

	testutil_txn = policy_txn_new(&eb);
	CHECK(testutil_txn != NULL);
	return testutil_txn;
}

static inline int testutil_txn_end(int staged, struct errbuf *eb)
{
	struct policy_txn *txn = testutil_txn;

	testutil_txn = NULL;
	if (staged != 0) {
		policy_txn_abort(txn);
		return -1;
	}
	return policy_txn_commit(txn, eb);
}

#endif
