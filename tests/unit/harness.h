/* harness: a minimal TAP-style unit test harness; tests/run.sh counts the "ok"/"not ok" lines. */
#ifndef RARPERF_HARNESS_H
#define RARPERF_HARNESS_H

#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static int harness_failed_checks;
static int harness_cases_failed;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "  %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
			harness_failed_checks++;                                                   \
		}                                                                                  \
	} while (0)

#define CHECK_INT_EQ(a, b)                                                                         \
	do {                                                                                       \
		long long harness_a = (long long)(a), harness_b = (long long)(b);                  \
		if (harness_a != harness_b) {                                                      \
			fprintf(stderr, "  %s:%d: %s == %lld, expected %s == %lld\n", __FILE__,    \
				__LINE__, #a, harness_a, #b, harness_b);                           \
			harness_failed_checks++;                                                   \
		}                                                                                  \
	} while (0)

#define CHECK_STR_EQ(a, b)                                                                         \
	do {                                                                                       \
		const char *harness_a = (a), *harness_b = (b);                                     \
		if (harness_a == NULL || harness_b == NULL || strcmp(harness_a, harness_b) != 0) { \
			fprintf(stderr, "  %s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__,      \
				__LINE__, #a, harness_a ? harness_a : "(null)",                    \
				harness_b ? harness_b : "(null)");                                 \
			harness_failed_checks++;                                                   \
		}                                                                                  \
	} while (0)

/* Runs one test function and prints its TAP line. */
#define RUN(fn)                                                                                    \
	do {                                                                                       \
		int harness_before = harness_failed_checks;                                        \
		fn();                                                                              \
		if (harness_failed_checks == harness_before) {                                     \
			printf("ok - %s\n", #fn);                                                  \
		} else {                                                                           \
			printf("not ok - %s\n", #fn);                                              \
			harness_cases_failed++;                                                    \
		}                                                                                  \
		fflush(stdout);                                                                    \
	} while (0)

/* The exit status of a test program. */
#define HARNESS_EXIT() (harness_cases_failed == 0 ? 0 : 1)

/*
 * What a printer writes, as a reader gets it: runs CALL (an expression that writes to the FILE *
 * named f) into a malloc'd string stored in OUT (char *; free it), NULL when out of memory.
 */
#define HARNESS_PRINTED(out, call)                                                                 \
	do {                                                                                       \
		size_t harness_len_ = 0;                                                           \
		FILE *f;                                                                           \
                                                                                                   \
		(out) = NULL;                                                                      \
		f = open_memstream(&(out), &harness_len_);                                         \
		if (f != NULL) {                                                                   \
			call;                                                                      \
			fclose(f);                                                                 \
		}                                                                                  \
	} while (0)

static inline int harness_remove_one(const char *path, const struct stat *st, int flag,
				     struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* Removes a test's scratch directory and everything in it (nftw, depth first, no symlinks
 * followed). */
static inline int harness_remove_tree(const char *dir)
{
	return nftw(dir, harness_remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

#endif
