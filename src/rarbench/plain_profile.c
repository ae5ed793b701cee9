/* plain_profile: rarbench --profile in plain mode: each command traced once after its runs. */
#include "plain_profile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "straceprof.h"

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
	struct proc_sample ts;
	struct straceprof p;
	struct errbuf peb = {{0}};
	cJSON *o = cJSON_CreateObject();
	int fd = mkostemp(trace, O_CLOEXEC), rc = -1;

	straceprof_init(&p);
	if (fd < 0 || o == NULL) {
		errbuf_set_errno(eb, fd < 0 ? errno : ENOMEM, "--profile: %s", trace);
		goto out;
	}
	close(fd);
	traced = straceprof_cmd(tracer, trace, user != NULL ? user->name : NULL, proc_cmd_argv(cmd),
				&po, eb);
	if (traced == NULL || proc_run(traced, &ts, eb) < 0)
		goto out;
	if (straceprof_read_file(&p, trace, &peb) < 0 || p.execs == 0) {
		cJSON_AddStringToObject(o, "status", "untraceable");
		cJSON_AddStringToObject(o, "message",
					peb.msg[0] ? peb.msg : "strace could not run it");
	} else {
		/* -i aside, the timed runs exited 0 (measure_run fails otherwise). */
		cJSON_AddStringToObject(o, "status", ts.exit_code == 0 ? "ok" : "exit_differs");
	}
	cJSON_AddNumberToObject(o, "traced_exit_code", ts.exit_code);
	if (p.execs > 0)
		straceprof_json(&p, o);
	*out = o;
	o = NULL;
	rc = 0;
out:
	unlink(trace);
	cJSON_Delete(o);
	proc_cmd_free(traced);
	straceprof_clear(&p);
	return rc;
}
