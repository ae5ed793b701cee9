/* policy_split: one sudoers policy split over files (a main file and a directory of parts). */
#ifndef RARPERF_POLICY_SPLIT_H
#define RARPERF_POLICY_SPLIT_H

#include <stdbool.h>
#include <stdint.h>

#include "errbuf.h"
#include "policy.h"
#include "policy_format.h"
#include "policy_txn.h"

/*
 * A policy of roles x tasks split over N files (the "nb_files" axis): the
 * units are the (role, task) pairs in the order policy_stage_sudoers writes
 * them, cut into N runs of nearly equal length (run i holds units
 * [i*U/N, (i+1)*U/N) of U = roles x tasks). Run 1 stays in the main file
 * (path), followed by "@includedir <dir>", where dir is the absolute path
 * of path plus POLICY_SPLIT_DIR_SUFFIX; runs 2..N are the files "00002" ..
 * in dir. sudo and sudo-rs read an included directory's files in the order
 * of their names and skip names holding a '.' or ending in '~', so the
 * names are digits only and the order is the policy's: the matching rule is
 * where `match` puts it (last: the last file). N = 1 is exactly
 * policy_stage_sudoers's one file (no directory).
 *
 * Only sudoers can be split: OpenDoas's doas.conf has no include, and
 * RootAsRole reads one data file (storage.settings.path); doc/tools.md.
 */
#define POLICY_SPLIT_FILES_MAX 10000u
#define POLICY_SPLIT_DIR_SUFFIX ".parts"
/* Not world-writable and root's when written by root: sudo's and sudo-rs's checks. */
#define POLICY_SPLIT_DIR_MODE 0750
#define POLICY_SPLIT_PART_MODE 0440

/* Whether format's policy can be split over files (sudoers only). */
bool policy_split_supported(enum policy_format format);

/*
 * Checks files for shape: 1 to POLICY_SPLIT_FILES_MAX, at most roles x
 * tasks (every file holds at least one task), and 1 with seed_compat.
 * Returns 0 or -1 with eb naming --files.
 */
int policy_split_validate(const struct policy_shape *shape, uint32_t files, struct errbuf *eb);

/*
 * Stages p's sudo side split over files files into txn: the main file at
 * path (as policy_stage_sudoers: mode 0440, root's when run as root) and,
 * for files > 1, the parts written whole into a new directory beside dir
 * (".<name>.XXXXXX", mode POLICY_SPLIT_DIR_MODE, root's when run as root)
 * that the commit swaps with dir (renameat2 RENAME_EXCHANGE when dir
 * exists), the old parts then removed. With files 1 or a deny-all shape
 * the main file holds everything and an existing dir is removed at the
 * commit. An existing dir must be a directory holding only files confgen
 * wrote (unless the transaction may overwrite foreign files). The path of
 * dir must be free of whitespace and of sudoers' special characters.
 * Returns 0, or -1 with eb filled (nothing changed; the caller aborts txn).
 */
int policy_stage_sudoers_split(struct policy_txn *txn, const struct policy *p, const char *path,
			       enum sudoers_layout layout, uint32_t files, struct errbuf *eb)
    __attribute__((warn_unused_result));

#endif
