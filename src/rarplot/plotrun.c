/* plotrun: find gnuplot and the gnuplot scripts of plots/, and run one script with -e parameters.
 */
#include "plotrun.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fileio.h"

extern char **environ;

/* The longest -e argument we build; every value comes from rarplot itself. */
#define PLOTRUN_ARG_MAX 65536

int plotrun_find_gnuplot(char *out, size_t len, struct errbuf *eb)
{
	const char *path = getenv("PATH");
	const char *p, *end;

	if (path == NULL || path[0] == '\0')
		path = "/usr/bin:/bin";
	for (p = path; *p != '\0'; p = *end ? end + 1 : end) {
		end = strchr(p, ':');
		if (end == NULL)
			end = p + strlen(p);
		if (end == p)
			continue;
		if ((size_t)snprintf(out, len, "%.*s/gnuplot", (int)(end - p), p) < len &&
		    access(out, X_OK) == 0)
			return 0;
	}
	return errbuf_set(eb,
			  "gnuplot not found in PATH: install the Debian package %s "
			  "(apt-get install %s) or use --format none",
			  PLOTRUN_GNUPLOT_PACKAGE, PLOTRUN_GNUPLOT_PACKAGE);
}

static int plotrun_has_scripts(const char *dir)
{
	char probe[PLOTRUN_PATH_MAX];

	if ((size_t)snprintf(probe, sizeof(probe), "%s/perf_tasks.gp", dir) >= sizeof(probe))
		return 0;
	return access(probe, R_OK) == 0;
}

int plotrun_find_scripts(const char *dir_override, const char *datadir, char *out, size_t len,
			 struct errbuf *eb)
{
	char exe[PLOTRUN_PATH_MAX], bindir[PLOTRUN_PATH_MAX];
	char tried[3][PLOTRUN_PATH_MAX];
	size_t n_tried = 0, i;
	ssize_t got;

	if (dir_override != NULL) {
		if (!plotrun_has_scripts(dir_override))
			return errbuf_set(eb, "--plots-dir %s: no perf_tasks.gp there",
					  dir_override);
		snprintf(out, len, "%s", dir_override);
		return 0;
	}
	got = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (got > 0) {
		exe[got] = '\0';
		if (fileio_fmt(bindir, sizeof(bindir), "%s", dirname(exe)) < 0)
			return errbuf_set(eb, "%s: path too long", exe);
		if (snprintf(tried[n_tried], PLOTRUN_PATH_MAX, "%s/../share/rarperf/plots",
			     bindir) < PLOTRUN_PATH_MAX)
			n_tried++;
		if (snprintf(tried[n_tried], PLOTRUN_PATH_MAX, "%s/../plots", bindir) <
		    PLOTRUN_PATH_MAX)
			n_tried++;
	}
	if (snprintf(tried[n_tried], PLOTRUN_PATH_MAX, "%s/plots", datadir) < PLOTRUN_PATH_MAX)
		n_tried++;
	for (i = 0; i < n_tried; i++) {
		if (plotrun_has_scripts(tried[i])) {
			if ((size_t)snprintf(out, len, "%s", tried[i]) >= len)
				return errbuf_set(eb, "%s: path too long", tried[i]);
			return 0;
		}
	}
	return errbuf_set(
	    eb, "gnuplot scripts (perf_tasks.gp) not found in %s%s%s%s%s; use --plots-dir",
	    tried[0], n_tried > 1 ? ", " : "", n_tried > 1 ? tried[1] : "", n_tried > 2 ? ", " : "",
	    n_tried > 2 ? tried[2] : "");
}

/* Appends s to buf at *used, doubling single quotes when quote is set. */
static int plotrun_append(char *buf, size_t *used, const char *s, int quote)
{
	for (; *s != '\0'; s++) {
		if (*used + 3 >= PLOTRUN_ARG_MAX)
			return -1;
		if (quote && *s == '\'')
			buf[(*used)++] = '\'';
		/* A newline would end the -e command: names from a results file never carry one
		 * through. */
		buf[(*used)++] = (unsigned char)*s < 0x20 ? ' ' : *s;
	}
	buf[*used] = '\0';
	return 0;
}

int plotrun_run(const char *gnuplot, const char *script, const struct plotrun_param *params,
		size_t n_params, struct errbuf *eb)
{
	posix_spawn_file_actions_t fa;
	char *arg = NULL;
	char *argv[5];
	size_t used = 0, i;
	pid_t pid;
	int status = 0, rc = -1, err, fa_ok = 0;

	arg = malloc(PLOTRUN_ARG_MAX);
	if (arg == NULL)
		return errbuf_set(eb, "out of memory");
	arg[0] = '\0';
	for (i = 0; i < n_params; i++) {
		if (plotrun_append(arg, &used, params[i].name, 0) != 0 ||
		    plotrun_append(arg, &used, params[i].quoted ? "='" : "=", 0) != 0 ||
		    plotrun_append(arg, &used, params[i].value, params[i].quoted) != 0 ||
		    plotrun_append(arg, &used, params[i].quoted ? "'; " : "; ", 0) != 0) {
			errbuf_set(eb, "%s: gnuplot parameters longer than %d bytes", script,
				   PLOTRUN_ARG_MAX);
			goto out;
		}
	}
	argv[0] = (char *)"gnuplot";
	argv[1] = (char *)"-e";
	argv[2] = arg;
	argv[3] = (char *)script;
	argv[4] = NULL;
	if (posix_spawn_file_actions_init(&fa) != 0) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	fa_ok = 1;
	/* gnuplot gets stdin from /dev/null, our stdout and stderr, and no other descriptor. */
	if (posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0) != 0 ||
	    posix_spawn_file_actions_addclosefrom_np(&fa, 3) != 0) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	err = posix_spawn(&pid, gnuplot, &fa, NULL, argv, environ);
	if (err != 0) {
		errbuf_set_errno(eb, err, "cannot run %s", gnuplot);
		goto out;
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			errbuf_set_errno(eb, errno, "waiting for gnuplot");
			goto out;
		}
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		rc = 0;
	else if (WIFEXITED(status))
		errbuf_set(eb, "gnuplot failed on %s (exit %d)", script, WEXITSTATUS(status));
	else
		errbuf_set(eb, "gnuplot died on %s (signal %d)", script,
			   WIFSIGNALED(status) ? WTERMSIG(status) : 0);
out:
	if (fa_ok)
		posix_spawn_file_actions_destroy(&fa);
	free(arg);
	return rc;
}
