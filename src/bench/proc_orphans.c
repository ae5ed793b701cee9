/* proc_orphans: what a killed run left behind ended, after the launchers (proc.h): over
 * proc_launch.c and proc_reap.c, which depend on neither. */
#include "proc.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

/* proc_kill_orphans gives up after this many (a fork bomb outpacing it). */
#define PROC_ORPHANS_MAX 4096

size_t proc_kill_orphans(void)
{
	size_t killed = 0;
	pid_t pid;
	int status;

	/* rarlaunch is a child too: ended first, started again by the next run. Then reap what
	 * has already exited, and end the rest one by one; bounded by what exists. */
	proc_launchers_stop();
	while (waitpid(-1, &status, WNOHANG) > 0)
		;
	while ((pid = proc_first_child_of(getpid())) > 0 && killed < PROC_ORPHANS_MAX) {
		kill(pid, SIGKILL);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		killed++;
	}
	return killed;
}
