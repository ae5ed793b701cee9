/* plain_profile: rarbench --profile in plain mode: each command traced once after its runs. */
#include "plain_profile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "straceprof.h"
#include "tracedrun.h"

int plain_profile_check(const char **tracer, struct errbuf *eb)
{
	const char *env = getenv("RARPERF_STRACE");

	*tracer = env != NULL && env[0] != '\0' ? env : PLAIN_PROFILE_TRACER;
	if ((*tracer)[0] != '/' || access(*tracer, X_OK) != 0)
		return errbuf_set(eb,
				  "--profile needs %s: install Debian's package strace (the "
				  "playbook's role rarperf_packages installs it)",
				  *tracer);
	return straceprof_check_tracer(*tracer, eb);
}

int plain_profile_run(const char *tracer, struct proc_cmd *cmd, const struct proc_user *user,
		      char *const *envp, cJSON **out, struct errbuf *eb)
{
	char trace[] = "/tmp/rarbench-trace-XXXXXX";
	struct proc_opts po = {.envp = envp, .output = PROC_OUTPUT_NULL, .stdin_null = true};
	struct proc_cmd *traced = NULL;
	struct tracedrun t = {0};
	cJSON *o = cJSON_CreateObject();
	int fd = mkostemp(trace, O_CLOEXEC), rc = -1;

	if (fd < 0 || o == NULL) {
		errbuf_set_errno(eb, fd < 0 ? errno : ENOMEM, "--profile: %s", trace);
		goto out;
	}
	close(fd);
	/* mkostemp made the trace 0600: strace opens it, creating nothing. */
	po.as = user;
	traced = straceprof_cmd(tracer, trace, NULL, proc_cmd_argv(cmd), &po, eb);
	/* Its output goes where the timed runs' went: no stderr to quote, no timeout. -i
	 * aside, the timed runs exited 0 (measure_run fails otherwise). */
	if (traced == NULL || tracedrun_run(&t, traced, trace, -1, 0, eb) < 0)
		goto out;
	tracedrun_json_status(&t, o);
	tracedrun_json_counts(&t, o);
	*out = o;
	o = NULL;
	rc = 0;
out:
	unlink(trace);
	cJSON_Delete(o);
	proc_cmd_free(traced);
	tracedrun_clear(&t);
	return rc;
}
