/* runner_polkit: pkexec's private system bus and polkitd, started with each step of a pkexec
 * subject and stopped with it; polkitd's CPU time and memory over the step's timed runs. */
#include "runner_polkit.h"

#include <inttypes.h>
#include <stdbool.h>
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
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "atomicfile.h"
#include "cgroup2.h"
#include "clock.h"
#include "fileio.h"
#include "trustpath.h"

/* Debian's bus daemon (package dbus-daemon), run with a configuration of ours. */
#define RUNNER_POLKIT_DBUS_DAEMON "/usr/bin/dbus-daemon"
/* polkitd's cgroup, a child of rarbench's (the sweep's, sweepcg.h, which removes it with its
 * tree): its cpu.stat counts every thread polkitd ran, those that have exited too (polkit
 * 122 runs each rules call in a thread of its own), to the microsecond. */
#define RUNNER_POLKIT_CGROUP "rarbench-polkitd"
/* Where the prefix's world holds polkitd (roles/rarperf_pkexec). */
#define RUNNER_POLKIT_DAEMON "/polkit/usr/lib/polkit-1/polkitd"
/* What polkitd logs once it serves; any log line holding the second fails the step. */
#define RUNNER_POLKIT_READY_LINE "Acquired the name org.freedesktop.PolicyKit1"
#define RUNNER_POLKIT_ERROR_WORD "Error"
/* The account polkitd switches to (compiled into it; Debian's sysusers.d makes it). */
#define RUNNER_POLKIT_USER "polkitd"
/* How long a stopped daemon has between SIGTERM and SIGKILL. */
#define RUNNER_POLKIT_STOP_MS 1000
/* The most bytes of polkitd's log read while waiting (its start-up says a few lines). */
#define RUNNER_POLKIT_LOG_MAX 8192

struct runner_polkit {
	char dir[PATH_MAX];     /* PREFIX/polkit/run */
	char conf[PATH_MAX];    /* its bus.conf */
	char socket[PATH_MAX];  /* the bus's socket, shown at /run/dbus/system_bus_socket */
	char log[PATH_MAX];     /* polkitd's output, read for readiness and errors */
	char bus_log[PATH_MAX]; /* the bus's own output (its warnings are not polkitd's errors) */
	char polkitd[PATH_MAX]; /* PREFIX/polkit/usr/lib/polkit-1/polkitd */
	char cg[PATH_MAX]; /* polkitd's own cgroup under rarbench's ("": none, /proc's ticks) */
	pid_t bus, daemon; /* 0: not running */
	uint64_t mark_ns;  /* polkitd's CPU time at runner_polkit_mark */
};

int runner_polkit_files(const char *prefix, struct runner_polkit_files *out, struct errbuf *eb)
{
	/* mntns_show_files_at's order: one overlay per directory, consecutive files sharing it. */
	static const char *const target[RUNNER_POLKIT_FILES] = {
	    "/etc/polkit-1/rules.d", "/run/dbus/system_bus_socket", "/usr/share/polkit-1/rules.d",
	    "/usr/share/polkit-1/actions"};
	static const char *const source[RUNNER_POLKIT_FILES] = {
	    "/etc/polkit-1/rules.d", "/polkit/run/system_bus_socket",
	    "/polkit/usr/share/polkit-1/rules.d", "/polkit/usr/share/polkit-1/actions"};

	for (size_t i = 0; i < RUNNER_POLKIT_FILES; i++) {
		if (fileio_fmt(out->source[i], sizeof(out->source[i]), "%s%s", prefix, source[i]) <
		    0)
			return errbuf_set(eb, "%s%s: path too long", prefix, source[i]);
		out->file[i] = (struct mntns_file){.target = target[i], .source = out->source[i]};
	}
	return 0;
}

/* The bus's configuration: a system bus on our socket, which only root (pkexec is set-user-ID
 * root when it connects) and polkitd's account can reach (runner_polkit_new); only polkitd's
 * account may own polkit's name, so nothing else can answer pkexec in its place. */
static int write_conf(const struct runner_polkit *pk, struct errbuf *eb)
{
	char text[2 * PATH_MAX];

	if (strpbrk(pk->socket, "<>&\"',;=") != NULL)
		return errbuf_set(eb, "%s: a character a bus address or XML cannot carry",
				  pk->socket);
	if (fileio_fmt(text, sizeof(text),
		       "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-BUS Bus Configuration "
		       "1.0//EN\"\n \"http://www.freedesktop.org/standards/dbus/1.0/"
		       "busconfig.dtd\">\n"
		       "<!-- rarbench: pkexec's private system bus (runner_polkit.h) -->\n"
		       "<busconfig>\n  <type>system</type>\n"
		       "  <listen>unix:path=%s</listen>\n  <auth>EXTERNAL</auth>\n"
		       "  <policy context=\"default\">\n    <allow user=\"*\"/>\n"
		       "    <deny own=\"*\"/>\n    <allow send_destination=\"*\"/>\n"
		       "    <allow receive_sender=\"*\"/>\n  </policy>\n"
		       "  <policy user=\"" RUNNER_POLKIT_USER "\">\n"
		       "    <allow own=\"org.freedesktop.PolicyKit1\"/>\n  </policy>\n"
		       "</busconfig>\n",
		       pk->socket) < 0)
		return errbuf_set(eb, "%s: path too long", pk->socket);
	return atomicfile_write(pk->conf, text, strlen(text), 0644, eb);
}

struct runner_polkit *runner_polkit_new(const char *prefix, struct errbuf *eb)
{
	struct runner_polkit *pk = calloc(1, sizeof(*pk));
	struct group *gr = getgrnam(RUNNER_POLKIT_USER);
	struct stat st;

	if (pk == NULL) {
		errbuf_set(eb, "out of memory");
		return NULL;
	}
	if (fileio_fmt(pk->dir, sizeof(pk->dir), "%s/polkit/run", prefix) < 0 ||
	    fileio_fmt(pk->conf, sizeof(pk->conf), "%s/bus.conf", pk->dir) < 0 ||
	    fileio_fmt(pk->socket, sizeof(pk->socket), "%s/system_bus_socket", pk->dir) < 0 ||
	    fileio_fmt(pk->log, sizeof(pk->log), "%s/polkitd.log", pk->dir) < 0 ||
	    fileio_fmt(pk->bus_log, sizeof(pk->bus_log), "%s/dbus-daemon.log", pk->dir) < 0 ||
	    fileio_fmt(pk->polkitd, sizeof(pk->polkitd), "%s" RUNNER_POLKIT_DAEMON, prefix) < 0) {
		errbuf_set(eb, "%s: path too long", prefix);
		goto fail;
	}
	if (trustpath_check(pk->polkitd, NULL, eb) < 0 ||
	    trustpath_check(RUNNER_POLKIT_DBUS_DAEMON, NULL, eb) < 0) {
		errbuf_prefix(eb, "pkexec's daemons");
		goto fail;
	}
	if (mkdir(pk->dir, 0700) != 0 && errno != EEXIST) {
		errbuf_set_errno(eb, errno, "%s", pk->dir);
		goto fail;
	}
	if (gr == NULL) {
		errbuf_set(eb, "no group %s: polkitd's account (roles/rarperf_pkexec makes it)",
			   RUNNER_POLKIT_USER);
		goto fail;
	}
	/* Root's, a directory, not writable by others; reachable by root and polkitd's group only
	 * (mode 0710): no other local user can connect to the bus, let alone answer on it. */
	if (lstat(pk->dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != 0 ||
	    (st.st_mode & 022) != 0 || chown(pk->dir, 0, gr->gr_gid) != 0 ||
	    chmod(pk->dir, 0710) != 0) {
		errbuf_set(eb, "%s: not a directory of root's closed to writers", pk->dir);
		goto fail;
	}
	if (write_conf(pk, eb) < 0)
		goto fail;
	return pk;
fail:
	free(pk);
	return NULL;
}

/*
 * Forks a daemon: it dies with rarbench (PR_SET_PDEATHSIG), joins the namespace, reads
 * /dev/null, writes to out_fd (both outputs) and, when ready_fd >= 0, keeps that as fd 3.
 * Returns its pid, or -1 with eb.
 */
static pid_t spawn(char *const argv[], int mntns_fd, int out_fd, int ready_fd, const char *cg,
		   struct errbuf *eb)
{
	char procs[PATH_MAX + 16];
	static char *const envp[] = {"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C", NULL};
	pid_t parent = getpid(), pid;

	if (cg[0] != '\0' && fileio_fmt(procs, sizeof(procs), "%s/cgroup.procs", cg) < 0)
		return errbuf_set(eb, "%s: path too long", cg);
	pid = fork();

	if (pid < 0)
		return errbuf_set_errno(eb, errno, "fork %s", argv[0]);
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
			_exit(127);
		/* Into its own cgroup before it runs anything, so every thread it makes is counted.
		 */
		if (cg[0] != '\0') {
			int fd = open(procs, O_WRONLY | O_CLOEXEC);

			/* Refused (a cgroup with controllers, outside the sweep's): the parent
			 * sees it and falls back to /proc's ticks. */
			if (fd >= 0) {
				ssize_t w = write(fd, "0\n", 2);

				(void)w; /* a refusal shows in the parent's check */
				close(fd);
			}
		}
		if (setns(mntns_fd, CLONE_NEWNS) != 0 || chdir("/") != 0 || null < 0 ||
		    dup2(null, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(out_fd, 2) < 0 ||
		    (ready_fd >= 0 && dup2(ready_fd, 3) < 0))
			_exit(127);
		/* A session of its own: a terminal's signals are rarbench's to handle. */
		setsid();
		execve(argv[0], argv, envp);
		_exit(127);
	}
	return pid;
}

/* Waits for pid for at most ms; SIGKILL after. */
static void reap(pid_t pid, int ms)
{
	for (int waited = 0; waited < ms; waited += 10) {
		if (waitpid(pid, NULL, WNOHANG) != 0)
			return;
		nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

void runner_polkit_stop(struct runner_polkit *pk)
{
	if (pk == NULL)
		return;
	if (pk->daemon > 0) {
		kill(pk->daemon, SIGTERM);
		reap(pk->daemon, RUNNER_POLKIT_STOP_MS);
		pk->daemon = 0;
	}
	if (pk->bus > 0) {
		kill(pk->bus, SIGTERM);
		reap(pk->bus, RUNNER_POLKIT_STOP_MS);
		pk->bus = 0;
	}
	unlink(pk->socket);
	if (pk->cg[0] != '\0' && rmdir(pk->cg) != 0 && errno == ENOENT)
		pk->cg[0] = '\0';
}

/* Waits until the bus writes its address on fd (it listens then). 0 or -1. */
static int wait_bus(int fd, int ms, struct errbuf *eb)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};
	char addr[256];
	int r = poll(&p, 1, ms);

	if (r <= 0)
		return errbuf_set(eb, "dbus-daemon: not listening after %d ms", ms);
	if (read(fd, addr, sizeof(addr)) <= 0)
		return errbuf_set(eb, "dbus-daemon: exited before listening");
	return 0;
}

/* The first line of text holding word, copied into out (one line, at most cap bytes). */
static bool find_line(const char *text, const char *word, char *out, size_t cap)
{
	const char *at = strstr(text, word), *start, *end;

	if (at == NULL)
		return false;
	for (start = at; start > text && start[-1] != '\n'; start--)
		;
	end = strchr(at, '\n');
	if (end == NULL)
		end = at + strlen(at);
	snprintf(out, cap, "%.*s", (int)(end - start), start);
	return true;
}

/* Waits until polkitd's log says it serves; its first error line or exit fails. 0 or -1. */
static int wait_daemon(struct runner_polkit *pk, int log_fd, int ms, struct errbuf *eb)
{
	char text[RUNNER_POLKIT_LOG_MAX + 1], line[512];
	long until = clock_now_ms() + ms;

	for (;;) {
		ssize_t n = pread(log_fd, text, RUNNER_POLKIT_LOG_MAX, 0);

		text[n > 0 ? n : 0] = '\0';
		if (find_line(text, RUNNER_POLKIT_ERROR_WORD, line, sizeof(line)))
			return errbuf_set(eb, "polkitd: %s", line);
		if (strstr(text, RUNNER_POLKIT_READY_LINE) != NULL)
			return 0;
		if (waitpid(pk->daemon, NULL, WNOHANG) != 0) {
			pk->daemon = 0;
			return errbuf_set(eb, "polkitd exited before serving (log: %s)", pk->log);
		}
		if (clock_now_ms() > until)
			return errbuf_set(eb, "polkitd: not serving after %d ms (log: %s)", ms,
					  pk->log);
		nanosleep(&(struct timespec){0, 2 * 1000 * 1000}, NULL);
	}
}

/* polkitd's cgroup under this process's own, made afresh; none (pk->cg "") when there is no
 * cgroup2 or it cannot be made: the CPU time then comes from /proc's ticks. */
static void make_cgroup(struct runner_polkit *pk)
{
	char own[PATH_MAX];

	pk->cg[0] = '\0';
	if (cgroup2_own_dir(own, sizeof(own)) != 0 ||
	    fileio_fmt(pk->cg, sizeof(pk->cg), "%s/" RUNNER_POLKIT_CGROUP, own) < 0 ||
	    (mkdir(pk->cg, 0755) != 0 && errno != EEXIST))
		pk->cg[0] = '\0';
}

/* Whether polkitd is in its cgroup (cgroup.procs lists it). */
static bool in_cgroup(const struct runner_polkit *pk)
{
	char path[PATH_MAX + 16], text[256], want[32];
	ssize_t n;
	int fd;

	if (pk->cg[0] == '\0' || fileio_fmt(path, sizeof(path), "%s/cgroup.procs", pk->cg) < 0 ||
	    fileio_fmt(want, sizeof(want), "%d\n", (int)pk->daemon) < 0 ||
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	text[n > 0 ? n : 0] = '\0';
	return strncmp(text, want, strlen(want)) == 0 || strstr(text, want) != NULL;
}

int runner_polkit_start(struct runner_polkit *pk, int mntns_fd, struct errbuf *eb)
{
	char conf_arg[PATH_MAX + 16];
	char *bus_argv[] = {
	    RUNNER_POLKIT_DBUS_DAEMON, conf_arg, "--nofork", "--nopidfile", "--nosyslog",
	    "--print-address=3",       NULL};
	char *daemon_argv[] = {pk->polkitd, NULL};
	int ready[2] = {-1, -1}, log_fd = -1, bus_fd = -1, rc = -1;

	runner_polkit_stop(pk);
	if (fileio_fmt(conf_arg, sizeof(conf_arg), "--config-file=%s", pk->conf) < 0)
		return errbuf_set(eb, "%s: path too long", pk->conf);
	log_fd = open(pk->log, O_RDWR | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (log_fd < 0)
		return errbuf_set_errno(eb, errno, "%s", pk->log);
	bus_fd = open(pk->bus_log, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (bus_fd < 0) {
		errbuf_set_errno(eb, errno, "%s", pk->bus_log);
		goto out;
	}
	if (pipe2(ready, O_CLOEXEC) != 0) {
		errbuf_set_errno(eb, errno, "pipe");
		goto out;
	}
	pk->bus = spawn(bus_argv, mntns_fd, bus_fd, ready[1], "", eb);
	close(ready[1]);
	ready[1] = -1;
	if (pk->bus < 0) {
		pk->bus = 0;
		goto out;
	}
	if (wait_bus(ready[0], RUNNER_POLKIT_READY_MS, eb) < 0)
		goto out;
	make_cgroup(pk);
	pk->daemon = spawn(daemon_argv, mntns_fd, log_fd, -1, pk->cg, eb);
	if (pk->daemon < 0) {
		pk->daemon = 0;
		goto out;
	}
	rc = wait_daemon(pk, log_fd, RUNNER_POLKIT_READY_MS, eb);
	if (rc == 0 && !in_cgroup(pk)) {
		rmdir(pk->cg);
		pk->cg[0] = '\0';
	}
out:
	if (ready[0] >= 0)
		close(ready[0]);
	close(log_fd);
	if (bus_fd >= 0)
		close(bus_fd);
	if (rc < 0)
		runner_polkit_stop(pk);
	return rc;
}

/* The first number after key in the text of path (key included, as "usage_usec "); 0 or -1. */
static int read_key(const char *path, const char *key, uint64_t *v)
{
	char text[1024];
	const char *at;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	text[n > 0 ? n : 0] = '\0';
	if ((at = strstr(text, key)) == NULL)
		return -1;
	*v = strtoull(at + strlen(key), NULL, 10);
	return 0;
}

/*
 * polkitd's CPU time so far (ns), every thread it ran: its cgroup's cpu.stat usage_usec, else
 * /proc/PID/stat's utime and stime (clock ticks, 10 ms: coarse); 0 when unreadable.
 */
static uint64_t daemon_cpu_ns(const struct runner_polkit *pk)
{
	char path[PATH_MAX + 16], text[1024], *end;
	uint64_t usec = 0, ut, st;
	long tck = sysconf(_SC_CLK_TCK);
	ssize_t n;
	int fd;

	if (pk->daemon <= 0)
		return 0;
	if (pk->cg[0] != '\0' && fileio_fmt(path, sizeof(path), "%s/cpu.stat", pk->cg) == 0 &&
	    read_key(path, "usage_usec ", &usec) == 0)
		return usec * 1000;
	if (fileio_fmt(path, sizeof(path), "/proc/%d/stat", (int)pk->daemon) < 0 ||
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	text[n > 0 ? n : 0] = '\0';
	/* After the command's ")": state is field 3, utime 14 and stime 15. */
	end = strrchr(text, ')');
	if (end == NULL || tck <= 0 ||
	    sscanf(end + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %" SCNu64 " %" SCNu64,
		   &ut, &st) != 2)
		return 0;
	return (ut + st) * (1000000000ull / (uint64_t)tck);
}

/* VmHWM of pid (KiB); 0 when unreadable. */
static uint64_t daemon_hwm_kib(pid_t pid)
{
	char path[64], text[4096];
	const char *at;
	ssize_t n;
	int fd;

	if (fileio_fmt(path, sizeof(path), "/proc/%d/status", (int)pid) < 0 ||
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	text[n > 0 ? n : 0] = '\0';
	at = strstr(text, "VmHWM:");
	return at != NULL ? strtoull(at + strlen("VmHWM:"), NULL, 10) : 0;
}

void runner_polkit_mark(struct runner_polkit *pk)
{
	pk->mark_ns = daemon_cpu_ns(pk);
}

int runner_polkit_sample(const struct runner_polkit *pk, struct runner_polkit_cost *cost)
{
	uint64_t now = daemon_cpu_ns(pk);

	memset(cost, 0, sizeof(*cost));
	if (pk->daemon <= 0 || now == 0 || now < pk->mark_ns)
		return -1;
	cost->cpu_ns = now - pk->mark_ns;
	cost->maxrss_kib = daemon_hwm_kib(pk->daemon);
	return 0;
}

void runner_polkit_free(struct runner_polkit *pk)
{
	runner_polkit_stop(pk);
	free(pk);
}
