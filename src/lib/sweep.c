/* sweep: the points of a manifest's sweep (axes x repetitions) in a fixed order, each with a stable
 * id. */
#include "sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sweep {
	struct sweep_point *points;
	size_t n;
};

struct sweep *sweep_new(const struct manifest *m, struct errbuf *eb)
{
	struct sweep *s = NULL;
	size_t total = m->repetitions, i, rest;
	int a;

	for (a = 0; a < MANIFEST_AXIS_COUNT; a++) {
		if (m->axes[a].n == 0) {
			errbuf_set(eb, "axis %s is empty", manifest_axis_name(a));
			return NULL;
		}
		total *= m->axes[a].n;
	}
	if (total == 0 || total > MANIFEST_POINTS_MAX) {
		errbuf_set(eb, "%zu points: expected 1 to %u", total, MANIFEST_POINTS_MAX);
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (s != NULL)
		s->points = calloc(total, sizeof(*s->points));
	if (s == NULL || s->points == NULL) {
		sweep_free(s);
		errbuf_set(eb, "out of memory");
		return NULL;
	}
	for (i = 0; i < total; i++) {
		struct sweep_point *p = &s->points[i];

		/* Mixed-radix decomposition, the last axis varying fastest. */
		rest = i;
		for (a = MANIFEST_AXIS_COUNT - 1; a >= 0; a--) {
			p->value[a] = m->axes[a].values[rest % m->axes[a].n];
			rest /= m->axes[a].n;
		}
		p->repetition = (uint32_t)rest + 1;
		p->index = i;
		snprintf(p->id, sizeof(p->id),
			 "nb_roles=%u,nb_users=%u,nb_tasks=%u,nb_commands=%u,repetition=%u",
			 p->value[0], p->value[1], p->value[2], p->value[3], p->repetition);
	}
	s->n = total;
	return s;
}

size_t sweep_count(const struct sweep *s)
{
	return s->n;
}

const struct sweep_point *sweep_at(const struct sweep *s, size_t i)
{
	return i < s->n ? &s->points[i] : NULL;
}

long sweep_find(const struct sweep *s, const char *id)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->points[i].id, id) == 0)
			return (long)i;
	return -1;
}

void sweep_free(struct sweep *s)
{
	if (s == NULL)
		return;
	free(s->points);
	free(s);
}
