/* manifest_json: the manifest's JSON accessors: jsonget's checks, every problem kept with the
 * source file. */
#include "growbuf.h"
#include "jsonget.h"
#include "manifest_impl.h"
#include "sanitize.h"
#include "suggest.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Records line ("PATH: message", jsonget's wording) as "SOURCE: PATH: message". -1. */
int manifest_problem(struct manifest_ctx *c, const char *line)
{
	struct errbuf full, ignored;

	errbuf_set(&full, "%s: %s", c->source, line);
	if (c->nproblems == 0)
		*c->eb = full;
	/* Kept for the caller that lists them all (bounded: the first ones say enough). */
	if (c->nproblems < MANIFEST_PROBLEMS_MAX &&
	    growarray(&c->problems, &c->problems_cap, c->nproblems + 1, sizeof(*c->problems),
		      MANIFEST_PROBLEMS_MAX, &ignored) == 0) {
		c->problems[c->nproblems] = strdup(full.msg);
		if (c->problems[c->nproblems] != NULL)
			c->nproblems++;
	}
	return -1;
}

/* Every error is "SOURCE: PATH: message" on one line. */
int manifest_fail(struct manifest_ctx *c, const char *path, const char *fmt, ...)
{
	char msg[ERRBUF_MSG_MAX];
	struct errbuf line;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	jsonget_fail(&line, path, "%s", msg);
	return manifest_problem(c, line.msg);
}

void manifest_keep_last_problem(struct manifest_ctx *c, size_t since)
{
	if (c->nproblems <= since)
		return;
	errbuf_set(c->eb, "%s", c->problems[c->nproblems - 1]);
	for (size_t i = since; i + 1 < c->nproblems; i++)
		free(c->problems[i]);
	c->problems[since] = c->problems[c->nproblems - 1];
	c->nproblems = since + 1;
}

/* A user string shown in a message: its first 40 bytes made safe (sanitize), "..." after. */
const char *manifest_shown(const char *s, char buf[48])
{
	size_t len = strnlen(s, 41), n;

	n = sanitize_text(buf, 41, s, len > 40 ? 40 : len);
	if (len > 40 || n >= 40)
		memcpy(buf + (n < 37 ? n : 37), "...", 4);
	return buf;
}

const char *manifest_type_name(const cJSON *j)
{
	return jsonget_type_name(j);
}

void manifest_child_path(char *out, const char *parent, const char *key)
{
	jsonget_child(out, parent, key);
}

void manifest_index_path(char *out, const char *parent, size_t i)
{
	jsonget_index(out, parent, i);
}

/* Refuses keys not in allowed (NULL-terminated) and duplicate keys. */
int manifest_check_keys(struct manifest_ctx *c, const cJSON *obj, const char *path,
			const char *const *allowed)
{
	const cJSON *it, *prev;
	char p[MANIFEST_PATH_MAX_CHARS], b[48];
	int bad = 0;
	size_t i;

	cJSON_ArrayForEach(it, obj)
	{
		for (i = 0; allowed[i] != NULL; i++)
			if (strcmp(allowed[i], it->string) == 0)
				break;
		manifest_child_path(p, path, manifest_shown(it->string, b));
		if (allowed[i] == NULL) {
			const char *near = suggest_nearest(it->string, allowed);

			/* every one, not the first; the nearest allowed key when it looks like a
			 * typo */
			if (near != NULL)
				bad =
				    manifest_fail(c, p, "unknown key (did you mean \"%s\"?)", near);
			else
				bad = manifest_fail(c, p, "unknown key");
			continue;
		}
		for (prev = obj->child; prev != it; prev = prev->next)
			if (strcmp(prev->string, it->string) == 0) {
				bad = manifest_fail(c, p, "duplicate key");
				break;
			}
	}
	return bad;
}

/* *out is a new copy of the string at obj.key, or NULL when absent and !required. */
int manifest_get_string(struct manifest_ctx *c, const cJSON *obj, const char *path, const char *key,
			bool required, char **out)
{
	struct errbuf eb;
	const char *v = NULL;
	char p[MANIFEST_PATH_MAX_CHARS];

	*out = NULL;
	if (jsonget_string(obj, path, key, required ? JSONGET_REQUIRED : JSONGET_OPTIONAL,
			   MANIFEST_STRING_MAX, &v, &eb) < 0)
		return manifest_problem(c, eb.msg);
	if (v == NULL)
		return 0;
	*out = strdup(v);
	if (*out == NULL) {
		manifest_child_path(p, path, key);
		return manifest_fail(c, p, "out of memory");
	}
	return 0;
}

/* An integer in [lo, hi] at j (path names it). */
int manifest_as_uint(struct manifest_ctx *c, const cJSON *j, const char *p, double lo, double hi,
		     uint64_t *out)
{
	struct errbuf eb;

	return jsonget_as_uint(j, p, lo, hi, out, &eb) < 0 ? manifest_problem(c, eb.msg) : 0;
}

int manifest_get_uint(struct manifest_ctx *c, const cJSON *obj, const char *path, const char *key,
		      double lo, double hi, uint64_t *out)
{
	struct errbuf eb;

	if (jsonget_uint(obj, path, key, JSONGET_OPTIONAL, lo, hi, out, &eb) < 0)
		return manifest_problem(c, eb.msg);
	return 0;
}

/* The value whose name(i) is the string at obj.key; absent keeps *out. */
int manifest_get_enum(struct manifest_ctx *c, const cJSON *obj, const char *path, const char *key,
		      const char *(*name)(int), int n, int *out)
{
	const cJSON *j = jsonget_member(obj, key);
	char p[MANIFEST_PATH_MAX_CHARS], b[48], expected[128] = "";
	size_t len = 0;
	int i;

	if (j == NULL)
		return 0;
	manifest_child_path(p, path, key);
	if (!cJSON_IsString(j))
		return manifest_fail(c, p, "expected a string, got %s", manifest_type_name(j));
	for (i = 0; i < n; i++) {
		if (strcmp(j->valuestring, name(i)) == 0) {
			*out = i;
			return 0;
		}
		len += (size_t)snprintf(expected + len, sizeof(expected) - len, "%s%s",
					i ? ", " : "", name(i));
		if (len >= sizeof(expected))
			len = sizeof(expected) - 1;
	}
	{
		const char *names[33], *near;

		for (i = 0; i < n && i < 32; i++)
			names[i] = name(i);
		names[i] = NULL;
		near = suggest_nearest(j->valuestring, names);
		if (near != NULL)
			return manifest_fail(c, p, "unknown %s \"%s\" (did you mean \"%s\"?)", key,
					     manifest_shown(j->valuestring, b), near);
	}
	return manifest_fail(c, p, "unknown %s \"%s\" (expected %s)", key,
			     manifest_shown(j->valuestring, b), expected);
}
