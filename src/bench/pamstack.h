/* pamstack: the modules and includes of a PAM service file (pam.conf(5), Linux-PAM's syntax). */
#ifndef RARPERF_PAMSTACK_H
#define RARPERF_PAMSTACK_H

#include <stddef.h>

enum pamstack_kind {
	PAMSTACK_MODULE,  /* a module path, as written (pam_unix.so or an absolute path) */
	PAMSTACK_INCLUDE, /* another service: "@include NAME", or control include/substack */
};

/*
 * Called for each entry, in order; name is NUL-terminated, at most PAMSTACK_NAME_MAX - 1
 * bytes (a longer one is cut). optional: the type began with '-' (PAM ignores a missing
 * module). A non-zero return stops the scan and is returned.
 */
typedef int (*pamstack_fn)(enum pamstack_kind kind, const char *name, int optional, void *arg);

#define PAMSTACK_NAME_MAX 256

/*
 * Scans the text of one service file (any bytes: lines that are not entries are skipped,
 * as PAM does). Returns 0, or the first non-zero return of fn.
 */
int pamstack_scan(const char *text, size_t len, pamstack_fn fn, void *arg);

#endif
