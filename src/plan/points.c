/* points: the points of a manifest's sweep (axes x repetitions) in a fixed order, each with a
 * stable id. */
#include "numarg.h"
#include "points.h"

#include <errno.h>
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
	size_t nlim = m->env.nlimit_values > 0 ? m->env.nlimit_values : 1;
	size_t nfiles = m->files.n > 0 ? m->files.n : 1;
	size_t total = m->repetitions * nlim * nfiles, i, rest;
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
		p->value[MANIFEST_VALUE_FILES] =
		    m->files.n > 0 ? m->files.values[rest % nfiles] : 0;
		rest /= nfiles;
		for (a = MANIFEST_AXIS_COUNT - 1; a >= 0; a--) {
			p->value[a] = m->axes[a].values[rest % m->axes[a].n];
			rest /= m->axes[a].n;
		}
		p->limit = m->env.nlimit_values > 0 ? m->env.limit_values[rest % nlim] : 0;
		rest /= nlim;
		p->repetition = (uint32_t)rest + 1;
		p->index = i;
		if (m->files.n > 0)
			snprintf(p->id, sizeof(p->id),
				 "nb_roles=%u,nb_users=%u,nb_tasks=%u,nb_commands=%u,nb_files=%u,"
				 "repetition=%u",
				 p->value[0], p->value[1], p->value[2], p->value[3],
				 p->value[MANIFEST_VALUE_FILES], p->repetition);
		else
			snprintf(p->id, sizeof(p->id),
				 "nb_roles=%u,nb_users=%u,nb_tasks=%u,nb_commands=%u,repetition=%u",
				 p->value[0], p->value[1], p->value[2], p->value[3], p->repetition);
		if (m->env.nlimit_values > 0) {
			size_t len = strlen(p->id);

			snprintf(p->id + len, sizeof(p->id) - len, ",%s=%llu",
				 m->env.limits[m->env.limit_axis].name,
				 (unsigned long long)p->limit);
		}
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

/* splitmix64: a small, well-mixed generator; only reproducibility matters here. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void sweep_round_order(const struct sweep *s, uint32_t round, uint32_t rounds, uint64_t seed,
		       size_t *order)
{
	uint64_t state = seed * 1000003u + round;
	size_t i, j, t;

	for (i = 0; i < s->n; i++)
		order[i] = i;
	if (rounds <= 1)
		return;
	for (i = s->n; i > 1; i--) { /* Fisher-Yates */
		j = (size_t)(next_random(&state) % i);
		t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
}

void sweep_step_id(const struct sweep_point *p, uint32_t round, uint32_t rounds, char *buf,
		   size_t len)
{
	if (rounds <= 1)
		snprintf(buf, len, "%s", p->id);
	else
		snprintf(buf, len, "%s;round=%u", p->id, round);
}

int sweep_parse_step_id(const struct sweep *s, const char *id, uint32_t rounds, size_t *index,
			uint32_t *round)
{
	char base[SWEEP_ID_MAX];
	const char *sep = strstr(id, ";round=");
	size_t blen = sep ? (size_t)(sep - id) : strlen(id);
	uint64_t r = 1;
	const char *end = NULL;
	long k;

	if (blen >= sizeof(base) || (sep == NULL) != (rounds <= 1))
		return -1;
	memcpy(base, id, blen);
	base[blen] = '\0';
	if (sep != NULL) {
		if (numarg_u64_prefix(sep + 7, 10, &r, &end) != NUMARG_OK || *end != '\0' ||
		    r < 1 || r > rounds)
			return -1;
	}
	k = sweep_find(s, base);
	if (k < 0)
		return -1;
	*index = (size_t)k;
	*round = (uint32_t)r;
	return 0;
}

int sweep_point_policy_bytes(const struct manifest *m, const struct sweep_point *pt, size_t subject,
			     const char *prefix, struct policy_size_bytes *out, struct errbuf *eb)
{
	return manifest_policy_bytes(m, pt->value, subject, prefix, out, eb);
}

void sweep_free(struct sweep *s)
{
	if (s == NULL)
		return;
	free(s->points);
	free(s);
}
