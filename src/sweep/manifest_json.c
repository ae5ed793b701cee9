/* manifest_json: checked JSON accessors whose errors name the source file and the JSON path. */
#include "manifest_impl.h"
#include "sanitize.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every error is "SOURCE: PATH: message" on one line. */
int manifest_fail(struct manifest_ctx *c, const char *path, const char *fmt, ...)
{
	char msg[ERRBUF_MSG_MAX];
	va_list ap;

	struct errbuf line;
	char **grown;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	errbuf_set(&line, "%s: %s: %s", c->source, path, msg);
	if (c->nproblems == 0)
		*c->eb = line;
	/* Kept for the caller that lists them all (bounded: the first ones say enough). */
	if (c->nproblems < MANIFEST_PROBLEMS_MAX) {
		grown = realloc(c->problems, (c->nproblems + 1) * sizeof(*grown));
		if (grown != NULL) {
			c->problems = grown;
			c->problems[c->nproblems] = strdup(line.msg);
			if (c->problems[c->nproblems] != NULL)
				c->nproblems++;
		}
	}
	return -1;
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
	if (cJSON_IsString(j))
		return "a string";
	if (cJSON_IsNumber(j))
		return "a number";
	if (cJSON_IsBool(j))
		return "a boolean";
	if (cJSON_IsNull(j))
		return "null";
	if (cJSON_IsArray(j))
		return "an array";
	if (cJSON_IsObject(j))
		return "an object";
	return "invalid";
}

void manifest_child_path(char *out, const char *parent, const char *key)
{
	/* A path too long for the buffer is cut: it only names the place in a message. */
	if (snprintf(out, MANIFEST_PATH_MAX_CHARS, "%s.%s", parent, key) >= MANIFEST_PATH_MAX_CHARS)
		out[MANIFEST_PATH_MAX_CHARS - 1] = '\0';
}

void manifest_index_path(char *out, const char *parent, size_t i)
{
	if (snprintf(out, MANIFEST_PATH_MAX_CHARS, "%s[%zu]", parent, i) >= MANIFEST_PATH_MAX_CHARS)
		out[MANIFEST_PATH_MAX_CHARS - 1] = '\0';
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
			bad = manifest_fail(c, p, "unknown key"); /* every one, not the first */
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
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
	char p[MANIFEST_PATH_MAX_CHARS];

	*out = NULL;
	manifest_child_path(p, path, key);
	if (j == NULL) {
		if (required)
			return manifest_fail(c, p, "missing (a string is required)");
		return 0;
	}
	if (!cJSON_IsString(j))
		return manifest_fail(c, p, "expected a string, got %s", manifest_type_name(j));
	if (j->valuestring[0] == '\0')
		return manifest_fail(c, p, "must not be empty");
	if (strlen(j->valuestring) > MANIFEST_STRING_MAX)
		return manifest_fail(c, p, "longer than %d bytes", MANIFEST_STRING_MAX);
	*out = strdup(j->valuestring);
	if (*out == NULL)
		return manifest_fail(c, p, "out of memory");
	return 0;
}

/* An integer in [lo, hi] at j (path names it). */
int manifest_as_uint(struct manifest_ctx *c, const cJSON *j, const char *p, double lo, double hi,
		     uint64_t *out)
{
	double d;

	if (!cJSON_IsNumber(j))
		return manifest_fail(c, p, "expected an integer, got %s", manifest_type_name(j));
	d = j->valuedouble;
	if (!(d == floor(d)))
		return manifest_fail(c, p, "expected an integer, got %g", d);
	if (d < lo || d > hi)
		return manifest_fail(c, p, "%.0f is out of range (%.0f to %.0f)", d, lo, hi);
	*out = (uint64_t)d;
	return 0;
}

int manifest_get_uint(struct manifest_ctx *c, const cJSON *obj, const char *path, const char *key,
		      double lo, double hi, uint64_t *out)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
	char p[MANIFEST_PATH_MAX_CHARS];

	if (j == NULL)
		return 0; /* keep the default */
	manifest_child_path(p, path, key);
	return manifest_as_uint(c, j, p, lo, hi, out);
}

/* The value whose name(i) is the string at obj.key; absent keeps *out. */
int manifest_get_enum(struct manifest_ctx *c, const cJSON *obj, const char *path, const char *key,
		      const char *(*name)(int), int n, int *out)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
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
	return manifest_fail(c, p, "unknown %s \"%s\" (expected %s)", key,
			     manifest_shown(j->valuestring, b), expected);
}
