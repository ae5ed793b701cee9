/* runner_subjects: the plan's subjects as a run holds them: each one's commands, namespace and
 * this step's state beside its resolution, which the plan owns (plan_subjects.h). */
#ifndef RARPERF_RUNNER_SUBJECTS_H
#define RARPERF_RUNNER_SUBJECTS_H

#include <stdbool.h>
#include <stddef.h>

#include "mntns.h"
#include "plan.h"
#include "proc.h"

/* One subject of the run: the plan's (read only) and what the run made of it. */
struct runner_subject {
	const struct plan_subject *p; /* program, argv, policies, PAM, why it is skipped */
	struct proc_cmd *cmd;         /* measured: output to /dev/null */
	struct proc_cmd *check;       /* the grant check: output kept to quote it */
	struct mntns *mntns;          /* policy_mount_at, pam_dir: what its runs see in /etc */
	char *mntns_dir;              /* its layers' directory, recorded before it is made */
};

/* The run's subjects, one per plan->subjects[i], in the plan's order. */
struct runner_subjects {
	const struct plan *plan;
	struct runner_subject *subjects;
	size_t nsubjects, nactive; /* the plan's counts */
};

#endif
