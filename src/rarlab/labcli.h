/* labcli: rarlab's command line: its usage text, defaults and options into struct job_config. */
#ifndef RARPERF_RARLAB_LABCLI_H
#define RARPERF_RARLAB_LABCLI_H

#include "errbuf.h"
#include "job_config.h"
#include "numarg.h"

/*
 * The programs' parse_args contract (numarg.h): sets c's defaults and fills it
 * from argv; NUMARG_USAGE when the usage text follows the message (or
 * getopt's own).
 */
int labcli_parse(int argc, char **argv, struct job_config *c, struct errbuf *eb);

/*
 * Prints what labcli_parse's result rc asks for (help, version, a usage error).
 * Returns the exit status when main ends there, -1 to go on.
 */
int labcli_done(int rc, const struct errbuf *eb);

#endif
