/* runner_target: writes a step's policies, one file set per target (runner_target.h). */
#include "runner_target.h"

#include <stdlib.h>

#include "policyset.h"

/*
 * Writes one policy per target for shape (confgen, in-process) as one
 * transaction: all written whole before any is renamed into place.
 */
int runner_write_targets(const struct policy_shape *shape, const struct runner_target *t, size_t n,
			 struct errbuf *eb)
{
	struct policyset_target *set = calloc(n > 0 ? n : 1, sizeof(*set));
	size_t failed = n;
	int rc;

	if (set == NULL)
		return errbuf_set(eb, "out of memory");
	for (size_t i = 0; i < n; i++)
		/* A doas policy's rule count was checked once for the whole sweep, at its
		 * largest point (manifest_check_sizes), not per point and doas subject. */
		set[i] = (struct policyset_target){.format = t[i].format,
						   .policy = t[i].policy,
						   .policy_data = t[i].policy_data,
						   .rar_version = t[i].rar_version,
						   .layout = t[i].layout,
						   .files = t[i].files};
	rc = policyset_write(shape, set, n, false, &failed, eb);
	if (rc < 0 && failed < n)
		errbuf_prefix(eb, "subject %s", t[failed].id);
	free(set);
	return rc;
}
