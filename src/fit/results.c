/* results: read hyperfine-format JSON (plain hyperfine, rarbench results.json, rarlab merged.json).
 */
#include "results.h"

#include <cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "labgroups.h"
#include "policy_format.h"
#include "sanitize.h"
#include "student.h"

struct results *results_new(void)
{
	return calloc(1, sizeof(struct results));
}

void results_point_clear(struct results_point *p)
{
	size_t i;

	free(p->command);
	free(p->subject);
	free(p->format);
	free(p->host);
	for (i = 0; i < p->n_params; i++) {
		free(p->params[i].key);
		free(p->params[i].value);
	}
	free(p->params);
	free(p->rounds);
	memset(p, 0, sizeof(*p));
}

void results_free(struct results *res)
{
	size_t i;

	if (res == NULL)
		return;
	free(res->tools);
	free(res->lab_md);
	for (i = 0; i < res->n_points; i++)
		results_point_clear(&res->points[i]);
	free(res->points);
	for (i = 0; i < res->n_refs; i++)
		results_point_clear(&res->refs[i]);
	free(res->refs);
	for (i = 0; i < res->n_sources; i++)
		free(res->sources[i]);
	free(res->sources);
	free(res);
}

const char *results_point_param(const struct results_point *p, const char *key)
{
	size_t i;

	for (i = 0; i < p->n_params; i++)
		if (strcmp(p->params[i].key, key) == 0)
			return p->params[i].value;
	return NULL;
}

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

/* Reads a required finite, non-negative number. */
static int results_number(const cJSON *obj, const char *key, double *out, struct errbuf *eb)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (item == NULL)
		return errbuf_set(eb, "%s: missing", key);
	if (!cJSON_IsNumber(item))
		return errbuf_set(eb, "%s: not a number", key);
	*out = item->valuedouble;
	if (!isfinite(*out) || *out < 0)
		return errbuf_set(eb, "%s: %g is not a time in seconds", key, *out);
	return 0;
}

static int results_params(const cJSON *entry, struct results_point *p, struct errbuf *eb)
{
	const cJSON *params = cJSON_GetObjectItemCaseSensitive(entry, "parameters");
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
	const cJSON *times = cJSON_GetObjectItemCaseSensitive(entry, "times");
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
		if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble) ||
		    item->valuedouble < 0) {
			free(v);
			return errbuf_set(eb, "times[%zu]: not a time in seconds", i);
		}
		v[i++] = item->valuedouble;
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
	const cJSON *rb = cJSON_GetObjectItemCaseSensitive(entry, "rarbench"), *ci, *name;
	const cJSON *lo, *hi;
	size_t i;

	p->estimate_s = p->estimate_lo_s = p->estimate_hi_s = NAN;
	p->estimator[0] = '\0';
	if (rb == NULL || cJSON_IsNull(rb))
		return 0;
	if (!cJSON_IsObject(rb))
		return errbuf_set(eb, "rarbench: not an object");
	if (results_number(rb, "estimate", &p->estimate_s, eb) != 0)
		return errbuf_prefix(eb, "rarbench");
	ci = cJSON_GetObjectItemCaseSensitive(rb, "ci95");
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
	name = cJSON_GetObjectItemCaseSensitive(rb, "estimator");
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
 * A point of a sweep over a resource limit (rarbench's "limit.nofile" parameter) belongs to
 * its own series, one line per limit value: "sr-json (nofile 65536)". results_tool finds
 * the tool by the subject before " (".
 */
static int results_limit_series(struct results_point *p, struct errbuf *eb)
{
	char *grown;
	size_t i, len;

	for (i = 0; i < p->n_params; i++) {
		const char *k = p->params[i].key;

		if (strncmp(k, "limit.", 6) != 0 || k[6] == '\0')
			continue;
		len = strlen(p->subject) + strlen(k) + strlen(p->params[i].value) + 8;
		grown = realloc(p->subject, len);
		if (grown == NULL)
			return errbuf_set(eb, "out of memory");
		p->subject = grown;
		snprintf(grown + strlen(grown), len - strlen(grown), " (%s %s)", k + 6,
			 p->params[i].value);
		return 0;
	}
	return 0;
}

int results_entry_parse(const void *json, struct results_point *p, struct errbuf *eb)
{
	const cJSON *entry = json;
	const cJSON *command, *stddev;
	const char *v;

	if (!cJSON_IsObject(entry))
		return errbuf_set(eb, "not an object");
	command = cJSON_GetObjectItemCaseSensitive(entry, "command");
	if (!cJSON_IsString(command))
		return errbuf_set(eb, "command: %s", command == NULL ? "missing" : "not a string");
	if (strnlen(command->valuestring, RESULTS_MAX_STRING + 1) > RESULTS_MAX_STRING)
		return errbuf_set(eb, "command: longer than %u bytes", RESULTS_MAX_STRING);
	p->command = strdup(command->valuestring);
	if (p->command == NULL)
		return errbuf_set(eb, "command: out of memory");
	if (results_number(entry, "mean", &p->mean_s, eb) != 0 ||
	    results_number(entry, "median", &p->median_s, eb) != 0 ||
	    results_number(entry, "min", &p->min_s, eb) != 0 ||
	    results_number(entry, "max", &p->max_s, eb) != 0)
		return -1;
	stddev = cJSON_GetObjectItemCaseSensitive(entry, "stddev");
	if (stddev == NULL || cJSON_IsNull(stddev))
		p->stddev_s = NAN;
	else if (results_number(entry, "stddev", &p->stddev_s, eb) != 0)
		return -1;
	if (results_times(entry, p, eb) != 0 || results_params(entry, p, eb) != 0 ||
	    results_estimate(entry, p, eb) != 0)
		return -1;
	results_mean_ci(p);

	v = results_point_param(p, "subject");
	p->subject = v != NULL ? results_strdup(v, eb, "parameters.subject")
			       : results_subject_from_command(p->command, eb);
	if (p->subject == NULL)
		return -1;
	if (p->subject[0] == '\0')
		return errbuf_set(eb, "parameters.subject: empty");
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

static int results_grow(struct results *res, size_t extra, struct errbuf *eb)
{
	struct results_point *np;
	size_t want = res->n_points + extra, cap;

	if (want > RESULTS_MAX_POINTS)
		return errbuf_set(eb, "more than %u results in all", RESULTS_MAX_POINTS);
	if (want <= res->cap_points)
		return 0;
	cap = res->cap_points ? res->cap_points : 16;
	while (cap < want)
		cap *= 2;
	np = realloc(res->points, cap * sizeof(*np));
	if (np == NULL)
		return errbuf_set(eb, "out of memory");
	res->points = np;
	res->cap_points = cap;
	return 0;
}

bool results_has_subject(const struct results *res, const char *subject)
{
	size_t i;

	/* A swept limit's series "sudo (nofile 1024)" are subject sudo's. */
	for (i = 0; i < res->n_points; i++) {
		const char *p = res->points[i].subject;
		size_t len = strlen(subject);

		if (strcmp(p, subject) == 0 || (strncmp(p, subject, len) == 0 && p[len] == ' '))
			return true;
	}
	return false;
}

void results_subjects(const struct results *res, char *buf, size_t size)
{
	static const char more[] = ", ...";
	const char *shown[64];
	size_t n_shown = 0, used = 0, i, j;

	if (size == 0)
		return;
	buf[0] = '\0';
	for (i = 0; i < res->n_points; i++) {
		const char *s = res->points[i].subject;
		size_t len = strlen(s);

		for (j = 0; j < n_shown; j++)
			if (strcmp(shown[j], s) == 0)
				break;
		if (j < n_shown)
			continue;
		/* Room for this one, its ", " and the ", ..." a later one may need. */
		if (n_shown == sizeof(shown) / sizeof(shown[0]) ||
		    used + 2 + len + sizeof(more) > size) {
			const char *tail = n_shown > 0 ? more : more + 2;

			if (used + strlen(tail) < size)
				memcpy(buf + used, tail, strlen(tail) + 1);
			return;
		}
		used += (size_t)snprintf(buf + used, size - used, "%s%s", n_shown ? ", " : "", s);
		shown[n_shown++] = s;
	}
}

const char *results_tool(const struct results *res, const char *subject)
{
	size_t i;

	const char *paren = strstr(subject, " (");
	size_t len = paren != NULL ? (size_t)(paren - subject) : strlen(subject);

	for (i = 0; i < res->n_tools; i++)
		if (strncmp(res->tools[i].subject, subject, len) == 0 &&
		    res->tools[i].subject[len] == '\0')
			return res->tools[i].tool;
	return NULL;
}

/* The program a manifest subject runs, as the facts file names it ("dosr-cbor"). */
static const char *results_program_name(const cJSON *subject, char *buf, size_t size)
{
	const cJSON *program = cJSON_GetObjectItemCaseSensitive(subject, "program");
	const cJSON *format = cJSON_GetObjectItemCaseSensitive(subject, "format");
	const cJSON *rar = cJSON_GetObjectItemCaseSensitive(subject, "rar_version");
	enum policy_format f;
	bool known = cJSON_IsString(format) && policy_format_parse(format->valuestring, &f) == 0;

	if (cJSON_IsString(program)) {
		const char *slash = strrchr(program->valuestring, '/');

		snprintf(buf, size, "%s", slash != NULL ? slash + 1 : program->valuestring);
		return buf;
	}
	/* Another RootAsRole version's build, as rarbench names it by default (dosr-4.0.3-cbor);
	 * 3.3.4's is the plain dosr-<storage>. */
	if (cJSON_IsString(rar) && strcmp(rar->valuestring, "3.3.4") != 0 && known &&
	    policy_format_rar_storage(f) != NULL) {
		snprintf(buf, size, "dosr-%.32s-%.8s", rar->valuestring,
			 policy_format_rar_storage(f));
		return buf;
	}
	return known ? policy_format_program(f) : NULL;
}

/* The family a facts.json tool name belongs to: dosr-* is RootAsRole, doas and doas-pam are
 * OpenDoas, sudo-pam is sudo (its PAM build, which the tool's "pam" says). */
static const char *results_family(const char *program)
{
	if (strncmp(program, "dosr", 4) == 0)
		return "RootAsRole";
	if (strcmp(program, "doas") == 0 || strcmp(program, "doas-pam") == 0)
		return "OpenDoas";
	if (strcmp(program, "sudo-pam") == 0)
		return "sudo";
	return program;
}

/* Records what each subject of one rarbench meta is (first file to say it wins). */
static void results_read_tools(struct results *res, const cJSON *meta)
{
	const cJSON *subjects = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(meta, "manifest"), "subjects");
	const cJSON *tools = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(meta, "prefix_facts"), "tools");
	const cJSON *s;

	if (!cJSON_IsArray(subjects) || !cJSON_IsObject(tools))
		return;
	cJSON_ArrayForEach(s, subjects)
	{
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(s, "id"), *version, *pam;
		char buf[RESULTS_TOOL_MAX];
		const char *program = results_program_name(s, buf, sizeof(buf));
		struct results_tool *t;

		if (!cJSON_IsString(id) || program == NULL || results_tool(res, id->valuestring) ||
		    res->n_tools == RESULTS_TOOLS_MAX ||
		    strlen(id->valuestring) >= RESULTS_TOOL_MAX)
			continue;
		version = cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(tools, program), "version");
		pam = cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(tools, program), "pam");
		if (!cJSON_IsString(version))
			continue;
		t = realloc(res->tools, (res->n_tools + 1) * sizeof(*t));
		if (t == NULL)
			return;
		res->tools = t;
		t = &res->tools[res->n_tools++];
		snprintf(t->subject, sizeof(t->subject), "%s", id->valuestring);
		/* Its authentication configuration, when the facts say it: "sudo 1.9.13p3, PAM". */
		snprintf(t->tool, sizeof(t->tool), "%.40s %.40s%s", results_family(program),
			 version->valuestring,
			 cJSON_IsTrue(pam)    ? ", PAM"
			 : cJSON_IsFalse(pam) ? ", no PAM"
					      : "");
		/* Bytes from a file: only what a legend and a Markdown cell can carry. */
		for (char *q = t->tool; *q != '\0'; q++)
			if ((unsigned char)*q < 0x20 || (unsigned char)*q > 0x7e || *q == '"' ||
			    *q == '\'' || *q == '\\' || *q == '|')
				*q = '?';
	}
}

/* Adds name to res->emulated when meta's facts say the host ran under TCG. */
static void results_read_virt(struct results *res, const cJSON *meta, const char *name)
{
	const cJSON *virt = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(meta, "prefix_facts"), "virtualisation");
	size_t len = strlen(res->emulated);
	const char *ell = ", ...";

	if (!cJSON_IsString(virt) || strcmp(virt->valuestring, "tcg") != 0 || name == NULL)
		return;
	res->n_emulated++;
	if (len >= strlen(ell) && strcmp(res->emulated + len - strlen(ell), ell) == 0)
		return;
	if (len + strlen(name) + 2 + strlen(ell) + 1 > sizeof(res->emulated))
		snprintf(res->emulated + len, sizeof(res->emulated) - len, "%s", ell);
	else
		snprintf(res->emulated + len, sizeof(res->emulated) - len, "%s%s", len ? ", " : "",
			 name);
}

/* A rarbench results.json has meta; a rarlab merged.json has one meta per host. */
static void results_read_all_tools(struct results *res, const cJSON *root, const char *name)
{
	const cJSON *meta = cJSON_GetObjectItemCaseSensitive(root, "meta"), *h;
	const cJSON *hosts = cJSON_GetObjectItemCaseSensitive(meta, "hosts");

	results_read_tools(res, meta);
	results_read_virt(res, meta, name);
	cJSON_ArrayForEach(h, hosts)
	{
		results_read_tools(res, h);
		results_read_virt(res, h, h->string);
	}
}

/* Folds one more say into what is known: the first sets it, a different one makes it mixed. */
static void results_method_fold(char *known, const char *more)
{
	if (known[0] == '\0')
		snprintf(known, RESULTS_METHOD_MAX, "%s", more);
	else if (strcmp(known, more) != 0)
		snprintf(known, RESULTS_METHOD_MAX, "%s", RESULTS_MIXED);
}

/* item's string when it is a short name ([a-z0-9_-], shorter than RESULTS_METHOD_MAX). */
static const char *results_method_name(const cJSON *item)
{
	const char *s = cJSON_IsString(item) ? item->valuestring : NULL;
	size_t i;

	if (s == NULL || s[0] == '\0' || strlen(s) >= RESULTS_METHOD_MAX)
		return RESULTS_UNKNOWN;
	for (i = 0; s[i] != '\0'; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_' ||
		      s[i] == '-'))
			return RESULTS_UNKNOWN;
	return s;
}

/* The estimator and contended treatment one rarbench meta states, folded into est and cont. */
static void results_read_measure(const cJSON *meta, const struct results *res, size_t first,
				 char *est, char *cont)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(meta, "measure"), *drop;
	const char *e = results_method_name(cJSON_GetObjectItemCaseSensitive(m, "estimator"));
	char from_points[RESULTS_METHOD_MAX] = "";
	size_t i;

	if (strcmp(e, RESULTS_UNKNOWN) == 0) {
		/* No meta (hyperfine's own, a trimmed file): what the results themselves say. */
		for (i = first; i < res->n_points; i++)
			results_method_fold(from_points, res->points[i].estimator[0] != '\0'
							     ? res->points[i].estimator
							     : RESULTS_UNKNOWN);
		if (from_points[0] != '\0')
			e = from_points;
	}
	results_method_fold(est, e);
	drop = cJSON_GetObjectItemCaseSensitive(m, "drop_contended");
	if (cJSON_IsBool(drop))
		results_method_fold(cont, cJSON_IsTrue(drop) ? "drop" : "keep");
	else
		results_method_fold(
		    cont, results_method_name(cJSON_GetObjectItemCaseSensitive(m, "contended")));
}

/* What this document (its points from first on) says of the estimator, folded into res. */
static void results_read_method(struct results *res, const cJSON *root, size_t first)
{
	const cJSON *meta = cJSON_GetObjectItemCaseSensitive(root, "meta"), *h;
	const cJSON *hosts = cJSON_GetObjectItemCaseSensitive(meta, "hosts");
	char est[RESULTS_METHOD_MAX] = "", cont[RESULTS_METHOD_MAX] = "";

	if (cJSON_GetArraySize(hosts) > 0 &&
	    cJSON_GetObjectItemCaseSensitive(meta, "measure") == NULL) {
		cJSON_ArrayForEach(h, hosts)
		{
			results_read_measure(h, res, first, est, cont);
		}
	} else {
		results_read_measure(meta, res, first, est, cont);
	}
	results_method_fold(res->estimator, est);
	results_method_fold(res->contended, cont);
}

int results_parse(struct results *res, const char *buf, size_t len, const char *name,
		  struct errbuf *eb)
{
	cJSON *root = NULL;
	const cJSON *arr, *entry;
	const char *end = NULL;
	char **nsrc = NULL;
	size_t first = res->n_points, n, i = 0;
	int rc = -1;

	root = cJSON_ParseWithLengthOpts(buf, len, &end, 0);
	/* cJSON stops after the first value; anything but blanks after it is an error. */
	while (root != NULL && end != NULL && end < buf + len &&
	       (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r'))
		end++;
	if (root != NULL && end != NULL && end < buf + len && *end != '\0') {
		errbuf_set(eb, "%s: not valid JSON (trailing data at byte %zu)", name,
			   (size_t)(end - buf));
		goto out;
	}
	if (root == NULL) {
		const char *at = cJSON_GetErrorPtr();
		size_t off = at != NULL && at >= buf && at <= buf + len ? (size_t)(at - buf) : 0;

		errbuf_set(eb, "%s: not valid JSON (near byte %zu)", name, off);
		goto out;
	}
	if (!cJSON_IsObject(root)) {
		errbuf_set(eb, "%s: not a JSON object with a \"results\" array", name);
		goto out;
	}
	arr = cJSON_GetObjectItemCaseSensitive(root, "results");
	if (!cJSON_IsArray(arr)) {
		errbuf_set(eb, "%s: results: %s", name,
			   arr == NULL ? "missing (not a hyperfine export)" : "not an array");
		goto out;
	}
	n = (size_t)cJSON_GetArraySize(arr);
	if (n == 0) {
		errbuf_set(eb, "%s: results: empty", name);
		goto out;
	}
	if (results_grow(res, n, eb) != 0) {
		errbuf_prefix(eb, "%s", name);
		goto out;
	}
	nsrc = realloc(res->sources, (res->n_sources + 1) * sizeof(*nsrc));
	if (nsrc == NULL) {
		errbuf_set(eb, "%s: out of memory", name);
		goto out;
	}
	res->sources = nsrc;
	res->sources[res->n_sources] = strdup(name);
	if (res->sources[res->n_sources] == NULL) {
		errbuf_set(eb, "%s: out of memory", name);
		goto out;
	}
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
	results_read_all_tools(res, root, name);
	results_read_method(res, root, first);
	/* out of memory here leaves the points read and only the groups' section out */
	rc = labgroups_read(root, &res->lab_md) < 0 ? errbuf_set(eb, "%s: out of memory", name) : 0;
out:
	if (rc != 0) {
		while (res->n_points > first)
			results_point_clear(&res->points[--res->n_points]);
		if (nsrc != NULL) {
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
