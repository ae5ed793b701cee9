/* proc: spawn one prepared command without a shell and time it (CLOCK_MONOTONIC + wait4 rusage). */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "launchproto.h"
#include "proc_impl.h"

extern char **environ;

#define PROC_DEFAULT_PATH "/usr/local/bin:/usr/bin:/bin"

static char **proc_strv_dup(char *const *v)
{
	size_t n = 0;
	char **out;

	while (v[n] != NULL)
		n++;
	out = calloc(n + 1, sizeof(*out));
	if (out == NULL)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		out[i] = strdup(v[i]);
		if (out[i] == NULL) {
			proc_env_free(out);
			return NULL;
		}
	}
	return out;
}

void proc_env_free(char **envp)
{
	if (envp == NULL)
		return;
	for (size_t i = 0; envp[i] != NULL; i++)
		free(envp[i]);
	free(envp);
}

static const char *proc_env_get(char *const *envp, const char *name)
{
	size_t len = strlen(name);

	for (size_t i = 0; envp != NULL && envp[i] != NULL; i++)
		if (strncmp(envp[i], name, len) == 0 && envp[i][len] == '=')
			return envp[i] + len + 1;
	return NULL;
}

static bool proc_is_executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/*
 * path as a heap string, made absolute against the working directory when it is relative
 * ("bin/sudo", or a PATH entry "." or "bin"): rarlaunch execs only absolute paths, and a
 * pinned cwd may differ from ours, so the program is the file checked here, as execvp would
 * have found it from this directory. NULL with eb filled.
 */
static char *proc_absolute(const char *path, struct errbuf *eb)
{
	char cwd[PATH_MAX], buf[PATH_MAX];
	char *out;

	if (path[0] == '/')
		out = strdup(path);
	else if (getcwd(cwd, sizeof(cwd)) == NULL) {
		errbuf_set_errno(eb, errno, "program '%s': the working directory", path);
		return NULL;
	} else if (fileio_fmt(buf, sizeof(buf), "%s/%s", cwd, path) != 0) {
		errbuf_set(eb, "program '%s': its path from %s is longer than %d bytes", path, cwd,
			   PATH_MAX - 1);
		return NULL;
	} else
		out = strdup(buf);
	if (out == NULL)
		errbuf_set(eb, "out of memory");
	return out;
}

/* execvp's lookup, done once: returns a heap absolute path or NULL with eb filled. */
static char *proc_resolve(const char *prog, const char *search, struct errbuf *eb)
{
	const char *p = search;
	char buf[PATH_MAX];

	if (prog[0] == '\0') {
		errbuf_set(eb, "empty program name");
		return NULL;
	}
	if (strchr(prog, '/') != NULL) {
		/* As execvp: a name with a slash is a path, relative to the working directory. */
		errno = 0;
		if (!proc_is_executable(prog)) {
			errbuf_set_errno(eb, errno != 0 ? errno : EACCES,
					 "cannot execute program '%s'", prog);
			return NULL;
		}
		return proc_absolute(prog, eb);
	}
	while (p != NULL) {
		const char *colon = strchr(p, ':');
		size_t dlen = colon != NULL ? (size_t)(colon - p) : strlen(p);
		int len;

		/* An empty PATH entry means the current directory. */
		len = snprintf(buf, sizeof(buf), "%.*s%s%s", (int)dlen, dlen ? p : ".", "/", prog);
		if (len > 0 && (size_t)len < sizeof(buf) && proc_is_executable(buf))
			return proc_absolute(buf, eb);
		p = colon != NULL ? colon + 1 : NULL;
	}
	errbuf_set(eb, "cannot find program '%s' in PATH (%s)", prog, search);
	return NULL;
}

/*
 * One /dev/null descriptor (O_CLOEXEC) shared by every prepared command of
 * the process, opened on first use and kept open: a benchmark plan can hold
 * thousands of commands and must not spend a descriptor on each.
 */
static int proc_null_fd(void)
{
	static int fd = -1;

	if (fd < 0)
		fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	return fd;
}

/* A standard descriptor the child inherits: sent when this process has it open. */
static int proc_inherited_fd(int fd)
{
	return fcntl(fd, F_GETFD) >= 0 ? fd : -1;
}

/* What a child of cmd's is made into, descriptors and deadline aside: the identity, the program,
 * its environment, the pin (limits into the caller's array). */
static void proc_cmd_spec(const struct proc_cmd *cmd, struct launch_spec *spec,
			  struct launch_limit *limits)
{
	*spec = (struct launch_spec){.uid = cmd->uid,
				     .gid = cmd->gid,
				     .groups = cmd->groups,
				     .n_groups = cmd->n_groups,
				     .path = cmd->path,
				     .argv = cmd->argv,
				     .envp = cmd->envp,
				     .umask = -1};
	if (cmd->switch_user)
		spec->flags |= LAUNCH_F_USER;
	if (cmd->has_pin) {
		spec->flags |= LAUNCH_F_PIN;
		for (size_t i = 0; i < cmd->pin.nlimits; i++)
			limits[i] =
			    (struct launch_limit){.resource = (uint32_t)cmd->pin.limits[i].resource,
						  .soft = cmd->pin.limits[i].soft,
						  .hard = cmd->pin.limits[i].hard};
		spec->limits = limits;
		spec->nlimits = cmd->pin.nlimits;
		spec->umask = cmd->pin.umask;
		spec->cwd = cmd->pin.cwd;
		spec->cpus = cmd->pin.cpus;
	}
}

/* cmd's request for rarlaunch (launchproto.h) into cmd->req, and the descriptors it sends. */
static int proc_cmd_build_req(struct proc_cmd *cmd, struct errbuf *eb)
{
	struct launch_limit limits[PROC_PIN_LIMITS_MAX];
	struct launch_spec spec;
	int std[3] = {cmd->in_fd >= 0 ? cmd->in_fd : proc_inherited_fd(STDIN_FILENO),
		      cmd->out_fd >= 0 ? cmd->out_fd : proc_inherited_fd(STDOUT_FILENO),
		      cmd->err_fd >= 0 ? cmd->err_fd : proc_inherited_fd(STDERR_FILENO)};
	static const uint32_t std_flags[3] = {LAUNCH_F_IN, LAUNCH_F_OUT, LAUNCH_F_ERR};
	unsigned char *req = NULL;
	size_t len = 0;

	proc_cmd_spec(cmd, &spec, limits);
	spec.timeout_ms = cmd->timeout_ms;
	cmd->nfds = 0;
	for (size_t i = 0; i < 3; i++) {
		if (std[i] < 0)
			continue;
		spec.flags |= std_flags[i];
		cmd->fds[cmd->nfds++] = std[i];
	}
	if (cmd->mntns_fd >= 0) {
		spec.flags |= LAUNCH_F_MNTNS;
		cmd->fds[cmd->nfds++] = cmd->mntns_fd;
	}
	if (launch_req_build(&spec, &req, &len, eb) < 0)
		return errbuf_prefix(eb, "%s", cmd->argv[0]);
	free(cmd->req);
	cmd->req = req;
	cmd->req_len = len;
	return 0;
}

int proc_cmd_set_limit(struct proc_cmd *cmd, int resource, uint64_t value)
{
	if (cmd == NULL || !cmd->has_pin)
		return -1;
	for (size_t i = 0; i < cmd->pin.nlimits; i++) {
		if (cmd->pin.limits[i].resource == resource) {
			cmd->pin.limits[i].soft = value;
			cmd->pin.limits[i].hard = value;
			return proc_cmd_build_req(cmd, NULL);
		}
	}
	return -1;
}

void proc_cmd_free(struct proc_cmd *cmd)
{
	if (cmd == NULL)
		return;
	free(cmd->path);
	proc_env_free(cmd->argv);
	proc_env_free(cmd->envp);
	free(cmd->groups);
	free(cmd->pin_cwd);
	free(cmd->req);
	free(cmd);
}

/* One copy step per option, kept together so that its oom/fail exits free them all (84 lines). */
struct proc_cmd *proc_cmd_new(char *const *argv, const struct proc_opts *opts, struct errbuf *eb)
{
	struct proc_cmd *cmd = NULL;
	const char *search;

	if (argv == NULL || argv[0] == NULL) {
		errbuf_set(eb, "empty command");
		return NULL;
	}
	if (opts->as != NULL && geteuid() != 0) {
		errbuf_set(eb, "running commands as user '%s' needs root", opts->as->name);
		return NULL;
	}
	cmd = calloc(1, sizeof(*cmd));
	if (cmd == NULL)
		goto oom;
	cmd->null_fd = -1;
	cmd->argv = proc_strv_dup(argv);
	cmd->envp = proc_strv_dup(opts->envp != NULL ? opts->envp : environ);
	if (cmd->argv == NULL || cmd->envp == NULL)
		goto oom;
	search = proc_env_get(cmd->envp, "PATH");
	if (search == NULL)
		search = PROC_DEFAULT_PATH;
	cmd->path = proc_resolve(argv[0], search, eb);
	if (cmd->path == NULL)
		goto fail;
	cmd->null_fd = proc_null_fd();
	if (cmd->null_fd < 0) {
		errbuf_set_errno(eb, errno, "/dev/null");
		goto fail;
	}
	cmd->in_fd = opts->stdin_null ? cmd->null_fd : -1;
	cmd->mntns_fd = opts->mntns != NULL ? mntns_fd(opts->mntns) : -1;
	cmd->timeout_ms = opts->timeout_ms;
	cmd->stop = opts->stop;
	if (opts->pin != NULL) {
		cmd->has_pin = true;
		cmd->pin = *opts->pin;
		if (opts->pin->cwd != NULL && (cmd->pin_cwd = strdup(opts->pin->cwd)) == NULL)
			goto oom;
		cmd->pin.cwd = cmd->pin_cwd;
		if (opts->pin->cpus != NULL) {
			cmd->pin_cpus = *opts->pin->cpus;
			cmd->pin.cpus = &cmd->pin_cpus;
		}
	}
	switch (opts->output) {
	case PROC_OUTPUT_INHERIT:
		cmd->out_fd = cmd->err_fd = -1;
		break;
	case PROC_OUTPUT_FD:
		/* hyperfine's --output=FILE: stdout to the file, stderr to /dev/null. */
		cmd->out_fd = opts->output_fd;
		cmd->err_fd = cmd->null_fd;
		break;
	case PROC_OUTPUT_STDERR_FD:
		cmd->out_fd = cmd->null_fd;
		cmd->err_fd = opts->output_fd;
		break;
	case PROC_OUTPUT_BOTH_FD:
		cmd->out_fd = cmd->err_fd = opts->output_fd;
		break;
	case PROC_OUTPUT_NULL:
	default:
		cmd->out_fd = cmd->err_fd = cmd->null_fd;
		break;
	}
	if (opts->as != NULL) {
		cmd->switch_user = true;
		cmd->uid = opts->as->uid;
		cmd->gid = opts->as->gid;
		cmd->n_groups = opts->as->n_groups;
		if (cmd->n_groups > 0) {
			cmd->groups = malloc(cmd->n_groups * sizeof(gid_t));
			if (cmd->groups == NULL)
				goto oom;
			memcpy(cmd->groups, opts->as->groups, cmd->n_groups * sizeof(gid_t));
		}
	}
	cmd->net = cmd->has_pin ? cmd->pin.net : PROC_NET_HOST;
	if (proc_cmd_build_req(cmd, eb) < 0)
		goto fail;
	return cmd;
oom:
	errbuf_set(eb, "out of memory");
fail:
	proc_cmd_free(cmd);
	return NULL;
}

char *const *proc_cmd_argv(const struct proc_cmd *cmd)
{
	return cmd->argv;
}

char **proc_cmd_exec_argv(const struct proc_cmd *cmd, struct errbuf *eb)
{
	static const char hex[] = "0123456789abcdef";
	struct launch_limit limits[PROC_PIN_LIMITS_MAX];
	struct launch_spec spec;
	unsigned char *req = NULL;
	size_t len = 0, nchunks, i;
	const char *launcher = proc_launcher_path(eb);
	char **argv = NULL;

	if (launcher == NULL)
		return NULL;
	proc_cmd_spec(cmd, &spec, limits);
	if (launch_req_build(&spec, &req, &len, eb) < 0) {
		errbuf_prefix(eb, "%s", cmd->argv[0]);
		return NULL;
	}
	nchunks = (len + PROC_EXEC_CHUNK_BYTES - 1) / PROC_EXEC_CHUNK_BYTES;
	if ((argv = calloc(nchunks + 3, sizeof(*argv))) == NULL ||
	    (argv[0] = strdup(launcher)) == NULL || (argv[1] = strdup("--exec")) == NULL)
		goto oom;
	for (i = 0; i < nchunks; i++) {
		size_t from = i * PROC_EXEC_CHUNK_BYTES,
		       n = len - from < PROC_EXEC_CHUNK_BYTES ? len - from : PROC_EXEC_CHUNK_BYTES;
		char *s = malloc(2 * n + 1);

		if ((argv[2 + i] = s) == NULL)
			goto oom;
		for (size_t k = 0; k < n; k++) {
			s[2 * k] = hex[req[from + k] >> 4];
			s[2 * k + 1] = hex[req[from + k] & 15];
		}
		s[2 * n] = '\0';
	}
	free(req);
	return argv;
oom:
	free(req);
	proc_env_free(argv);
	errbuf_set(eb, "out of memory");
	return NULL;
}
