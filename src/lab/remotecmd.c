/* remotecmd: quote every path into a shell word; the stop script trusts nothing in the pid file.
 */
#include "remotecmd.h"

#include <stdio.h>
#include <string.h>

#include "fileio.h"

/*
 * %1$s is the pid file, quoted. The case rejects an empty value, any
 * non-digit (a sign, a space that would split into two pids), a leading
 * zero and ten digits or more (pid_max is at most 2^22); the test then
 * rejects 1 (init) and leaves only a real process group to signal.
 */
#define STOP_SCRIPT                                                                                \
	"p=$(head -c 16 %1$s 2>/dev/null) || exit 0; "                                             \
	"case $p in ''|*[!0-9]*|0*|??????????*) exit 0;; esac; "                                   \
	"[ \"$p\" -gt 1 ] || exit 0; "                                                             \
	"kill -INT -- \"-$p\" 2>/dev/null; i=0; "                                                  \
	"while kill -0 -- \"-$p\" 2>/dev/null && [ $i -lt 15 ]; do sleep 0.1; i=$((i + 1)); "      \
	"done; kill -KILL -- \"-$p\" 2>/dev/null; exit 0"

int remotecmd_word(char *buf, size_t cap, const char *s)
{
	size_t start = strlen(buf), len = start;

	if (len + 4 >= cap)
		return -1;
	if (len > 0)
		buf[len++] = ' ';
	buf[len++] = '\'';
	for (; *s; s++) {
		if (*s == '\'') {
			if (len + 5 >= cap)
				goto full;
			memcpy(buf + len, "'\\''", 4);
			len += 4;
		} else {
			if (len + 2 >= cap)
				goto full;
			buf[len++] = *s;
		}
	}
	buf[len++] = '\'';
	buf[len] = '\0';
	return 0;
full:
	buf[start] = '\0';
	return -1;
}

/* The quoted path rdir/name into q. */
static int quoted_path(char *q, size_t cap, const char *rdir, const char *name)
{
	char path[REMOTECMD_MAX_BYTES];

	q[0] = '\0';
	if (fileio_fmt(path, sizeof(path), "%s/%s", rdir, name) < 0)
		return -1;
	return remotecmd_word(q, cap, path);
}

int remotecmd_run(char *buf, size_t cap, const char *prefix, const char *manifest, const char *rdir)
{
	char prog[REMOTECMD_MAX_BYTES], out[REMOTECMD_MAX_BYTES], pidq[REMOTECMD_MAX_BYTES];
	char cmd[REMOTECMD_MAX_BYTES];

	cmd[0] = '\0';
	if (fileio_fmt(prog, sizeof(prog), "%s/bin/rarbench", prefix) < 0 ||
	    fileio_fmt(out, sizeof(out), "%s/out", rdir) < 0 ||
	    remotecmd_word(cmd, sizeof(cmd), prog) < 0 ||
	    remotecmd_word(cmd, sizeof(cmd), "--manifest") < 0 ||
	    remotecmd_word(cmd, sizeof(cmd), manifest) < 0 ||
	    remotecmd_word(cmd, sizeof(cmd), "--out") < 0 ||
	    remotecmd_word(cmd, sizeof(cmd), out) < 0 ||
	    remotecmd_word(cmd, sizeof(cmd), "--progress") < 0 ||
	    remotecmd_word(cmd, sizeof(cmd), "jsonl") < 0 ||
	    remotecmd_word(cmd, sizeof(cmd), "--resume") < 0 ||
	    quoted_path(pidq, sizeof(pidq), rdir, "rarbench.pid") < 0)
		return -1;
	/* exec: the signal of a stop reaches rarbench, not a shell */
	return fileio_fmt(buf, cap, "echo $$ >%s && exec %s", pidq, cmd);
}

int remotecmd_stop(char *buf, size_t cap, const char *rdir)
{
	char pidq[REMOTECMD_MAX_BYTES];

	if (quoted_path(pidq, sizeof(pidq), rdir, "rarbench.pid") < 0)
		return -1;
	return fileio_fmt(buf, cap, STOP_SCRIPT, pidq);
}
