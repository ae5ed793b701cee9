/* runner_refusal: a subject's refusal of its policy in words and in results.json. */
#include "runner_refusal.h"

#include <stdio.h>
#include <string.h>

/* Appends s to buf (cap bytes, *len of them used); a cut stays NUL-terminated. */
static void add(char *buf, size_t cap, size_t *len, const char *s)
{
	int n;

	if (*len >= cap)
		return;
	n = snprintf(buf + *len, cap - *len, "%s", s);
	*len = n < 0 ? *len : *len + (size_t)n < cap ? *len + (size_t)n : cap - 1;
}

/* "166 tasks" or "10 roles, 166 tasks": the axes m sweeps at f's point (every axis if none). */
static void size_words(const struct manifest *m, const struct runstate_refusal *f, char *buf,
		       size_t cap)
{
	size_t len = 0;
	bool swept = false, first = true;
	int a;

	buf[0] = '\0';
	for (a = 0; a < MANIFEST_AXIS_COUNT; a++)
		swept |= m->axes[a].n > 1;
	for (a = 0; a < MANIFEST_AXIS_COUNT; a++) {
		const char *name = manifest_axis_name((enum manifest_axis_id)a);
		char part[64];

		if (swept && m->axes[a].n <= 1)
			continue;
		/* "nb_tasks" reads as "tasks". */
		if (strncmp(name, "nb_", 3) == 0)
			name += 3;
		snprintf(part, sizeof(part), "%s%u %s", first ? "" : ", ", f->at[a], name);
		add(buf, cap, &len, part);
		first = false;
	}
	if (m->files.n > 0) {
		char part[64];

		snprintf(part, sizeof(part), "%s%u files", first ? "" : ", ",
			 f->at[MANIFEST_VALUE_FILES]);
		add(buf, cap, &len, part);
	}
}

void runner_refusal_words(const struct manifest *m, const char *id,
			  const struct runstate_refusal *f, char *buf, size_t cap)
{
	char size[160], why[REFUSAL_LINE_MAX + 96];

	if (cap == 0)
		return;
	size_words(m, f, size, sizeof(size));
	if (f->cls == REFUSAL_TIMEOUT)
		snprintf(why, sizeof(why), "its grant check passed run_timeout_s (%u s)",
			 m->run_timeout_ms / 1000u);
	else
		snprintf(why, sizeof(why), "in its own words \"%s\"",
			 f->line[0] != '\0' ? f->line : "(nothing on stderr)");
	snprintf(buf, cap,
		 "%s cannot hold a policy of %s (point %zu; %s, %s); %s, so its fit rests on the "
		 "smaller sizes",
		 id, size, f->point + 1, refusal_class_name(f->cls), why,
		 m->after_refusal == MANIFEST_AFTER_REFUSAL_TRY_LARGER
		     ? "the larger sizes were tried too (\"after_refusal\": \"try_larger\")"
		     : "the sizes at least as large were skipped");
}

int runner_refusal_meta(const struct manifest *m, const struct runstate *rs, const char *const *ids,
			cJSON *skipped)
{
	char reason[1024];
	size_t i;

	for (i = 0; i < rs->nsubjects; i++) {
		const struct runstate_refusal *f = &rs->refusal[i];
		cJSON *o, *r, *at;
		int a;

		if (!f->refused)
			continue;
		o = cJSON_CreateObject();
		if (o == NULL)
			return -1;
		if (!cJSON_AddItemToArray(skipped, o)) {
			cJSON_Delete(o);
			return -1;
		}
		/* skipped adopted o; o adopts every item added below. */
		runner_refusal_words(m, ids[i], f, reason, sizeof(reason));
		r = cJSON_AddObjectToObject(o, "refusal");
		if (cJSON_AddStringToObject(o, "id", ids[i]) == NULL ||
		    cJSON_AddStringToObject(o, "reason", reason) == NULL || r == NULL)
			return -1;
		at = cJSON_AddObjectToObject(r, "at");
		if (at == NULL ||
		    cJSON_AddStringToObject(r, "class", refusal_class_name(f->cls)) == NULL ||
		    cJSON_AddStringToObject(r, "error", f->line) == NULL ||
		    cJSON_AddNumberToObject(r, "point", (double)(f->point + 1)) == NULL ||
		    cJSON_AddNumberToObject(r, "refused_steps", (double)f->refused_steps) == NULL ||
		    cJSON_AddNumberToObject(r, "skipped_steps", (double)f->skipped_steps) == NULL ||
		    cJSON_AddStringToObject(r, "after_refusal",
					    manifest_after_refusal_name((int)m->after_refusal)) ==
			NULL)
			return -1;
		for (a = 0; a < MANIFEST_AXIS_COUNT; a++)
			if (cJSON_AddNumberToObject(at,
						    manifest_axis_name((enum manifest_axis_id)a),
						    (double)f->at[a]) == NULL)
				return -1;
		if (m->files.n > 0 &&
		    cJSON_AddNumberToObject(at, MANIFEST_FILES_AXIS,
					    (double)f->at[MANIFEST_VALUE_FILES]) == NULL)
			return -1;
	}
	return 0;
}
