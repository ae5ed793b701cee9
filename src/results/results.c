/* results: the results model (results.h): its points, what they name, freed; results_load.c reads
 * a file into it, and the parts it calls (results_entry.c, results_meta.c, ...) fill it. */
#include "results.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct results *results_new(void)
{
	return calloc(1, sizeof(struct results));
}

void results_point_clear(struct results_point *p)
{
	size_t i;

	free(p->command);
	free(p->subject);
	free(p->format);
	free(p->host);
	for (i = 0; i < p->n_params; i++) {
		free(p->params[i].key);
		free(p->params[i].value);
	}
	free(p->params);
	free(p->rounds);
	memset(p, 0, sizeof(*p));
}

void results_free(struct results *res)
{
	size_t i;

	if (res == NULL)
		return;
	free(res->tools);
	free(res->skipped);
	free(res->lab_md);
	free(res->machines);
	for (i = 0; i < res->n_points; i++)
		results_point_clear(&res->points[i]);
	free(res->points);
	for (i = 0; i < res->n_refs; i++)
		results_point_clear(&res->refs[i]);
	free(res->refs);
	for (i = 0; i < res->n_sources; i++)
		free(res->sources[i]);
	free(res->sources);
	free(res);
}

const char *results_point_param(const struct results_point *p, const char *key)
{
	size_t i;

	for (i = 0; i < p->n_params; i++)
		if (strcmp(p->params[i].key, key) == 0)
			return p->params[i].value;
	return NULL;
}

bool results_has_subject(const struct results *res, const char *subject)
{
	size_t i;

	/* A swept limit's series "sudo (nofile 1024)" are subject sudo's. */
	for (i = 0; i < res->n_points; i++) {
		const char *p = res->points[i].subject;
		size_t len = strlen(subject);

		if (strcmp(p, subject) == 0 || (strncmp(p, subject, len) == 0 && p[len] == ' '))
			return true;
	}
	return false;
}

void results_subjects(const struct results *res, char *buf, size_t size)
{
	static const char more[] = ", ...";
	const char *shown[64];
	size_t n_shown = 0, used = 0, i, j;

	if (size == 0)
		return;
	buf[0] = '\0';
	for (i = 0; i < res->n_points; i++) {
		const char *s = res->points[i].subject;
		size_t len = strlen(s);

		for (j = 0; j < n_shown; j++)
			if (strcmp(shown[j], s) == 0)
				break;
		if (j < n_shown)
			continue;
		/* Room for this one, its ", " and the ", ..." a later one may need. */
		if (n_shown == sizeof(shown) / sizeof(shown[0]) ||
		    used + 2 + len + sizeof(more) > size) {
			const char *tail = n_shown > 0 ? more : more + 2;

			if (used + strlen(tail) < size)
				memcpy(buf + used, tail, strlen(tail) + 1);
			return;
		}
		used += (size_t)snprintf(buf + used, size - used, "%s%s", n_shown ? ", " : "", s);
		shown[n_shown++] = s;
	}
}

const char *results_tool(const struct results *res, const char *subject)
{
	size_t i;

	const char *paren = strstr(subject, " (");
	size_t len = paren != NULL ? (size_t)(paren - subject) : strlen(subject);

	for (i = 0; i < res->n_tools; i++)
		if (strncmp(res->tools[i].subject, subject, len) == 0 &&
		    res->tools[i].subject[len] == '\0')
			return res->tools[i].tool;
	return NULL;
}

bool results_different_tools(const struct results *res, const char *a, const char *b)
{
	const char *ta = results_tool(res, a), *tb = results_tool(res, b);
	size_t la, lb;

	if (ta == NULL || tb == NULL)
		return false;
	/* The family is the first word: results_meta writes "FAMILY VERSION[, PAM]". */
	la = strcspn(ta, " ");
	lb = strcspn(tb, " ");
	return la != lb || strncmp(ta, tb, la) != 0;
}
