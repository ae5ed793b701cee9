/* phaselog: when each host entered each state, for finding where a lab's time goes. */
#include "phaselog.h"

#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "fileio.h"
#include "sanitize.h"
#include "trustpath.h"

FILE *phaselog_open(void)
{
	const char *path = getenv("RARLAB_PHASE_LOG");
	char dir[PATH_MAX];
	struct stat st;
	FILE *f;
	int fd;

	if (path == NULL || path[0] == '\0')
		return NULL;
	/* Root writes it only in a directory nobody else can change (doc/security.md R18, R37),
	 * never through a link, into a FIFO or over anything but a regular file. */
	if (geteuid() == 0 && (path[0] != '/' || fileio_fmt(dir, sizeof(dir), "%s", path) < 0 ||
			       trustpath_check_out_dir(dirname(dir), &(struct errbuf){{0}}) < 0))
		return NULL;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (f = fdopen(fd, "w")) == NULL) {
		close(fd);
		return NULL;
	}
	fprintf(f,
		"pass\thost\tconnecting_ms\tuploading_ms\trunning_ms\tfetching_ms\tfinished_ms\n");
	return f;
}

void phaselog_write(FILE *f, const char *pass, struct hostpool *hp, const char *const *names,
		    uint64_t t0_ns)
{
	struct hostpool_status st;
	char name[HOSTPOOL_TEXT_MAX];

	if (f == NULL)
		return;
	for (size_t i = 0; i < hostpool_count(hp); i++) {
		hostpool_get(hp, i, &st);
		sanitize_str(name, sizeof(name), names[i]);
		fprintf(f, "%s\t%s", pass, name);
		for (int s = HOSTPOOL_CONNECTING; s <= HOSTPOOL_FINISHED; s++)
			fprintf(f, "\t%.1f",
				st.state_ns[s] == 0 || st.state_ns[s] < t0_ns
				    ? -1.0
				    : (double)(st.state_ns[s] - t0_ns) / 1e6);
		fputc('\n', f);
	}
	fflush(f);
}

void phaselog_mark(FILE *f, const char *pass, uint64_t t0_ns)
{
	if (f == NULL)
		return;
	fprintf(f, "%s\t-\t-1\t-1\t-1\t-1\t%.1f\n", pass, (double)(clock_now_ns() - t0_ns) / 1e6);
	fflush(f);
}
