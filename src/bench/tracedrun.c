/* tracedrun: one run of a command under strace, judged (ok, exit_differs, untraceable) and counted.
 */
#include "tracedrun.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sanitize.h"

/* The most bytes of a stderr file tracedrun_stderr_line reads (len - 1 when fewer). */
#define TRACEDRUN_STDERR_READ_MAX 512

void tracedrun_stderr_line(int fd, char *buf, size_t len)
{
	char raw[TRACEDRUN_STDERR_READ_MAX];
	ssize_t n;
	size_t start = 0, end;

	if (len == 0)
		return;
	n = pread(fd, raw, len - 1 < sizeof(raw) ? len - 1 : sizeof(raw), 0);
	if (n < 0)
		n = 0;
	/* A tool may start with a blank line, or end its lines with CRLF: neither is a message. */
	while (start < (size_t)n && (raw[start] == '\n' || raw[start] == '\r'))
		start++;
	for (end = start; end < (size_t)n && raw[end] != '\n'; end++)
		;
	while (end > start && raw[end - 1] == '\r')
		end--;
	sanitize_text(buf, len, raw + start, end - start);
}

int tracedrun_run(struct tracedrun *t, struct proc_cmd *traced, const char *trace, int stderr_fd,
		  uint32_t timeout_ms, struct errbuf *eb)
{
	struct errbuf peb = {{0}};

	memset(t, 0, sizeof(*t));
	straceprof_init(&t->prof);
	/* straceprof_cmd's trace begins with rarlaunch --exec's own calls: not the program's. */
	straceprof_skip_launcher(&t->prof);
	if (stderr_fd >= 0 && (ftruncate(stderr_fd, 0) != 0 || lseek(stderr_fd, 0, SEEK_SET) != 0))
		return errbuf_set_errno(eb, errno, "profile: temporary file");
	if (proc_run(traced, &t->sample, eb) < 0)
		return -1;
	if (t->sample.stopped)
		return errbuf_set(eb, "interrupted");
	if (t->sample.timed_out) {
		t->status = TRACEDRUN_UNTRACEABLE;
		snprintf(t->message, sizeof(t->message),
			 "the traced run passed %u s and was killed", timeout_ms / 1000u);
	} else if (straceprof_read_file(&t->prof, trace, &peb) < 0 || t->prof.execs == 0) {
		t->status = TRACEDRUN_UNTRACEABLE;
		if (peb.msg[0] != '\0')
			sanitize_text(t->message, sizeof(t->message), peb.msg, strlen(peb.msg));
		else if (stderr_fd >= 0)
			tracedrun_stderr_line(stderr_fd, t->message, sizeof(t->message));
		if (t->message[0] == '\0')
			snprintf(t->message, sizeof(t->message), "strace could not run it");
	} else if (t->sample.exit_code != 0) {
		t->status = TRACEDRUN_EXIT_DIFFERS;
		if (stderr_fd >= 0)
			tracedrun_stderr_line(stderr_fd, t->message, sizeof(t->message));
	}
	return 0;
}

const char *tracedrun_status_name(enum tracedrun_status s)
{
	switch (s) {
	case TRACEDRUN_OK:
		return "ok";
	case TRACEDRUN_EXIT_DIFFERS:
		return "exit_differs";
	case TRACEDRUN_UNTRACEABLE:
		return "untraceable";
	}
	return "?";
}

void tracedrun_json_status(const struct tracedrun *t, cJSON *o)
{
	cJSON_AddStringToObject(o, "status", tracedrun_status_name(t->status));
	if (t->message[0] != '\0')
		cJSON_AddStringToObject(o, "message", t->message);
	cJSON_AddNumberToObject(o, "traced_exit_code", t->sample.exit_code);
}

void tracedrun_json_counts(struct tracedrun *t, cJSON *o)
{
	if (t->status != TRACEDRUN_UNTRACEABLE)
		straceprof_json(&t->prof, o);
}

void tracedrun_clear(struct tracedrun *t)
{
	straceprof_clear(&t->prof);
}
