/* runner_profile_files: what the profile pass leaves in a run's output directory, read back
 * (OUT/profile/point-N.json) and flattened into OUT/profile.tsv. */
#include "jsonget.h"
#include "runner_profile_files.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomicfile.h"
#include "fileio.h"
#include "manifest.h"
#include "sanitize.h"
#include "straceprof.h"
#include "runfiles.h"

/* A point's profile is a few kilobytes; anything this big is not one. */
#define PROFILE_FILE_MAX_BYTES (64u << 20)

int runner_profile_path(const char *out, const char *name, char *buf, size_t len, struct errbuf *eb)
{
	return fileio_fmt(buf, len, "%s/%s/%s", out, RUNNER_PROFILE_DIR, name) < 0
		   ? errbuf_set(eb, "%s: path too long", out)
		   : 0;
}

int runner_profile_point_path(const char *out, size_t index, char *buf, size_t len,
			      struct errbuf *eb)
{
	return fileio_fmt(buf, len, "%s/%s/point-%zu.json", out, RUNNER_PROFILE_DIR, index + 1) < 0
		   ? errbuf_set(eb, "%s: path too long", out)
		   : 0;
}

cJSON *runner_profile_read(const char *out, size_t index, struct errbuf *eb)
{
	char path[PATH_MAX], *text = NULL;
	cJSON *doc = NULL;
	size_t len = 0;

	eb->msg[0] = '\0';
	if (runner_profile_point_path(out, index, path, sizeof(path), eb) < 0)
		return NULL;
	if (access(path, F_OK) != 0)
		return NULL;
	if (fileio_read_regular(path, PROFILE_FILE_MAX_BYTES, "cannot open", &text, &len, eb) < 0)
		return NULL;
	doc = cJSON_ParseWithLength(text, len);
	free(text);
	if (doc == NULL || !cJSON_IsObject(jsonget_member(doc, "subjects"))) {
		cJSON_Delete(doc);
		errbuf_set(eb, "%s: not a profile", path);
		return NULL;
	}
	return doc;
}

/* One row of profile.tsv: the point's values, the subject, the counter, its value. */
static void tsv_row(FILE *f, const struct sweep_point *pt, const char *subject, const char *prefix,
		    const char *key, double v)
{
	char clean[2 * STRACEPROF_PATH_MAX];

	sanitize_text(clean, sizeof(clean), key, strlen(key));
	fprintf(f, "%s", subject);
	for (int a = 0; a < MANIFEST_AXIS_COUNT; a++)
		fprintf(f, "\t%u", pt->value[a]);
	fprintf(f, "\t%u\t%s%s\t%.0f\n", pt->repetition, prefix, clean, v);
}

/* Every number under o (one level; objects: their "calls" or "count"), as prefix.KEY rows. */
static void tsv_group(FILE *f, const struct sweep_point *pt, const char *subject, const cJSON *o,
		      const char *prefix, const char *field)
{
	const cJSON *c;

	cJSON_ArrayForEach(c, o)
	{
		const cJSON *v = field != NULL ? jsonget_member(c, field) : c;

		if (c->string != NULL && cJSON_IsNumber(v))
			tsv_row(f, pt, subject, prefix, c->string, v->valuedouble);
	}
}

/* The rows of one point's profile doc. */
static void tsv_point(FILE *f, const struct sweep_point *pt, const cJSON *doc)
{
	static const char *const totals[] = {"calls",         "failed", "bytes_read",
					     "bytes_written", "execs",  "processes"};
	const cJSON *s;

	cJSON_ArrayForEach(s, jsonget_member(doc, "subjects"))
	{
		const cJSON *st = jsonget_member(s, "status");
		char subject[128];

		if (s->string == NULL || !cJSON_IsString(st) ||
		    strcmp(st->valuestring, "untraceable") == 0)
			continue;
		sanitize_text(subject, sizeof(subject), s->string, strlen(s->string));
		for (size_t i = 0; i < sizeof(totals) / sizeof(totals[0]); i++) {
			const cJSON *v = jsonget_member(s, totals[i]);

			if (cJSON_IsNumber(v))
				tsv_row(f, pt, subject, "", totals[i], v->valuedouble);
		}
		tsv_group(f, pt, subject, jsonget_member(s, "rusage"), "", NULL);
		tsv_group(f, pt, subject, jsonget_member(s, "syscalls"), "sys.", "calls");
		tsv_group(f, pt, subject, jsonget_member(s, "syscalls"), "fail.", "failed");
		tsv_group(f, pt, subject, jsonget_member(s, "files"), "open.", "count");
		tsv_group(f, pt, subject, jsonget_member(s, "programs"), "exec.", "count");
	}
}

int runner_profile_tsv(const char *out, const struct sweep *s, struct errbuf *eb)
{
	struct atomicfile *af = NULL;
	char path[PATH_MAX];
	size_t found = 0;
	FILE *f;

	if (fileio_fmt(path, sizeof(path), "%s/" RUNFILES_PROFILE, out) < 0)
		return errbuf_set(eb, "%s: path too long", out);
	for (size_t i = 0; i < sweep_count(s); i++) {
		cJSON *doc = runner_profile_read(out, i, eb);

		if (doc == NULL && eb->msg[0] != '\0')
			goto fail;
		if (doc == NULL)
			continue;
		if (af == NULL) {
			if ((af = atomicfile_open_regular(path, 0644, eb)) == NULL) {
				cJSON_Delete(doc);
				return -1;
			}
			f = atomicfile_stream(af);
			fprintf(f, "subject");
			for (int a = 0; a < MANIFEST_AXIS_COUNT; a++)
				fprintf(f, "\t%s", manifest_axis_name(a));
			fprintf(f, "\trepetition\tcounter\tvalue\n");
		}
		tsv_point(atomicfile_stream(af), sweep_at(s, i), doc);
		cJSON_Delete(doc);
		found++;
	}
	return found == 0 ? 0 : atomicfile_rename(af, eb);
fail:
	atomicfile_abort(af);
	return -1;
}
