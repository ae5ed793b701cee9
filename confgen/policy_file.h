/* policy_file: where confgen may write a policy file, and with which owner, mode and attributes. */
#ifndef RARPERF_POLICY_FILE_H
#define RARPERF_POLICY_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "atomicfile.h"
#include "errbuf.h"

/*
 * Checks that path may be written: its directory exists and is writable,
 * path is not a directory, and the resolved path (realpath of the directory
 * plus the base name) is none of the machine's own policies: /etc/sudoers,
 * anything in /etc/sudoers.d, /etc/doas.conf, /etc/security/rootasrole.json.
 * Touches nothing. Returns 0, or -1 with eb naming path.
 */
int policy_file_check_path(const char *path, struct errbuf *eb);

/*
 * Returns path made absolute by resolving its directory (the base name is
 * kept as given), malloc'd; NULL with eb filled when the directory cannot
 * be resolved.
 */
char *policy_file_abspath(const char *path, struct errbuf *eb);

/* One policy file being written: an atomic write with a large stdio buffer. */
struct policy_file {
	struct atomicfile *af;
	FILE *out; /* the temporary file's stream, owned by af */
	char *buf; /* its stdio buffer, freed after the stream is closed */
	const char *path;
};

/*
 * Checks path (policy_file_check_path) and opens an atomic write of it with
 * mode into *f; when the process runs as root (euid 0) the file is given to
 * root:root, otherwise it keeps the caller's ownership. Returns 0, or -1 with
 * eb filled and *f zeroed.
 */
int policy_file_open(struct policy_file *f, const char *path, mode_t mode, struct errbuf *eb);

/*
 * Clears FS_IMMUTABLE_FL and FS_APPEND_FL on an existing f->path (they would
 * make the rename fail) and commits the file over it. Releases f in every
 * case. Fails, leaving the path untouched, when the flags cannot be cleared
 * (that needs CAP_LINUX_IMMUTABLE), saying so. Returns 0 or -1.
 */
int policy_file_commit(struct policy_file *f, struct errbuf *eb);

/* Writes n bytes of s to f; a write error shows at policy_file_commit. */
void policy_file_put(struct policy_file *f, const char *s, size_t n);

/* Writes a NUL-terminated string to f. */
void policy_file_puts(struct policy_file *f, const char *s);

/* Writes v in decimal to f. */
void policy_file_put_uint(struct policy_file *f, uint64_t v);

/* Drops the temporary file and releases f; a zeroed or released f is a no-op. */
void policy_file_abort(struct policy_file *f);

#endif
