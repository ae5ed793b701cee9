/* runner_main: rarbench's --manifest mode (runs a whole experiment manifest). */
#ifndef RARPERF_RUNNER_MAIN_H
#define RARPERF_RUNNER_MAIN_H

/*
 * Entry point of `rarbench --manifest FILE [...]`, called by main() when
 * argv holds --manifest. Parses its own options, prints its own messages
 * and returns the process exit status (0, 1 or 2).
 */
int runner_main(int argc, char **argv);

#endif
