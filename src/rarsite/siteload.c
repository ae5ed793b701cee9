/* siteload: doc/results/'s runs, experiments and meta (siteload.h). */
#include "siteload.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "growbuf.h"
#include "jsonget.h"
#include "runfiles.h"

void siteload_meta_clear(struct siteload_meta *m)
{
	char **s[] = {&m->name,          &m->description,  &m->started,      &m->finished,
		      &m->commit,        &m->hostname,     &m->kernel,       &m->cpu_model,
		      &m->cpu_vendor,    &m->cpu_family,   &m->cpu_model_no, &m->virtualization,
		      &m->manifest_path, &m->manifest_text};

	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		free(*s[i]);
		*s[i] = NULL;
	}
	m->cpus = m->mem_bytes = NAN;
}

/* obj.key as a new string into *out when it is one; absent or null leaves it NULL; another type
 * is an error. */
static int get_str(const cJSON *obj, const char *path, const char *key, char **out,
		   struct errbuf *eb)
{
	const cJSON *v = jsonget_member(obj, key);
	char where[JSONGET_PATH_MAX_CHARS];

	if (v == NULL || cJSON_IsNull(v))
		return 0;
	jsonget_child(where, path, key);
	if (!cJSON_IsString(v) || v->valuestring == NULL)
		return jsonget_fail(eb, where, "expected a string, got %s", jsonget_type_name(v));
	*out = strdup(v->valuestring);
	if (*out == NULL)
		return errbuf_set(eb, "out of memory");
	return 0;
}

static int get_num(const cJSON *obj, const char *path, const char *key, double *out,
		   struct errbuf *eb)
{
	const cJSON *v = jsonget_member(obj, key);
	char where[JSONGET_PATH_MAX_CHARS];

	if (v == NULL || cJSON_IsNull(v))
		return 0;
	jsonget_child(where, path, key);
	return jsonget_as_double(v, where, 0, 1e18, out, eb);
}

/* obj.key when it is an object, else NULL (absent); another type is an error. */
static int get_obj(const cJSON *obj, const char *path, const char *key, const cJSON **out,
		   struct errbuf *eb)
{
	const cJSON *v = jsonget_member(obj, key);
	char where[JSONGET_PATH_MAX_CHARS];

	*out = NULL;
	if (v == NULL || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsObject(v)) {
		jsonget_child(where, path, key);
		return jsonget_fail(eb, where, "expected an object, got %s", jsonget_type_name(v));
	}
	*out = v;
	return 0;
}

static int meta_fill(const cJSON *meta, struct siteload_meta *m, struct errbuf *eb)
{
	const cJSON *host = NULL, *machine = NULL, *cpu = NULL, *rarperf = NULL;

	if (get_str(meta, "$.meta", "name", &m->name, eb) != 0 ||
	    get_str(meta, "$.meta", "description", &m->description, eb) != 0 ||
	    get_str(meta, "$.meta", "started", &m->started, eb) != 0 ||
	    get_str(meta, "$.meta", "finished", &m->finished, eb) != 0 ||
	    get_str(meta, "$.meta", "manifest_path", &m->manifest_path, eb) != 0 ||
	    get_str(meta, "$.meta", "manifest_text", &m->manifest_text, eb) != 0 ||
	    get_obj(meta, "$.meta", "rarperf", &rarperf, eb) != 0 ||
	    get_obj(meta, "$.meta", "host", &host, eb) != 0 ||
	    get_obj(meta, "$.meta", "machine", &machine, eb) != 0)
		return -1;
	if (rarperf != NULL && get_str(rarperf, "$.meta.rarperf", "commit", &m->commit, eb) != 0)
		return -1;
	if (host != NULL &&
	    (get_str(host, "$.meta.host", "hostname", &m->hostname, eb) != 0 ||
	     get_str(host, "$.meta.host", "kernel", &m->kernel, eb) != 0 ||
	     get_str(host, "$.meta.host", "cpu_model", &m->cpu_model, eb) != 0 ||
	     get_str(host, "$.meta.host", "virtualization", &m->virtualization, eb) != 0 ||
	     get_num(host, "$.meta.host", "cpus", &m->cpus, eb) != 0 ||
	     get_num(host, "$.meta.host", "mem_bytes", &m->mem_bytes, eb) != 0))
		return -1;
	if (machine != NULL && get_obj(machine, "$.meta.machine", "cpu", &cpu, eb) != 0)
		return -1;
	if (cpu != NULL && (get_str(cpu, "$.meta.machine.cpu", "vendor", &m->cpu_vendor, eb) != 0 ||
			    get_str(cpu, "$.meta.machine.cpu", "family", &m->cpu_family, eb) != 0 ||
			    get_str(cpu, "$.meta.machine.cpu", "model", &m->cpu_model_no, eb) != 0))
		return -1;
	return 0;
}

int siteload_meta_parse(const char *text, size_t len, const char *name, struct siteload_meta *m,
			struct errbuf *eb)
{
	cJSON *root = cJSON_ParseWithLength(text, len);
	const cJSON *meta = NULL;
	int rc = -1;

	memset(m, 0, sizeof(*m));
	m->cpus = m->mem_bytes = NAN;
	if (root == NULL) {
		errbuf_set(eb, "%s: not JSON", name);
		return -1;
	}
	if (!cJSON_IsObject(root)) {
		jsonget_fail(eb, "$", "expected an object, got %s", jsonget_type_name(root));
		goto out;
	}
	if (get_obj(root, "$", "meta", &meta, eb) != 0 ||
	    (meta != NULL && meta_fill(meta, m, eb) != 0))
		goto out;
	rc = 0;
out:
	if (rc != 0) {
		errbuf_prefix(eb, "%s", name);
		siteload_meta_clear(m);
	}
	cJSON_Delete(root);
	return rc;
}

static bool exists_in(const char *dir, const char *name)
{
	char path[SITELOAD_PATH_MAX];
	struct stat st;

	return fileio_fmt(path, sizeof(path), "%s/%s", dir, name) == 0 && stat(path, &st) == 0 &&
	       S_ISREG(st.st_mode);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The plain-named sub-folders of dir, sorted: *names (each and the array freed by the caller). */
static int subdirs(const char *dir, char ***names, size_t *n, size_t max, struct errbuf *eb)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t cap = 0;

	*names = NULL;
	*n = 0;
	if (d == NULL)
		return errbuf_set_errno(eb, errno, "%s: cannot open", dir);
	while ((e = readdir(d)) != NULL) {
		char path[SITELOAD_PATH_MAX];
		struct stat st;

		if (e->d_name[0] == '.' || !fileio_name_is_plain(e->d_name) ||
		    fileio_fmt(path, sizeof(path), "%s/%s", dir, e->d_name) != 0 ||
		    lstat(path, &st) != 0 || !S_ISDIR(st.st_mode))
			continue;
		if (*n == max || growarray(names, &cap, *n + 1, sizeof(**names), max, eb) != 0) {
			closedir(d);
			return errbuf_set(eb, "%s: more than %zu folders", dir, max);
		}
		if (((*names)[*n] = strdup(e->d_name)) == NULL) {
			closedir(d);
			return errbuf_set(eb, "out of memory");
		}
		(*n)++;
	}
	closedir(d);
	if (*n > 0)
		qsort(*names, *n, sizeof(**names), cmp_names);
	return 0;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static int load_meta(struct siteload_exp *e, struct errbuf *eb)
{
	char path[SITELOAD_PATH_MAX], *text = NULL;
	size_t len = 0;
	int rc;

	if (fileio_join(path, sizeof(path), e->dir, RUNFILES_RESULTS, eb) != 0 ||
	    fileio_read(path, SITELOAD_RESULTS_MAX, NULL, &text, &len, eb) != 0)
		return -1;
	rc = siteload_meta_parse(text, len, path, &e->meta, eb);
	free(text);
	return rc;
}

static int scan_run(struct siteload_run *run, struct errbuf *eb)
{
	char **names = NULL;
	size_t n = 0;
	int rc = -1;

	run->has_readme = exists_in(run->dir, "README.md");
	run->has_machine_txt = exists_in(run->dir, "machine.txt");
	if (subdirs(run->dir, &names, &n, SITELOAD_MAX_EXPS, eb) != 0)
		goto out;
	run->exps = calloc(n > 0 ? n : 1, sizeof(*run->exps));
	if (run->exps == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		struct siteload_exp *e = &run->exps[run->n_exps];
		char path[SITELOAD_PATH_MAX];

		if (fileio_join(path, sizeof(path), run->dir, names[i], eb) != 0)
			goto out;
		e->has_results = exists_in(path, RUNFILES_RESULTS);
		e->has_fits = exists_in(path, RUNFILES_FITS);
		e->has_report =
		    exists_in(path, RUNFILES_REPORT) || exists_in(path, RUNFILES_COMPARISON);
		if (!e->has_results && !e->has_fits && !e->has_report)
			continue;
		e->meta.cpus = e->meta.mem_bytes = NAN;
		e->name = strdup(names[i]);
		e->dir = strdup(path);
		run->n_exps++;
		if (e->name == NULL || e->dir == NULL) {
			errbuf_set(eb, "out of memory");
			goto out;
		}
		if (e->has_results && load_meta(e, eb) != 0)
			goto out;
	}
	rc = 0;
out:
	free_names(names, n);
	return rc;
}

int siteload_scan(const char *dir, struct siteload **out, struct errbuf *eb)
{
	struct siteload *s = calloc(1, sizeof(*s));
	char **names = NULL;
	size_t n = 0;

	*out = NULL;
	if (s == NULL || (s->dir = strdup(dir)) == NULL) {
		free(s);
		return errbuf_set(eb, "out of memory");
	}
	if (subdirs(dir, &names, &n, SITELOAD_MAX_RUNS, eb) != 0)
		goto fail;
	s->runs = calloc(n > 0 ? n : 1, sizeof(*s->runs));
	if (s->runs == NULL) {
		errbuf_set(eb, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < n; i++) {
		struct siteload_run *run = &s->runs[s->n_runs++];
		char path[SITELOAD_PATH_MAX];

		if (fileio_join(path, sizeof(path), dir, names[i], eb) != 0)
			goto fail;
		run->name = strdup(names[i]);
		run->dir = strdup(path);
		if (run->name == NULL || run->dir == NULL) {
			errbuf_set(eb, "out of memory");
			goto fail;
		}
		if (scan_run(run, eb) != 0)
			goto fail;
	}
	free_names(names, n);
	*out = s;
	return 0;
fail:
	free_names(names, n);
	siteload_free(s);
	return -1;
}

void siteload_free(struct siteload *s)
{
	if (s == NULL)
		return;
	for (size_t i = 0; i < s->n_runs; i++) {
		struct siteload_run *r = &s->runs[i];

		for (size_t j = 0; j < r->n_exps; j++) {
			siteload_meta_clear(&r->exps[j].meta);
			free(r->exps[j].name);
			free(r->exps[j].dir);
		}
		free(r->exps);
		free(r->name);
		free(r->dir);
	}
	free(s->runs);
	free(s->dir);
	free(s);
}

const struct siteload_run *siteload_find(const struct siteload *s, const char *name)
{
	for (size_t i = 0; i < s->n_runs; i++)
		if (strcmp(s->runs[i].name, name) == 0)
			return &s->runs[i];
	return NULL;
}

const struct siteload_meta *siteload_machine(const struct siteload_run *run)
{
	for (size_t i = 0; i < run->n_exps; i++)
		if (run->exps[i].has_results && run->exps[i].meta.cpu_model != NULL)
			return &run->exps[i].meta;
	return NULL;
}
