/* runner_profile: the profile pass of a manifest run, after its timed steps: each active subject
 * traced once per point (runner_profile.c's design note; its files: runner_profile_files.h). */
#ifndef RARPERF_RUNNER_PROFILE_H
#define RARPERF_RUNNER_PROFILE_H

#include "errbuf.h"
#include "runner_setup.h"

/*
 * With the manifest's "profile", after the timed steps: every point not yet
 * profiled (OUT/profile/point-N.json missing) gets its policies, the grant
 * check, one run of each active subject under strace and one untraced run
 * for its rusage, then deny-all policies and point-N.json. A subject that
 * cannot be traced is recorded as such. A run past run_timeout_s costs the
 * point (runstate_profile_end). 0, or -1 (eb; "interrupted").
 */
int runner_profile_pass(struct runner *r, struct errbuf *eb);

#endif
