/* inventory_select: Ansible-like host patterns (--limit) over a parsed inventory. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "inventory_impl.h"

bool inventory_in_group(const struct inventory *inv, size_t g, size_t h, int depth)
{
	const struct group *gr = &inv->groups[g];

	if (strcmp(gr->name, "all") == 0)
		return true;
	if (depth > DEPTH_MAX)
		return false;
	for (size_t i = 0; i < gr->nhosts; i++)
		if (gr->hosts[i] == h)
			return true;
	for (size_t i = 0; i < gr->nchildren; i++)
		if (inventory_in_group(inv, gr->children[i], h, depth + 1))
			return true;
	return false;
}

static bool is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* Marks in mark[] the hosts one term names; returns how many it named. */
static size_t match_term(const struct inventory *inv, const char *term, bool *mark)
{
	size_t hits = 0;

	for (size_t g = 0; g < inv->ngroups; g++) {
		bool m = is_glob(term) ? fnmatch(term, inv->groups[g].name, 0) == 0
				       : strcmp(term, inv->groups[g].name) == 0;
		if (!m)
			continue;
		for (size_t h = 0; h < inv->nhosts; h++)
			if (inventory_in_group(inv, g, h, 0)) {
				mark[h] = true;
				hits++;
			}
	}
	for (size_t h = 0; h < inv->nhosts; h++) {
		bool m = is_glob(term) ? fnmatch(term, inv->hosts[h].name, 0) == 0
				       : strcmp(term, inv->hosts[h].name) == 0;
		if (m) {
			mark[h] = true;
			hits++;
		}
	}
	return hits;
}

int inventory_select(const struct inventory *inv, const char *pattern, size_t *sel, size_t *nsel,
		     struct errbuf *eb)
{
	bool *pos = NULL, *neg = NULL, *and = NULL, *tmp = NULL;
	char *copy = NULL, *term, *next;
	bool any_pos = false, any_and = false;
	size_t n = inv->nhosts ? inv->nhosts : 1;
	int rc = -1;

	*nsel = 0;
	pos = calloc(n, 1);
	neg = calloc(n, 1);
	and = calloc(n, 1);
	tmp = calloc(n, 1);
	copy = strdup(pattern ? pattern : "");
	if (!pos || !neg || !and || !tmp || !copy) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	for (size_t h = 0; h < n; h++)
		and[h] = true;
	for (term = copy; term != NULL; term = next) {
		next = strpbrk(term, ",:");
		if (next != NULL)
			*next++ = '\0';
		if (*term == '\0' && (pattern == NULL || *pattern == '\0'))
			break;
		char kind = (*term == '!' || *term == '&') ? *term : 0;
		const char *name = kind ? term + 1 : term;
		while (*name == ' ')
			name++;
		if (*name == '\0') {
			errbuf_set(eb, "host pattern '%s': empty term", pattern);
			goto out;
		}
		memset(tmp, 0, n);
		if (strcmp(name, "*") != 0 && match_term(inv, name, tmp) == 0) {
			errbuf_set(eb, "host pattern '%s': no host or group matches '%s'", pattern,
				   name);
			goto out;
		}
		if (strcmp(name, "*") == 0)
			memset(tmp, 1, n);
		for (size_t h = 0; h < inv->nhosts; h++) {
			if (kind == '!')
				neg[h] |= tmp[h];
			else if (kind == '&')
				and[h] &= tmp[h];
			else
				pos[h] |= tmp[h];
		}
		any_pos |= kind == 0;
		any_and |= kind == '&';
	}
	for (size_t h = 0; h < inv->nhosts; h++) {
		bool in = any_pos ? pos[h] : true;
		if (in && (!any_and || and[h]) && !neg[h])
			sel[(*nsel)++] = h;
	}
	if (*nsel == 0) {
		errbuf_set(eb, "host pattern '%s' selects no host", pattern ? pattern : "");
		goto out;
	}
	rc = 0;
out:
	free(pos);
	free(neg);
	free(and);
	free(tmp);
	free(copy);
	return rc;
}
