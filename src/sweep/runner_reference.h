/* runner_reference: the calibration workload of a manifest run (manifest "reference"). */
#ifndef RARPERF_RUNNER_REFERENCE_H
#define RARPERF_RUNNER_REFERENCE_H

#include <limits.h>

#include "errbuf.h"
#include "manifest.h"
#include "proc.h"

/* The journal's name for the reference's runs (manifest "reference"): never a manifest subject
 * id (letters, digits, '-', '_', '.'), so no subject can take it. */
#define RUNNER_REFERENCE_ID MANIFEST_REFERENCE_ID

/* The reference as a measured command; cmd NULL: the manifest has none. */
struct runner_reference {
	struct proc_cmd *cmd;
	char *argv[3];
	char units[16];
	char program[PATH_MAX];
	char command[PATH_MAX + 32]; /* "command" in the journal */
};

/*
 * With m's "reference": finds rarref beside this executable (else -1, eb
 * naming the path) and prepares it in ref as a measured command with opts
 * (the subjects' measured options, no mount namespace). A no-op without the
 * key. 0 or -1.
 */
int runner_reference_setup(struct runner_reference *ref, const struct manifest *m,
			   const struct proc_opts *opts, struct errbuf *eb);

/* Runs the reference once (beside the grant checks): it must exit 0 as the bench user. */
int runner_reference_check(const struct runner_reference *ref, struct errbuf *eb);

/* Frees the reference's command (NULL-safe). */
void runner_reference_clear(struct runner_reference *ref);

#endif
