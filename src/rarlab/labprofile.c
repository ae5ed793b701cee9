/* labprofile: after a profiled run, each host's deterministic counters against the others'. */
#include "labprofile.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "fileio.h"
#include "profilefit.h"
#include "profileload.h"
#include "sanitize.h"
#include "runfiles.h"

#define SOURCE_PREFIX "host "

/* The axis the counters are fitted against: the manifest's first swept one. */
static const char *fit_axis(const struct manifest *m)
{
	for (int a = 0; a < MANIFEST_AXIS_COUNT; a++)
		if (m->axes[a].n > 0)
			return manifest_axis_name((enum manifest_axis_id)a);
	return manifest_axis_name(MANIFEST_AXIS_TASKS);
}

/* Reads every ok host's profiles into pf. How many hosts had one in *profiled. 0 or -1. */
static int load_hosts(struct profilefit *pf, const char *out_dir, const char *axis,
		      struct merge_host *hosts, size_t n, size_t *profiled, struct errbuf *eb)
{
	char path[PATH_MAX], source[HOSTPOOL_TEXT_MAX + 8];
	struct profileload_sink sink;

	profilefit_sink(pf, &sink);
	*profiled = 0;
	for (size_t i = 0; i < n; i++) {
		size_t found = 0;

		if (hosts[i].status.state != HOSTPOOL_FINISHED ||
		    hosts[i].status.outcome != HOST_OK)
			continue;
		if (fileio_fmt(path, sizeof(path), "%s/%s/" RUNFILES_RESULTS, out_dir,
			       hosts[i].name) < 0 ||
		    fileio_fmt(source, sizeof(source), SOURCE_PREFIX "%s", hosts[i].name) < 0)
			return errbuf_set(eb, "%s: path too long", out_dir);
		if (profileload_file(&sink, path, source, axis, &found, eb) < 0)
			return -1;
		if (found > 0) {
			/* lint: not a path */
			snprintf(hosts[i].profile, sizeof(hosts[i].profile), "same");
			(*profiled)++;
		}
	}
	return 0;
}

/* The host named by a difference's odd source ("host NAME"), or SIZE_MAX. */
static size_t host_of(const struct profilefit_diff *d, const struct merge_host *hosts, size_t n)
{
	size_t plen = strlen(SOURCE_PREFIX);

	if (d->odd_source == NULL || strncmp(d->odd_source, SOURCE_PREFIX, plen) != 0)
		return SIZE_MAX;
	for (size_t i = 0; i < n; i++)
		if (strcmp(hosts[i].name, d->odd_source + plen) == 0)
			return i;
	return SIZE_MAX;
}

/* One difference as JSON (cJSON adopts the fields added to o). NULL when out of memory. */
static cJSON *diff_json(const struct profilefit_diff *d)
{
	size_t plen = strlen(SOURCE_PREFIX);
	cJSON *o = cJSON_CreateObject();

	if (o == NULL || cJSON_AddStringToObject(o, "subject", d->subject) == NULL ||
	    cJSON_AddStringToObject(o, "point", d->point) == NULL ||
	    cJSON_AddStringToObject(o, "counter", d->counter) == NULL ||
	    cJSON_AddNumberToObject(o, "min", d->lo) == NULL ||
	    cJSON_AddStringToObject(o, "min_seen", d->lo_source) == NULL ||
	    cJSON_AddNumberToObject(o, "max", d->hi) == NULL ||
	    cJSON_AddStringToObject(o, "max_seen", d->hi_source) == NULL)
		goto fail;
	if (d->odd_source != NULL &&
	    (cJSON_AddStringToObject(o, "host", d->odd_source + plen) == NULL ||
	     cJSON_AddNumberToObject(o, "value", d->odd_value) == NULL ||
	     cJSON_AddNumberToObject(o, "others", d->usual_value) == NULL))
		goto fail;
	return o;
fail:
	cJSON_Delete(o);
	return NULL;
}

/* The verdict as {"hosts", "identical", "differences_total", "differences": [...]}. */
static cJSON *verdict_json(const struct profilefit *pf, size_t profiled)
{
	cJSON *o = cJSON_CreateObject(), *a;

	if (o == NULL || cJSON_AddNumberToObject(o, "hosts", (double)profiled) == NULL ||
	    cJSON_AddBoolToObject(o, "identical", pf->n_diffs_total == 0) == NULL ||
	    cJSON_AddNumberToObject(o, "differences_total", (double)pf->n_diffs_total) == NULL ||
	    (a = cJSON_AddArrayToObject(o, "differences")) == NULL)
		goto fail;
	for (size_t i = 0; i < pf->n_diffs; i++) {
		cJSON *d = diff_json(&pf->diffs[i]);
		if (d == NULL || !cJSON_AddItemToArray(a, d)) {
			cJSON_Delete(d);
			goto fail;
		}
	}
	return o;
fail:
	cJSON_Delete(o);
	return NULL;
}

/* Adds verdict (adopted) as "profile" to the object *lab_json (made when NULL). 0 or -1. */
static int attach(char **lab_json, cJSON *verdict, struct errbuf *eb)
{
	cJSON *lab = *lab_json != NULL ? cJSON_Parse(*lab_json) : cJSON_CreateObject();
	char *text;

	if (lab == NULL || !cJSON_IsObject(lab) ||
	    !cJSON_AddItemToObject(lab, "profile", verdict)) {
		cJSON_Delete(verdict);
		cJSON_Delete(lab);
		return errbuf_set(eb, "out of memory");
	}
	text = cJSON_PrintUnformatted(lab);
	cJSON_Delete(lab);
	if (text == NULL)
		return errbuf_set(eb, "out of memory");
	free(*lab_json);
	*lab_json = text;
	return 0;
}

/* Each host alone in a difference: its note (its first), and a line to f (the first few). */
static void name_hosts(const struct profilefit *pf, struct merge_host *hosts, size_t n, FILE *f)
{
	size_t shown = 0;

	for (size_t i = 0; i < pf->n_diffs; i++) {
		const struct profilefit_diff *d = &pf->diffs[i];
		size_t h = host_of(d, hosts, n);
		char note[HOSTPOOL_TEXT_MAX];

		char line[2 * HOSTPOOL_TEXT_MAX], clean[2 * HOSTPOOL_TEXT_MAX];

		if (h == SIZE_MAX) {
			snprintf(line, sizeof(line), "%s %s at %s: %g (%s) .. %g (%s)", d->subject,
				 d->counter, d->point, d->lo, d->lo_source, d->hi, d->hi_source);
		} else {
			snprintf(note, sizeof(note), "%s %s at %s: %g, other hosts %g", d->subject,
				 d->counter, d->point, d->odd_value, d->usual_value);
			if (strcmp(hosts[h].profile, "same") == 0)
				sanitize_str(hosts[h].profile, sizeof(hosts[h].profile), note);
			snprintf(line, sizeof(line), "host %s: %s", hosts[h].name, note);
		}
		sanitize_str(clean, sizeof(clean), line);
		if (f != NULL && shown++ < LABPROFILE_SHOWN)
			fprintf(f, "  %s\n", clean);
	}
	if (f != NULL && pf->n_diffs_total > LABPROFILE_SHOWN)
		fprintf(f, "  ... %zu differences in all (DIR/merged.json: meta.lab.profile)\n",
			pf->n_diffs_total);
}

enum labprofile_result labprofile_compare(const char *out_dir, const struct manifest *m,
					  struct merge_host *hosts, size_t n, char **lab_json,
					  FILE *f, struct errbuf *eb)
{
	struct profilefit *pf = NULL;
	cJSON *verdict;
	size_t profiled = 0;
	enum labprofile_result rc = LABPROFILE_FAILED;

	if (!m->profile)
		return LABPROFILE_NOT_PROFILED;
	if ((pf = profilefit_new(fit_axis(m))) == NULL) {
		errbuf_set(eb, "out of memory");
		return LABPROFILE_FAILED;
	}
	if (load_hosts(pf, out_dir, pf->axis, hosts, n, &profiled, eb) < 0 ||
	    profilefit_compute(pf, eb) < 0)
		goto out;
	if (f != NULL && pf->n_diffs_total == 0)
		fprintf(f, "profile counters: identical on the %zu host%s profiled\n", profiled,
			profiled == 1 ? "" : "s");
	else if (f != NULL)
		fprintf(f, "profile counters: %zu difference%s between the %zu hosts profiled:\n",
			pf->n_diffs_total, pf->n_diffs_total == 1 ? "" : "s", profiled);
	name_hosts(pf, hosts, n, f);
	if ((verdict = verdict_json(pf, profiled)) == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	if (attach(lab_json, verdict, eb) == 0)
		rc = LABPROFILE_COMPARED;
out:
	profilefit_free(pf);
	return rc;
}
