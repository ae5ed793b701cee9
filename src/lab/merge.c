/* merge: gather every complete host's results.json into one hyperfine-format file, and the summary.
 */
#include "merge.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "atomicfile.h"
#include "fileio.h"
#include "hoststream.h"
#include "job_config.h"

/* Moves host's results into all (adding parameters.host) and its meta into metas. */
static long add_host(cJSON *all, cJSON *metas, const char *path, const char *host,
		     struct errbuf *eb)
{
	cJSON *root = NULL, *results, *r, *meta;
	char *text = NULL;
	size_t len = 0;
	long count = 0;

	if (fileio_read(path, JOB_FILE_MAX_BYTES, NULL, &text, &len, eb) < 0)
		return -1;
	root = cJSON_Parse(text);
	free(text);
	results = cJSON_GetObjectItemCaseSensitive(root, "results");
	if (!cJSON_IsArray(results)) {
		cJSON_Delete(root);
		return errbuf_set(eb, "%s: not hyperfine JSON (no \"results\" array)", path);
	}
	while ((r = cJSON_DetachItemFromArray(results, 0)) != NULL) {
		cJSON *params = cJSON_GetObjectItemCaseSensitive(r, "parameters");
		if (!cJSON_IsObject(params)) {
			params = cJSON_AddObjectToObject(r, "parameters");
		}
		cJSON_DeleteItemFromObjectCaseSensitive(params, "host");
		if (params == NULL || cJSON_AddStringToObject(params, "host", host) == NULL) {
			cJSON_Delete(r);
			cJSON_Delete(root);
			return errbuf_set(eb, "out of memory");
		}
		cJSON_AddItemToArray(all, r); /* all adopts r */
		count++;
	}
	meta = cJSON_DetachItemFromObjectCaseSensitive(root, "meta");
	if (meta != NULL)
		cJSON_AddItemToObject(metas, host, meta); /* metas adopts meta */
	cJSON_Delete(root);
	return count;
}

long merge_results(const char *out_dir, const char *run_id, struct merge_host *hosts, size_t n,
		   struct errbuf *eb)
{
	cJSON *root = cJSON_CreateObject(), *all, *meta, *rl, *metas;
	char path[PATH_MAX], *text = NULL;
	long total = 0;

	all = cJSON_AddArrayToObject(root, "results");
	meta = cJSON_AddObjectToObject(root, "meta");
	rl = cJSON_AddObjectToObject(meta, "rarlab");
	cJSON_AddStringToObject(rl, "version", RARPERF_VERSION);
	cJSON_AddStringToObject(rl, "commit", RARPERF_GIT_COMMIT);
	cJSON_AddStringToObject(rl, "run_id", run_id);
	metas = cJSON_AddObjectToObject(meta, "hosts");
	if (metas == NULL) {
		total = errbuf_set(eb, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		long c;
		hosts[i].results = 0;
		snprintf(path, sizeof(path), "%s/%s", out_dir, hosts[i].name);
		if (!hoststream_host_complete(path, NULL, NULL))
			continue;
		snprintf(path, sizeof(path), "%s/%s/results.json", out_dir, hosts[i].name);
		c = add_host(all, metas, path, hosts[i].name, eb);
		if (c < 0) {
			total = -1;
			goto out;
		}
		hosts[i].results = (size_t)c;
		total += c;
	}
	text = cJSON_Print(root);
	if (text == NULL) {
		total = errbuf_set(eb, "out of memory");
		goto out;
	}
	snprintf(path, sizeof(path), "%s/merged.json", out_dir);
	size_t len = strlen(text);
	text[len] = '\n'; /* replaces the NUL: written with its length */
	if (atomicfile_write(path, text, len + 1, 0644, eb) < 0)
		total = -1;
out:
	free(text);
	cJSON_Delete(root);
	return total;
}

/* A message safe for one TSV field: tabs and newlines become spaces. */
static void tsv_field(char *dst, size_t cap, const char *src)
{
	size_t i;

	for (i = 0; i + 1 < cap && src[i]; i++)
		dst[i] = (src[i] == '\t' || src[i] == '\n' || src[i] == '\r') ? ' ' : src[i];
	dst[i] = '\0';
}

int merge_summary(const char *out_dir, const struct merge_host *hosts, size_t n, FILE *f,
		  struct errbuf *eb)
{
	char path[PATH_MAX], outcome[32], msg[HOSTPOOL_TEXT_MAX];
	struct atomicfile *af;
	FILE *tsv;
	int width = 4;

	snprintf(path, sizeof(path), "%s/summary.tsv", out_dir);
	af = atomicfile_open(path, 0644, eb);
	if (af == NULL)
		return -1;
	tsv = atomicfile_stream(af);
	fprintf(tsv, "host\toutcome\tpoints_done\tpoints_total\tresults\twall_s\tmessage\n");
	for (size_t i = 0; i < n; i++)
		if ((int)strlen(hosts[i].name) > width)
			width = (int)strlen(hosts[i].name);
	if (f != NULL)
		fprintf(f, "%-*s  %-11s  %9s  %7s  %8s  %s\n", width, "host", "outcome", "points",
			"results", "wall_s", "message");
	for (size_t i = 0; i < n; i++) {
		const struct hostpool_status *s = &hosts[i].status;
		double wall = s->finished_ns > s->started_ns && s->started_ns
				  ? (double)(s->finished_ns - s->started_ns) / 1e9
				  : 0;
		char pts[24];
		if (s->state == HOSTPOOL_FINISHED)
			hostpool_outcome_name(s->outcome, s->exit_code, outcome, sizeof(outcome));
		else
			snprintf(outcome, sizeof(outcome), "interrupted");
		tsv_field(msg, sizeof(msg), s->message);
		fprintf(tsv, "%s\t%s\t%u\t%u\t%zu\t%.3f\t%s\n", hosts[i].name, outcome, s->done,
			s->total, hosts[i].results, wall, msg);
		snprintf(pts, sizeof(pts), "%u/%u", s->done, s->total);
		if (f != NULL)
			fprintf(f, "%-*s  %-11s  %9s  %7zu  %8.1f  %s\n", width, hosts[i].name,
				outcome, pts, hosts[i].results, wall, msg);
	}
	return atomicfile_commit(af, eb);
}
