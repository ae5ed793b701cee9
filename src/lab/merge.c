/* merge: stream every complete host's results.json into one hyperfine-format file; the summary.
 */
#include "merge.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "atomicfile.h"
#include "fileio.h"
#include "hostresults.h"
#include "hoststream.h"
#include "resultsfile.h"
#include "sanitize.h"
#include "runfiles.h"

/* Marks host h as not merged, with why (from eb) as its message. */
static void host_failed(struct merge_host *h, const struct errbuf *eb)
{
	struct errbuf why = *eb;
	size_t len;

	h->failed = true;
	h->results = 0;
	errbuf_prefix(&why, "not merged");
	h->status.state = HOSTPOOL_FINISHED;
	h->status.outcome = HOST_RESULTS;
	/* the message holds HOSTPOOL_TEXT_MAX bytes: the reason is cut there, then sanitised */
	len = strnlen(why.msg, sizeof(h->status.message) - 1);
	sanitize_escape(h->status.message, sizeof(h->status.message), why.msg, len, SANITIZE_TEXT);
}

/* The "rarlab" part of the merged meta, compact. NULL when out of memory. */
static char *rarlab_meta(const char *run_id)
{
	cJSON *rl = cJSON_CreateObject();
	char *text = NULL;

	if (rl != NULL && cJSON_AddStringToObject(rl, "version", RARPERF_VERSION) != NULL &&
	    cJSON_AddStringToObject(rl, "commit", RARPERF_GIT_COMMIT) != NULL &&
	    cJSON_AddStringToObject(rl, "run_id", run_id) != NULL)
		text = cJSON_PrintUnformatted(rl);
	cJSON_Delete(rl);
	return text;
}

/* Which part of each merged host's results.json write_hosts_part copies. */
enum host_part { HOST_PART_REFERENCE, HOST_PART_META };

/*
 * Copies part of every merged host's results.json into f, in host order
 * (*first as hostresults_write_*). 0, or -1 with eb naming the file.
 */
static int write_hosts_part(FILE *f, const char *out_dir, const struct merge_host *hosts,
			    const bool *merged, size_t n, enum host_part part, bool *first,
			    struct errbuf *eb)
{
	for (size_t i = 0; i < n; i++) {
		struct errbuf heb = {{0}};
		char results[PATH_MAX];
		int rc;

		if (!merged[i])
			continue;
		if (fileio_fmt(results, sizeof(results), "%s/%s/" RUNFILES_RESULTS, out_dir,
			       hosts[i].name) < 0)
			return errbuf_set(eb, "%s: path too long", out_dir);
		rc = part == HOST_PART_REFERENCE
			 ? hostresults_write_reference(f, results, hosts[i].name,
						       RESULTSFILE_STREAM_REFERENCE_OPEN, first,
						       &heb)
			 : hostresults_write_meta(f, results, hosts[i].name, first, &heb);
		if (rc < 0)
			return errbuf_set(eb, "%s: %s", results, heb.msg);
	}
	return 0;
}

/*
 * Writes host h's results to f when its record is complete (else an ok host
 * is marked failed). Returns 1 when merged (h->results, h->rejected set), 0
 * when not, -1 with eb filled on a write error (merged.json is not written).
 */
static int merge_host(FILE *f, const char *out_dir, struct merge_host *h, bool *first,
		      struct errbuf *eb)
{
	struct hostresults_counts counts = {0, 0};
	struct errbuf heb = {{0}};
	char dir[PATH_MAX], results[PATH_MAX];

	h->results = 0;
	h->rejected = 0;
	h->failed = false;
	if (fileio_fmt(dir, sizeof(dir), "%s/%s", out_dir, h->name) < 0 ||
	    fileio_fmt(results, sizeof(results), "%s/" RUNFILES_RESULTS, dir) < 0 ||
	    !hoststream_host_complete(dir, NULL, NULL)) {
		/* an ok host always has a complete record: never report one without */
		if (h->status.state == HOSTPOOL_FINISHED && h->status.outcome == HOST_OK) {
			errbuf_set(&heb, "its files or results.json are not complete");
			host_failed(h, &heb);
		}
		return 0;
	}
	/* hoststream_host_complete checked the file: a failure here is a write error,
	 * or the file changed under us */
	if (hostresults_write(f, results, h->name, first, &counts, &heb) < 0)
		return errbuf_set(eb, "%s: %s", results, heb.msg);
	h->results = counts.results;
	h->rejected = counts.rejected;
	if (counts.rejected > 0) {
		errbuf_set(&heb, "%zu results rejected", counts.rejected);
		host_failed(h, &heb);
		h->results = counts.results;
	}
	return 1;
}

long merge_results(const char *out_dir, const char *run_id, const char *lab_json,
		   struct merge_host *hosts, size_t n, struct errbuf *eb)
{
	struct atomicfile *af = NULL;
	char path[PATH_MAX], *meta = NULL;
	bool *merged = NULL, first = true;
	long total = -1;
	FILE *f;

	merged = calloc(n ? n : 1, sizeof(*merged));
	meta = rarlab_meta(run_id);
	if (merged == NULL || meta == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	if (fileio_fmt(path, sizeof(path), "%s/merged.json", out_dir) < 0) {
		errbuf_set(eb, "%s: path too long", out_dir);
		goto out;
	}
	af = atomicfile_open(path, 0644, eb);
	if (af == NULL)
		goto out;
	f = atomicfile_stream(af);
	fputs(RESULTSFILE_STREAM_BEGIN, f);
	total = 0;
	/* one host at a time: its file is checked whole, then its results are written */
	for (size_t i = 0; i < n; i++) {
		int rc = merge_host(f, out_dir, &hosts[i], &first, eb);
		if (rc < 0) {
			total = -1;
			goto out;
		}
		merged[i] = rc > 0;
		total += (long)hosts[i].results;
	}
	fputs(RESULTSFILE_STREAM_END_RESULTS, f);
	/* The hosts' calibration workloads (rarbench's "reference"), with their host, when any
	 * host has one: merged.json is unchanged otherwise. */
	first = true;
	if (write_hosts_part(f, out_dir, hosts, merged, n, HOST_PART_REFERENCE, &first, eb) < 0) {
		total = -1;
		goto out;
	}
	if (!first)
		fputs(RESULTSFILE_STREAM_REFERENCE_END, f);
	fputs(RESULTSFILE_STREAM_META_OPEN, f);
	fprintf(f, "{\"rarlab\":%s,\"hosts\":{", meta);
	first = true;
	if (write_hosts_part(f, out_dir, hosts, merged, n, HOST_PART_META, &first, eb) < 0) {
		total = -1;
		goto out;
	}
	fputc('}', f);
	if (lab_json != NULL)
		fprintf(f, ",\"lab\":%s", lab_json);
	fputc('}', f); /* the meta */
	fputs(RESULTSFILE_STREAM_END, f);
	if (atomicfile_commit(af, eb) < 0)
		total = -1;
	af = NULL;
out:
	atomicfile_abort(af);
	cJSON_free(meta);
	free(merged);
	return total;
}

int merge_summary(const char *out_dir, const struct merge_host *hosts, size_t n, FILE *f,
		  struct errbuf *eb)
{
	char path[PATH_MAX], outcome[32], msg[HOSTPOOL_TEXT_MAX], name[HOSTPOOL_TEXT_MAX];
	char prof[HOSTPOOL_TEXT_MAX];
	struct atomicfile *af;
	FILE *tsv;
	int width = 4;

	if (fileio_fmt(path, sizeof(path), "%s/summary.tsv", out_dir) < 0)
		return errbuf_set(eb, "%s: path too long", out_dir);
	af = atomicfile_open(path, 0644, eb);
	if (af == NULL)
		return -1;
	tsv = atomicfile_stream(af);
	fprintf(
	    tsv,
	    "host\toutcome\tpoints_done\tpoints_total\tresults\twall_s\tmessage\tgroup\tprofile\n");
	for (size_t i = 0; i < n; i++)
		if ((int)strlen(hosts[i].name) > width)
			width = (int)strlen(hosts[i].name);
	/* The titles over the rows' columns below (11, 9, 7 and 8 wide after the host's). */
	if (f != NULL)
		fprintf(f, "%-*s  outcome         points  results    wall_s  message\n", width,
			"host");
	for (size_t i = 0; i < n; i++) {
		const struct hostpool_status *s = &hosts[i].status;
		double wall = s->finished_ns > s->started_ns && s->started_ns
				  ? (double)(s->finished_ns - s->started_ns) / 1e9
				  : 0;
		char pts[24], group[16] = "-";
		if (hosts[i].group > 0)
			snprintf(group, sizeof(group), "g%u", hosts[i].group);
		if (s->state == HOSTPOOL_FINISHED)
			host_outcome_name(s->outcome, s->exit_code, outcome, sizeof(outcome));
		else
			snprintf(outcome, sizeof(outcome), "interrupted");
		/* hostpool stored the message sanitised; again here, for any other caller */
		sanitize_str(msg, sizeof(msg), s->message);
		sanitize_str(name, sizeof(name), hosts[i].name);
		sanitize_str(prof, sizeof(prof), hosts[i].profile[0] ? hosts[i].profile : "-");
		fprintf(tsv, "%s\t%s\t%u\t%u\t%zu\t%.3f\t%s\t%s\t%s\n", name, outcome, s->done,
			s->total, hosts[i].results, wall, msg, group, prof);
		snprintf(pts, sizeof(pts), "%u/%u", s->done, s->total);
		if (f != NULL)
			fprintf(f, "%-*s  %-11s  %9s  %7zu  %8.1f  %s%s%s\n", width, name, outcome,
				pts, hosts[i].results, wall, hosts[i].group ? group : "",
				hosts[i].group ? "  " : "", msg);
	}
	return atomicfile_commit(af, eb);
}
