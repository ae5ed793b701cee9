/* runner_subjects: what a manifest run measures at every step, as the run holds it: the plan's
 * subjects, each one's commands and namespace beside its resolution (which the plan owns:
 * plan_subjects.h), and the calibration workloads measured beside them. Made by the setup,
 * read only by the steps; what changes during the run is runstate.h's. */
#ifndef RARPERF_RUNNER_SUBJECTS_H
#define RARPERF_RUNNER_SUBJECTS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "mntns.h"
#include "plan.h"
#include "proc.h"
#include "runner_kernel.h"
#include "runner_polkit.h"
#include "runner_reference.h"

/* One subject of the run: the plan's (read only) and what the run made of it. */
struct runner_subject {
	const struct plan_subject *p; /* program, argv, policies, PAM, why it is skipped */
	struct proc_cmd *cmd;         /* measured: output to /dev/null */
	struct proc_cmd *check;       /* the grant check: output kept to quote it */
	struct mntns *mntns;          /* policy_mount_at, pam_dir: what its runs see in /etc */
	char *mntns_dir;              /* its layers' directory, recorded before it is made */
	struct runner_polkit *polkit; /* format polkit: its bus and polkitd per step; else NULL */
};

/* The run's subjects, one per plan->subjects[i], in the plan's order, and what is measured
 * beside them. */
struct runner_subjects {
	const struct plan *plan; /* read only: its manifest (plan->m) says how to measure */
	struct runner_subject *subjects;
	size_t nsubjects, nactive;   /* the plan's counts */
	struct runner_reference ref; /* rarref (manifest "reference"); ref.cmd NULL: none */
	struct runner_kernel kernel; /* rarkref's kinds; none without "kernel_reference" */
	/* The caller's stop flag, which every command here obeys (proc_opts) and their measuring
	 * too (measure_opts); NULL: never. */
	const volatile sig_atomic_t *stop;
};

#endif
