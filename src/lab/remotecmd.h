/* remotecmd: the shell commands rarlab sends a host — run rarbench recording its pid, stop it.
 */
#ifndef RARPERF_REMOTECMD_H
#define RARPERF_REMOTECMD_H

#include <stddef.h>

#define REMOTECMD_MAX_BYTES 8192 /* the longest command built here */

/*
 * Appends s to buf (cap bytes, NUL-terminated) as one single-quoted shell
 * word, after a space unless buf is empty. Returns 0, or -1 when it does
 * not fit (buf is then cut at its former end).
 */
int remotecmd_word(char *buf, size_t cap, const char *s);

/*
 * The command that records the shell's pid in rdir/rarbench.pid, then execs
 * prefix/bin/rarbench --manifest manifest --out rdir/out --progress jsonl
 * --resume (exec keeps the pid, and sshd made it a session leader: the pid
 * is also the process group of the run). Returns 0, or -1 when it does not
 * fit in cap bytes.
 */
int remotecmd_run(char *buf, size_t cap, const char *prefix, const char *manifest,
		  const char *rdir);

/*
 * The command that stops that run: reads at most 16 bytes of
 * rdir/rarbench.pid and, only when they are a decimal pid above 1 (digits
 * only, no sign, no leading zero, at most 9 digits), sends SIGINT to that
 * process group, waits up to 1.5 s (within sshx's 2 s grace) for it to
 * leave, then SIGKILL. Anything else in the file (-1, 0, 1, two words, a
 * sign) and it does nothing: the host wrote the file, and `kill -- -1`
 * would signal every process the remote user may signal. Returns 0, or -1
 * when it does not fit in cap bytes.
 */
int remotecmd_stop(char *buf, size_t cap, const char *rdir);

#endif
