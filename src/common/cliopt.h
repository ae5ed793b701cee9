/* cliopt: getopt_long with every long option written in full, and one line for an unknown one. */
#ifndef RARPERF_CLIOPT_H
#define RARPERF_CLIOPT_H

#include <getopt.h>

#include "errbuf.h"

/* What cliopt_next returns for an option given as an abbreviation of a long one. */
#define CLIOPT_ABBREVIATION '?'

/*
 * The option a cliopt_next call met, as written: the argv element for a long option ("--out",
 * "--out=x"), "-X" for a short one. Filled by cliopt_next; the caller owns it.
 */
struct cliopt_seen {
	const char *typed;
	char short_buf[3];
};

/*
 * getopt_long(argc, argv, shortopts, longopts, NULL) with getopt's own messages off, except that
 * a long option must be written in full: glibc takes any unique prefix of a name for the option
 * ("--out x" for "--output x"), so a slip would silently set another option. Returns what
 * getopt_long returns: the option's value, -1 at the end, '?' for an unknown option (and for an
 * abbreviation: CLIOPT_ABBREVIATION), ':' for a missing value when shortopts starts with ':'
 * (else '?'). seen->typed is the option as written, for the caller's message.
 */
int cliopt_next(int argc, char **argv, const char *shortopts, const struct option *longopts,
		struct cliopt_seen *seen);

/*
 * "unknown option 'TYPED' (did you mean --NAME? see PROG --help)" into eb, NAME the nearest of
 * longopts' names and then extra's (a NULL-terminated list, may be NULL), or without the "did
 * you mean" when none is near (suggest.h). An abbreviation ("--out" of --output) is named too:
 * "'--out' is not an option (long options are written in full: --output)". Returns -1.
 */
int cliopt_unknown(const char *prog, const char *typed, const struct option *longopts,
		   const char *const *extra, struct errbuf *eb);

#endif
