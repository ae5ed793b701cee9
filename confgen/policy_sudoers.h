/* policy_sudoers: writes a policy as a sudoers file (Cmnd_Alias per task, user specs per role or
 * task). */
#ifndef RARPERF_POLICY_SUDOERS_H
#define RARPERF_POLICY_SUDOERS_H

#include "policy.h"
#include "policy_file.h"
#include "policy_txn.h"

/*
 * Each task's grant: as root, the one target user a point needs. Not (ALL):
 * a grant as any user lets the bench user start the command as a user whose
 * processes rarbench does not own (issue 36).
 */
#define POLICY_SUDOERS_GRANT "(root) NOPASSWD: "

/*
 * Writes p's sudo side to path, mode 0440, owner root:root when
 * running as root (left to the caller's uid otherwise; sudo itself then
 * refuses the file). Per role r and task t one "Cmnd_Alias R<r>T<t> = ..."
 * line of the task's commands; then, with SUDOERS_LAYOUT_PER_ROLE, one user
 * spec per role granting "(ALL) NOPASSWD:" to all its aliases, or with
 * SUDOERS_LAYOUT_PER_TASK one user spec per task. Users are written "#uid".
 * Refuses the machine's own sudoers paths (policy_file_check_path).
 * The file only joins txn (written, synced): path changes at
 * policy_txn_commit (policy_txn.h). Returns 0, or -1 with eb filled (the
 * caller then aborts txn and path stays untouched).
 */
int policy_stage_sudoers(struct policy_txn *txn, const struct policy *p, const char *path,
			 enum sudoers_layout layout, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * Writes to f the sudoers lines of tasks t0 .. t1-1 (0-based, t0 < t1 <=
 * tasks) of role r: their Cmnd_Alias lines, then the user specs of layout
 * over those tasks alone. What policy_stage_sudoers writes per role (tasks
 * 0 .. tasks-1); policy_split writes a role's tasks across several files.
 */
void policy_sudoers_write_tasks(const struct policy *p, struct policy_file *f, uint32_t r,
				uint32_t t0, uint32_t t1, enum sudoers_layout layout);

#endif
