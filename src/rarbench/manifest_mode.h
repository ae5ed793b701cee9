/* manifest_mode: rarbench's --manifest mode (runs a whole experiment manifest: src/sweep/runner.h).
 */
#ifndef RARPERF_MANIFEST_MODE_H
#define RARPERF_MANIFEST_MODE_H

#include "runner.h"

/*
 * Entry point of `rarbench --manifest FILE [...]`, called by main() when
 * argv holds --manifest. Parses its own options, prints its own messages
 * and returns the process exit status (manifest_mode_exit_status).
 */
int manifest_mode_main(int argc, char **argv);

/*
 * The exit status of a run that ended so (rarbench(1), MANIFEST MODE): 0 done,
 * 2 bad input, 3 busy, 1 for every failure of this host or of a point,
 * an interrupted run included. The one place an outcome becomes a status.
 */
int manifest_mode_exit_status(enum runner_outcome outcome);

#endif
