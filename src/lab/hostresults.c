/* hostresults: walk a mapped results.json with jsonspan; only each result's parameters are parsed.
 */
#include "hostresults.h"
#include "jsonget.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cJSON.h>

#include "fileio.h"
#include "jsonspan.h"
#include "resultsfile.h"

/* A read-only mapping of a whole regular file. */
struct mapped {
	void *base;
	size_t len;
};

static int map_file(const char *path, struct mapped *m, struct errbuf *eb)
{
	struct stat st;
	int fd;

	m->base = NULL;
	m->len = 0;
	/* O_NONBLOCK: a FIFO put in the file's place must not block the open */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return errbuf_set_errno(eb, errno, "cannot open");
	if (fstat(fd, &st) < 0) {
		close(fd);
		return errbuf_set_errno(eb, errno, "cannot stat");
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return errbuf_set(eb, "not a regular file");
	}
	if (st.st_size > HOSTRESULTS_MAX_BYTES) {
		close(fd);
		return errbuf_set(eb, "larger than %ld bytes", HOSTRESULTS_MAX_BYTES);
	}
	m->len = (size_t)st.st_size;
	if (m->len > 0) {
		m->base = mmap(NULL, m->len, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m->base == MAP_FAILED) {
			m->base = NULL;
			close(fd);
			return errbuf_set_errno(eb, errno, "mmap");
		}
	}
	close(fd);
	return 0;
}

static void unmap_file(struct mapped *m)
{
	if (m->base != NULL)
		munmap(m->base, m->len);
	m->base = NULL;
}

enum walk_mode { WALK_CHECK, WALK_RESULTS, WALK_META, WALK_REFERENCE };

/* One walk over a file: what it does with what it finds. */
struct walk {
	enum walk_mode mode;
	FILE *out;
	const char *host;
	bool *first;
	const char *open; /* written before the first result of all (*first set), or NULL */
	struct hostresults_counts counts;
	struct errbuf reject; /* why the first rejected result was */
};

/*
 * The parameters of one result, with every host key removed and host added.
 * NULL (and why in reject) when they are not a small object cJSON accepts.
 */
static cJSON *rewrite_params(struct jsonspan v, const char *host, struct errbuf *reject)
{
	cJSON *p;

	if (v.p[0] != '{' || v.len > HOSTRESULTS_PARAMS_MAX_BYTES) {
		errbuf_set(reject, "\"parameters\" is not an object of at most %d bytes",
			   HOSTRESULTS_PARAMS_MAX_BYTES);
		return NULL;
	}
	p = cJSON_ParseWithLength(v.p, v.len);
	if (p == NULL) {
		errbuf_set(reject, "\"parameters\" cannot be read");
		return NULL;
	}
	/* A subject's name becomes rarplot's file names: a host's that could walk out of an
	 * output directory never reaches merged.json (fit's reader refuses it too). */
	if (cJSON_IsString(jsonget_member(p, "subject")) &&
	    !fileio_name_is_plain(jsonget_member(p, "subject")->valuestring)) {
		cJSON_Delete(p);
		errbuf_set(reject, "parameters.subject: holds '/', '..' or a control byte");
		return NULL;
	}
	/* a duplicated key is kept twice by cJSON: remove them all */
	while (jsonget_member(p, "host") != NULL)
		cJSON_DeleteItemFromObjectCaseSensitive(p, "host");
	if (cJSON_AddStringToObject(p, "host", host) == NULL) {
		cJSON_Delete(p);
		errbuf_set(reject, "out of memory");
		return NULL;
	}
	return p;
}

/*
 * Checks result r: an object with at most one usable "parameters". Returns
 * 1 when usable (*params: the rewritten parameters, or NULL when it has
 * none; the caller frees), 0 when rejected (w->reject says why), -1 on
 * invalid JSON.
 */
static int check_result(struct walk *w, struct jsonspan r, size_t index, cJSON **params,
			struct errbuf *eb)
{
	struct jsonspan_iter it;
	struct jsonspan k, v;
	struct errbuf why = {{0}};
	size_t nparams = 0;
	int rc;

	*params = NULL;
	if (r.p[0] != '{') {
		errbuf_set(&why, "result %zu is not an object", index);
		goto reject;
	}
	if (jsonspan_walk(&it, r, 2, eb) < 0)
		return -1;
	while ((rc = jsonspan_next(&it, &k, &v, eb)) == JSONSPAN_MEMBER) {
		if (!jsonspan_string_is(k, "parameters"))
			continue;
		if (++nparams > 1) {
			errbuf_set(&why, "result %zu has more than one \"parameters\"", index);
			goto reject;
		}
		*params = rewrite_params(v, w->host, &why);
		if (*params == NULL) {
			errbuf_prefix(&why, "result %zu", index);
			goto reject;
		}
	}
	if (rc < 0) {
		cJSON_Delete(*params);
		*params = NULL;
		return -1;
	}
	return 1;
reject:
	cJSON_Delete(*params);
	*params = NULL;
	if (w->counts.rejected++ == 0)
		w->reject = why;
	return 0;
}

/* Writes result r (checked) with its parameters replaced by params. */
static int write_result(struct walk *w, struct jsonspan r, cJSON *params, struct errbuf *eb)
{
	struct jsonspan_iter it;
	struct jsonspan k, v;
	FILE *f = w->out;
	char *text = NULL;
	bool sep = false;
	int rc;

	if (!*w->first)
		fputs(",\n", f);
	else if (w->open != NULL)
		fputs(w->open, f);
	*w->first = false;
	text = params != NULL ? cJSON_PrintUnformatted(params) : NULL;
	if (params != NULL && text == NULL)
		return errbuf_set(eb, "out of memory");
	fputc('{', f);
	if (jsonspan_walk(&it, r, 2, eb) < 0) {
		cJSON_free(text);
		return -1;
	}
	while ((rc = jsonspan_next(&it, &k, &v, eb)) == JSONSPAN_MEMBER) {
		if (sep)
			fputc(',', f);
		sep = true;
		if (jsonspan_string_is(k, "parameters")) {
			fprintf(f, "\"parameters\":%s", text);
			continue;
		}
		jsonspan_write_compact(f, k);
		fputc(':', f);
		jsonspan_write_compact(f, v);
	}
	cJSON_free(text);
	if (rc < 0)
		return -1;
	if (params == NULL) {
		cJSON *only = cJSON_CreateObject();
		char *t = NULL;
		if (only == NULL || cJSON_AddStringToObject(only, "host", w->host) == NULL ||
		    (t = cJSON_PrintUnformatted(only)) == NULL) {
			cJSON_Delete(only);
			return errbuf_set(eb, "out of memory");
		}
		fprintf(f, "%s\"parameters\":%s", sep ? "," : "", t);
		cJSON_free(t);
		cJSON_Delete(only);
	}
	fputc('}', f);
	return ferror(f) ? errbuf_set(eb, "write error") : 0;
}

/* Checks each result of the array arr (at nesting depth) and, in WALK_RESULTS or
 * WALK_REFERENCE, writes it. 0 or -1. */
static int walk_results(struct walk *w, struct jsonspan arr, int depth, struct errbuf *eb)
{
	struct jsonspan_iter it;
	struct jsonspan k, v;
	int rc;

	if (jsonspan_walk(&it, arr, depth, eb) < 0)
		return -1;
	for (size_t index = 0; (rc = jsonspan_next(&it, &k, &v, eb)) == JSONSPAN_MEMBER; index++) {
		cJSON *params = NULL;
		int usable = check_result(w, v, index, &params, eb);
		if (usable < 0)
			return -1;
		if (usable == 0)
			continue;
		w->counts.results++;
		if (w->mode != WALK_CHECK && write_result(w, v, params, eb) < 0) {
			cJSON_Delete(params);
			return -1;
		}
		cJSON_Delete(params);
	}
	return rc < 0 ? -1 : 0;
}

/* WALK_REFERENCE: the results array of the top-level reference object ref (rarbench's
 * calibration workload), if it is one; anything else there is left out. 0 or -1. */
static int walk_reference(struct walk *w, struct jsonspan ref, struct errbuf *eb)
{
	struct jsonspan_iter it;
	struct jsonspan k, v, arr = {0};
	int rc;

	if (ref.p == NULL || ref.p[0] != '{')
		return 0;
	if (jsonspan_walk(&it, ref, 1, eb) < 0)
		return -1;
	while ((rc = jsonspan_next(&it, &k, &v, eb)) == JSONSPAN_MEMBER)
		if (jsonspan_string_is(k, RESULTSFILE_RESULTS) && arr.p == NULL)
			arr = v;
	if (rc < 0)
		return -1;
	if (arr.p == NULL || arr.p[0] != '[')
		return 0;
	return walk_results(w, arr, 2, eb);
}

/* Walks the document text[0..len) as w->mode says. */
static int walk_text(struct walk *w, const char *text, size_t len, struct errbuf *eb)
{
	struct jsonspan doc = jsonspan_trim(text, len), k, v, results = {0}, meta = {0};
	struct jsonspan reference = {0};
	struct jsonspan_iter it;
	int rc;

	if (doc.len == 0 || doc.p[0] != '{')
		return errbuf_set(eb, "not a JSON object");
	if (jsonspan_walk(&it, doc, 0, eb) < 0)
		return -1;
	while ((rc = jsonspan_next(&it, &k, &v, eb)) == JSONSPAN_MEMBER) {
		if (jsonspan_string_is(k, RESULTSFILE_RESULTS)) {
			if (results.p != NULL)
				return errbuf_set(eb, "more than one \"results\"");
			results = v;
		} else if (jsonspan_string_is(k, RESULTSFILE_META)) {
			if (meta.p != NULL)
				return errbuf_set(eb, "more than one \"meta\"");
			meta = v;
		} else if (jsonspan_string_is(k, RESULTSFILE_REFERENCE) && reference.p == NULL) {
			reference = v;
		}
	}
	if (rc < 0)
		return -1;
	if (results.p == NULL || results.p[0] != '[')
		return errbuf_set(eb, "no \"results\" array");
	if (w->mode == WALK_META) {
		cJSON *name = cJSON_CreateString(w->host);
		char *t = name ? cJSON_PrintUnformatted(name) : NULL;
		cJSON_Delete(name);
		if (t == NULL)
			return errbuf_set(eb, "out of memory");
		if (meta.p != NULL) {
			fprintf(w->out, "%s%s:", *w->first ? "" : ",", t);
			*w->first = false;
			jsonspan_write_compact(w->out, meta);
		}
		cJSON_free(t);
		return ferror(w->out) ? errbuf_set(eb, "write error") : 0;
	}
	if (w->mode == WALK_REFERENCE)
		return walk_reference(w, reference, eb);
	return walk_results(w, results, 1, eb);
}

static int walk_file(struct walk *w, const char *path, struct errbuf *eb)
{
	struct mapped m;
	int rc;

	if (map_file(path, &m, eb) < 0)
		return -1;
	rc = walk_text(w, m.base != NULL ? m.base : "", m.len, eb);
	unmap_file(&m);
	return rc;
}

int hostresults_check(const char *path, struct hostresults_counts *counts, struct errbuf *eb)
{
	struct walk w = {.mode = WALK_CHECK, .host = "-"};
	int rc = walk_file(&w, path, eb);

	*counts = w.counts;
	if (rc < 0)
		return -1;
	if (w.counts.rejected > 0) {
		if (w.counts.rejected > 1)
			return errbuf_set(eb, "%s (and %zu more rejected)", w.reject.msg,
					  w.counts.rejected - 1);
		return errbuf_set(eb, "%s", w.reject.msg);
	}
	return 0;
}

int hostresults_write(FILE *f, const char *path, const char *host, bool *first,
		      struct hostresults_counts *counts, struct errbuf *eb)
{
	struct walk w = {.mode = WALK_RESULTS, .out = f, .host = host, .first = first};
	int rc = walk_file(&w, path, eb);

	*counts = w.counts;
	return rc;
}

int hostresults_write_meta(FILE *f, const char *path, const char *host, bool *first,
			   struct errbuf *eb)
{
	struct walk w = {.mode = WALK_META, .out = f, .host = host, .first = first};

	return walk_file(&w, path, eb);
}

int hostresults_write_reference(FILE *f, const char *path, const char *host, const char *open,
				bool *first, struct errbuf *eb)
{
	struct walk w = {
	    .mode = WALK_REFERENCE, .out = f, .host = host, .first = first, .open = open};

	return walk_file(&w, path, eb);
}
