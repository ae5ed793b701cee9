/* exitcode: the exit statuses the programs share (confgen, rarbench, rarlab, rarplot). */
#ifndef RARPERF_EXITCODE_H
#define RARPERF_EXITCODE_H

/*
 * One vocabulary for what a program's main returns; nothing below a
 * program's main (or its command-line module) returns these: a library
 * function returns its module's own outcome and main maps it here. The
 * numbers are the man pages' EXIT STATUS sections and must not change.
 * Some share a number: what 1 and 3 mean depends on the program (the man page
 * says which), the names say which meaning a main means.
 */
enum exitcode {
	EXITCODE_OK = 0,           /* everything asked was done */
	EXITCODE_FAILED = 1,       /* a measurement, a host, a write or a tool failed */
	EXITCODE_REGRESSED = 1,    /* rarplot --compare: something regressed */
	EXITCODE_BAD_INPUT = 2,    /* usage or input error: an option, a file, a manifest */
	EXITCODE_BUSY = 3,         /* rarbench --manifest: the prefix is locked by another run */
	EXITCODE_INCONCLUSIVE = 3, /* rarplot --compare: nothing regressed, something unclear */
	EXITCODE_CANNOT_RUN = 127, /* a child's exec failed (the shell's convention) */
	EXITCODE_SIGNAL_BASE = 128 /* + the signal's number: ended by that signal */
};

#endif
