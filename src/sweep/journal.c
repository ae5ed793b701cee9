/* journal: the append-only, fsync'd record of finished sweep points (DIR/journal.jsonl); its
 * reader is journal_read.c. */
#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export.h"

struct journal {
	int fd;
	char *path;
};

static int write_all(int fd, const char *data, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, data, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

static int fsync_dir_of(const char *path)
{
	char *copy = strdup(path);
	int fd, rc = -1;

	if (copy == NULL)
		return -1;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		rc = fsync(fd);
		close(fd);
	}
	free(copy);
	return rc;
}

/* Writes obj as one line and fsyncs. */
static int append_json(struct journal *j, const cJSON *obj, struct errbuf *eb)
{
	char *s = cJSON_PrintUnformatted(obj);
	size_t len;
	int rc = -1;

	if (s == NULL)
		return errbuf_set(eb, "%s: out of memory", j->path);
	len = strlen(s);
	if (len > JOURNAL_LINE_MAX_BYTES) {
		errbuf_set(eb, "%s: a journal line would exceed %u bytes", j->path,
			   JOURNAL_LINE_MAX_BYTES);
		goto out;
	}
	s[len] = '\n'; /* replaces the NUL: the line and its newline go in one write */
	if (write_all(j->fd, s, len + 1) < 0 || fsync(j->fd) < 0) {
		errbuf_set_errno(eb, errno, "%s: write", j->path);
		goto out;
	}
	rc = 0;
out:
	free(s);
	return rc;
}

static struct journal *journal_new(const char *path, int flags, struct errbuf *eb)
{
	struct journal *j = calloc(1, sizeof(*j));
	struct stat st;

	if (j == NULL || (j->path = strdup(path)) == NULL) {
		free(j);
		errbuf_set(eb, "%s: out of memory", path);
		return NULL;
	}
	/* In an output directory: a link or a FIFO left at path neither redirects nor blocks. */
	j->fd = open(path, flags | O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
	if (j->fd < 0) {
		errbuf_set_errno(eb, errno, "%s: cannot open", path);
		goto fail;
	}
	if (fstat(j->fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		errbuf_set(eb, "%s: not a regular file: remove it", path);
		goto fail;
	}
	return j;
fail:
	if (j->fd >= 0)
		close(j->fd);
	free(j->path);
	free(j);
	return NULL;
}

struct journal *journal_create(const char *path, const char *manifest_sha256, const cJSON *versions,
			       const char *started, struct errbuf *eb)
{
	struct journal *j = NULL, *ret = NULL;
	cJSON *h = cJSON_CreateObject(), *v = cJSON_Duplicate(versions, 1);

	if (h == NULL || v == NULL) {
		cJSON_Delete(v);
		errbuf_set(eb, "%s: out of memory", path);
		goto out;
	}
	/* h adopts every added item, v included (even when a later add fails). */
	if (cJSON_AddNumberToObject(h, "journal", 1) == NULL ||
	    cJSON_AddStringToObject(h, "manifest_sha256", manifest_sha256) == NULL) {
		cJSON_Delete(v);
		errbuf_set(eb, "%s: out of memory", path);
		goto out;
	}
	cJSON_AddItemToObject(h, "versions", v);
	if (cJSON_AddStringToObject(h, "started", started) == NULL) {
		errbuf_set(eb, "%s: out of memory", path);
		goto out;
	}
	j = journal_new(path, O_CREAT | O_EXCL, eb);
	if (j == NULL)
		goto out;
	if (append_json(j, h, eb) < 0)
		goto out;
	if (fsync_dir_of(path) < 0) {
		errbuf_set_errno(eb, errno, "%s: fsync of its directory", path);
		goto out;
	}
	ret = j;
	j = NULL;
out:
	journal_close(j);
	cJSON_Delete(h);
	return ret;
}

struct journal *journal_reopen(const char *path, size_t valid_len, struct errbuf *eb)
{
	struct journal *j = journal_new(path, 0, eb);

	if (j == NULL)
		return NULL;
	if (ftruncate(j->fd, (off_t)valid_len) < 0 || fsync(j->fd) < 0) {
		errbuf_set_errno(eb, errno, "%s: cannot drop its torn last line", path);
		journal_close(j);
		return NULL;
	}
	return j;
}

/* Whether every run of r has its CPU stall: the journal keeps it only then (a host without
 * PSI gives none, and a reader then judges by off-CPU time). */
static bool journal_stall_known(const struct measure_result *r)
{
	if (r->stall_ns == NULL)
		return false;
	for (size_t i = 0; i < r->n; i++)
		if (r->stall_ns[i] < 0)
			return false;
	return true;
}

static cJSON *u64_array(const uint64_t *v, size_t n)
{
	cJSON *a = cJSON_CreateArray(), *x;
	size_t i;

	for (i = 0; a != NULL && i < n; i++) {
		x = cJSON_CreateNumber((double)v[i]);
		if (x == NULL) {
			cJSON_Delete(a);
			return NULL;
		}
		cJSON_AddItemToArray(a, x); /* a adopts x */
	}
	return a;
}

/* Adds info's fields to the point line o. 0, or -1 out of memory. */
static int add_info(cJSON *o, const struct journal_step_info *info)
{
	cJSON *h;

	if (info->has_host) {
		h = cJSON_AddObjectToObject(o, "host");
		if (h == NULL || cJSON_AddNumberToObject(h, "steal", info->steal) == NULL ||
		    cJSON_AddNumberToObject(h, "busy", info->busy) == NULL ||
		    cJSON_AddNumberToObject(h, "load1", info->load1) == NULL ||
		    cJSON_AddNumberToObject(h, "running", info->running) == NULL)
			return -1;
	}
	if (cJSON_AddNumberToObject(o, "remeasured", info->remeasured) == NULL ||
	    cJSON_AddNumberToObject(o, "discarded_runs", (double)info->discarded_runs) == NULL)
		return -1;
	if (info->nrefused > 0) {
		cJSON *a = cJSON_AddArrayToObject(o, "refused");

		for (size_t i = 0; a != NULL && i < info->nrefused; i++) {
			const struct journal_refusal *f = &info->refused[i];

			h = cJSON_CreateObject();
			if (h == NULL)
				return -1;
			cJSON_AddItemToArray(a, h); /* a adopts h */
			if (cJSON_AddStringToObject(h, "subject", f->subject) == NULL ||
			    cJSON_AddStringToObject(h, "class", f->cls) == NULL ||
			    cJSON_AddStringToObject(h, "error", f->error) == NULL)
				return -1;
		}
		if (a == NULL)
			return -1;
	}
	if (info->ndaemons > 0) {
		cJSON *a = cJSON_AddArrayToObject(o, "daemons");

		for (size_t i = 0; a != NULL && i < info->ndaemons; i++) {
			const struct journal_daemon *d = &info->daemons[i];

			h = cJSON_CreateObject();
			if (h == NULL)
				return -1;
			cJSON_AddItemToArray(a, h); /* a adopts h */
			if (cJSON_AddStringToObject(h, "subject", d->subject) == NULL ||
			    cJSON_AddStringToObject(h, "name", d->name) == NULL ||
			    cJSON_AddNumberToObject(h, "cpu_ns", (double)d->cpu_ns) == NULL ||
			    cJSON_AddNumberToObject(h, "runs", (double)d->runs) == NULL ||
			    cJSON_AddNumberToObject(h, "maxrss_kib", (double)d->maxrss_kib) == NULL)
				return -1;
		}
		if (a == NULL)
			return -1;
	}
	return 0;
}

int journal_append_step(struct journal *j, const char *point_id, size_t index,
			const struct journal_subject *subjects, size_t n,
			const struct journal_step_info *info, struct errbuf *eb)
{
	cJSON *o = cJSON_CreateObject(), *arr = NULL;
	size_t i, k;
	int rc = -1;

	if (o == NULL || cJSON_AddStringToObject(o, "point", point_id) == NULL ||
	    cJSON_AddNumberToObject(o, "index", (double)index) == NULL ||
	    (arr = cJSON_AddArrayToObject(o, "subjects")) == NULL)
		goto oom;
	for (i = 0; i < n; i++) {
		const struct measure_result *r = &subjects[i].result;
		cJSON *s = cJSON_CreateObject(), *a;

		if (s == NULL)
			goto oom;
		cJSON_AddItemToArray(arr, s); /* arr adopts s */
		if (r->n == 0) {
			errbuf_set(eb, "%s: subject %s has no runs", point_id, subjects[i].subject);
			goto out;
		}
		if (cJSON_AddStringToObject(s, "subject", subjects[i].subject) == NULL ||
		    cJSON_AddStringToObject(s, "format", subjects[i].format) == NULL ||
		    cJSON_AddStringToObject(s, "command", subjects[i].command) == NULL)
			goto oom;
		if ((a = u64_array(r->wall_ns, r->n)) == NULL)
			goto oom;
		cJSON_AddItemToObject(s, "wall_ns", a);
		if ((a = u64_array(r->user_ns, r->n)) == NULL)
			goto oom;
		cJSON_AddItemToObject(s, "user_ns", a);
		if ((a = u64_array(r->system_ns, r->n)) == NULL)
			goto oom;
		cJSON_AddItemToObject(s, "system_ns", a);
		if ((a = cJSON_AddArrayToObject(s, "exit_codes")) == NULL)
			goto oom;
		for (k = 0; k < r->n; k++) {
			cJSON *x = cJSON_CreateNumber(r->exit_codes[k] < 0 ? 0 : r->exit_codes[k]);

			if (x == NULL)
				goto oom;
			cJSON_AddItemToArray(a, x);
		}
		if (r->nivcsw != NULL) {
			if ((a = cJSON_AddArrayToObject(s, "nivcsw")) == NULL)
				goto oom;
			for (k = 0; k < r->n; k++) {
				cJSON *x = cJSON_CreateNumber((double)r->nivcsw[k]);

				if (x == NULL)
					goto oom;
				cJSON_AddItemToArray(a, x);
			}
		}
		if (journal_stall_known(r)) {
			if ((a = cJSON_AddArrayToObject(s, "stall_ns")) == NULL)
				goto oom;
			for (k = 0; k < r->n; k++) {
				cJSON *x = cJSON_CreateNumber((double)r->stall_ns[k]);

				if (x == NULL)
					goto oom;
				cJSON_AddItemToArray(a, x);
			}
		}
		if (r->ru != NULL) {
			if ((a = export_rusage_json(r)) == NULL)
				goto oom;
			cJSON_AddItemToObject(s, "rusage", a);
		}
	}
	if (info != NULL && add_info(o, info) < 0)
		goto oom;
	rc = append_json(j, o, eb);
	goto out;
oom:
	errbuf_set(eb, "journal: out of memory");
out:
	cJSON_Delete(o);
	return rc;
}

void journal_close(struct journal *j)
{
	if (j == NULL)
		return;
	close(j->fd);
	free(j->path);
	free(j);
}
