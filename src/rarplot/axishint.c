/* axishint: which axis a results set can be fitted along, as a hint after a refusal. */
#include "axishint.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Whether res gives series that can be fitted along axis. */
static bool axishint_fits(const struct results *res, const char *axis, enum plotseries_stat stat)
{
	struct plotseries_set *trial = NULL;
	struct errbuf ignored;

	if (plotseries_build(res, axis, stat, &trial, &ignored) != 0)
		return false;
	plotseries_set_free(trial);
	return true;
}

const char *axishint_default(const struct results *res, enum plotseries_stat stat)
{
	if (!axishint_fits(res, "nb_tasks", stat) && axishint_fits(res, "nb_files", stat))
		return "nb_files";
	return "nb_tasks";
}

void axishint_append(const struct results *res, const char *axis, enum plotseries_stat stat,
		     struct errbuf *eb)
{
	static const char *const axes[] = {"nb_tasks",    "nb_roles", "nb_users",
					   "nb_commands", "nb_files", PLOTSERIES_AXIS_BOTH};
	size_t i, len = strlen(eb->msg);

	/* The refusal had another cause (a subject missing, a mismatch): no hint. */
	if (axishint_fits(res, axis, stat))
		return;
	for (i = 0; i < sizeof(axes) / sizeof(axes[0]); i++) {
		if (strcmp(axes[i], axis) == 0 || !axishint_fits(res, axes[i], stat))
			continue;
		if (len + 1 < sizeof(eb->msg))
			snprintf(eb->msg + len, sizeof(eb->msg) - len, /* lint: not a path */
				 " (the inputs vary %s: try --x %s)", axes[i],
				 strchr(axes[i], '*') != NULL ? "both" : axes[i]);
		return;
	}
}
