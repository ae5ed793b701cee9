/* proc_impl: what proc.c (building a command) and proc_launch.c (running it) share. */
#ifndef RARPERF_PROC_IMPL_H
#define RARPERF_PROC_IMPL_H

#include "launchproto.h"
#include "proc.h"

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
	const volatile sig_atomic_t *stop; /* kill the run when set (a signal woke the wait) */
	bool switch_user;
	uid_t uid;
	gid_t gid;
	gid_t *groups;
	size_t n_groups;
	/* The request rarlaunch gets for each run (launchproto.h), built once, and the
	 * descriptors that go with it, in the order of its flags. */
	unsigned char *req;
	size_t req_len;
	int fds[LAUNCH_FDS_MAX];
	size_t nfds;
	enum proc_net net; /* the launcher it runs from */
};

/* The rarlaunch program runs start from (proc_set_launcher's, else beside this executable):
 * a path in static storage, or NULL with eb. */
const char *proc_launcher_path(struct errbuf *eb);

#endif
