/* policy_file: where confgen may write a policy file, and with which owner, mode and attributes. */
#ifndef RARPERF_POLICY_FILE_H
#define RARPERF_POLICY_FILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "atomicfile.h"
#include "errbuf.h"
#include "policy_txn.h"

/*
 * Every check below is made on the directory of path opened once (never on
 * the path string again): path may be written when its directory exists
 * and is writable, path is not a directory, and the opened directory plus
 * the base name is none of the machine's own policies (compared by inode
 * and by resolved path; a hard link to one counts): /etc/sudoers, anything
 * in /etc/sudoers.d, /etc/doas.conf, /etc/security/rootasrole.json.
 *
 * Ownership: confgen replaces only what it wrote. Every file it writes
 * carries the extended attribute POLICY_FILE_XATTR (and the text formats
 * open with POLICY_FILE_HEADER); an existing target that is neither empty,
 * nor marked so, nor a text file opening with that header is refused
 * unless the transaction allows it (policy_txn_overwrite_foreign), so a
 * manifest or a command line naming some other file cannot overwrite it.
 */
#define POLICY_FILE_XATTR "user.rarperf.confgen"
#define POLICY_FILE_HEADER "# rarperf confgen:"

/*
 * The checks above, and unless overwrite_foreign the ownership rule, for a
 * message before anything is written. Touches nothing. 0 or -1.
 */
int policy_file_check_path(const char *path, bool overwrite_foreign, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * Returns path made absolute by resolving its (opened) directory, the base
 * name kept as given, malloc'd; NULL with eb filled when the directory
 * cannot be opened or fails the checks above.
 */
char *policy_file_abspath(const char *path, struct errbuf *eb) __attribute__((warn_unused_result));

/*
 * Whether the entry name of the directory dirfd is confgen's to replace or
 * remove without --force: missing, an empty regular file, or a regular file
 * carrying POLICY_FILE_XATTR or opening with POLICY_FILE_HEADER.
 */
bool policy_file_is_ours_at(int dirfd, const char *name);

/* One policy file being written: a temporary sibling with a large stdio buffer. */
struct policy_file {
	struct atomicfile *af;
	FILE *out; /* the temporary file's stream, owned by af */
	char *buf; /* its stdio buffer, freed after the stream is closed */
	const char *path;
	char *abspath; /* the opened directory's path plus the base name */
	struct policy_txn *txn;
};

/*
 * Opens path's directory, checks it (above) and creates the temporary file
 * in it through that descriptor (openat, O_EXCL|O_NOFOLLOW|O_CLOEXEC) with
 * mode, into *f; when the process runs as root (euid 0) the file is given
 * to root:root, otherwise it keeps the caller's ownership. The file will
 * join txn (policy_file_finish). Returns 0, or -1 with eb filled and *f
 * zeroed.
 */
int policy_file_open(struct policy_file *f, struct policy_txn *txn, const char *path, mode_t mode,
		     struct errbuf *eb) __attribute__((warn_unused_result));

/*
 * Flushes and fsyncs f (a write error such as ENOSPC shows here) and hands
 * it to its transaction, which renames it at policy_txn_commit. Releases f
 * in every case; on failure the temporary file is gone. Returns 0 or -1.
 */
int policy_file_finish(struct policy_file *f, struct errbuf *eb)
    __attribute__((warn_unused_result));

/* Writes n bytes of s to f; a write error shows at policy_file_finish. */
void policy_file_put(struct policy_file *f, const char *s, size_t n);

/* Writes a NUL-terminated string to f. */
void policy_file_puts(struct policy_file *f, const char *s);

/* Writes v in decimal to f. */
void policy_file_put_uint(struct policy_file *f, uint64_t v);

/* Drops the temporary file and releases f; a zeroed or released f is a no-op. */
void policy_file_abort(struct policy_file *f);

#endif
