/* inventory_impl: the inventory's internal model, shared by its parser, resolver and patterns. */
#ifndef RARPERF_INVENTORY_IMPL_H
#define RARPERF_INVENTORY_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "inventory.h"

#define DEPTH_MAX 64 /* nesting of [group:children] */

struct var {
	char *key, *value;
	unsigned line;
};

struct vars {
	struct var *v;
	size_t n, cap;
};

struct group {
	char *name;
	size_t *hosts, nhosts, hosts_cap; /* direct members */
	size_t *children, nchildren, children_cap;
	struct vars vars;
	int depth; /* 0 for all, 1 for top-level groups, parent depth + 1 below */
	bool is_child;
};

struct hrec {
	struct vars vars;
	unsigned line; /* first line naming the host */
};

struct inventory {
	const char *file;
	struct group *groups;
	size_t ngroups, groups_cap;
	struct hrec *recs; /* per host, beside hosts */
	struct inventory_host *hosts;
	size_t nhosts, hosts_cap, recs_cap;
};

/* One [a:b] or [a:b:step] range of a host pattern (Ansible's ranges). */
struct inventory_range {
	const char *rb; /* its ']' */
	long from, to, step;
	int width;  /* a numeric range's zero-padded width; 0: none */
	bool alpha; /* a letter range ([a:f]) */
};

/*
 * Parses the range that opens at lb in pat (len bytes) into r: its bounds,
 * step and padding, at most INVENTORY_RANGE_MAX values. Returns 0, or -1
 * with eb naming file:line.
 */
int inventory_range_parse(const char *pat, size_t len, const char *lb, const char *file,
			  unsigned line, struct inventory_range *r, struct errbuf *eb);

/* True when host h is in group g directly or through its children ("all" holds every host). */
bool inventory_in_group(const struct inventory *inv, size_t g, size_t h, int depth);

/*
 * Called once the whole file is parsed: sets each group's depth (a cycle of
 * children is an error), then fills every host's addr, port, user, identity
 * and local from the variables of its groups, shallow groups first (ties by
 * name), then its own host-line variables, so the deepest definition wins;
 * addr defaults to the host name. Returns 0, or -1 with eb filled (naming
 * the file, and the line of a bad variable).
 */
int inventory_resolve(struct inventory *inv, struct errbuf *eb);

#endif
