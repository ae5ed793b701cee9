/* bench: the folder header of src/bench — what the layer is for, what it may use, its modules. */
/*
 * Layer src/bench (libbench.a), the timing core: run a command many times
 * the way hyperfine does, time each run on the monotonic clock with wait4's
 * rusage, summarise and export. It uses src/common only (Makefile
 * bench_USES); src/sweep and the programs use it. Its functions return
 * errors in an errbuf and print nothing (rarbench's console output is
 * src/rarbench/report).
 *
 * Modules, one line each:
 *   proc          spawn one prepared command without a shell and time it (wait4 rusage);
 *                 proc_user.c: --as-user and its environment; proc_reap.c: what runs leave behind;
 *                 proc_launch.c: the run started from rarlaunch, its reply read;
 *                 proc_orphans.c: the orphans ended, after the launchers (over both above)
 *   launchproto   the messages between rarbench and rarlaunch, the process runs start from
 *   schedwait     how long a run waited for a CPU, from its own scheduler account
 *   cgroup2       where the cgroup2 hierarchy is mounted and which cgroup this process is in
 *   measure       hyperfine's warmup / min-runs / max-runs / min-time loop, and the run orders
 *   stats         pure descriptive statistics over samples
 *   estimate      central estimates with their 95 % intervals, and the precision rule (pure)
 *   contention    runs that waited for a CPU held by others; the host's steal and load
 *   params        hyperfine's -L / -P / -D parameter lists and {name} substitution
 *   shellwords    a command line split into words with POSIX quoting (no expansion)
 *   export        hyperfine-format JSON, CSV and Markdown exports, written atomically
 *   export_rounds each round's own estimate of a result, for paired comparisons
 *   hostfacts     what the measuring host is (CPU, memory, kernel, governor)
 *   machine       which machine this is (ids hashed) and what could make it differ
 *   mntns         a private mount namespace showing a file at a path fixed in a tool
 *   pamstack      the modules and includes of a PAM service file
 *   straceprof    what an strace trace says a command did (straceprof_json.c: its JSON)
 *   tracedrun     one run under strace, judged and counted (plain --profile, profile pass)
 *   countrepeat   when a counted point is counted again (its counts vary), its median kept
 *   countrun      one counted run: callgrind behind the bench user's set-ID identity, its
 *                 command and its files read back (instructions per process)
 *   syscost       what a few system calls cost on this host
 *   pagecache     files taken out of the page cache, and their resident pages counted
 *
 * This header declares nothing: include the module's own header.
 */
#ifndef RARPERF_BENCH_H
#define RARPERF_BENCH_H
#endif
