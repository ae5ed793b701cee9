/* sitebmf: fits as Bencher Metric Format JSON (sitebmf.h). */
#include "sitebmf.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

#include "atomicfile.h"
#include "jsonw.h"

/* {"value": v, "lower_value": lo, "upper_value": hi} added to bench as key; nothing when v is
 * not finite. 0, or -1 out of memory. */
static int add_measure(cJSON *bench, const char *key, double v, double lo, double hi)
{
	cJSON *m;

	if (!isfinite(v))
		return 0;
	m = cJSON_AddObjectToObject(bench, key);
	if (m == NULL || cJSON_AddNumberToObject(m, "value", v) == NULL)
		return -1;
	if (isfinite(lo) && cJSON_AddNumberToObject(m, "lower_value", lo) == NULL)
		return -1;
	if (isfinite(hi) && cJSON_AddNumberToObject(m, "upper_value", hi) == NULL)
		return -1;
	return 0;
}

/* "slope-us-per-task": the measure's name from the axis' unit, [a-z0-9-] only. */
static void slope_key(const char *axis, char *buf, size_t size)
{
	const char *unit = fitreport_unit(axis);
	size_t n = (size_t)snprintf(buf, size, "slope-us-per-"); /* lint: not a path */

	for (const char *p = unit; *p != '\0' && n + 1 < size; p++) {
		unsigned char c = (unsigned char)*p;

		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			buf[n++] = (char)c;
		else if (c >= 'A' && c <= 'Z')
			buf[n++] = (char)(c - 'A' + 'a');
		else if (n > 0 && buf[n - 1] != '-' && (c < 0x80 || (c & 0xc0) == 0xc0))
			buf[n++] = '-';
	}
	while (n > 0 && buf[n - 1] == '-')
		n--;
	buf[n] = '\0';
}

int sitebmf_write(const struct fitreport *rep, const char *name, const char *path,
		  struct errbuf *eb)
{
	cJSON *root = cJSON_CreateObject();
	struct atomicfile *af = NULL;
	struct jsonw w;
	char skey[64];
	int rc = -1;

	if (root == NULL)
		return errbuf_set(eb, "out of memory");
	slope_key(rep->set->axis, skey, sizeof(skey));
	for (size_t i = 0; i < rep->n_rows; i++) {
		const struct fitreport_row *r = &rep->rows[i];
		const struct fit_line *l = &r->fit;
		double t = fit_t95(l->n > 2 ? l->n - 2 : 0);
		char bname[1024];
		bool host = strcmp(r->series->host, "-") != 0;
		cJSON *bench;

		if ((size_t)snprintf(bname, sizeof(bname), "%s/%s/%s%s%s",
				     name, /* lint: not a path */
				     r->series->subject, r->series->format, host ? "/" : "",
				     host ? r->series->host : "") >= sizeof(bname)) {
			errbuf_set(eb, "%s: a benchmark name longer than %zu bytes", path,
				   sizeof(bname) - 1);
			goto out;
		}
		if (cJSON_GetObjectItemCaseSensitive(root, bname) != NULL)
			continue; /* one benchmark per series: the first */
		bench = cJSON_AddObjectToObject(root, bname);
		if (bench == NULL ||
		    add_measure(bench, "intercept-ms", l->intercept,
				l->intercept - t * l->intercept_se,
				l->intercept + t * l->intercept_se) != 0 ||
		    add_measure(bench, skey, l->slope * 1000, (l->slope - t * l->slope_se) * 1000,
				(l->slope + t * l->slope_se) * 1000) != 0) {
			errbuf_set(eb, "out of memory");
			goto out;
		}
	}
	af = atomicfile_open(path, 0644, eb);
	if (af == NULL)
		goto out;
	jsonw_init(&w, atomicfile_stream(af));
	jsonw_cjson(&w, root);
	fputc('\n', atomicfile_stream(af));
	if (jsonw_finish(&w) != 0) {
		errbuf_set(eb, "%s: %s", path, jsonw_error(&w));
		goto out;
	}
	rc = atomicfile_commit(af, eb);
	af = NULL;
out:
	atomicfile_abort(af);
	cJSON_Delete(root);
	return rc;
}
