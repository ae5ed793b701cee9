/* labident: a host's identity from its probe's output; the lab's hosts compared and grouped. */
#include "jsonget.h"
#include "jsonbudget.h"
#include "labident.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "fileio.h"
#include "growbuf.h"
#include "numarg.h"
#include "sanitize.h"

#define KEY_MAX 64
#define MISSING "(missing)"

struct pair {
	char key[KEY_MAX];
	char value[LABIDENT_VALUE_MAX];
};

struct labident {
	struct pair *pairs; /* grown as keys come: a lab holds every host's at once */
	size_t n, cap;
};

struct labident_cmp {
	size_t nhosts, ndiffs, ngroups;
	const char *const *names;
	struct labident *const *hosts;
	char (*diffs)[KEY_MAX]; /* the keys that differ, sorted */
	unsigned *group;        /* per host, 1-based; 0: no identity */
};

/*
 * One process on the host (hundreds of hosts may share few cores): awk prints
 * facts.json, the mark, then what the session is. /proc/self/limits is awk's
 * own, inherited from the session; its lines come in the kernel's order,
 * which LIMIT_NAMES follows.
 */
#define LIMIT_NAMES                                                                                \
	"cpu:fsize:data:stack:core:rss:nproc:nofile:memlock:as:locks:sigpending:msgqueue:nice:"    \
	"rtprio:rttime"
static const char probe_awk[] =
    "BEGIN { while ((getline l < f) > 0) print l; print \"\"; print \"" LABIDENT_MARK "\"; "
    "if ((getline l < \"/sys/devices/system/cpu/online\") > 0) { c = split(l, r, \",\"); "
    "for (i = 1; i <= c; i++) n += split(r[i], b, \"-\") == 2 ? b[2] - b[1] + 1 : 1; "
    "print \"cpus=\" n } "
    "while ((getline l < \"/proc/cpuinfo\") > 0) if (l ~ /^model name/) { "
    "sub(/^[^:]*:[ \\t]*/, \"\", l); print \"cpu_model=\" l; break } "
    "while ((getline l < \"/proc/meminfo\") > 0) if (l ~ /^MemTotal:/) { "
    "split(l, a, \" +\"); print \"mem_kb=\" a[2] } "
    "if ((getline l < \"/proc/sys/kernel/osrelease\") > 0) print \"kernel=\" l; "
    "if ((getline l < \"/etc/debian_version\") > 0) sub(/\\..*/, \"\", l); else l = \"\"; "
    "print \"debian=\" l; split(\"" LIMIT_NAMES "\", k, \":\"); "
    "getline l < \"/proc/self/limits\"; "
    "for (i = 1; (getline l < \"/proc/self/limits\") > 0; i++) { split(l, a, \"  +\"); "
    "if ((\",\" p \",\") ~ (\",\" k[i] \",\")) print \"limit.\" k[i] \"=\" a[3] } }";

int labident_command(char *buf, size_t cap, const char *prefix, const char *const *limits, size_t n)
{
	char list[256] = "";
	size_t len = 0;

	/* the prefix is an absolute path checked by main; quoted for the shell and for awk -v */
	if (strpbrk(prefix, "'\\") != NULL)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (strspn(limits[i], "abcdefghijklmnopqrstuvwxyz") != strlen(limits[i]) ||
		    fileio_fmt(list + len, sizeof(list) - len, "%s%s", i ? "," : "", limits[i]) < 0)
			return -1;
		len = strlen(list);
	}
	return fileio_fmt(buf, cap, "awk -v f='%s/facts.json' -v p='%s' '%s' </dev/null", prefix,
			  list, probe_awk);
}

static int pair_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pair *)a)->key, ((const struct pair *)b)->key);
}

/* Adds key=value (sanitised, cut to size); a key already there keeps its first value. */
static int add(struct labident *id, const char *key, const char *value, struct errbuf *eb)
{
	for (size_t i = 0; i < id->n; i++)
		if (strcmp(id->pairs[i].key, key) == 0)
			return 0;
	if (id->n >= LABIDENT_KEYS_MAX)
		return errbuf_set(eb, "more than %d identity keys", LABIDENT_KEYS_MAX);
	if (growarray(&id->pairs, &id->cap, id->n + 1, sizeof(*id->pairs), LABIDENT_KEYS_MAX, eb) <
	    0)
		return -1;
	sanitize_str(id->pairs[id->n].key, KEY_MAX, key);
	sanitize_str(id->pairs[id->n].value, LABIDENT_VALUE_MAX, value);
	id->n++;
	return 0;
}

static const char *str_of(const cJSON *o, const char *name)
{
	const cJSON *v = jsonget_member(o, name);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Formats a value a host sent into buf: a longer one is cut (labident.h), never an error. */
static void value_fmt(char *buf, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void value_fmt(char *buf, size_t cap, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, cap, fmt, ap);
	va_end(ap);
}

/* The tools of facts.json: tool.<name>.version, .sha256, .source, .configure (or .present). */
static int add_tools(struct labident *id, const cJSON *tools, struct errbuf *eb)
{
	static const char *const fields[] = {"version", "sha256", "source", "configure"};
	const cJSON *t;
	char key[KEY_MAX];

	cJSON_ArrayForEach(t, tools)
	{
		/* At most 32 bytes: every key below fits KEY_MAX. */
		if (t->string == NULL || strlen(t->string) > 32)
			continue;
		if (cJSON_IsFalse(jsonget_member(t, "present"))) {
			if (fileio_fmt(key, sizeof(key), "tool.%s.present", t->string) < 0)
				return errbuf_set(eb, "tool.%s: key too long", t->string);
			if (add(id, key, "no", eb) < 0)
				return -1;
			continue;
		}
		for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
			const char *v = str_of(t, fields[i]);
			if (fileio_fmt(key, sizeof(key), "tool.%s.%s", t->string, fields[i]) < 0)
				return errbuf_set(eb, "tool.%s: key too long", t->string);
			if (add(id, key, v ? v : MISSING, eb) < 0)
				return -1;
		}
	}
	return 0;
}

/* facts.json (len bytes, possibly none): the bench user, rarperf's build, the tools. */
static int add_facts(struct labident *id, const char *text, size_t len, struct errbuf *eb)
{
	cJSON *root;
	const cJSON *rp, *uid;
	char buf[LABIDENT_VALUE_MAX];
	int rc;

	while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' '))
		len--;
	if (len == 0)
		return add(id, "facts", MISSING, eb);
	/* its tree within 4 times its size (jsonbudget.h; issue 52, finding 7) */
	root = jsonbudget_check(text, len, "facts", &(struct errbuf){{0}}) == 0
		   ? cJSON_ParseWithLength(text, len)
		   : NULL;
	if (!cJSON_IsObject(root)) {
		cJSON_Delete(root);
		return add(id, "facts", "not a JSON object", eb);
	}
	rp = jsonget_member(root, "rarperf");
	uid = jsonget_member(root, "bench_uid");
	value_fmt(buf, sizeof(buf), "%s %s", str_of(rp, "version") ? str_of(rp, "version") : "?",
		  str_of(rp, "commit") ? str_of(rp, "commit") : "?");
	rc = add(id, "rarperf", buf, eb);
	if (rc == 0)
		rc = add(id, "bench_user",
			 str_of(root, "bench_user") ? str_of(root, "bench_user") : MISSING, eb);
	if (rc == 0 && cJSON_IsNumber(uid)) {
		value_fmt(buf, sizeof(buf), "%.0f", uid->valuedouble);
		rc = add(id, "bench_uid", buf, eb);
	}
	if (rc == 0)
		rc = add_tools(id, jsonget_member(root, "tools"), eb);
	cJSON_Delete(root);
	return rc;
}

/* The live part: "key=value" lines, keys of [a-z0-9._]; mem_kb becomes memory_gib. */
static int add_live(struct labident *id, const char *p, const char *end, struct errbuf *eb)
{
	char line[KEY_MAX + LABIDENT_VALUE_MAX], *eq;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		if (n >= sizeof(line))
			n = sizeof(line) - 1;
		memcpy(line, p, n);
		line[n] = '\0';
		p = nl ? nl + 1 : end;
		eq = strchr(line, '=');
		if (eq == NULL || eq == line || (size_t)(eq - line) >= KEY_MAX)
			continue;
		*eq = '\0';
		if (strspn(line, "abcdefghijklmnopqrstuvwxyz0123456789._") != strlen(line))
			continue;
		if (strcmp(line, "mem_kb") == 0) {
			char gib[32];
			value_fmt(gib, sizeof(gib), "%.1f",
				  numarg_leading_double(eq + 1) / 1048576.0);
			if (add(id, "memory_gib", gib, eb) < 0)
				return -1;
		} else if (add(id, line, eq + 1, eb) < 0) {
			return -1;
		}
	}
	return 0;
}

struct labident *labident_parse(const char *out, size_t len, struct errbuf *eb)
{
	static const char mark[] = "\n" LABIDENT_MARK "\n";
	struct labident *id = calloc(1, sizeof(*id));
	const char *live = NULL;

	if (id == NULL) {
		errbuf_set(eb, "out of memory");
		return NULL;
	}
	if (len > LABIDENT_OUTPUT_MAX_BYTES) {
		errbuf_set(eb, "identity probe: more than %d bytes", LABIDENT_OUTPUT_MAX_BYTES);
		goto fail;
	}
	for (size_t i = 0; i + sizeof(mark) - 1 <= len; i++)
		if (memcmp(out + i, mark, sizeof(mark) - 1) == 0) {
			live = out + i;
			break;
		}
	if (live == NULL) {
		errbuf_set(eb, "identity probe: no '%s' line in its output", LABIDENT_MARK);
		goto fail;
	}
	if (add_facts(id, out, (size_t)(live - out), eb) < 0 ||
	    add_live(id, live + sizeof(mark) - 1, out + len, eb) < 0)
		goto fail;
	if (id->n > 1)
		qsort(id->pairs, id->n, sizeof(*id->pairs), pair_cmp);
	return id;
fail:
	labident_free(id);
	return NULL;
}

void labident_free(struct labident *id)
{
	if (id == NULL)
		return;
	free(id->pairs);
	free(id);
}

const char *labident_get(const struct labident *id, const char *key)
{
	struct pair k;
	const struct pair *p;

	if (id == NULL || id->n == 0 || strlen(key) >= KEY_MAX)
		return NULL;
	memcpy(k.key, key, strlen(key) + 1);
	p = bsearch(&k, id->pairs, id->n, sizeof(*id->pairs), pair_cmp);
	return p ? p->value : NULL;
}

static const char *value_of(const struct labident *id, const char *key)
{
	const char *v = labident_get(id, key);

	return v ? v : MISSING;
}

static int key_cmp(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/* The keys on which hosts differ, sorted, into c->diffs. Returns 0 or -1 (memory). */
static int find_diffs(struct labident_cmp *c)
{
	size_t total = 0, k = 0, first = SIZE_MAX;
	char(*all)[KEY_MAX];

	for (size_t i = 0; i < c->nhosts; i++)
		if (c->hosts[i] != NULL) {
			total += c->hosts[i]->n;
			if (first == SIZE_MAX)
				first = i;
		}
	all = calloc(total ? total : 1, KEY_MAX);
	c->diffs = calloc(total ? total : 1, KEY_MAX);
	if (all == NULL || c->diffs == NULL) {
		free(all);
		return -1;
	}
	for (size_t i = 0; i < c->nhosts; i++)
		for (size_t j = 0; c->hosts[i] != NULL && j < c->hosts[i]->n; j++)
			memcpy(all[k++], c->hosts[i]->pairs[j].key, KEY_MAX);
	qsort(all, total, KEY_MAX, key_cmp);
	for (size_t j = 0; j < total; j++) {
		if (j > 0 && strcmp(all[j], all[j - 1]) == 0)
			continue;
		const char *ref = value_of(c->hosts[first], all[j]);
		for (size_t i = first + 1; i < c->nhosts; i++)
			if (c->hosts[i] != NULL &&
			    strcmp(value_of(c->hosts[i], all[j]), ref) != 0) {
				memcpy(c->diffs[c->ndiffs++], all[j], KEY_MAX);
				break;
			}
	}
	free(all);
	return 0;
}

/* True when hosts a and b have the same value for every differing key. */
static bool same_group(const struct labident_cmp *c, size_t a, size_t b)
{
	for (size_t k = 0; k < c->ndiffs; k++)
		if (strcmp(value_of(c->hosts[a], c->diffs[k]),
			   value_of(c->hosts[b], c->diffs[k])) != 0)
			return false;
	return true;
}

struct labident_cmp *labident_compare(struct labident *const *hosts, const char *const *names,
				      size_t n, struct errbuf *eb)
{
	struct labident_cmp *c = calloc(1, sizeof(*c));
	size_t *rep = NULL; /* the first host of each group */

	if (c == NULL || (c->group = calloc(n ? n : 1, sizeof(*c->group))) == NULL ||
	    (rep = calloc(n ? n : 1, sizeof(*rep))) == NULL)
		goto oom;
	c->nhosts = n;
	c->hosts = hosts;
	c->names = names;
	if (find_diffs(c) < 0)
		goto oom;
	for (size_t i = 0; i < n; i++) {
		size_t g;
		if (hosts[i] == NULL)
			continue;
		for (g = 0; g < c->ngroups && !same_group(c, rep[g], i); g++)
			;
		if (g == c->ngroups)
			rep[c->ngroups++] = i;
		c->group[i] = (unsigned)g + 1;
	}
	free(rep);
	return c;
oom:
	free(rep);
	labident_cmp_free(c);
	errbuf_set(eb, "out of memory");
	return NULL;
}

void labident_cmp_free(struct labident_cmp *c)
{
	if (c == NULL)
		return;
	free(c->diffs);
	free(c->group);
	free(c);
}

size_t labident_cmp_ndiffs(const struct labident_cmp *c)
{
	return c->ndiffs;
}

size_t labident_cmp_ngroups(const struct labident_cmp *c)
{
	return c->ngroups;
}

unsigned labident_cmp_group(const struct labident_cmp *c, size_t i)
{
	return i < c->nhosts ? c->group[i] : 0;
}

/* The first host of group g (1-based). */
static size_t group_rep(const struct labident_cmp *c, unsigned g)
{
	for (size_t i = 0; i < c->nhosts; i++)
		if (c->group[i] == g)
			return i;
	return 0;
}

void labident_cmp_print(const struct labident_cmp *c, FILE *f, size_t names_max)
{
	for (size_t k = 0; k < c->ndiffs; k++) {
		fprintf(f, "  %s:\n", c->diffs[k]);
		/* one line per distinct value, in the order of the groups that have it */
		for (unsigned g = 1; g <= c->ngroups; g++) {
			const char *v = value_of(c->hosts[group_rep(c, g)], c->diffs[k]);
			size_t shown = 0, more = 0;
			bool seen = false;
			for (unsigned h = 1; h < g && !seen; h++)
				seen = strcmp(value_of(c->hosts[group_rep(c, h)], c->diffs[k]),
					      v) == 0;
			if (seen)
				continue;
			fprintf(f, "    %-24s", v);
			for (size_t i = 0; i < c->nhosts; i++) {
				if (c->hosts[i] == NULL ||
				    strcmp(value_of(c->hosts[i], c->diffs[k]), v))
					continue;
				if (shown < names_max) {
					fprintf(f, " %s", c->names[i]);
					shown++;
				} else {
					more++;
				}
			}
			if (more > 0)
				fprintf(f, " and %zu more", more);
			fputc('\n', f);
		}
	}
}

char *labident_cmp_json(const struct labident_cmp *c)
{
	cJSON *root = cJSON_CreateObject(), *diffs, *groups;
	char *text = NULL, gname[16];

	if (root == NULL || cJSON_AddBoolToObject(root, "identical", c->ndiffs == 0) == NULL ||
	    (diffs = cJSON_AddArrayToObject(root, "differs")) == NULL ||
	    (groups = cJSON_AddArrayToObject(root, "groups")) == NULL)
		goto out;
	for (size_t k = 0; k < c->ndiffs; k++)
		if (!cJSON_AddItemToArray(diffs, cJSON_CreateString(c->diffs[k]))) /* adopted */
			goto out;
	for (unsigned g = 1; g <= c->ngroups; g++) {
		cJSON *grp = cJSON_CreateObject(), *hosts, *values;
		size_t r = group_rep(c, g);
		if (grp == NULL || !cJSON_AddItemToArray(groups, grp)) { /* adopted by groups */
			cJSON_Delete(grp);
			goto out;
		}
		snprintf(gname, sizeof(gname), "g%u", g);
		if (cJSON_AddStringToObject(grp, "group", gname) == NULL ||
		    (hosts = cJSON_AddArrayToObject(grp, "hosts")) == NULL ||
		    (values = cJSON_AddObjectToObject(grp, "values")) == NULL)
			goto out;
		for (size_t i = 0; i < c->nhosts; i++)
			if (c->group[i] == g &&
			    !cJSON_AddItemToArray(hosts, cJSON_CreateString(c->names[i])))
				goto out;
		for (size_t k = 0; k < c->ndiffs; k++)
			if (cJSON_AddStringToObject(values, c->diffs[k],
						    value_of(c->hosts[r], c->diffs[k])) == NULL)
				goto out;
	}
	text = cJSON_PrintUnformatted(root);
out:
	cJSON_Delete(root);
	return text;
}
