/* policy_file: where confgen may write a policy file, and with which owner, mode and attributes. */
#ifndef RARPERF_POLICY_FILE_H
#define RARPERF_POLICY_FILE_H

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

/*
 * Checks path (policy_file_check_path) and opens an atomic write of it with
 * mode; when the process runs as root (euid 0) the file is given to
 * root:root, otherwise it keeps the caller's ownership. NULL on error.
 */
struct atomicfile *policy_file_open(const char *path, mode_t mode, struct errbuf *eb);

/*
 * Clears FS_IMMUTABLE_FL and FS_APPEND_FL on an existing path (they would
 * make the rename fail) and commits af over it. Frees af in every case.
 * Fails, leaving path untouched, when the flags cannot be cleared (that
 * needs CAP_LINUX_IMMUTABLE), saying so. Returns 0 or -1.
 */
int policy_file_commit(struct atomicfile *af, const char *path, struct errbuf *eb);

#endif
