/* results_entry: one entry of a hyperfine results array into a struct results_point: its
 * times, quartiles and intervals, parameters, subject and rarbench's estimate (results.h). */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "growbuf.h"
#include "jsonget.h"
#include "results.h"
#include "sanitize.h"
#include "student.h"

static int results_cmp_double(const void *a, const void *b)
{
	double da = *(const double *)a, db = *(const double *)b;

	return (da > db) - (da < db);
}

/* Quantile q of sorted[0..n-1], interpolating between order statistics. */
static double results_quantile(const double *sorted, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t lo = (size_t)floor(pos);
	double frac = pos - (double)lo;

	if (lo + 1 >= n)
		return sorted[n - 1];
	return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

/*
 * A copy of s, refusing strings longer than RESULTS_MAX_STRING and, as
 * these become TSV fields, file names and one-line messages, what the
 * sanitiser would escape (control and bidi characters, invalid UTF-8).
 */
static char *results_strdup(const char *s, struct errbuf *eb, const char *what)
{
	char *copy;
	size_t len = strnlen(s, RESULTS_MAX_STRING + 1), at;

	if (len > RESULTS_MAX_STRING) {
		errbuf_set(eb, "%s: longer than %u bytes", what, RESULTS_MAX_STRING);
		return NULL;
	}
	at = sanitize_unsafe_at(s, len);
	if (at < len) {
		errbuf_set(eb, "%s: control character or invalid UTF-8 at byte %zu", what, at);
		return NULL;
	}
	copy = strdup(s);
	if (copy == NULL)
		errbuf_set(eb, "%s: out of memory", what);
	return copy;
}

/* The basename of the first blank-separated word of command. */
static char *results_subject_from_command(const char *command, struct errbuf *eb)
{
	const char *start = command, *end, *slash;
	char *out;

	while (*start == ' ' || *start == '\t')
		start++;
	end = start;
	while (*end != '\0' && *end != ' ' && *end != '\t')
		end++;
	for (slash = start; slash < end; slash++)
		if (*slash == '/')
			start = slash + 1;
	if (end == start) {
		errbuf_set(eb, "command: no program name to name the subject by");
		return NULL;
	}
	out = strndup(start, (size_t)(end - start));
	if (out == NULL) {
		errbuf_set(eb, "command: out of memory");
		return NULL;
	}
	if (sanitize_unsafe_at(out, strlen(out)) < strlen(out)) {
		free(out);
		errbuf_set(eb, "command: control character or invalid UTF-8 in the program name");
		return NULL;
	}
	return out;
}

/* A time in seconds: a finite number, not negative. */
#define RESULTS_TIME_MAX_S HUGE_VAL

/* The required time in seconds at entry.key. */
static int results_time(const cJSON *entry, const char *key, double *out, struct errbuf *eb)
{
	return jsonget_double(entry, "", key, JSONGET_REQUIRED, 0, RESULTS_TIME_MAX_S, out, eb);
}

static int results_params(const cJSON *entry, struct results_point *p, struct errbuf *eb)
{
	const cJSON *params = jsonget_member(entry, "parameters");
	const cJSON *item;
	size_t n = 0;

	if (params == NULL || cJSON_IsNull(params))
		return 0;
	if (!cJSON_IsObject(params))
		return errbuf_set(eb, "parameters: not an object");
	cJSON_ArrayForEach(item, params)
	{
		n++;
	}
	if (n > RESULTS_MAX_PARAMS)
		return errbuf_set(eb, "parameters: more than %u", RESULTS_MAX_PARAMS);
	if (n == 0)
		return 0;
	p->params = calloc(n, sizeof(*p->params));
	if (p->params == NULL)
		return errbuf_set(eb, "parameters: out of memory");
	cJSON_ArrayForEach(item, params)
	{
		struct results_param *kv = &p->params[p->n_params];

		if (item->string == NULL)
			return errbuf_set(eb, "parameters: a key is missing");
		if (!cJSON_IsString(item))
			return errbuf_set(eb, "parameters.%.64s: not a string", item->string);
		if (results_point_param(p, item->string) != NULL)
			return errbuf_set(eb, "parameters.%.64s: duplicate key", item->string);
		kv->key = results_strdup(item->string, eb, "parameters (a key)");
		if (kv->key == NULL)
			return -1;
		kv->value = results_strdup(item->valuestring, eb, "parameters.<key>");
		if (kv->value == NULL) {
			free(kv->key);
			kv->key = NULL;
			return -1;
		}
		p->n_params++;
	}
	return 0;
}

static int results_times(const cJSON *entry, struct results_point *p, struct errbuf *eb)
{
	const cJSON *times = jsonget_member(entry, "times");
	const cJSON *item;
	double *v = NULL;
	size_t n = 0, i = 0, k;

	p->q1_s = NAN;
	p->q3_s = NAN;
	p->median_lo_s = p->median_hi_s = NAN;
	p->n_runs = 1;
	if (times == NULL || cJSON_IsNull(times))
		return 0;
	if (!cJSON_IsArray(times))
		return errbuf_set(eb, "times: not an array");
	n = (size_t)cJSON_GetArraySize(times);
	if (n == 0)
		return errbuf_set(eb, "times: empty");
	v = malloc(n * sizeof(*v));
	if (v == NULL)
		return errbuf_set(eb, "times: out of memory");
	cJSON_ArrayForEach(item, times)
	{
		char path[JSONGET_PATH_MAX_CHARS];

		jsonget_index(path, "times", i);
		if (jsonget_as_double(item, path, 0, RESULTS_TIME_MAX_S, &v[i++], eb) < 0) {
			free(v);
			return -1;
		}
	}
	qsort(v, n, sizeof(*v), results_cmp_double);
	p->q1_s = results_quantile(v, n, 0.25);
	p->q3_s = results_quantile(v, n, 0.75);
	k = student_median_rank95(n);
	if (k > 0) {
		p->median_lo_s = v[k - 1];
		p->median_hi_s = v[n - k];
	}
	p->n_runs = n;
	free(v);
	return 0;
}

/* The mean's t interval, once stddev and the runs are known. */
static void results_mean_ci(struct results_point *p)
{
	double half;

	p->mean_lo_s = p->mean_hi_s = NAN;
	if (p->n_runs < 2 || !isfinite(p->stddev_s))
		return;
	half = student_t95(p->n_runs - 1) * p->stddev_s / sqrt((double)p->n_runs);
	p->mean_lo_s = p->mean_s - half;
	p->mean_hi_s = p->mean_s + half;
}

/*
 * rarbench's additions beside hyperfine's keys: the "rarbench" object's
 * estimate, interval and estimator. Absent (older files, hyperfine's own):
 * NaN. Present but malformed: an error, as for any other key.
 */
static int results_estimate(const cJSON *entry, struct results_point *p, struct errbuf *eb)
{
	const cJSON *rb = jsonget_member(entry, "rarbench"), *ci, *name;
	const cJSON *lo, *hi;
	size_t i;

	p->estimate_s = p->estimate_lo_s = p->estimate_hi_s = NAN;
	p->contended_share = NAN;
	p->estimator[0] = '\0';
	if (rb == NULL || cJSON_IsNull(rb))
		return 0;
	if (!cJSON_IsObject(rb))
		return errbuf_set(eb, "rarbench: not an object");
	if (jsonget_double(rb, "rarbench", "estimate", JSONGET_REQUIRED, 0, RESULTS_TIME_MAX_S,
			   &p->estimate_s, eb) != 0)
		return -1;
	ci = jsonget_member(rb, "ci95");
	if (!cJSON_IsArray(ci) || cJSON_GetArraySize(ci) != 2)
		return errbuf_set(eb, "rarbench.ci95: not a pair");
	lo = cJSON_GetArrayItem(ci, 0);
	hi = cJSON_GetArrayItem(ci, 1);
	if (!cJSON_IsNull(lo) || !cJSON_IsNull(hi)) {
		if (!cJSON_IsNumber(lo) || !cJSON_IsNumber(hi) || !isfinite(lo->valuedouble) ||
		    !isfinite(hi->valuedouble) || !(lo->valuedouble <= hi->valuedouble))
			return errbuf_set(eb, "rarbench.ci95: not an interval in seconds");
		p->estimate_lo_s = lo->valuedouble;
		p->estimate_hi_s = hi->valuedouble;
	}
	name = jsonget_member(rb, "estimator");
	if (!cJSON_IsString(name) || name->valuestring[0] == '\0' ||
	    strlen(name->valuestring) >= sizeof(p->estimator))
		return errbuf_set(eb, "rarbench.estimator: not a short name");
	for (i = 0; name->valuestring[i] != '\0'; i++) {
		char c = name->valuestring[i];

		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
			return errbuf_set(eb, "rarbench.estimator: not a short name");
		p->estimator[i] = c;
	}
	p->estimator[i] = '\0';
	return results_rounds_parse(rb, p, eb);
}

/*
 * rarbench.daemon (a pkexec point: polkitd's cost over its runs): the name, CPU time per run
 * and peak; absent: "" and NaN. Present but malformed: an error.
 */
static int results_daemon(const cJSON *entry, struct results_point *p, struct errbuf *eb)
{
	const cJSON *d = jsonget_member(jsonget_member(entry, "rarbench"), "daemon"), *name;
	double ns = 0;

	p->daemon_name[0] = '\0';
	p->daemon_cpu_s = p->daemon_maxrss_kib = NAN;
	if (d == NULL || cJSON_IsNull(d))
		return 0;
	if (!cJSON_IsObject(d))
		return errbuf_set(eb, "rarbench.daemon: not an object");
	name = jsonget_member(d, "name");
	if (!cJSON_IsString(name) || name->valuestring[0] == '\0' ||
	    strlen(name->valuestring) >= sizeof(p->daemon_name) ||
	    strspn(name->valuestring, "abcdefghijklmnopqrstuvwxyz0123456789_-.") !=
		strlen(name->valuestring))
		return errbuf_set(eb, "rarbench.daemon.name: not a short name");
	if (jsonget_double(d, "rarbench.daemon", "cpu_ns_per_run", JSONGET_REQUIRED, 0, 1e15, &ns,
			   eb) != 0 ||
	    jsonget_double(d, "rarbench.daemon", "maxrss_kib", JSONGET_REQUIRED, 0, 1e12,
			   &p->daemon_maxrss_kib, eb) != 0)
		return -1;
	snprintf(p->daemon_name, sizeof(p->daemon_name), "%s", name->valuestring);
	p->daemon_cpu_s = ns / 1e9;
	return 0;
}

/*
 * A point of a sweep over a resource limit (rarbench's "limit.nofile" parameter) belongs to
 * its own series, one line per limit value: "sr-json (nofile 65536)". results_tool finds
 * the tool by the subject before " (".
 */
static int results_limit_series(struct results_point *p, struct errbuf *eb)
{
	struct growbuf b;
	size_t i;

	for (i = 0; i < p->n_params; i++) {
		const char *k = p->params[i].key;

		if (strncmp(k, "limit.", 6) != 0 || k[6] == '\0')
			continue;
		/* Subject, key and value are each at most RESULTS_MAX_STRING bytes. */
		growbuf_init(&b, 3 * (size_t)RESULTS_MAX_STRING + 8);
		if (growbuf_printf(&b, eb, "%s (%s %s)", p->subject, k + 6, p->params[i].value) <
		    0) {
			growbuf_free(&b);
			return -1;
		}
		free(p->subject);
		p->subject = growbuf_release(&b, NULL);
		return 0;
	}
	return 0;
}

/*
 * The counted pass's "counts" object (rarbench --counts): its "instructions" when its status is
 * "ok", else NaN; absent: NaN; with "repeats", their spread. Present but malformed: an error.
 */
static int results_counts(const cJSON *entry, struct results_point *p, struct errbuf *eb)
{
	const cJSON *c = jsonget_member(entry, "counts"), *st, *rep;

	p->counted = false;
	p->instructions = NAN;
	p->count_spread = 0;
	if (c == NULL || cJSON_IsNull(c))
		return 0;
	if (!cJSON_IsObject(c))
		return errbuf_set(eb, "counts: not an object");
	st = jsonget_member(c, "status");
	if (!cJSON_IsString(st) || strcmp(st->valuestring, "ok") != 0)
		return 0;
	if (jsonget_double(c, "counts", "instructions", JSONGET_REQUIRED, 0, 1e18, &p->instructions,
			   eb) != 0)
		return -1;
	/* A point whose counts varied was counted again (doc/counts.md): the median's spread. */
	rep = jsonget_member(c, "repeats");
	if (rep != NULL && jsonget_double(rep, "counts.repeats", "spread", JSONGET_REQUIRED, 0, 1,
					  &p->count_spread, eb) != 0)
		return -1;
	p->counted = true;
	return 0;
}

int results_entry_parse(const void *json, struct results_point *p, struct errbuf *eb)
{
	const cJSON *entry = json;
	const cJSON *command, *stddev;
	const char *v;

	if (!cJSON_IsObject(entry))
		return errbuf_set(eb, "not an object");
	command = jsonget_member(entry, "command");
	if (!cJSON_IsString(command))
		return errbuf_set(eb, "command: %s", command == NULL ? "missing" : "not a string");
	if (strnlen(command->valuestring, RESULTS_MAX_STRING + 1) > RESULTS_MAX_STRING)
		return errbuf_set(eb, "command: longer than %u bytes", RESULTS_MAX_STRING);
	p->command = strdup(command->valuestring);
	if (p->command == NULL)
		return errbuf_set(eb, "command: out of memory");
	if (results_time(entry, "mean", &p->mean_s, eb) != 0 ||
	    results_time(entry, "median", &p->median_s, eb) != 0 ||
	    results_time(entry, "min", &p->min_s, eb) != 0 ||
	    results_time(entry, "max", &p->max_s, eb) != 0)
		return -1;
	stddev = jsonget_member(entry, "stddev");
	p->stddev_s = NAN; /* absent or null: one run */
	if (!cJSON_IsNull(stddev) && jsonget_double(entry, "", "stddev", JSONGET_OPTIONAL, 0,
						    RESULTS_TIME_MAX_S, &p->stddev_s, eb) != 0)
		return -1;
	if (results_times(entry, p, eb) != 0 || results_params(entry, p, eb) != 0 ||
	    results_estimate(entry, p, eb) != 0 || results_counts(entry, p, eb) != 0 ||
	    results_daemon(entry, p, eb) != 0)
		return -1;
	results_mean_ci(p);

	v = results_point_param(p, "subject");
	p->subject = v != NULL ? results_strdup(v, eb, "parameters.subject")
			       : results_subject_from_command(p->command, eb);
	if (p->subject == NULL)
		return -1;
	if (p->subject[0] == '\0')
		return errbuf_set(eb, "parameters.subject: empty");
	/* A subject names rarplot's files (data/, history's LINE.tsv): a name that walks out of
	 * the output directory, or hides in a terminal, is refused here, where it is read. */
	if (!fileio_name_is_plain(p->subject))
		return errbuf_set(eb,
				  "%s: holds '/', '..' or a control byte (a subject's name becomes "
				  "a file name)",
				  v != NULL ? "parameters.subject" : "command");
	if (results_limit_series(p, eb) != 0)
		return -1;
	v = results_point_param(p, "format");
	p->format = results_strdup(v != NULL && v[0] != '\0' ? v : "-", eb, "parameters.format");
	if (p->format == NULL)
		return -1;
	v = results_point_param(p, "host");
	p->host = results_strdup(v != NULL && v[0] != '\0' ? v : "-", eb, "parameters.host");
	if (p->host == NULL)
		return -1;
	return 0;
}
