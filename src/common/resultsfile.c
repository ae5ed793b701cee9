/* resultsfile: the results file written, read and looked into by its keys (resultsfile.h). */
#include "resultsfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomicfile.h"
#include "fileio.h"
#include "growbuf.h"
#include "jsonget.h"
#include "jsonw.h"

cJSON *resultsfile_new(void)
{
	cJSON *doc = cJSON_CreateObject();

	/* doc adopts the array; without it the document is no results file. */
	if (doc != NULL && cJSON_AddArrayToObject(doc, RESULTSFILE_RESULTS) == NULL) {
		cJSON_Delete(doc);
		return NULL;
	}
	return doc;
}

cJSON *resultsfile_reference_new(const char *command, double units, cJSON *results)
{
	cJSON *obj = cJSON_CreateObject();

	/* obj adopts the strings and number made here, then results. */
	if (obj == NULL || results == NULL ||
	    cJSON_AddStringToObject(obj, RESULTSFILE_REFERENCE_COMMAND, command) == NULL ||
	    cJSON_AddNumberToObject(obj, RESULTSFILE_REFERENCE_UNITS, units) == NULL ||
	    !cJSON_AddItemToObject(obj, RESULTSFILE_RESULTS, results)) {
		cJSON_Delete(obj);
		cJSON_Delete(results);
		return NULL;
	}
	return obj;
}

cJSON *resultsfile_detach_results(cJSON *doc)
{
	return cJSON_DetachItemFromObjectCaseSensitive(doc, RESULTSFILE_RESULTS);
}

int resultsfile_write(const char *path, const cJSON *doc, struct errbuf *eb)
{
	struct growbuf b;
	struct jsonw w;
	int rc = -1;

	/* serde_json's pretty layout, as hyperfine writes it, and its final newline. */
	growbuf_init(&b, RESULTSFILE_MAX_BYTES);
	jsonw_init_buf(&w, &b);
	jsonw_cjson(&w, doc);
	if (jsonw_finish(&w) != 0)
		errbuf_set(eb, "printing the JSON export: %s", jsonw_error(&w));
	else if (growbuf_puts(&b, "\n", eb) == 0)
		rc = atomicfile_write(path, b.data, b.len, 0644, eb);
	growbuf_free(&b);
	return rc;
}

cJSON *resultsfile_parse(const char *buf, size_t len, const char *name, struct errbuf *eb)
{
	const char *end = NULL;
	cJSON *doc = cJSON_ParseWithLengthOpts(buf, len, &end, 0);

	if (doc == NULL) {
		const char *at = cJSON_GetErrorPtr();
		size_t off = at != NULL && at >= buf && at <= buf + len ? (size_t)(at - buf) : 0;

		errbuf_set(eb, "%s: not valid JSON (near byte %zu)", name, off);
		return NULL;
	}
	/* cJSON stops after the first value; anything but blanks after it is an error. */
	while (end != NULL && end < buf + len &&
	       (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r'))
		end++;
	if (end != NULL && end < buf + len && *end != '\0') {
		errbuf_set(eb, "%s: not valid JSON (trailing data at byte %zu)", name,
			   (size_t)(end - buf));
		cJSON_Delete(doc);
		return NULL;
	}
	return doc;
}

cJSON *resultsfile_parse_bounded(const char *buf, size_t len, const char *name, size_t keep_bytes,
				 struct jsonbudget *b, struct errbuf *eb)
{
	char *skeleton;
	cJSON *doc;

	if (jsonbudget_scan(buf, len, b) != 0 || !b->has_results || b->nresults == 0) {
		b->has_results = false;
		/* Unbalanced text: cJSON builds the tree up to where it fails, what was counted. */
		if (jsonbudget_refuse_over(name, len, b->cost, b->values, eb) < 0)
			return NULL;
		return resultsfile_parse(buf, len, name, eb);
	}
	/* the copy, what the caller keeps (the elements' strings within their text once more,
	 * and keep_bytes each), the rest's tree and one element's */
	if (jsonbudget_refuse_over(name, len,
				   2 * (uint64_t)len + (uint64_t)b->nresults * keep_bytes +
				       (b->cost - b->results_cost) + b->results_max_cost,
				   b->values, eb) < 0)
		return NULL;
	if ((skeleton = malloc(len)) == NULL) {
		errbuf_set(eb, "%s: out of memory", name);
		return NULL;
	}
	memcpy(skeleton, buf, len);
	memset(skeleton + b->results_open + 1, ' ', b->results_close - b->results_open - 1);
	doc = resultsfile_parse(skeleton, len, name, eb);
	free(skeleton);
	return doc;
}

static size_t skip_blanks(const char *buf, size_t i, size_t end)
{
	while (i < end && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' || buf[i] == '\r'))
		i++;
	return i;
}

cJSON *resultsfile_next_result(const char *buf, const struct jsonbudget *b, size_t k, size_t *pos,
			       const char *name, struct errbuf *eb)
{
	size_t close = b->results_close, i = *pos > b->results_open ? *pos : b->results_open + 1, e;
	const char *end = NULL;
	cJSON *entry;

	eb->msg[0] = '\0';
	i = skip_blanks(buf, i, close);
	if (k >= b->nresults) {
		/* nothing but blanks after the last element (a trailing comma is not JSON) */
		if (i != close)
			errbuf_set(eb, "%s: not valid JSON (near byte %zu)", name, i);
		return NULL;
	}
	if (k > 0) {
		if (i >= close || buf[i] != ',') {
			errbuf_set(eb, "%s: not valid JSON (near byte %zu)", name, i);
			return NULL;
		}
		i = skip_blanks(buf, i + 1, close);
	}
	e = jsonbudget_value_end(buf, close, i);
	entry = cJSON_ParseWithLengthOpts(buf + i, e - i, &end, 0);
	if (entry == NULL || end != buf + e) {
		const char *at = entry == NULL ? cJSON_GetErrorPtr() : end;
		size_t off = at != NULL && at >= buf + i && at <= buf + e ? (size_t)(at - buf) : i;

		cJSON_Delete(entry);
		errbuf_set(eb, "%s: not valid JSON (near byte %zu)", name, off);
		return NULL;
	}
	*pos = e;
	return entry;
}

cJSON *resultsfile_load(const char *path, size_t max_bytes, struct errbuf *eb)
{
	char *buf = NULL;
	size_t len = 0;
	cJSON *doc;

	if (fileio_read(path, max_bytes, NULL, &buf, &len, eb) < 0)
		return NULL;
	doc = resultsfile_parse(buf, len, path, eb);
	free(buf);
	return doc;
}

cJSON *resultsfile_require_results(const cJSON *doc, const char *name, struct errbuf *eb)
{
	cJSON *arr = cJSON_IsObject(doc) ? jsonget_member(doc, RESULTSFILE_RESULTS) : NULL;

	if (cJSON_IsArray(arr))
		return arr;
	errbuf_set(eb, "%s: %s: %s", name, RESULTSFILE_RESULTS,
		   arr == NULL ? "missing (not a hyperfine export)" : "not an array");
	return NULL;
}

cJSON *resultsfile_results(const cJSON *doc)
{
	cJSON *arr = jsonget_member(doc, RESULTSFILE_RESULTS);

	return cJSON_IsArray(arr) ? arr : NULL;
}

cJSON *resultsfile_meta(const cJSON *doc)
{
	return jsonget_member(doc, RESULTSFILE_META);
}

cJSON *resultsfile_reference(const cJSON *doc)
{
	cJSON *ref = jsonget_member(doc, RESULTSFILE_REFERENCE);

	return cJSON_IsObject(ref) ? ref : NULL;
}

cJSON *resultsfile_reference_results(const cJSON *doc)
{
	return resultsfile_results(resultsfile_reference(doc));
}

int resultsfile_require_reference_results(const cJSON *doc, cJSON **arr, struct errbuf *eb)
{
	const cJSON *ref = jsonget_member(doc, RESULTSFILE_REFERENCE);

	*arr = NULL;
	if (ref == NULL)
		return 0;
	if (!cJSON_IsObject(ref))
		return errbuf_set(eb, "%s: not an object", RESULTSFILE_REFERENCE);
	*arr = jsonget_member(ref, RESULTSFILE_RESULTS);
	if (!cJSON_IsArray(*arr)) {
		const char *why = *arr == NULL ? "missing" : "not an array";

		*arr = NULL;
		return errbuf_set(eb, "%s.%s: %s", RESULTSFILE_REFERENCE, RESULTSFILE_RESULTS, why);
	}
	return 0;
}
