/* stdfigs: rarplot's standard figures, along the chosen axis and the other axes that vary. */
#include "stdfigs.h"

#include <string.h>

/* The other standard figures, drawn when the results vary along their axes. */
static const char *const extra_axes[] = {"nb_tasks", "nb_roles", PLOTSERIES_AXIS_BOTH};

int stdfigs_draw(const char *axis, enum plotseries_stat stat, const struct plotseries_set *set,
		 const struct plotfig_env *env, struct plotfig_out *drawn, bool *failed,
		 struct errbuf *eb)
{
	bool drawn_tasks = strcmp(axis, "nb_tasks") == 0;
	bool drawn_roles = strcmp(axis, "nb_roles") == 0;
	char name_buf[64];
	struct plotfig fig = plotfig_for_axis(axis, name_buf, sizeof(name_buf));
	struct plotseries_set *extra = NULL;
	size_t i;
	int rc;

	if (plotfig_render(&fig, set, env, drawn, eb) != 0) {
		if (plotfig_out_note(drawn, "%s not drawn: %s", fig.name, eb->msg) != 0)
			return -1;
		*failed = true;
	}
	for (i = 0; i < sizeof(extra_axes) / sizeof(extra_axes[0]); i++) {
		struct plotfig more = plotfig_for_axis(extra_axes[i], name_buf, sizeof(name_buf));

		if (strcmp(extra_axes[i], axis) == 0)
			continue;
		/* roles x tasks adds nothing unless both axes vary on their own. */
		if (strcmp(extra_axes[i], PLOTSERIES_AXIS_BOTH) == 0 &&
		    (!drawn_tasks || !drawn_roles)) {
			if (plotfig_out_note(drawn,
					     "%s not drawn: nb_roles and nb_tasks do not both vary",
					     more.name) != 0)
				return -1;
			continue;
		}
		if (plotseries_build(env->res, extra_axes[i], stat, &extra, eb) != 0) {
			if (plotfig_out_note(drawn, "%s not drawn: %s", more.name, eb->msg) != 0)
				return -1;
			continue;
		}
		rc = plotfig_render(&more, extra, env, drawn, eb);
		drawn_tasks |= strcmp(extra_axes[i], "nb_tasks") == 0;
		drawn_roles |= strcmp(extra_axes[i], "nb_roles") == 0;
		plotseries_set_free(extra);
		extra = NULL;
		if (rc != 0) {
			if (plotfig_out_note(drawn, "%s not drawn: %s", more.name, eb->msg) != 0)
				return -1;
			*failed = true;
		}
	}
	return 0;
}
