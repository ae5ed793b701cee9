/* schedwait: a process's wait for a CPU from /proc/PID/schedstat. */
#include "schedwait.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* Three numbers of at most 20 digits each. */
#define SCHEDWAIT_TEXT_BYTES 96
/* "/proc/" + a pid + "/schedstat" */
#define SCHEDWAIT_PATH_BYTES 40

/* An unsigned decimal at *p (advanced past it), then one separator sep. -1 when none. */
static int schedwait_number(const char **p, const char *end, char sep, uint64_t *v)
{
	const char *start = *p;

	*v = 0;
	for (; *p < end && **p >= '0' && **p <= '9'; (*p)++) {
		if (*v > (UINT64_MAX - (uint64_t)(**p - '0')) / 10)
			return -1;
		*v = *v * 10 + (uint64_t)(**p - '0');
	}
	if (*p == start)
		return -1;
	if (*p == end)
		return sep == '\n' ? 0 : -1;
	if (**p != sep)
		return -1;
	(*p)++;
	return 0;
}

int schedwait_parse(const char *text, size_t len, uint64_t *run_delay_ns)
{
	const char *p = text, *end = text + len;
	uint64_t on_cpu, delay, slices;

	if (schedwait_number(&p, end, ' ', &on_cpu) != 0 ||
	    schedwait_number(&p, end, ' ', &delay) != 0 ||
	    schedwait_number(&p, end, '\n', &slices) != 0 || p != end)
		return -1;
	*run_delay_ns = delay;
	return 0;
}

int schedwait_read(pid_t pid, uint64_t *run_delay_ns)
{
	char path[SCHEDWAIT_PATH_BYTES] = "/proc/", digits[24], text[SCHEDWAIT_TEXT_BYTES];
	size_t n = 0, at = strlen(path);
	unsigned long v = (unsigned long)pid;
	ssize_t got;
	int fd, err = 0;

	if (pid <= 0)
		return ESRCH;
	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n > 0)
		path[at++] = digits[--n];
	memcpy(path + at, "/schedstat", sizeof("/schedstat"));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	do
		got = read(fd, text, sizeof(text));
	while (got < 0 && errno == EINTR);
	if (got < 0)
		err = errno;
	else if (schedwait_parse(text, (size_t)got, run_delay_ns) != 0)
		err = EPROTO;
	close(fd);
	return err;
}
