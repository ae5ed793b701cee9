/* jsonget: bounded, path-aware getters over a cJSON tree with one error wording (jsonget.h). */
#include "jsonget.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *jsonget_type_name(const cJSON *j)
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

void jsonget_child(char *out, const char *parent, const char *key)
{
	/* Truncation is fine here: the path only names the place in a message. */
	if (snprintf(out, JSONGET_PATH_MAX_CHARS, "%s%s%s", parent, parent[0] ? "." : "", key) >=
	    JSONGET_PATH_MAX_CHARS)
		out[JSONGET_PATH_MAX_CHARS - 1] = '\0';
}

void jsonget_index(char *out, const char *parent, size_t i)
{
	if (snprintf(out, JSONGET_PATH_MAX_CHARS, "%s[%zu]", parent, i) >= JSONGET_PATH_MAX_CHARS)
		out[JSONGET_PATH_MAX_CHARS - 1] = '\0';
}

int jsonget_fail(struct errbuf *eb, const char *path, const char *fmt, ...)
{
	char msg[ERRBUF_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return errbuf_set(eb, "%s: %s", path, msg);
}

int jsonget_as_uint(const cJSON *j, const char *path, double lo, double hi, uint64_t *out,
		    struct errbuf *eb)
{
	double d;

	if (!cJSON_IsNumber(j))
		return jsonget_fail(eb, path, "expected an integer, got %s", jsonget_type_name(j));
	d = j->valuedouble;
	if (!(d == floor(d)))
		return jsonget_fail(eb, path, "expected an integer, got %g", d);
	if (d < lo || d > hi)
		return jsonget_fail(eb, path, "%.0f is out of range (%.0f to %.0f)", d, lo, hi);
	*out = (uint64_t)d;
	return 0;
}

int jsonget_as_double(const cJSON *j, const char *path, double lo, double hi, double *out,
		      struct errbuf *eb)
{
	if (!cJSON_IsNumber(j))
		return jsonget_fail(eb, path, "expected a number, got %s", jsonget_type_name(j));
	/* cJSON reads 1e999 as inf: no bound admits it. */
	if (!(j->valuedouble >= lo && j->valuedouble <= hi) || !isfinite(j->valuedouble))
		return jsonget_fail(eb, path, "%g is out of range (%g to %g)", j->valuedouble, lo,
				    hi);
	*out = j->valuedouble;
	return 0;
}

int jsonget_as_string(const cJSON *j, const char *path, size_t max, const char **out,
		      struct errbuf *eb)
{
	if (!cJSON_IsString(j))
		return jsonget_fail(eb, path, "expected a string, got %s", jsonget_type_name(j));
	if (j->valuestring[0] == '\0')
		return jsonget_fail(eb, path, "must not be empty");
	if (strnlen(j->valuestring, max + 1) > max)
		return jsonget_fail(eb, path, "longer than %zu bytes", max);
	*out = j->valuestring;
	return 0;
}

cJSON *jsonget_member(const cJSON *obj, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(obj, key);
}

/* A member looked up: its item (NULL when absent) and its path for messages. */
struct member {
	const cJSON *item;
	char path[JSONGET_PATH_MAX_CHARS];
};

/* What member_or_missing found. */
enum member_found {
	MEMBER_MISSING, /* absent and required: eb says "a NOUN is required" */
	MEMBER_ABSENT,  /* absent and optional: nothing to read, the caller's value stays */
	MEMBER_PRESENT  /* in m, to be read */
};

/* obj.key into *m. */
static enum member_found member_or_missing(const cJSON *obj, const char *path, const char *key,
					   enum jsonget_need need, const char *noun,
					   struct member *m, struct errbuf *eb)
{
	m->item = jsonget_member(obj, key);
	jsonget_child(m->path, path, key);
	if (m->item != NULL)
		return MEMBER_PRESENT;
	if (need == JSONGET_REQUIRED) {
		jsonget_fail(eb, m->path, "missing (%s is required)", noun);
		return MEMBER_MISSING;
	}
	return MEMBER_ABSENT;
}

int jsonget_uint(const cJSON *obj, const char *path, const char *key, enum jsonget_need need,
		 double lo, double hi, uint64_t *out, struct errbuf *eb)
{
	struct member m;
	enum member_found found = member_or_missing(obj, path, key, need, "an integer", &m, eb);

	if (found == MEMBER_PRESENT)
		return jsonget_as_uint(m.item, m.path, lo, hi, out, eb);
	return found == MEMBER_ABSENT ? 0 : -1;
}

int jsonget_u32(const cJSON *obj, const char *path, const char *key, enum jsonget_need need,
		uint32_t *out, struct errbuf *eb)
{
	uint64_t v = *out;

	if (jsonget_uint(obj, path, key, need, 0, UINT32_MAX, &v, eb) < 0)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int jsonget_double(const cJSON *obj, const char *path, const char *key, enum jsonget_need need,
		   double lo, double hi, double *out, struct errbuf *eb)
{
	struct member m;
	enum member_found found = member_or_missing(obj, path, key, need, "a number", &m, eb);

	if (found == MEMBER_PRESENT)
		return jsonget_as_double(m.item, m.path, lo, hi, out, eb);
	return found == MEMBER_ABSENT ? 0 : -1;
}

int jsonget_string(const cJSON *obj, const char *path, const char *key, enum jsonget_need need,
		   size_t max, const char **out, struct errbuf *eb)
{
	struct member m;
	enum member_found found = member_or_missing(obj, path, key, need, "a string", &m, eb);

	if (found == MEMBER_PRESENT)
		return jsonget_as_string(m.item, m.path, max, out, eb);
	return found == MEMBER_ABSENT ? 0 : -1;
}
