/*
 * runner_reference: the calibration workload of a manifest run ("reference"): rarref, found
 * beside this executable, run as the bench user in every step beside the subjects (its runs are
 * journalled as the pseudo-subject RUNNER_REFERENCE_ID and exported as results.json's
 * "reference", never among the results).
 */
#include "runner_reference.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"

/* The directory of this executable, into dir. 0 or -1. */
static int self_dir(char *dir, size_t len, struct errbuf *eb)
{
	ssize_t n = readlink("/proc/self/exe", dir, len - 1);
	char *slash;

	if (n < 0)
		return errbuf_set_errno(eb, errno, "reference: /proc/self/exe");
	if ((size_t)n >= len - 1)
		return errbuf_set(eb, "reference: /proc/self/exe: path too long");
	dir[n] = '\0';
	slash = strrchr(dir, '/');
	if (slash == NULL)
		return errbuf_set(eb, "reference: /proc/self/exe: %s is not a path", dir);
	*slash = '\0';
	return 0;
}

int runner_reference_setup(struct runner_reference *ref, const struct manifest *m,
			   const struct proc_opts *measured, struct errbuf *eb)
{
	char dir[PATH_MAX];

	if (!m->reference)
		return 0;
	if (self_dir(dir, sizeof(dir), eb) < 0)
		return -1;
	if (fileio_fmt(ref->program, sizeof(ref->program), "%s/rarref", dir) < 0)
		return errbuf_set(eb, "reference: %s: path too long", dir);
	if (access(ref->program, X_OK) != 0)
		return errbuf_set_errno(eb, errno,
					"reference: %s (rarref, built by make beside rarbench)",
					ref->program);
	snprintf(ref->units, sizeof(ref->units), "%u", m->reference_units);
	snprintf(ref->command, sizeof(ref->command), "%s %s", ref->program, ref->units);
	ref->argv[0] = ref->program;
	ref->argv[1] = ref->units;
	ref->argv[2] = NULL;
	ref->cmd = proc_cmd_new(ref->argv, measured, eb);
	if (ref->cmd == NULL)
		return errbuf_prefix(eb, "reference");
	return 0;
}

int runner_reference_check(const struct runner_reference *ref, struct errbuf *eb)
{
	struct proc_sample sample;

	if (ref->cmd == NULL)
		return 0;
	if (proc_run(ref->cmd, &sample, eb) < 0)
		return errbuf_prefix(eb, "reference %s", ref->command);
	if (sample.stopped)
		return errbuf_set(eb, "interrupted");
	if (sample.timed_out || sample.exit_code != 0)
		return errbuf_set(eb, "reference %s: %s (exit %d) as the bench user", ref->command,
				  sample.timed_out ? "timed out" : "failed", sample.exit_code);
	return 0;
}

void runner_reference_clear(struct runner_reference *ref)
{
	proc_cmd_free(ref->cmd);
	ref->cmd = NULL;
}
