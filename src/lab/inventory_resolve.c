/* inventory_resolve: order groups by depth and set each host's connection variables from them. */
#include "inventory_impl.h"
#include "numarg.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Computes group depths (all = 0, top level = 1, child = parent + 1); detects cycles. */
static int set_depth(struct inventory *inv, size_t g, int depth, struct errbuf *eb)
{
	struct group *gr = &inv->groups[g];

	if (depth > DEPTH_MAX)
		return errbuf_set(eb, "%s: group '%s': children nested too deep (a cycle?)",
				  inv->file, gr->name);
	if (gr->depth >= depth)
		return 0;
	gr->depth = depth;
	for (size_t i = 0; i < gr->nchildren; i++)
		if (set_depth(inv, gr->children[i], depth + 1, eb) < 0)
			return -1;
	return 0;
}

static int apply_var(struct inventory *inv, struct inventory_host *ih, const struct var *v,
		     struct errbuf *eb)
{
	char **slot = NULL;

	if (strcmp(v->key, "ansible_host") == 0 || strcmp(v->key, "ansible_ssh_host") == 0)
		slot = &ih->addr;
	else if (strcmp(v->key, "ansible_user") == 0 || strcmp(v->key, "ansible_ssh_user") == 0)
		slot = &ih->user;
	else if (strcmp(v->key, "ansible_ssh_private_key_file") == 0 ||
		 strcmp(v->key, "ansible_private_key_file") == 0)
		slot = &ih->identity;
	else if (strcmp(v->key, "ansible_port") == 0 || strcmp(v->key, "ansible_ssh_port") == 0) {
		const char *e;
		int64_t port;
		if (numarg_i64_prefix(v->value, 10, &port, &e) == NUMARG_OUT_OF_RANGE ||
		    v->value[0] == '\0' || *e != '\0' || port < 1 || port > 65535)
			return errbuf_set(eb, "%s:%u: %s '%s' is not a port (1-65535)", inv->file,
					  v->line, v->key, v->value);
		ih->port = (int)port;
	} else if (strcmp(v->key, "ansible_connection") == 0) {
		if (strcmp(v->value, "local") == 0)
			ih->local = true;
		else if (strcmp(v->value, "ssh") == 0 || strcmp(v->value, "smart") == 0 ||
			 strcmp(v->value, "paramiko") == 0)
			ih->local = false;
		else
			return errbuf_set(eb, "%s:%u: ansible_connection '%s' is not supported",
					  inv->file, v->line, v->value);
	}
	if (slot != NULL) {
		char *nv = strdup(v->value);
		if (nv == NULL)
			return errbuf_set(eb, "out of memory");
		free(*slot);
		*slot = nv;
	}
	return 0;
}

static int cmp_groups(const struct group *a, const struct group *b)
{
	if (a->depth != b->depth)
		return a->depth < b->depth ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* Contract in inventory_impl.h. */
int inventory_resolve(struct inventory *inv, struct errbuf *eb)
{
	size_t *order = NULL;
	int rc = -1;

	for (size_t g = 0; g < inv->ngroups; g++)
		if (!inv->groups[g].is_child && strcmp(inv->groups[g].name, "all") != 0 &&
		    set_depth(inv, g, 1, eb) < 0)
			goto out;
	for (size_t g = 0; g < inv->ngroups; g++)
		if (inv->groups[g].is_child && inv->groups[g].depth == 0) {
			errbuf_set(eb, "%s: group '%s': children form a cycle", inv->file,
				   inv->groups[g].name);
			goto out;
		}
	/* groups ordered by (depth, name): shallow first, so deeper groups override */
	order = calloc(inv->ngroups ? inv->ngroups : 1, sizeof(*order));
	if (order == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < inv->ngroups; i++) {
		size_t j = i;
		while (j > 0 && cmp_groups(&inv->groups[order[j - 1]], &inv->groups[i]) > 0) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	for (size_t h = 0; h < inv->nhosts; h++) {
		struct inventory_host *ih = &inv->hosts[h];
		for (size_t k = 0; k < inv->ngroups; k++) {
			const struct group *gr = &inv->groups[order[k]];
			if (gr->vars.n == 0 || !inventory_in_group(inv, order[k], h, 0))
				continue;
			for (size_t v = 0; v < gr->vars.n; v++)
				if (apply_var(inv, ih, &gr->vars.v[v], eb) < 0)
					goto out;
		}
		for (size_t v = 0; v < inv->recs[h].vars.n; v++)
			if (apply_var(inv, ih, &inv->recs[h].vars.v[v], eb) < 0)
				goto out;
		if (ih->addr == NULL && (ih->addr = strdup(ih->name)) == NULL) {
			errbuf_set(eb, "out of memory");
			goto out;
		}
	}
	rc = 0;
out:
	free(order);
	return rc;
}
