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

extern char **environ;

/* The child runs a handful of calls before execve; 64 KiB is far more than it needs. */
#define PROC_CHILD_STACK_BYTES (64 * 1024)
#define PROC_DEFAULT_PATH "/usr/local/bin:/usr/bin:/bin"
/* Descriptors the child closes one by one when the kernel lacks close_range (before 5.9). */
#define PROC_CLOSE_LOOP_MAX (1u << 20)

struct proc_cmd {
	char *path;          /* resolved program */
	char **argv;         /* deep copy, NULL-terminated */
	char **envp;         /* deep copy, NULL-terminated */
	int null_fd;         /* proc_null_fd(), shared, never closed here */
	int out_fd;          /* fd for the child's stdout, or -1 to inherit */
	int err_fd;          /* fd for the child's stderr, or -1 to inherit */
	int in_fd;           /* fd for the child's stdin, or -1 to inherit */
	int mntns_fd;        /* a mount namespace the child joins, or -1 */
	uint32_t timeout_ms; /* 0: wait without a deadline */
	bool has_pin;
	struct proc_pin pin; /* cwd and cpus point into the fields below */
	char *pin_cwd;
	cpu_set_t pin_cpus;
	const volatile sig_atomic_t *stop; /* with timeout_ms: kill the run when set */
	bool switch_user;
	uid_t uid;
	gid_t gid;
	gid_t *groups;
	size_t n_groups;
	char *stack; /* the child's stack (CLONE_VM) */
	/* Written by the child before _exit when execve fails; read by the parent. */
	volatile int exec_errno;
};

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

/* execvp's lookup, done once: returns a heap path or NULL with eb filled. */
static char *proc_resolve(const char *prog, const char *search, struct errbuf *eb)
{
	const char *p = search;
	char buf[PATH_MAX];

	if (prog[0] == '\0') {
		errbuf_set(eb, "empty program name");
		return NULL;
	}
	if (strchr(prog, '/') != NULL) {
		if (!proc_is_executable(prog)) {
			errbuf_set_errno(eb, errno != 0 ? errno : EACCES,
					 "cannot execute program '%s'", prog);
			return NULL;
		}
		return strdup(prog);
	}
	while (p != NULL) {
		const char *colon = strchr(p, ':');
		size_t dlen = colon != NULL ? (size_t)(colon - p) : strlen(p);
		int len;

		/* An empty PATH entry means the current directory. */
		len = snprintf(buf, sizeof(buf), "%.*s%s%s", (int)dlen, dlen ? p : ".", "/", prog);
		if (len > 0 && (size_t)len < sizeof(buf) && proc_is_executable(buf))
			return strdup(buf);
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

int proc_cmd_set_limit(struct proc_cmd *cmd, int resource, uint64_t value)
{
	if (cmd == NULL || !cmd->has_pin)
		return -1;
	for (size_t i = 0; i < cmd->pin.nlimits; i++) {
		if (cmd->pin.limits[i].resource == resource) {
			cmd->pin.limits[i].soft = value;
			cmd->pin.limits[i].hard = value;
			return 0;
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
	free(cmd->stack);
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
	cmd->stack = malloc(PROC_CHILD_STACK_BYTES);
	if (cmd->argv == NULL || cmd->envp == NULL || cmd->stack == NULL)
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

/*
 * Closes every descriptor from 3 up in the child (its own copy of the table:
 * no CLONE_FILES), so nothing but stdin, stdout and stderr crosses into the
 * measured command, whatever the caller left open without O_CLOEXEC.
 * close_range (Linux 5.9) in one call; on ENOSYS, close() up to the
 * RLIMIT_NOFILE soft limit (read with the raw prlimit64 syscall), at most
 * PROC_CLOSE_LOOP_MAX. Async-signal-safe.
 */
__attribute__((no_sanitize("address", "undefined"))) static int proc_child_close_fds(void)
{
	struct {
		uint64_t cur, max;
	} lim;
	uint64_t hi = PROC_CLOSE_LOOP_MAX;

#ifdef SYS_close_range
	if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0)
		return 0;
	if (errno != ENOSYS)
		return -1;
#endif
	if (syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, NULL, &lim) == 0 && lim.cur < hi)
		hi = lim.cur;
	for (uint64_t fd = 3; fd < hi; fd++)
		close((int)fd);
	return 0;
}

/*
 * Applies a pin in the child with raw syscalls (async-signal-safe; the child has its own
 * fs_struct, so umask and chdir do not reach the parent). Before the identity switch: a hard
 * limit above the caller's needs CAP_SYS_RESOURCE, entering cwd is checked as root.
 */
__attribute__((no_sanitize("address", "undefined"))) static int
proc_child_pin(const struct proc_pin *pin)
{
	for (size_t i = 0; i < pin->nlimits; i++) {
		struct {
			uint64_t cur, max;
		} lim = {pin->limits[i].soft, pin->limits[i].hard};

		if (syscall(SYS_prlimit64, 0, pin->limits[i].resource, &lim, NULL) != 0)
			return -1;
	}
	if (pin->umask >= 0)
		syscall(SYS_umask, pin->umask);
	if (pin->cwd != NULL && syscall(SYS_chdir, pin->cwd) != 0)
		return -1;
	if (pin->cpus != NULL &&
	    syscall(SYS_sched_setaffinity, 0, sizeof(cpu_set_t), pin->cpus) != 0)
		return -1;
	return 0;
}

/*
 * The child side of clone(CLONE_VM|CLONE_VFORK): it shares the parent's
 * memory until execve, so it only makes async-signal-safe calls and raw
 * credential syscalls (glibc's setuid() would broadcast to "all threads" of
 * the shared address space; the raw syscall changes this task only).
 * Order: dup2 the standard descriptors, join the mount namespace (its fd is
 * still open), close everything from 3 up, switch identity, execve.
 */
__attribute__((no_sanitize("address", "undefined"))) static int proc_child(void *arg)
{
	struct proc_cmd *cmd = arg;

	if (cmd->in_fd >= 0 && dup2(cmd->in_fd, STDIN_FILENO) < 0)
		goto fail;
	if (cmd->out_fd >= 0 && dup2(cmd->out_fd, STDOUT_FILENO) < 0)
		goto fail;
	if (cmd->err_fd >= 0 && dup2(cmd->err_fd, STDERR_FILENO) < 0)
		goto fail;
	/* A group of its own, so that a timeout or a stop can kill the tool and what it started. */
	if (cmd->timeout_ms > 0 && syscall(SYS_setpgid, 0, 0) != 0)
		goto fail;
	/* Before the identity switch: joining a mount namespace needs CAP_SYS_ADMIN. The child
	 * has its own fs_struct (no CLONE_FS), which setns of a mount namespace requires. */
	if (cmd->mntns_fd >= 0 && syscall(SYS_setns, cmd->mntns_fd, CLONE_NEWNS) != 0)
		goto fail;
	if (proc_child_close_fds() != 0)
		goto fail;
	if (cmd->has_pin && proc_child_pin(&cmd->pin) != 0)
		goto fail;
	if (cmd->switch_user) {
		if (syscall(SYS_setgroups, cmd->n_groups, cmd->groups) != 0)
			goto fail;
		if (syscall(SYS_setresgid, cmd->gid, cmd->gid, cmd->gid) != 0)
			goto fail;
		if (syscall(SYS_setresuid, cmd->uid, cmd->uid, cmd->uid) != 0)
			goto fail;
	}
	execve(cmd->path, cmd->argv, cmd->envp);
fail:
	cmd->exec_errno = errno != 0 ? errno : EIO;
	_exit(127);
}

static uint64_t proc_ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000ULL + (uint64_t)ts->tv_nsec;
}

static uint64_t proc_tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ULL + (uint64_t)tv->tv_usec * 1000ULL;
}

static uint64_t proc_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return proc_ts_ns(&ts);
}

/*
 * Waits on the child's pidfd until it exits, the deadline passes or a signal
 * arrives with *cmd->stop set; in the last two cases kills its process group
 * (the child leads it) and marks out. The clock is read only after a wake-up
 * that was not the exit, so a normal run costs one poll.
 */
static void proc_wait_deadline(struct proc_cmd *cmd, pid_t pid, int pidfd, uint64_t t0_ns,
			       struct proc_sample *out)
{
	uint64_t deadline = t0_ns + (uint64_t)cmd->timeout_ms * 1000000ULL, now;
	struct pollfd pfd = {.fd = pidfd, .events = POLLIN};
	int wait_ms = (int)cmd->timeout_ms, pr;

	for (;;) {
		pr = poll(&pfd, 1, wait_ms);
		if (pr > 0)
			return;
		if (pr < 0 && errno == EINTR && cmd->stop != NULL && *cmd->stop) {
			out->stopped = true;
			break;
		}
		now = proc_now_ns();
		if (now >= deadline) {
			out->timed_out = true;
			break;
		}
		wait_ms = (int)((deadline - now + 999999ULL) / 1000000ULL);
	}
	/* SIGKILL ends a stopped process too. The group first: the child may be gone already. */
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
}

int proc_run(struct proc_cmd *cmd, struct proc_sample *out, struct errbuf *eb)
{
	struct timespec t0, t1;
	struct rusage ru;
	int status = 0, pidfd = -1, flags = CLONE_VM | CLONE_VFORK | SIGCHLD;
	pid_t pid, r;

	cmd->exec_errno = 0;
	out->timed_out = out->stopped = false;
	if (cmd->timeout_ms > 0)
		flags |= CLONE_PIDFD;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid =
	    clone(proc_child, cmd->stack + PROC_CHILD_STACK_BYTES, flags, cmd, &pidfd, NULL, NULL);
	if (pid < 0)
		return errbuf_set_errno(eb, errno, "cannot start '%s'", cmd->argv[0]);
	if (pidfd >= 0)
		proc_wait_deadline(cmd, pid, pidfd, proc_ts_ns(&t0), out);
	do
		r = wait4(pid, &status, 0, &ru);
	while (r < 0 && errno == EINTR);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (pidfd >= 0) {
		/* What the group did not hold dies too; in a group, nothing of it outlives the run.
		 */
		if (out->timed_out || out->stopped)
			kill(-pid, SIGKILL);
		close(pidfd);
	}
	if (r < 0)
		return errbuf_set_errno(eb, errno, "waiting for '%s'", cmd->argv[0]);
	if (cmd->exec_errno != 0)
		return errbuf_set_errno(eb, cmd->exec_errno, "cannot execute '%s'", cmd->path);
	out->wall_ns = proc_ts_ns(&t1) - proc_ts_ns(&t0);
	out->user_ns = proc_tv_ns(&ru.ru_utime);
	out->system_ns = proc_tv_ns(&ru.ru_stime);
	out->nivcsw = ru.ru_nivcsw > 0 ? (uint32_t)ru.ru_nivcsw : 0;
	out->ru = (struct proc_rusage){(uint64_t)ru.ru_minflt, (uint64_t)ru.ru_majflt,
				       (uint64_t)ru.ru_maxrss, (uint64_t)ru.ru_inblock,
				       (uint64_t)ru.ru_nvcsw};
	out->status = status;
	if (WIFEXITED(status))
		out->exit_code = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		out->exit_code = 128 + WTERMSIG(status);
	else
		out->exit_code = 128;
	return 0;
}
