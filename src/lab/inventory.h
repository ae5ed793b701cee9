/* inventory: Ansible's INI inventory (groups, children, vars, host ranges) and -l host patterns. */
#ifndef RARPERF_INVENTORY_H
#define RARPERF_INVENTORY_H

#include <stdbool.h>
#include <stddef.h>

#include "errbuf.h"

#define INVENTORY_FILE_MAX_BYTES (1024 * 1024)
#define INVENTORY_HOSTS_MAX 4096
#define INVENTORY_GROUPS_MAX 1024
#define INVENTORY_RANGE_MAX 1024 /* hosts one host line's ranges may expand to */
#define INVENTORY_NAME_MAX 253   /* bytes of a host name (a DNS name's limit) */

/* One host with its connection variables resolved (host vars over group vars). */
struct inventory_host {
	char *
	    name; /* inventory name: a safe path component ([A-Za-z0-9._-], not first '.' or '-') */
	char *addr;     /* ansible_host, else the name */
	int port;       /* ansible_port, 0 when unset */
	char *user;     /* ansible_user, NULL when unset */
	char *identity; /* ansible_ssh_private_key_file, NULL when unset */
	bool local;     /* ansible_connection=local */
};

struct inventory;

/*
 * Parses an INI inventory held in text[0..len) (need not be NUL-terminated);
 * name is the file name used in error messages ("name:line: ..."). Host
 * names become file names under DIR and on the hosts: one that is not a
 * safe path component (inventory_host.name) is an error, and so is a range
 * with a bound that does not fit a long or that expands to more than
 * INVENTORY_RANGE_MAX hosts. Returns a new inventory owned by the caller, or
 * NULL with eb filled.
 */
struct inventory *inventory_parse(const char *text, size_t len, const char *name,
				  struct errbuf *eb);

/* Reads path (at most INVENTORY_FILE_MAX_BYTES) and parses it. NULL on error. */
struct inventory *inventory_load(const char *path, struct errbuf *eb);

/* Frees inv; NULL is a no-op. */
void inventory_free(struct inventory *inv);

/* Number of hosts, and host i (0 <= i < count) in order of first appearance. */
size_t inventory_count(const struct inventory *inv);
const struct inventory_host *inventory_host(const struct inventory *inv, size_t i);

/*
 * Selects hosts like Ansible's --limit: pattern is a list of terms separated
 * by ',' or ':'; a term is a host or group name ('all' is every host) or a
 * shell glob over host and group names; '!term' excludes, '&term' intersects.
 * pattern NULL or "" selects every host. Fills sel[0..*nsel) with host indexes
 * in inventory order; sel must have room for inventory_count(inv) entries.
 * A term matching nothing or an empty result is an error (-1, eb filled).
 */
int inventory_select(const struct inventory *inv, const char *pattern, size_t *sel, size_t *nsel,
		     struct errbuf *eb);

#endif
