/* countprice: counted instructions read beside the times (countprice.h). */
#include "countprice.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "fileio.h"
#include "jsonbudget.h"
#include "jsonget.h"
#include "results.h"
#include "resultsfile.h"

static int add_point(struct countprice_source *src, const char *subject, double x, double ins,
		     struct errbuf *eb)
{
	if (src->n == src->cap) {
		size_t cap = src->cap ? 2 * src->cap : 64;
		struct countprice_point *grown = realloc(src->points, cap * sizeof(*grown));

		if (grown == NULL)
			return errbuf_set(eb, "out of memory");
		src->points = grown;
		src->cap = cap;
	}
	snprintf(src->points[src->n].subject, sizeof(src->points[src->n].subject), "%s", subject);
	src->points[src->n].x = x;
	src->points[src->n].instructions = ins;
	src->n++;
	return 0;
}

/* One result's count along axis, when it has one. */
static int add_result(struct countprice_source *src, const cJSON *e, const char *axis,
		      struct errbuf *eb)
{
	const cJSON *params = jsonget_member(e, "parameters");
	const cJSON *sj = jsonget_member(params, "subject"), *xv = jsonget_member(params, axis);
	const cJSON *c = jsonget_member(e, "counts"), *st = jsonget_member(c, "status");
	const cJSON *ins = jsonget_member(c, "instructions");
	char *end = NULL;
	double x;

	if (!cJSON_IsString(sj) || !cJSON_IsString(xv) || !cJSON_IsString(st) ||
	    strcmp(st->valuestring, "ok") != 0 || !cJSON_IsNumber(ins) || ins->valuedouble <= 0)
		return 0;
	x = strtod(xv->valuestring, &end);
	if (end == xv->valuestring || *end != '\0' || !isfinite(x))
		return 0;
	return add_point(src, sj->valuestring, x, ins->valuedouble, eb);
}

/* The string at key of o, or "" when it is not one. */
static const char *string_at(const cJSON *o, const char *key)
{
	const cJSON *v = jsonget_member(o, key);

	return cJSON_IsString(v) ? v->valuestring : "";
}

void countprice_machine(const void *root, char *dst, size_t size)
{
	const cJSON *mach =
	    jsonget_member(jsonget_member((const cJSON *)root, RESULTSFILE_META), "machine");
	const cJSON *cpu = jsonget_member(mach, "cpu"), *kern = jsonget_member(mach, "kernel");
	const char *id = string_at(mach, "machine_id_sha256");

	/* Clones of one VM image share a machine id: the CPU and the kernel tell them apart, as
	 * results_machine.c does for files of different boots. */
	if (id[0] == '\0' || strcmp(id, "unknown") == 0) {
		dst[0] = '\0';
		return;
	}
	snprintf(dst, size, "%s|%s|%s|%s|%s|%s|%s", id, string_at(cpu, "vendor"),
		 string_at(cpu, "family"), string_at(cpu, "model"), string_at(cpu, "stepping"),
		 string_at(cpu, "model_name"), string_at(kern, "release"));
}

int countprice_add_file(struct countprice_source *src, const void *root, const char *axis,
			struct errbuf *eb)
{
	const cJSON *rc = jsonget_member(resultsfile_reference(root), RESULTSFILE_REFERENCE_COUNTS);
	const cJSON *ins = jsonget_member(rc, "instructions");
	const cJSON *bare = jsonget_member(rc, "bare_instructions");
	const cJSON *e;

	if (cJSON_IsNumber(ins) && cJSON_IsNumber(bare) && ins->valuedouble > bare->valuedouble)
		src->ref_instructions = ins->valuedouble - bare->valuedouble;
	countprice_machine(root, src->machine, sizeof(src->machine));
	cJSON_ArrayForEach(e, resultsfile_results(root))
	{
		if (add_result(src, e, axis, eb) < 0)
			return -1;
	}
	return 0;
}

int countprice_load(struct countprice_source *src, const char *path, const char *axis,
		    struct errbuf *eb)
{
	char *text = NULL;
	size_t len = 0;
	struct jsonbudget b;
	cJSON *root = NULL;
	int rc = -1;

	src->path = path;
	src->ref_instructions = NAN;
	if (fileio_read(path, RESULTS_FILE_MAX_BYTES, NULL, &text, &len, eb) < 0)
		return -1;
	if ((root = resultsfile_parse_bounded(text, len, path, sizeof(struct countprice_point), &b,
					      eb)) == NULL)
		goto out;
	if (b.has_results) {
		/* the results one at a time (jsonbudget.h), then the rest of the document */
		for (size_t k = 0, pos = 0;; k++) {
			cJSON *one = resultsfile_next_result(text, &b, k, &pos, path, eb);
			int added;

			if (one == NULL) {
				if (k == b.nresults && eb->msg[0] == '\0')
					break;
				goto out;
			}
			added = add_result(src, one, axis, eb);
			cJSON_Delete(one);
			if (added < 0)
				goto out;
		}
	}
	if (countprice_add_file(src, root, axis, eb) < 0)
		goto out;
	if (src->n == 0) {
		errbuf_set(eb, "%s: no counted point along %s (a counted run: \"counts\": true)", path,
			   axis);
		goto out;
	}
	rc = 0;
out:
	cJSON_Delete(root);
	free(text);
	return rc;
}

double countprice_find(const struct countprice_source *src, const char *subject, double x)
{
	for (size_t i = 0; i < src->n; i++)
		if (src->points[i].x == x && strcmp(src->points[i].subject, subject) == 0)
			return src->points[i].instructions;
	return NAN;
}

int countprice_same_machine(const struct countprice_source *src, const char *timed_path,
			    const char *timed_machine, struct errbuf *eb)
{
	if (src->machine[0] == '\0' || timed_machine[0] == '\0')
		return errbuf_set(eb,
				  "--counts-from %s: %s or it has no machine identity "
				  "(meta.machine.machine_id_sha256): counts join times of one "
				  "known machine only",
				  src->path, timed_path);
	if (strcmp(src->machine, timed_machine) != 0)
		return errbuf_set(eb,
				  "--counts-from %s: another machine than %s's (machine id, CPU or "
				  "kernel differ): counts join times of the same machine only",
				  src->path, timed_path);
	return 0;
}

void countprice_clear(struct countprice_source *src)
{
	free(src->points);
	src->points = NULL;
	src->n = src->cap = 0;
}

int countprice_check_inputs(const char *counts_from, const char *const *inputs, size_t n,
			    const char *axis, struct errbuf *eb)
{
	struct countprice_source src = {0};
	int rc = -1;

	if (countprice_load(&src, counts_from, axis, eb) < 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		char *text = NULL, machine[sizeof(src.machine)];
		size_t len = 0;
		struct jsonbudget b;
		cJSON *root;

		if (fileio_read(inputs[i], RESULTS_FILE_MAX_BYTES, NULL, &text, &len, eb) < 0)
			goto out;
		root = resultsfile_parse_bounded(text, len, inputs[i], 0, &b, eb);
		free(text);
		if (root == NULL)
			goto out;
		countprice_machine(root, machine, sizeof(machine));
		cJSON_Delete(root);
		if (countprice_same_machine(&src, inputs[i], machine, eb) < 0)
			goto out;
	}
	rc = 0;
out:
	countprice_clear(&src);
	return rc;
}

