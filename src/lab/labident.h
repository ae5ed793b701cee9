/* labident: what a lab host is (its facts.json and a live probe), and a lab's hosts compared. */
#ifndef RARPERF_LABIDENT_H
#define RARPERF_LABIDENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "errbuf.h"

#define LABIDENT_OUTPUT_MAX_BYTES (256 * 1024) /* the probe's output; more fails the host */
#define LABIDENT_VALUE_MAX 160                 /* a value longer than this is cut */
#define LABIDENT_KEYS_MAX 256                  /* keys of one host; more fails the host */
#define LABIDENT_MARK "--rarlab-live--"

/*
 * One host's identity: sorted "key" -> "value" pairs, all sanitised text.
 * Keys: cpu_model, cpus, memory_gib (0.1 GiB), kernel, debian, limit.<name>
 * (the session's hard limit, for each limit the manifest pins), bench_user,
 * bench_uid, rarperf, and for each tool of facts.json tool.<name>.version,
 * .sha256 (its build), .source, .configure.
 */
struct labident;

/*
 * The shell command that prints a host's identity: PREFIX/facts.json, the
 * mark, then "key=value" lines from the live session. limits: the names of
 * the pinned limits (manifest names: "nofile", ...), n of them. Returns 0,
 * or -1 when cap is too small.
 */
int labident_command(char *buf, size_t cap, const char *prefix, const char *const *limits,
		     size_t n);

/*
 * Parses the command's output (len bytes, not trusted: bounded, sanitised).
 * A host without facts.json still has its live keys (its tools are then
 * "missing"). Returns a new identity, or NULL with eb filled.
 */
struct labident *labident_parse(const char *out, size_t len, struct errbuf *eb);

/* Frees id; NULL is a no-op. */
void labident_free(struct labident *id);

/* The value of key, or NULL. */
const char *labident_get(const struct labident *id, const char *key);

/*
 * The lab compared: hosts[i] (NULL: a host that could not be read, left
 * out) named names[i]. What differs, and the groups of hosts equal in
 * every key: group[i] is host i's group (1-based; 0 for a NULL host).
 */
struct labident_cmp;

/* Compares n hosts. Returns the comparison, or NULL with eb filled (out of memory). */
struct labident_cmp *labident_compare(struct labident *const *hosts, const char *const *names,
				      size_t n, struct errbuf *eb);
void labident_cmp_free(struct labident_cmp *c);

/* Number of keys that differ (0: the lab is identical), and of groups. */
size_t labident_cmp_ndiffs(const struct labident_cmp *c);
size_t labident_cmp_ngroups(const struct labident_cmp *c);

/* Host i's group (1-based; 0 when it had no identity). */
unsigned labident_cmp_group(const struct labident_cmp *c, size_t i);

/*
 * Prints the table of differences to f: one block per differing key, one
 * line per value with the hosts that have it (at most names_max names,
 * then "and N more").
 */
void labident_cmp_print(const struct labident_cmp *c, FILE *f, size_t names_max);

/*
 * The comparison as compact JSON (caller frees with free()):
 * {"identical": bool, "differs": [keys], "groups": [{"group": "g1",
 * "hosts": [names], "values": {key: value}}]}. NULL when out of memory.
 */
char *labident_cmp_json(const struct labident_cmp *c);

#endif
