/* inventory: parse Ansible's INI inventory format into groups, hosts and their variables. */
#include "inventory.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_BYTES 4096

#include "fileio.h"
#include "growbuf.h"
#include "inventory_impl.h"

static char *xstrndup(const char *s, size_t n)
{
	char *p = malloc(n + 1);

	if (p != NULL) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

/* A variable takes at least a byte of the file: the file's cap bounds their number. */
#define VARS_MAX ((size_t)INVENTORY_FILE_MAX_BYTES)
/* A member list holds distinct hosts or groups (fewer groups than hosts may exist). */
#define MEMBERS_MAX ((size_t)INVENTORY_HOSTS_MAX)

static void vars_free(struct vars *vs)
{
	for (size_t i = 0; i < vs->n; i++) {
		free(vs->v[i].key);
		free(vs->v[i].value);
	}
	free(vs->v);
}

/* Sets key (replacing an earlier value: the last definition wins, as in Ansible). */
static int vars_set(struct vars *vs, const char *key, size_t klen, const char *value, size_t vlen,
		    unsigned line)
{
	char *k = NULL, *v = NULL;

	for (size_t i = 0; i < vs->n; i++) {
		if (strlen(vs->v[i].key) == klen && memcmp(vs->v[i].key, key, klen) == 0) {
			v = xstrndup(value, vlen);
			if (v == NULL)
				return -1;
			free(vs->v[i].value);
			vs->v[i].value = v;
			vs->v[i].line = line;
			return 0;
		}
	}
	if (growarray(&vs->v, &vs->cap, vs->n + 1, sizeof(*vs->v), VARS_MAX, NULL) < 0)
		return -1;
	k = xstrndup(key, klen);
	v = xstrndup(value, vlen);
	if (k == NULL || v == NULL) {
		free(k);
		free(v);
		return -1;
	}
	vs->v[vs->n++] = (struct var){k, v, line};
	return 0;
}

void inventory_free(struct inventory *inv)
{
	if (inv == NULL)
		return;
	for (size_t i = 0; i < inv->ngroups; i++) {
		free(inv->groups[i].name);
		free(inv->groups[i].hosts);
		free(inv->groups[i].children);
		vars_free(&inv->groups[i].vars);
	}
	free(inv->groups);
	for (size_t i = 0; i < inv->nhosts; i++) {
		free(inv->hosts[i].name);
		free(inv->hosts[i].addr);
		free(inv->hosts[i].user);
		free(inv->hosts[i].identity);
		vars_free(&inv->recs[i].vars);
	}
	free(inv->hosts);
	free(inv->recs);
	free(inv);
}

size_t inventory_count(const struct inventory *inv)
{
	return inv->nhosts;
}

const struct inventory_host *inventory_host(const struct inventory *inv, size_t i)
{
	return i < inv->nhosts ? &inv->hosts[i] : NULL;
}

static long find_group(const struct inventory *inv, const char *name, size_t len)
{
	for (size_t i = 0; i < inv->ngroups; i++)
		if (strlen(inv->groups[i].name) == len &&
		    memcmp(inv->groups[i].name, name, len) == 0)
			return (long)i;
	return -1;
}

static long find_host(const struct inventory *inv, const char *name, size_t len)
{
	for (size_t i = 0; i < inv->nhosts; i++)
		if (strlen(inv->hosts[i].name) == len && memcmp(inv->hosts[i].name, name, len) == 0)
			return (long)i;
	return -1;
}

static bool valid_name(const char *s, size_t len)
{
	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (isspace(c) || c == '[' || c == ']' || c == ':' || c == '=' || c == ',' ||
		    c == '!' || c == '&' || c == '#' || c < 0x20 || c == 0x7f)
			return false;
	}
	return true;
}

/*
 * A host name is a path component, locally (DIR/<host>) and on the host
 * (<remote-dir>/<run>/<host>): letters, digits, '.', '_' and '-' only, not
 * starting with '.' or '-' (so never '.' or '..', never an option), at most
 * INVENTORY_NAME_MAX bytes.
 */
static bool valid_host_name(const char *s, size_t len)
{
	if (len == 0 || len > INVENTORY_NAME_MAX || s[0] == '.' || s[0] == '-')
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (!isalnum(c) && c != '.' && c != '_' && c != '-')
			return false;
	}
	return true;
}

/* Returns the index of group name, creating it; -1 with eb filled on error. */
static long get_group(struct inventory *inv, const char *name, size_t len, unsigned line,
		      struct errbuf *eb)
{
	long g = find_group(inv, name, len);
	struct group *gr;

	if (g >= 0)
		return g;
	if (!valid_name(name, len))
		return errbuf_set(eb, "%s:%u: invalid group name '%.*s'", inv->file, line,
				  (int)(len > 64 ? 64 : len), name);
	if (inv->ngroups >= INVENTORY_GROUPS_MAX)
		return errbuf_set(eb, "%s:%u: more than %d groups", inv->file, line,
				  INVENTORY_GROUPS_MAX);
	if (growarray(&inv->groups, &inv->groups_cap, inv->ngroups + 1, sizeof(*inv->groups),
		      INVENTORY_GROUPS_MAX, eb) < 0)
		return errbuf_set(eb, "out of memory");
	gr = &inv->groups[inv->ngroups];
	memset(gr, 0, sizeof(*gr));
	gr->name = xstrndup(name, len);
	if (gr->name == NULL)
		return errbuf_set(eb, "out of memory");
	return (long)inv->ngroups++;
}

static int add_index(size_t **arr, size_t *n, size_t *cap, size_t v)
{
	for (size_t i = 0; i < *n; i++)
		if ((*arr)[i] == v)
			return 0;
	if (growarray(arr, cap, *n + 1, sizeof(**arr), MEMBERS_MAX, NULL) < 0)
		return -1;
	(*arr)[(*n)++] = v;
	return 0;
}

/* Adds host name to group g (creating the host); returns its index or -1. */
static long add_host(struct inventory *inv, size_t g, const char *name, size_t len, unsigned line,
		     struct errbuf *eb)
{
	long h = find_host(inv, name, len);
	struct group *gr;

	if (h < 0) {
		if (!valid_host_name(name, len))
			return errbuf_set(eb,
					  "%s:%u: invalid host name '%.*s' (want letters, digits, "
					  "'.', '_', '-', not first '.' or '-', at most %d)",
					  inv->file, line, (int)(len > 64 ? 64 : len), name,
					  INVENTORY_NAME_MAX);
		if (inv->nhosts >= INVENTORY_HOSTS_MAX)
			return errbuf_set(eb, "%s:%u: more than %d hosts", inv->file, line,
					  INVENTORY_HOSTS_MAX);
		/* recs grows in step with hosts, one record per host */
		if (growarray(&inv->hosts, &inv->hosts_cap, inv->nhosts + 1, sizeof(*inv->hosts),
			      INVENTORY_HOSTS_MAX, eb) < 0 ||
		    growarray(&inv->recs, &inv->recs_cap, inv->nhosts + 1, sizeof(*inv->recs),
			      INVENTORY_HOSTS_MAX, eb) < 0)
			return errbuf_set(eb, "out of memory");
		memset(&inv->hosts[inv->nhosts], 0, sizeof(*inv->hosts));
		memset(&inv->recs[inv->nhosts], 0, sizeof(*inv->recs));
		inv->hosts[inv->nhosts].name = xstrndup(name, len);
		if (inv->hosts[inv->nhosts].name == NULL)
			return errbuf_set(eb, "out of memory");
		inv->recs[inv->nhosts].line = line;
		h = (long)inv->nhosts++;
	}
	gr = &inv->groups[g];
	if (add_index(&gr->hosts, &gr->nhosts, &gr->hosts_cap, (size_t)h) < 0)
		return errbuf_set(eb, "out of memory");
	return h;
}

/* Unquotes a token in place-free fashion: returns start/len of its value without quotes. */
static void unquote(const char **s, size_t *len)
{
	if (*len >= 2 && ((*s)[0] == '"' || (*s)[0] == '\'') && (*s)[*len - 1] == (*s)[0]) {
		(*s)++;
		*len -= 2;
	}
}

/*
 * Splits the next whitespace-separated token from *p (quotes group spaces).
 * Returns false at end of line or at a '#' comment.
 */
static bool next_token(const char **p, const char *end, const char **tok, size_t *len,
		       bool *unterminated)
{
	const char *s = *p;
	char quote = 0;

	*unterminated = false;
	while (s < end && isspace((unsigned char)*s))
		s++;
	if (s >= end || *s == '#')
		return false;
	*tok = s;
	while (s < end && (quote || !isspace((unsigned char)*s))) {
		if (quote && *s == quote)
			quote = 0;
		else if (!quote && (*s == '"' || *s == '\''))
			quote = *s;
		s++;
	}
	if (quote)
		*unterminated = true;
	*len = (size_t)(s - *tok);
	*p = s;
	return true;
}

struct expand {
	struct inventory *inv;
	size_t group;
	unsigned line;
	const char *vars_start, *vars_end; /* the rest of the host line */
	const char *port;                  /* from NAME:PORT, or NULL */
	size_t count;
	struct errbuf *eb;
};

static int host_line_vars(struct expand *x, size_t h);

/* Expands one [a:b] or [a:b:step] range in pat (recursively for later ranges). */
static int expand_host(struct expand *x, const char *pat, size_t len)
{
	const char *lb = memchr(pat, '[', len);
	char buf[LINE_MAX_BYTES];
	struct inventory_range r;
	long h;

	if (lb == NULL) {
		if (++x->count > INVENTORY_RANGE_MAX)
			return errbuf_set(x->eb, "%s:%u: host range expands to more than %d hosts",
					  x->inv->file, x->line, INVENTORY_RANGE_MAX);
		h = add_host(x->inv, x->group, pat, len, x->line, x->eb);
		if (h < 0)
			return -1;
		return host_line_vars(x, (size_t)h);
	}
	if (inventory_range_parse(pat, len, lb, x->inv->file, x->line, &r, x->eb) < 0)
		return -1;
	size_t pre = (size_t)(lb - pat), post = len - (size_t)(r.rb + 1 - pat);
	long count = (r.to - r.from) / r.step + 1;
	for (long k = 0; k < count; k++) {
		/* from + k * step <= to: no overflow, whatever the bounds */
		long i = r.from + k * r.step;
		int n;
		if (r.alpha)
			n = snprintf(buf, sizeof(buf), "%.*s%c%.*s", (int)pre, pat, (char)i,
				     (int)post, r.rb + 1);
		else
			n = snprintf(buf, sizeof(buf), "%.*s%0*ld%.*s", (int)pre, pat, r.width, i,
				     (int)post, r.rb + 1);
		if (n < 0 || (size_t)n >= sizeof(buf))
			return errbuf_set(x->eb, "%s:%u: host name too long", x->inv->file,
					  x->line);
		if (expand_host(x, buf, (size_t)n) < 0)
			return -1;
	}
	return 0;
}

/* Applies the key=value pairs after a host name to host h. */
static int host_line_vars(struct expand *x, size_t h)
{
	const char *p = x->vars_start, *tok, *eq, *val;
	size_t len, vlen;
	bool unterminated;

	if (x->port != NULL &&
	    vars_set(&x->inv->recs[h].vars, "ansible_port", 12, x->port, strlen(x->port), x->line))
		return errbuf_set(x->eb, "out of memory");
	while (next_token(&p, x->vars_end, &tok, &len, &unterminated)) {
		if (unterminated)
			return errbuf_set(x->eb, "%s:%u: unterminated quote", x->inv->file,
					  x->line);
		eq = memchr(tok, '=', len);
		if (eq == NULL || eq == tok)
			return errbuf_set(x->eb, "%s:%u: expected key=value, got '%.*s'",
					  x->inv->file, x->line, (int)(len > 64 ? 64 : len), tok);
		val = eq + 1;
		vlen = len - (size_t)(val - tok);
		unquote(&val, &vlen);
		if (vars_set(&x->inv->recs[h].vars, tok, (size_t)(eq - tok), val, vlen, x->line))
			return errbuf_set(x->eb, "out of memory");
	}
	return 0;
}

enum section { SEC_HOSTS, SEC_VARS, SEC_CHILDREN };

static int parse_header(struct inventory *inv, const char *s, size_t len, unsigned line,
			enum section *sec, size_t *group, struct errbuf *eb)
{
	const char *colon;
	size_t nlen;
	long g;

	if (len < 2 || s[len - 1] != ']')
		return errbuf_set(eb, "%s:%u: unterminated section header", inv->file, line);
	s++;
	len -= 2;
	colon = memchr(s, ':', len);
	nlen = colon ? (size_t)(colon - s) : len;
	*sec = SEC_HOSTS;
	if (colon != NULL) {
		size_t slen = len - nlen - 1;
		if (slen == 4 && memcmp(colon + 1, "vars", 4) == 0)
			*sec = SEC_VARS;
		else if (slen == 8 && memcmp(colon + 1, "children", 8) == 0)
			*sec = SEC_CHILDREN;
		else
			return errbuf_set(eb, "%s:%u: unknown section suffix ':%.*s'", inv->file,
					  line, (int)(slen > 32 ? 32 : slen), colon + 1);
	}
	g = get_group(inv, s, nlen, line, eb);
	if (g < 0)
		return -1;
	*group = (size_t)g;
	return 0;
}

static int parse_line(struct inventory *inv, const char *s, size_t len, unsigned line,
		      enum section *sec, size_t *group, struct errbuf *eb)
{
	const char *p = s, *end = s + len, *tok;
	size_t tlen;
	bool unterminated;

	if (*s == '[')
		return parse_header(inv, s, len, line, sec, group, eb);
	if (*sec == SEC_VARS) {
		const char *eq = memchr(s, '=', len), *k = s, *v;
		size_t klen, vlen;
		if (eq == NULL)
			return errbuf_set(eb, "%s:%u: expected key=value in [%s:vars]", inv->file,
					  line, inv->groups[*group].name);
		klen = (size_t)(eq - s);
		while (klen > 0 && isspace((unsigned char)k[klen - 1]))
			klen--;
		v = eq + 1;
		while (v < end && isspace((unsigned char)*v))
			v++;
		vlen = (size_t)(end - v);
		unquote(&v, &vlen);
		if (klen == 0)
			return errbuf_set(eb, "%s:%u: empty variable name", inv->file, line);
		if (vars_set(&inv->groups[*group].vars, k, klen, v, vlen, line) < 0)
			return errbuf_set(eb, "out of memory");
		return 0;
	}
	if (!next_token(&p, end, &tok, &tlen, &unterminated))
		return 0;
	if (*sec == SEC_CHILDREN) {
		long c;
		struct group *parent;
		const char *rest = p, *t2;
		size_t l2;
		if (next_token(&rest, end, &t2, &l2, &unterminated))
			return errbuf_set(eb, "%s:%u: one group name per line in [%s:children]",
					  inv->file, line, inv->groups[*group].name);
		c = get_group(inv, tok, tlen, line, eb);
		if (c < 0)
			return -1;
		if ((size_t)c == *group || strcmp(inv->groups[c].name, "all") == 0)
			return errbuf_set(eb, "%s:%u: group '%s' cannot be a child of '%s'",
					  inv->file, line, inv->groups[c].name,
					  inv->groups[*group].name);
		inv->groups[c].is_child = true;
		parent = &inv->groups[*group];
		if (add_index(&parent->children, &parent->nchildren, &parent->children_cap,
			      (size_t)c) < 0)
			return errbuf_set(eb, "out of memory");
		return 0;
	}
	/* host line: NAME[:PORT] [key=value ...] */
	struct expand x = {inv, *group, line, p, end, NULL, 0, eb};
	const char *colon = memchr(tok, ':', tlen);
	char portbuf[8];
	size_t nlen = tlen;
	if (unterminated)
		return errbuf_set(eb, "%s:%u: unterminated quote", inv->file, line);
	if (colon != NULL && memchr(colon + 1, ':', tlen - (size_t)(colon + 1 - tok)) == NULL) {
		const char *lb = memchr(tok, '[', tlen);
		/* a colon inside a [a:b] range is not a port separator */
		if (lb == NULL || colon > (const char *)memchr(tok, ']', tlen)) {
			size_t plen = tlen - (size_t)(colon + 1 - tok);
			nlen = (size_t)(colon - tok);
			if (plen == 0 || plen >= sizeof(portbuf))
				return errbuf_set(eb, "%s:%u: bad port in '%.*s'", inv->file, line,
						  (int)tlen, tok);
			memcpy(portbuf, colon + 1, plen);
			portbuf[plen] = '\0';
		}
	}
	if (nlen != tlen)
		x.port = portbuf;
	return expand_host(&x, tok, nlen);
}

struct inventory *inventory_parse(const char *text, size_t len, const char *name, struct errbuf *eb)
{
	struct inventory *inv = calloc(1, sizeof(*inv));
	enum section sec = SEC_HOSTS;
	size_t group;
	unsigned line = 0;
	const char *p = text, *end = text + len;

	if (inv == NULL) {
		errbuf_set(eb, "out of memory");
		return NULL;
	}
	inv->file = name;
	if (get_group(inv, "all", 3, 0, eb) < 0 || get_group(inv, "ungrouped", 9, 0, eb) < 0)
		goto fail;
	group = 1;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *s = p, *e = nl ? nl : end;
		line++;
		p = nl ? nl + 1 : end;
		if ((size_t)(e - s) > LINE_MAX_BYTES) {
			errbuf_set(eb, "%s:%u: line longer than %d bytes", name, line,
				   LINE_MAX_BYTES);
			goto fail;
		}
		if (memchr(s, '\0', (size_t)(e - s)) != NULL) {
			errbuf_set(eb, "%s:%u: NUL byte", name, line);
			goto fail;
		}
		while (s < e && isspace((unsigned char)*s))
			s++;
		while (e > s && isspace((unsigned char)e[-1]))
			e--;
		if (s == e || *s == '#' || *s == ';')
			continue;
		if (parse_line(inv, s, (size_t)(e - s), line, &sec, &group, eb) < 0)
			goto fail;
	}
	if (inventory_resolve(inv, eb) < 0)
		goto fail;
	inv->file = NULL; /* name belongs to the caller */
	return inv;
fail:
	inventory_free(inv);
	return NULL;
}

struct inventory *inventory_load(const char *path, struct errbuf *eb)
{
	struct inventory *inv;
	char *buf = NULL;
	size_t n = 0;

	if (fileio_read(path, INVENTORY_FILE_MAX_BYTES, NULL, &buf, &n, eb) < 0)
		return NULL;
	inv = inventory_parse(buf, n, path, eb);
	free(buf);
	return inv;
}
