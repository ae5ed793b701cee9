/* results_load: a results file read into the results model (plain hyperfine, rarbench
 * results.json, rarlab merged.json): the document, then each part's reader (results.h). */
#include "jsonget.h"
#include "results.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "growbuf.h"
#include "jsonbudget.h"
#include "labgroups.h"
#include "resultsfile.h"

/* What one point read costs at most beyond its element's text: the struct, its four strings. */
#define RESULTS_POINT_BYTES (sizeof(struct results_point) + 4 * JSONBUDGET_STRING_BYTES + 64)

static int results_grow(struct results *res, size_t extra, struct errbuf *eb)
{
	size_t want = res->n_points + extra;

	if (want > RESULTS_MAX_POINTS)
		return errbuf_set(eb, "more than %u results in all", RESULTS_MAX_POINTS);
	return growarray(&res->points, &res->cap_points, want, sizeof(*res->points),
			 RESULTS_MAX_POINTS, eb);
}

/*
 * The points of the results array b describes in buf, each element parsed into a tree of its
 * own and freed before the next (resultsfile_next_result; a tree of the whole array costs up to
 * 40 times its text: issue 52, finding 7). res->points has room for b->nresults more. 0, or -1
 * with eb.
 */
static int parse_points(struct results *res, const char *buf, const struct jsonbudget *b,
			const char *name, struct errbuf *eb)
{
	size_t pos = 0;

	for (size_t k = 0; k <= b->nresults; k++) {
		struct results_point *p = &res->points[res->n_points];
		cJSON *entry = resultsfile_next_result(buf, b, k, &pos, name, eb);

		if (entry == NULL)
			return k == b->nresults && eb->msg[0] == '\0' ? 0 : -1;
		memset(p, 0, sizeof(*p));
		p->source = res->n_sources;
		p->index = k;
		if (results_entry_parse(entry, p, eb) != 0) {
			results_point_clear(p);
			cJSON_Delete(entry);
			return errbuf_prefix(eb, "%s: results[%zu]", name, k);
		}
		cJSON_Delete(entry);
		res->n_points++;
	}
	return 0;
}

int results_parse(struct results *res, const char *buf, size_t len, const char *name,
		  struct errbuf *eb)
{
	cJSON *root = NULL;
	const cJSON *arr, *entry;
	bool grew_sources = false, split;
	size_t first = res->n_points, n, i = 0;
	int rc = -1;
	struct jsonbudget b;

	/* Memory bounded by the file (jsonbudget.h): the results an element at a time from the
	 * text, the rest from a copy whose array is blanked (resultsfile_parse_bounded). */
	if ((root = resultsfile_parse_bounded(buf, len, name, RESULTS_POINT_BYTES, &b, eb)) == NULL)
		goto out;
	split = b.has_results;
	if (!cJSON_IsObject(root)) {
		errbuf_set(eb, "%s: not a JSON object with a \"results\" array", name);
		goto out;
	}
	if (jsonget_member(root, RESULTSFILE_RESULTS) == NULL &&
	    jsonget_member(root, "subjects") != NULL && jsonget_member(root, "axes") != NULL) {
		/* rarplot given the manifest instead of what its sweep wrote (issue 46). */
		errbuf_set(eb,
			   "%s is a manifest (rarbench --manifest %s --out DIR runs it): rarplot "
			   "reads the DIR/results.json a sweep writes, or a hyperfine export",
			   name, name);
		goto out;
	}
	if ((arr = resultsfile_require_results(root, name, eb)) == NULL)
		goto out;
	n = split ? b.nresults : (size_t)cJSON_GetArraySize(arr);
	if (n == 0) {
		errbuf_set(eb, "%s: results: empty", name);
		goto out;
	}
	if (results_grow(res, n, eb) != 0) {
		errbuf_prefix(eb, "%s", name);
		goto out;
	}
	/* One name per file read: as many as points at most. */
	if (growarray(&res->sources, &res->cap_sources, res->n_sources + 1, sizeof(*res->sources),
		      RESULTS_MAX_POINTS, eb) != 0) {
		errbuf_prefix(eb, "%s", name);
		goto out;
	}
	grew_sources = true;
	res->sources[res->n_sources] = strdup(name);
	if (res->sources[res->n_sources] == NULL) {
		errbuf_set(eb, "%s: out of memory", name);
		goto out;
	}
	if (split && parse_points(res, buf, &b, name, eb) != 0)
		goto out;
	/* read whole (no split): its elements from the tree */
	if (split)
		arr = NULL;
	cJSON_ArrayForEach(entry, arr)
	{
		struct results_point *p = &res->points[res->n_points];

		memset(p, 0, sizeof(*p));
		p->source = res->n_sources;
		p->index = i;
		if (results_entry_parse(entry, p, eb) != 0) {
			results_point_clear(p);
			errbuf_prefix(eb, "%s: results[%zu]", name, i);
			goto out;
		}
		res->n_points++;
		i++;
	}
	res->n_sources++;
	if (results_reference_parse(res, root, res->n_sources - 1, eb) != 0) {
		errbuf_prefix(eb, "%s", name);
		res->n_sources--; /* out: frees its name */
		goto out;
	}
	results_meta_read(res, root, name, res->n_sources - 1, first);
	if (results_machine_read(res, root, res->n_sources - 1) != 0) {
		rc = errbuf_set(eb, "%s: out of memory", name);
		goto out;
	}
	/* out of memory here leaves the points read and only the groups' section out */
	rc = labgroups_read(root, &res->lab_md) < 0 ? errbuf_set(eb, "%s: out of memory", name) : 0;
out:
	if (rc != 0) {
		while (res->n_points > first)
			results_point_clear(&res->points[--res->n_points]);
		if (grew_sources) {
			free(res->sources[res->n_sources]);
			res->sources[res->n_sources] = NULL;
		}
	}
	cJSON_Delete(root);
	return rc;
}

int results_load_file(struct results *res, const char *path, struct errbuf *eb)
{
	char *buf = NULL;
	size_t len = 0;
	int rc;

	if (fileio_read(path, RESULTS_FILE_MAX_BYTES, NULL, &buf, &len, eb) < 0)
		return -1;
	rc = results_parse(res, buf, len, path, eb);
	free(buf);
	return rc;
}
