/* profileload: the "profile" objects of a results file, handed to a sink (profileload.h). */
#include "jsonget.h"
#include "jsonbudget.h"
#include "profileload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "fileio.h"
#include "numarg.h"
#include "resultsfile.h"

/* Where one result's profile goes: its source, subject, point, x and repetition. */
/* What a result's profile keeps at most beyond its text (counted in the memory bound). */
#define PROFILELOAD_KEEP_BYTES 1024u

struct sample {
	size_t source;
	const char *subject;
	char point[512];
	double x;
	unsigned repetition;
};

/* Adds the numbers under o (an object) as PREFIX.KEY, each object's field (or o's numbers). */
static int add_group(const struct profileload_sink *pf, const struct sample *sm, const cJSON *o,
		     const char *prefix, const char *field, struct errbuf *eb)
{
	char counter[PROFILELOAD_COUNTER_MAX];
	const cJSON *c;

	cJSON_ArrayForEach(c, o)
	{
		const cJSON *v = field != NULL ? jsonget_member(c, field) : c;

		if (c->string == NULL || !cJSON_IsNumber(v))
			continue;
		if (snprintf(counter, sizeof(counter), "%s%s", prefix, c->string) >=
		    (int)sizeof(counter))
			continue; /* a path longer than any counter kept */
		if (pf->value(pf->arg, sm->source, sm->subject, sm->point, sm->x, sm->repetition,
			      counter, v->valuedouble, eb) < 0)
			return -1;
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The median of a result's "memory_usage_byte" (each timed run's own peak RSS) in KiB, into
 * *kib; 0, or -1 when the result has none (an older file: its profile's one run stands).
 */
static int median_peak_kib(const cJSON *mem, double *kib)
{
	int n = cJSON_IsArray(mem) ? cJSON_GetArraySize(mem) : 0, k = 0;
	double *v = n > 0 ? malloc((size_t)n * sizeof(*v)) : NULL;
	const cJSON *x;

	if (v == NULL)
		return -1;
	cJSON_ArrayForEach(x, mem) if (cJSON_IsNumber(x)) v[k++] = x->valuedouble / 1024.0;
	if (k > 0) {
		qsort(v, (size_t)k, sizeof(*v), cmp_double);
		*kib = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
	}
	free(v);
	return k > 0 ? 0 : -1;
}

/* The counters of one result's "profile" object; its peak RSS from the timed runs (mem). */
static int add_profile(const struct profileload_sink *pf, const struct sample *sm,
		       const cJSON *prof, const cJSON *mem, struct errbuf *eb)
{
	static const char *const totals[] = {"calls", "failed",    "bytes_read",  "bytes_written",
					     "execs", "processes", "policy_bytes"};
	const cJSON *st = jsonget_member(prof, "status");
	cJSON *tot = cJSON_CreateObject();
	int rc = -1;

	if (tot == NULL)
		return errbuf_set(eb, "out of memory");
	if (!cJSON_IsString(st) || strcmp(st->valuestring, "untraceable") == 0) {
		rc = 0;
		goto out;
	}
	if (strcmp(st->valuestring, "skipped") == 0) {
		/* Not traced (the pass's budget): nothing to fit, only where the counts stop. */
		rc = pf->untraced(pf->arg, sm->subject, sm->x, eb);
		goto out;
	}
	for (size_t i = 0; i < sizeof(totals) / sizeof(totals[0]); i++) {
		const cJSON *v = jsonget_member(prof, totals[i]);

		if (cJSON_IsNumber(v))
			cJSON_AddNumberToObject(tot, totals[i], v->valuedouble);
	}
	{
		/* The peak RSS of every timed run at this point, not only of the profile's one. */
		cJSON *ru = cJSON_Duplicate(jsonget_member(prof, "rusage"), 1);
		double kib;

		if (ru != NULL && cJSON_IsObject(ru) && median_peak_kib(mem, &kib) == 0)
			cJSON_ReplaceItemInObjectCaseSensitive(ru, "maxrss_kib",
							       cJSON_CreateNumber(kib));
		rc = add_group(pf, sm, tot, "", NULL, eb) < 0 ||
			     add_group(pf, sm, ru, "", NULL, eb) < 0
			 ? -1
			 : 0;
		cJSON_Delete(ru);
		if (rc < 0)
			goto out;
		rc = -1;
	}
	if (add_group(pf, sm, jsonget_member(prof, "syscalls"), "sys.", "calls", eb) < 0 ||
	    add_group(pf, sm, jsonget_member(prof, "syscalls"), "fail.", "failed", eb) < 0 ||
	    add_group(pf, sm, jsonget_member(prof, "files"), "open.", "count", eb) < 0 ||
	    add_group(pf, sm, jsonget_member(prof, "programs"), "exec.", "count", eb) < 0)
		goto out;
	rc = 0;
out:
	cJSON_Delete(tot);
	return rc;
}

/* What sample_of made of a result. */
enum sample_found {
	SAMPLE_FAILED = -1, /* eb says why */
	SAMPLE_MADE = 0,    /* *sm is the result's sample */
	SAMPLE_NONE = 1 /* not a profiled result of this axis (or its point is too long): skipped */
};

/*
 * The sample of result r: its subject, the axes' values (the point), the
 * repetition, and its source: the input, or "host H" of a lab's merged
 * results; source_name instead when not NULL.
 */
static enum sample_found sample_of(const struct profileload_sink *pf, const char *input,
				   const char *source_name, const cJSON *r, const char *axis,
				   struct sample *sm, struct errbuf *eb)
{
	const cJSON *params = jsonget_member(r, "parameters"), *p;
	const cJSON *subj = jsonget_member(params, "subject");
	const cJSON *host = jsonget_member(params, "host");
	const cJSON *ax = jsonget_member(params, axis);
	const cJSON *rep = jsonget_member(params, "repetition");
	char source[600];
	const char *end;
	size_t used = 0;

	if (!cJSON_IsString(subj) || !cJSON_IsString(ax) ||
	    !cJSON_IsObject(jsonget_member(r, "profile")))
		return SAMPLE_NONE;
	sm->subject = subj->valuestring;
	(void)numarg_any_double_prefix(ax->valuestring, &sm->x, &end);
	if (*end != '\0')
		return SAMPLE_NONE;
	sm->repetition = cJSON_IsString(rep) ? (unsigned)numarg_leading_u64(rep->valuestring) : 1;
	sm->point[0] = '\0';
	cJSON_ArrayForEach(p, params)
	{
		int w;

		if (!cJSON_IsString(p) || strcmp(p->string, "subject") == 0 ||
		    strcmp(p->string, "format") == 0 || strcmp(p->string, "host") == 0 ||
		    strcmp(p->string, "repetition") == 0)
			continue;
		w = snprintf(sm->point + used, sizeof(sm->point) - used, "%s%s=%s",
			     used > 0 ? "," : "", p->string, p->valuestring);
		if (w < 0 || (size_t)w >= sizeof(sm->point) - used)
			return SAMPLE_NONE;
		used += (size_t)w;
	}
	if (source_name != NULL)
		snprintf(source, sizeof(source), "%.590s", source_name);
	else if (cJSON_IsString(host))
		snprintf(source, sizeof(source), "host %.500s", host->valuestring);
	else
		snprintf(source, sizeof(source), "%.590s", input);
	return pf->source(pf->arg, source, &sm->source, eb) < 0 ? SAMPLE_FAILED : SAMPLE_MADE;
}

/* One result r of input: its sample and profile added to pf when it has one (*found counts
 * them). 0 or -1 (eb). */
static int load_result(const struct profileload_sink *pf, const char *input, const char *source,
		       const cJSON *r, const char *axis, size_t *found, struct errbuf *eb)
{
	struct sample sm;
	enum sample_found s = sample_of(pf, input, source, r, axis, &sm, eb);

	if (s == SAMPLE_FAILED)
		return -1;
	if (s == SAMPLE_NONE)
		return 0;
	if (add_profile(pf, &sm, jsonget_member(r, "profile"),
			jsonget_member(r, "memory_usage_byte"), eb) < 0)
		return errbuf_prefix(eb, "%s: profile of %s", input, sm.subject);
	(*found)++;
	return 0;
}

int profileload_file(const struct profileload_sink *pf, const char *input, const char *source,
		     const char *axis, size_t *found, struct errbuf *eb)
{
	char *text = NULL;
	size_t len = 0, pos = 0;
	cJSON *doc = NULL;
	const cJSON *r, *whole;
	struct jsonbudget b;
	int rc = -1;

	if (fileio_read(input, PROFILELOAD_FILE_MAX_BYTES, "cannot open", &text, &len, eb) < 0)
		return -1;
	/* within 4 times its size and 32 MiB, the results read one at a time (jsonbudget.h;
	 * issue 52, finding 7) */
	if ((doc = resultsfile_parse_bounded(text, len, input, PROFILELOAD_KEEP_BYTES, &b, eb)) ==
	    NULL)
		goto out;
	for (size_t k = 0; b.has_results; k++) {
		cJSON *one = resultsfile_next_result(text, &b, k, &pos, input, eb);
		int added;

		if (one == NULL) {
			if (k == b.nresults && eb->msg[0] == '\0')
				break;
			goto out;
		}
		added = load_result(pf, input, source, one, axis, found, eb);
		cJSON_Delete(one);
		if (added < 0)
			goto out;
	}
	whole = b.has_results ? NULL : resultsfile_results(doc); /* read whole: from the tree */
	cJSON_ArrayForEach(r, whole)
	{
		if (load_result(pf, input, source, r, axis, found, eb) < 0)
			goto out;
	}
	rc = 0;
out:
	cJSON_Delete(doc);
	free(text);
	return rc;
}
