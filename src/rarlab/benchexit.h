/* benchexit: what the exit status of a rarbench rarlab ran on this machine says. */
#ifndef RARPERF_RARLAB_BENCHEXIT_H
#define RARPERF_RARLAB_BENCHEXIT_H

/*
 * How a local rarbench ended, as rarlab acts on it: main's check of the
 * manifest (`rarbench --dry-run --not-this-host`) and a host run on this
 * machine (job_local). rarbench's statuses are rarbench(1)'s; this is the one
 * place rarlab reads them.
 */
enum benchexit {
	BENCHEXIT_OK,         /* 0: done (a dry run: the manifest checked) */
	BENCHEXIT_FAILED,     /* 1 or any other status: this host or a point failed */
	BENCHEXIT_BAD_INPUT,  /* 2: the manifest or the command line (rarbench said why) */
	BENCHEXIT_BUSY,       /* 3: the prefix is locked by another run */
	BENCHEXIT_CANNOT_RUN, /* 127: its exec failed */
	BENCHEXIT_UNKNOWN     /* -1: killed by a signal, or never started: nothing known */
};

/* What exit_status (a child's exit code; -1 when it did not exit) says. */
enum benchexit benchexit_of(int exit_status);

#endif
