/* plain_profile: rarbench --profile in plain (hyperfine-like) mode: each command traced once. */
#ifndef RARPERF_PLAIN_PROFILE_H
#define RARPERF_PLAIN_PROFILE_H

#include <cjson/cJSON.h>

#include "errbuf.h"
#include "proc.h"

#define PLAIN_PROFILE_TRACER "/usr/bin/strace"

/*
 * The tracer --profile uses ($RARPERF_STRACE when set, else /usr/bin/strace)
 * in *tracer, checked: 0, or -1 with eb the one line naming the Debian
 * package and the playbook's role that installs it.
 */
int plain_profile_check(const char **tracer, struct errbuf *eb);

/*
 * Runs cmd's argv once under tracer (as user when not NULL: strace -u; the
 * environment envp, NULL: ours) after its timed runs, and returns its
 * profile object in *out (status, traced_exit_code, the counts of
 * straceprof_json), the caller's to free. A command strace cannot trace, or
 * that exits non-zero when traced, gets a status saying so. 0, or -1 (eb)
 * when the trace file cannot be made.
 */
int plain_profile_run(const char *tracer, struct proc_cmd *cmd, const struct proc_user *user,
		      char *const *envp, cJSON **out, struct errbuf *eb);

#endif
