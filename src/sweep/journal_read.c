/* journal_read: reads DIR/journal.jsonl back (a torn last line is a crash, not an error) and
 * checks it belongs to the manifest (journal.h). */
#include "journal.h"
#include "jsonbudget.h"
#include "sanitize.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "growbuf.h"
#include "jsonget.h"

static void subject_clear(struct journal_subject *s)
{
	free(s->subject);
	free(s->command);
	free(s->format);
	free(s->result.wall_ns);
	free(s->result.user_ns);
	free(s->result.system_ns);
	free(s->result.exit_codes);
	free(s->result.nivcsw);
	free(s->result.stall_ns);
	free(s->result.ru);
	memset(s, 0, sizeof(*s));
}

static void point_clear(struct journal_point *p)
{
	size_t i;

	for (i = 0; i < p->info.nrefused; i++) {
		free(p->info.refused[i].subject);
		free(p->info.refused[i].cls);
		free(p->info.refused[i].error);
	}
	free(p->info.refused);
	for (i = 0; i < p->info.ndaemons; i++) {
		free(p->info.daemons[i].subject);
		free(p->info.daemons[i].name);
	}
	free(p->info.daemons);

	for (i = 0; i < p->nsubjects; i++)
		subject_clear(&p->subjects[i]);
	free(p->subjects);
	free(p->id);
	memset(p, 0, sizeof(*p));
}

void journal_contents_clear(struct journal_contents *c)
{
	size_t i;

	for (i = 0; i < c->npoints; i++)
		point_clear(&c->points[i]);
	free(c->points);
	cJSON_Delete(c->header);
	memset(c, 0, sizeof(*c));
}

/*
 * The journal's checks are jsonget's; a line that fails one is "not a journal
 * point" as a whole (the reader says which line), so their messages go unread.
 */
static char *dup_string(const cJSON *o, const char *key, size_t max)
{
	struct errbuf unread;
	const char *v;

	if (jsonget_string(o, "", key, JSONGET_REQUIRED, max, &v, &unread) < 0)
		return NULL;
	return strdup(v);
}

/* Reads array key of o into a new array of n u64 (n set by the first array read when 0). */
static int read_u64s(const cJSON *o, const char *key, size_t *n, uint64_t **out, double max)
{
	const cJSON *a = jsonget_member(o, key), *it;
	size_t i = 0, len;

	if (!cJSON_IsArray(a))
		return -1;
	len = (size_t)cJSON_GetArraySize(a);
	if (len == 0 || (*n != 0 && len != *n))
		return -1;
	*out = calloc(len, sizeof(**out));
	if (*out == NULL)
		return -1;
	cJSON_ArrayForEach(it, a)
	{
		struct errbuf unread;

		if (jsonget_as_uint(it, key, 0, max, &(*out)[i++], &unread) < 0)
			return -1;
	}
	*n = len;
	return 0;
}

/* The rusage counters a step keeps per run, by name (journal and export alike). */
static const struct {
	const char *name;
	size_t off;
} ru_fields[] = {
    {"minflt", offsetof(struct proc_rusage, minflt)},
    {"majflt", offsetof(struct proc_rusage, majflt)},
    {"maxrss_kib", offsetof(struct proc_rusage, maxrss_kib)},
    {"inblock", offsetof(struct proc_rusage, inblock)},
    {"nvcsw", offsetof(struct proc_rusage, nvcsw)},
};
#define RU_FIELDS (sizeof(ru_fields) / sizeof(ru_fields[0]))

/* The optional "rusage" object of a subject (n runs) into r->ru. 0 (absent too) or -1. */
static int parse_rusage(const cJSON *o, size_t n, struct measure_result *r)
{
	const cJSON *ru = jsonget_member(o, "rusage");
	uint64_t *v = NULL;

	if (ru == NULL)
		return 0;
	if ((r->ru = calloc(n, sizeof(*r->ru))) == NULL)
		return -1;
	for (size_t f = 0; f < RU_FIELDS; f++) {
		size_t len = n;

		if (read_u64s(ru, ru_fields[f].name, &len, &v, JSONGET_INT_MAX) < 0) {
			free(v);
			return -1;
		}
		for (size_t i = 0; i < n; i++)
			*(uint64_t *)((char *)&r->ru[i] + ru_fields[f].off) = v[i];
		free(v);
		v = NULL;
	}
	return 0;
}

static int parse_subject(const cJSON *o, struct journal_subject *s)
{
	uint64_t *codes = NULL, *csw = NULL, *stall = NULL;
	size_t n = 0, i;
	int rc = -1;

	if (!cJSON_IsObject(o))
		return -1;
	s->subject = dup_string(o, "subject", 256);
	s->format = dup_string(o, "format", 64);
	s->command = dup_string(o, "command", 65536);
	if (s->subject == NULL || s->format == NULL || s->command == NULL)
		goto out;
	if (read_u64s(o, "wall_ns", &n, &s->result.wall_ns, JSONGET_INT_MAX) < 0 ||
	    read_u64s(o, "user_ns", &n, &s->result.user_ns, JSONGET_INT_MAX) < 0 ||
	    read_u64s(o, "system_ns", &n, &s->result.system_ns, JSONGET_INT_MAX) < 0 ||
	    read_u64s(o, "exit_codes", &n, &codes, 65535) < 0)
		goto out;
	/* Optional: journals written before rarbench recorded context switches lack it. */
	if (jsonget_member(o, "nivcsw") != NULL && read_u64s(o, "nivcsw", &n, &csw, UINT32_MAX) < 0)
		goto out;
	/* Optional: journals written before rarbench recorded the CPU stall, or on a host without
	 * PSI, lack it (the runs are then judged by their off-CPU time). */
	if (jsonget_member(o, "stall_ns") != NULL &&
	    read_u64s(o, "stall_ns", &n, &stall, JSONGET_INT_MAX) < 0)
		goto out;
	s->result.exit_codes = calloc(n, sizeof(int));
	if (s->result.exit_codes == NULL)
		goto out;
	if (stall != NULL) {
		s->result.stall_ns = calloc(n, sizeof(int64_t));
		if (s->result.stall_ns == NULL)
			goto out;
		for (i = 0; i < n; i++)
			s->result.stall_ns[i] = (int64_t)stall[i];
	}
	if (csw != NULL) {
		s->result.nivcsw = calloc(n, sizeof(uint32_t));
		if (s->result.nivcsw == NULL)
			goto out;
		for (i = 0; i < n; i++)
			s->result.nivcsw[i] = (uint32_t)csw[i];
	}
	/* Optional too: journals written before rarbench kept them lack it. */
	if (parse_rusage(o, n, &s->result) < 0)
		goto out;
	s->result.all_succeeded = true;
	for (i = 0; i < n; i++) {
		s->result.exit_codes[i] = (int)codes[i];
		if (codes[i] != 0)
			s->result.all_succeeded = false;
	}
	s->result.n = n;
	s->result.cap = n;
	s->result.complete = true;
	rc = 0;
out:
	free(codes);
	free(csw);
	free(stall);
	return rc;
}

/* A finite number in [0, max] at o.key into *out; absent keeps *out. 0 or -1. */
static int read_number(const cJSON *o, const char *key, double max, double *out)
{
	struct errbuf unread;

	return jsonget_double(o, "", key, JSONGET_OPTIONAL, 0, max, out, &unread);
}

/* dup_string of text only (sanitize_unsafe_at): what a refusal's fields may hold. */
static char *dup_text(const cJSON *o, const char *key, size_t max)
{
	char *s = dup_string(o, key, max);

	if (s != NULL && sanitize_unsafe_at(s, strlen(s)) != strlen(s)) {
		free(s);
		return NULL;
	}
	return s;
}

/*
 * An optional array member key of a point line, at most JOURNAL_SUBJECTS_MAX long: *a the array
 * and *mem room for its elements (elem bytes each, zeroed). 0 when absent, 1 when read, -1 when
 * not an array, too long, or out of memory.
 */
static int optional_array(const cJSON *o, const char *key, size_t elem, const cJSON **a,
			  void **mem)
{
	size_t n;

	*a = jsonget_member(o, key);
	if (*a == NULL)
		return 0;
	if (!cJSON_IsArray(*a) || cJSON_GetArraySize(*a) > JOURNAL_SUBJECTS_MAX)
		return -1;
	n = (size_t)cJSON_GetArraySize(*a);
	*mem = calloc(n > 0 ? n : 1, elem);
	return *mem != NULL ? 1 : -1;
}

/* The optional "refused" of a point line: at most JOURNAL_SUBJECTS_MAX, each whole. */
static int parse_refused(const cJSON *o, struct journal_step_info *info)
{
	const cJSON *a, *it;
	void *mem = NULL;
	int got = optional_array(o, "refused", sizeof(*info->refused), &a, &mem);

	if (got <= 0)
		return got;
	info->refused = mem;
	cJSON_ArrayForEach(it, a)
	{
		struct journal_refusal *f = &info->refused[info->nrefused++];

		if (!cJSON_IsObject(it) || (f->subject = dup_text(it, "subject", 256)) == NULL ||
		    (f->cls = dup_text(it, "class", 16)) == NULL ||
		    (f->error = dup_text(it, "error", JOURNAL_REFUSAL_ERROR_MAX)) == NULL)
			return -1;
	}
	return 0;
}

/* The optional "daemons" of a point line: at most JOURNAL_SUBJECTS_MAX, each whole. */
static int parse_daemons(const cJSON *o, struct journal_step_info *info)
{
	const cJSON *a, *it;
	struct errbuf unread;
	void *mem = NULL;
	int got = optional_array(o, "daemons", sizeof(*info->daemons), &a, &mem);

	if (got <= 0)
		return got;
	info->daemons = mem;
	cJSON_ArrayForEach(it, a)
	{
		struct journal_daemon *d = &info->daemons[info->ndaemons++];

		if (!cJSON_IsObject(it) || (d->subject = dup_text(it, "subject", 256)) == NULL ||
		    (d->name = dup_text(it, "name", 64)) == NULL ||
		    jsonget_uint(it, "", "cpu_ns", JSONGET_REQUIRED, 0, JSONGET_INT_MAX, &d->cpu_ns,
				 &unread) < 0 ||
		    jsonget_uint(it, "", "runs", JSONGET_REQUIRED, 0, JSONGET_INT_MAX, &d->runs,
				 &unread) < 0 ||
		    jsonget_uint(it, "", "maxrss_kib", JSONGET_REQUIRED, 0, JSONGET_INT_MAX,
				 &d->maxrss_kib, &unread) < 0)
			return -1;
	}
	return 0;
}

/* The optional step info of a point line (journal.h). */
static int parse_info(const cJSON *o, struct journal_step_info *info)
{
	const cJSON *host = jsonget_member(o, "host");
	double running = 0;
	uint64_t remeasured = 0;
	struct errbuf unread;

	if (host != NULL) {
		if (!cJSON_IsObject(host) || read_number(host, "steal", 1, &info->steal) < 0 ||
		    read_number(host, "busy", 1, &info->busy) < 0 ||
		    read_number(host, "load1", 1e6, &info->load1) < 0 ||
		    read_number(host, "running", 1e6, &running) < 0)
			return -1;
		info->has_host = true;
		info->running = (unsigned)running;
	}
	info->discarded_runs = 0;
	if (jsonget_uint(o, "", "remeasured", JSONGET_OPTIONAL, 0, 1000, &remeasured, &unread) <
		0 ||
	    jsonget_uint(o, "", "discarded_runs", JSONGET_OPTIONAL, 0, JSONGET_INT_MAX,
			 &info->discarded_runs, &unread) < 0)
		return -1;
	info->remeasured = (uint32_t)remeasured;
	return parse_refused(o, info) < 0 ? -1 : parse_daemons(o, info);
}

static int parse_point(const cJSON *o, struct journal_point *p)
{
	const cJSON *subj, *it;
	struct errbuf unread;
	uint64_t index;
	size_t i = 0;

	if (!cJSON_IsObject(o))
		return -1;
	p->id = dup_string(o, "point", 256);
	subj = jsonget_member(o, "subjects");
	if (p->id == NULL ||
	    jsonget_uint(o, "", "index", JSONGET_REQUIRED, 0, 1e9, &index, &unread) < 0 ||
	    !cJSON_IsArray(subj) || cJSON_GetArraySize(subj) > JOURNAL_SUBJECTS_MAX)
		return -1;
	p->index = (size_t)index;
	if (parse_info(o, &p->info) < 0)
		return -1;
	/* A step may have no subject: every one refused its policy, or was skipped after a
	 * refusal at a smaller size (runner_point.c); the refusals say which. */
	/* A step where every subject refused has none (runner_point.c): at least one slot, as
	 * calloc(0) may return NULL. */
	p->subjects = calloc((size_t)cJSON_GetArraySize(subj) + 1, sizeof(*p->subjects));
	if (p->subjects == NULL)
		return -1;
	cJSON_ArrayForEach(it, subj)
	{
		p->nsubjects = i + 1;
		if (parse_subject(it, &p->subjects[i]) < 0)
			return -1;
		i++;
	}
	return 0;
}

static int valid_header(const cJSON *h)
{
	const cJSON *v = jsonget_member(h, "journal");
	const cJSON *sha = jsonget_member(h, "manifest_sha256");
	size_t i;

	if (!cJSON_IsNumber(v) || v->valuedouble != 1 || !cJSON_IsString(sha) ||
	    strlen(sha->valuestring) != 64 || !cJSON_IsObject(jsonget_member(h, "versions")))
		return 0;
	for (i = 0; i < 64; i++)
		if (!strchr("0123456789abcdef", sha->valuestring[i]))
			return 0;
	return 1;
}

int journal_parse(const char *text, size_t len, const char *source, struct journal_contents *out,
		  struct errbuf *eb)
{
	size_t off = 0, line_no = 0, cap = 0, k;
	struct journal_point p;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	memset(&p, 0, sizeof(p));
	while (off < len) {
		const char *line = text + off, *nl = memchr(line, '\n', len - off), *end = NULL;
		size_t llen;
		cJSON *j;
		int good;

		line_no++;
		if (nl == NULL) { /* a partial last line: the writer died mid-line */
			out->torn = true;
			break;
		}
		llen = (size_t)(nl - line);
		if (llen > JOURNAL_LINE_MAX_BYTES) {
			errbuf_set(eb, "%s: line %zu: longer than %u bytes", source, line_no,
				   JOURNAL_LINE_MAX_BYTES);
			goto out;
		}
		/* each line's tree within 4 times its size (jsonbudget.h; issue 52, finding 7) */
		if (jsonbudget_check(line, llen, source, eb) < 0) {
			errbuf_prefix(eb, "line %zu", line_no);
			goto out;
		}
		j = memchr(line, '\0', llen) ? NULL
					     : cJSON_ParseWithLengthOpts(line, llen, &end, 0);
		if (j != NULL && end != line + llen)
			good = 0;
		else if (line_no == 1)
			good = j != NULL && valid_header(j);
		else
			good = j != NULL && parse_point(j, &p) == 0;
		if (!good) {
			cJSON_Delete(j);
			point_clear(&p);
			if (nl + 1 == text + len) { /* a bad last line is a torn write too */
				out->torn = true;
				break;
			}
			errbuf_set(eb, "%s: line %zu: not a %s", source, line_no,
				   line_no == 1 ? "journal header" : "journal point");
			goto out;
		}
		if (line_no == 1) {
			out->header = j;
		} else {
			cJSON_Delete(j);
			for (k = 0; k < out->npoints; k++) {
				if (strcmp(out->points[k].id, p.id) == 0) {
					errbuf_set(eb, "%s: line %zu: point %s is already recorded",
						   source, line_no, p.id);
					point_clear(&p);
					goto out;
				}
			}
			/* A point is a line of the file: the file's cap bounds them. */
			if (growarray(&out->points, &cap, out->npoints + 1, sizeof(*out->points),
				      JOURNAL_FILE_MAX_BYTES, eb) < 0) {
				point_clear(&p);
				errbuf_prefix(eb, "%s", source);
				goto out;
			}
			out->points[out->npoints++] = p;
			memset(&p, 0, sizeof(p));
		}
		off = (size_t)(nl - text) + 1;
		out->valid_len = off;
	}
	rc = 0;
out:
	if (rc < 0)
		journal_contents_clear(out);
	return rc;
}

int journal_read(const char *path, struct journal_contents *out, struct errbuf *eb)
{
	char *buf = NULL;
	size_t len = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if (fileio_read_regular(path, JOURNAL_FILE_MAX_BYTES, "cannot open", &buf, &len, eb) < 0)
		return -1;
	rc = journal_parse(buf, len, path, out, eb);
	free(buf);
	return rc;
}

int journal_check(const struct journal_contents *c, const char *manifest_sha256,
		  const cJSON *versions, struct errbuf *eb)
{
	const cJSON *sha, *v;
	char *had = NULL, *now = NULL;

	if (c->header == NULL)
		return errbuf_set(eb, "the journal has no header");
	sha = jsonget_member(c->header, "manifest_sha256");
	if (strcmp(sha->valuestring, manifest_sha256) != 0)
		return errbuf_set(eb,
				  "the manifest changed since the journal was started "
				  "(SHA-256 %.12s... then, %.12s... now); use a new --out",
				  sha->valuestring, manifest_sha256);
	v = jsonget_member(c->header, "versions");
	if (!cJSON_Compare(v, versions, 1)) {
		had = cJSON_PrintUnformatted(v);
		now = cJSON_PrintUnformatted(versions);
		errbuf_set(eb,
			   "the tool versions or the pinned environment changed since the journal "
			   "was started (%s then, %s now); use a new --out",
			   had ? had : "?", now ? now : "?");
		free(had);
		free(now);
		return -1;
	}
	return 0;
}
