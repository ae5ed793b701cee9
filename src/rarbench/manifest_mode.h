/* manifest_mode: rarbench's --manifest mode (runs a whole experiment manifest: src/sweep/runner.h).
 */
#ifndef RARPERF_MANIFEST_MODE_H
#define RARPERF_MANIFEST_MODE_H

/*
 * Entry point of `rarbench --manifest FILE [...]`, called by main() when
 * argv holds --manifest. Parses its own options, prints its own messages
 * and returns the process exit status (0, 1, 2 or 3).
 */
int manifest_mode_main(int argc, char **argv);

#endif
