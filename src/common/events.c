/* events: split rarbench's progress stream into lines and parse each into a struct events_event. */
#include "events.h"
#include "jsonbudget.h"
#include "growbuf.h"
#include "jsonget.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

struct events_reader {
	/* The current partial line, capped at EVENTS_LINE_MAX_BYTES. A partial line is rare:
	 * a reader holds no memory but while one is pending. */
	struct growbuf line;
	unsigned long lines;
	bool failed, saw_done;
};

static void copy_text(char *dst, size_t cap, const char *src)
{
	snprintf(dst, cap, "%s", src);
}

/* A top-level field as a uint32 (jsonget's wording, "done: -1 is out of range (0 to 4294967295)").
 */
static int get_u32(const cJSON *obj, const char *key, uint32_t *out, bool required,
		   struct errbuf *eb)
{
	return jsonget_u32(obj, "", key, required ? JSONGET_REQUIRED : JSONGET_OPTIONAL, out, eb);
}

static int parse_params(const cJSON *params, struct events_event *ev, struct errbuf *eb)
{
	const cJSON *it;
	size_t len = 0;

	if (params == NULL)
		return 0;
	if (!cJSON_IsObject(params))
		return errbuf_set(eb, "field \"params\" must be an object");
	cJSON_ArrayForEach(it, params)
	{
		int n;
		if (!cJSON_IsString(it))
			return errbuf_set(eb, "params.%s must be a string", it->string);
		n = snprintf(ev->text + len, sizeof(ev->text) - len, "%s%s=%s", len ? " " : "",
			     it->string, it->valuestring);
		if (n < 0 || (size_t)n >= sizeof(ev->text) - len) {
			len = sizeof(ev->text) - 1;
			break;
		}
		len += (size_t)n;
	}
	return 0;
}

static bool is_sha256_hex(const char *s)
{
	size_t i;

	for (i = 0; s[i] != '\0'; i++)
		if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
			return false;
	return i == 64;
}

static int parse_done(const cJSON *root, struct events_event *ev, struct errbuf *eb)
{
	const cJSON *files = jsonget_member(root, "files"), *it;
	uint64_t status = 0;

	if (jsonget_uint(root, "", "status", JSONGET_REQUIRED, 0, 255, &status, eb) < 0)
		return errbuf_prefix(eb, "done");
	ev->status = (int)status;
	/* not in rarbench's event; rarlab's done.json records the points with them */
	if (get_u32(root, "done", &ev->done, false, eb) < 0 ||
	    get_u32(root, "total", &ev->total, false, eb) < 0)
		return -1;
	if (files == NULL)
		return 0;
	if (!cJSON_IsObject(files))
		return errbuf_set(eb, "done: field \"files\" must be an object");
	cJSON_ArrayForEach(it, files)
	{
		if (!cJSON_IsString(it) || !is_sha256_hex(it->valuestring))
			return errbuf_set(eb, "done: files.%.60s must be a SHA-256 hex string",
					  it->string);
		if (strlen(it->string) >= sizeof(ev->files[0].name) || strchr(it->string, '/') ||
		    it->string[0] == '\0' || it->string[0] == '.')
			return errbuf_set(eb, "done: bad file name '%.60s'", it->string);
		if (ev->nfiles >= EVENTS_FILES_MAX)
			return errbuf_set(eb, "done: more than %d files", EVENTS_FILES_MAX);
		copy_text(ev->files[ev->nfiles].name, sizeof(ev->files[0].name), it->string);
		copy_text(ev->files[ev->nfiles].sha256, sizeof(ev->files[0].sha256),
			  it->valuestring);
		ev->nfiles++;
	}
	return 0;
}

int events_parse_line(const char *line, size_t len, struct events_event *ev, struct errbuf *eb)
{
	cJSON *root = NULL;
	const cJSON *kind, *t, *it;
	int rc = -1;

	memset(ev, 0, sizeof(*ev));
	ev->eta_s = -1;
	if (len > EVENTS_LINE_MAX_BYTES)
		return errbuf_set(eb, "line longer than %d bytes", EVENTS_LINE_MAX_BYTES);
	/* its tree within 4 times its size (jsonbudget.h; issue 52, finding 7) */
	if (jsonbudget_check(line, len, "event", eb) < 0)
		goto out;
	root = cJSON_ParseWithLength(line, len);
	if (root == NULL || !cJSON_IsObject(root)) {
		errbuf_set(eb, "not a JSON object");
		goto out;
	}
	kind = jsonget_member(root, "event");
	t = jsonget_member(root, "t");
	if (!cJSON_IsString(kind) || !cJSON_IsNumber(t) || !isfinite(t->valuedouble)) {
		errbuf_set(eb, "event without a string \"event\" and a number \"t\"");
		goto out;
	}
	ev->t = t->valuedouble;
	if (strcmp(kind->valuestring, EVENTS_NAME_START) == 0) {
		ev->kind = EVENTS_START;
		it = jsonget_member(root, "name");
		if (cJSON_IsString(it))
			copy_text(ev->text, sizeof(ev->text), it->valuestring);
		if (get_u32(root, "total", &ev->total, true, eb) < 0 ||
		    get_u32(root, "done", &ev->done, false, eb) < 0)
			goto out;
	} else if (strcmp(kind->valuestring, EVENTS_NAME_SKIP_SUBJECT) == 0) {
		const cJSON *reason = jsonget_member(root, "reason");
		ev->kind = EVENTS_SKIP_SUBJECT;
		it = jsonget_member(root, "subject");
		snprintf(ev->text, sizeof(ev->text), "%s: %s",
			 cJSON_IsString(it) ? it->valuestring : "?",
			 cJSON_IsString(reason) ? reason->valuestring : "skipped");
	} else if (strcmp(kind->valuestring, EVENTS_NAME_POINT_START) == 0) {
		ev->kind = EVENTS_POINT_START;
		if (get_u32(root, "index", &ev->index, true, eb) < 0 ||
		    get_u32(root, "total", &ev->total, false, eb) < 0 ||
		    parse_params(jsonget_member(root, "params"), ev, eb) < 0)
			goto out;
	} else if (strcmp(kind->valuestring, EVENTS_NAME_POINT_DONE) == 0) {
		ev->kind = EVENTS_POINT_DONE;
		if (get_u32(root, "index", &ev->index, false, eb) < 0 ||
		    get_u32(root, "done", &ev->done, true, eb) < 0 ||
		    get_u32(root, "total", &ev->total, false, eb) < 0)
			goto out;
		it = jsonget_member(root, "eta_s");
		if (cJSON_IsNumber(it) && isfinite(it->valuedouble) && it->valuedouble >= 0)
			ev->eta_s = it->valuedouble;
	} else if (strcmp(kind->valuestring, EVENTS_NAME_ERROR) == 0) {
		ev->kind = EVENTS_ERROR;
		it = jsonget_member(root, "message");
		copy_text(ev->text, sizeof(ev->text), cJSON_IsString(it) ? it->valuestring : "?");
	} else if (strcmp(kind->valuestring, EVENTS_NAME_DONE) == 0) {
		ev->kind = EVENTS_DONE;
		if (parse_done(root, ev, eb) < 0)
			goto out;
	} else {
		ev->kind = EVENTS_UNKNOWN;
	}
	rc = 0;
out:
	cJSON_Delete(root);
	return rc;
}

struct events_reader *events_reader_new(void)
{
	struct events_reader *r = calloc(1, sizeof(*r));

	if (r == NULL)
		return NULL;
	growbuf_init(&r->line, EVENTS_LINE_MAX_BYTES);
	return r;
}

void events_reader_free(struct events_reader *r)
{
	if (r == NULL)
		return;
	growbuf_free(&r->line);
	free(r);
}

unsigned long events_lines(const struct events_reader *r)
{
	return r->lines;
}

static int emit(struct events_reader *r, const char *line, size_t len, events_cb cb, void *ctx,
		struct errbuf *eb)
{
	struct events_event ev;

	r->lines++;
	if (len > 0 && line[len - 1] == '\r')
		len--;
	if (len == 0)
		return 0;
	if (events_parse_line(line, len, &ev, eb) < 0) {
		r->failed = true;
		return errbuf_prefix(eb, "line %lu", r->lines);
	}
	if (ev.kind == EVENTS_DONE)
		r->saw_done = true;
	return cb ? cb(ctx, &ev) : 0;
}

int events_feed(struct events_reader *r, const char *data, size_t len, events_cb cb, void *ctx,
		struct errbuf *eb)
{
	if (r->failed)
		return errbuf_set(eb, "event stream already failed");
	while (len > 0) {
		const char *nl = memchr(data, '\n', len);
		size_t chunk = nl ? (size_t)(nl - data) : len;
		int rc;

		if (r->line.len + chunk > EVENTS_LINE_MAX_BYTES) {
			r->failed = true;
			return errbuf_set(eb, "line %lu: longer than %d bytes", r->lines + 1,
					  EVENTS_LINE_MAX_BYTES);
		}
		if (nl != NULL && r->line.len == 0) {
			rc = emit(r, data, chunk, cb, ctx, eb); /* a whole line: no copy */
		} else {
			if (growbuf_append(&r->line, data, chunk, eb) < 0) {
				r->failed = true;
				return -1;
			}
			if (nl == NULL)
				return 0;
			rc = emit(r, r->line.data, r->line.len, cb, ctx, eb);
			growbuf_free(&r->line);
		}
		if (rc != 0)
			return rc;
		data += chunk + 1;
		len -= chunk + 1;
	}
	return 0;
}

int events_finish(struct events_reader *r, events_cb cb, void *ctx, bool *saw_done,
		  struct errbuf *eb)
{
	int rc = 0;

	if (r->failed)
		return errbuf_set(eb, "event stream already failed");
	if (r->line.len > 0) {
		rc = emit(r, r->line.data, r->line.len, cb, ctx, eb);
		growbuf_free(&r->line);
	}
	if (saw_done != NULL)
		*saw_done = r->saw_done;
	return rc;
}
