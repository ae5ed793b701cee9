/* runner_output: rebuilds results.json and results.tsv of a manifest run from its journal. */
#include "jsonget.h"
#include "runner_output.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomicfile.h"
#include "contention.h"
#include "export.h"
#include "fileio.h"
#include "growbuf.h"
#include "resultsfile.h"
#include "runner_kernel.h"
#include "runner_counts.h"
#include "runner_refcount.h"
#include "runner_profile_files.h"
#include "stats.h"
#include "runfiles.h"

#define PARAMS_PER_ENTRY 9
#define VALUE_LEN 24

/* Per result: its parameter array and the strings it points at. */
struct entry_params {
	struct export_param params[PARAMS_PER_ENTRY];
	char values[7][VALUE_LEN];
	char limit_key[32];
};

/*
 * One sweep point's samples, all rounds concatenated. Strings are borrowed
 * from the journal contents; the sample arrays are owned (merged_clear).
 */
struct merged {
	struct journal_subject *subjects;
	uint32_t **run_round; /* per subject, per run: the round of its step */
	size_t nsubjects;
	struct export_extras extras; /* the point's steps summed (has_point) */
	uint32_t host_steps;         /* steps that read the host's counters */
};

/* Frees one point's samples (its nsubjects stays for the caller to account). */
static void merged_clear_one(struct merged *d)
{
	for (size_t k = 0; k < d->nsubjects; k++) {
		free(d->subjects[k].result.wall_ns);
		free(d->subjects[k].result.user_ns);
		free(d->subjects[k].result.system_ns);
		free(d->subjects[k].result.exit_codes);
		free(d->subjects[k].result.nivcsw);
		free(d->subjects[k].result.stall_ns);
		if (d->run_round != NULL)
			free(d->run_round[k]);
		free(d->subjects[k].result.ru);
	}
	free(d->subjects);
	free(d->run_round);
	d->subjects = NULL;
	d->run_round = NULL;
}

static void merged_clear(struct merged *mp, size_t n)
{
	for (size_t i = 0; mp != NULL && i < n; i++)
		merged_clear_one(&mp[i]);
	free(mp);
}

/* Grows *rounds from have to have + more entries, the new ones round. 0 or -1. */
static int append_rounds(uint32_t **rounds, size_t have, size_t more, uint32_t round)
{
	uint32_t *grown = realloc(*rounds, (have + more ? have + more : 1) * sizeof(**rounds));

	if (grown == NULL)
		return -1;
	*rounds = grown;
	for (size_t i = 0; i < more; i++)
		grown[have + i] = round;
	return 0;
}

/* Adds journal step p (in round) to the point's merged entry d; *n_entries grows by its subjects
 * at the point's first step. 0 or -1. */
static int merge_step(struct merged *d, const struct journal_point *p, uint32_t round,
		      size_t *n_entries, struct errbuf *eb)
{
	bool same;
	size_t k;

	d->extras.rounds++;
	d->extras.remeasured += p->info.remeasured;
	d->extras.discarded_runs += p->info.discarded_runs;
	if (p->info.has_host) {
		d->host_steps++;
		d->extras.steal += p->info.steal; /* averaged below */
		if (p->info.load1 > d->extras.load1)
			d->extras.load1 = p->info.load1;
	}
	if (d->subjects == NULL) {
		d->subjects = calloc(p->nsubjects, sizeof(*d->subjects));
		d->run_round = calloc(p->nsubjects, sizeof(*d->run_round));
		if (d->subjects == NULL || d->run_round == NULL)
			return errbuf_set(eb, "out of memory");
		d->nsubjects = p->nsubjects;
		*n_entries += p->nsubjects;
		for (k = 0; k < p->nsubjects; k++) {
			d->subjects[k].subject = p->subjects[k].subject;
			d->subjects[k].format = p->subjects[k].format;
			d->subjects[k].command = p->subjects[k].command;
			d->subjects[k].result.all_succeeded = true;
		}
	}
	same = d->nsubjects == p->nsubjects;
	for (k = 0; same && k < p->nsubjects; k++)
		same = strcmp(d->subjects[k].subject, p->subjects[k].subject) == 0;
	if (!same)
		return errbuf_set(eb, "journal point %s: its rounds have different subjects",
				  p->id);
	for (k = 0; k < p->nsubjects; k++)
		if (append_rounds(&d->run_round[k], d->subjects[k].result.n,
				  p->subjects[k].result.n, round) < 0 ||
		    measure_result_append(&d->subjects[k].result, &p->subjects[k].result) < 0)
			return errbuf_set(eb, "out of memory");
	return 0;
}

/* Folds the journal's steps into one merged entry per sweep point; every step exactly once. */
static int merge_points(const struct manifest *m, const struct sweep *s,
			const struct journal_contents *c, bool partial, struct merged *mp,
			size_t *n_entries, struct errbuf *eb)
{
	size_t i, idx, total = sweep_count(s);
	uint32_t round, mr = m->max_rounds;
	bool *seen = calloc(total * mr, sizeof(bool));
	int rc = -1;

	*n_entries = 0;
	if (seen == NULL)
		return errbuf_set(eb, "out of memory");
	for (i = 0; i < c->npoints; i++) {
		const struct journal_point *p = &c->points[i];

		if (sweep_parse_step_id(s, p->id, mr, &idx, &round) < 0) {
			errbuf_set(eb, "journal point %s is not in this sweep", p->id);
			goto out;
		}
		if (seen[idx * mr + round - 1]) {
			errbuf_set(eb, "journal point %s is recorded twice", p->id);
			goto out;
		}
		seen[idx * mr + round - 1] = true;
		if (merge_step(&mp[idx], p, round, n_entries, eb) < 0)
			goto out;
	}
	/* The planned rounds are all needed; precision mode's extra ones are optional. */
	for (i = 0; i < total * mr; i++) {
		if (!seen[i] && i % mr < m->rounds && partial) {
			/* Left out whole: a point with a round short is not what the manifest
			 * asked. */
			merged_clear_one(&mp[i / mr]);
			*n_entries -= mp[i / mr].nsubjects;
			mp[i / mr].nsubjects = 0;
		} else if (!seen[i] && i % mr < m->rounds) {
			errbuf_set(eb, "point %zu (%s, round %zu) is missing from the journal",
				   i / mr + 1, sweep_at(s, i / mr)->id, i % mr + 1);
			goto out;
		}
	}
	for (i = 0; i < total; i++) {
		struct export_extras *x = &mp[i].extras;

		x->estimator = m->estimator;
		x->contended = m->contended;
		x->precision = m->precision;
		x->contention_limit = m->contention_limit;
		x->has_point = true;
		if (mp[i].host_steps > 0)
			x->steal /= mp[i].host_steps;
	}
	rc = 0;
out:
	free(seen);
	return rc;
}

/*
 * The reference off-CPU time of subject across the sweep (contention.h):
 * the median of its points' smallest off-CPU times. INT64_MAX when out of
 * memory (each point then judged by itself).
 */
static int64_t subject_reference(const struct sweep *s, const struct merged *by_index,
				 const char *subject)
{
	size_t i, k, m = 0;
	int64_t *b = malloc((sweep_count(s) ? sweep_count(s) : 1) * sizeof(*b)), ref;

	if (b == NULL)
		return INT64_MAX;
	for (i = 0; i < sweep_count(s); i++)
		for (k = 0; k < by_index[i].nsubjects; k++)
			if (strcmp(by_index[i].subjects[k].subject, subject) == 0 &&
			    by_index[i].subjects[k].result.n > 0)
				b[m++] = contention_baseline_ns(&by_index[i].subjects[k].result);
	ref = contention_reference_ns(b, m);
	free(b);
	return ref;
}

static void fmt_seconds(FILE *f, double ns)
{
	if (ns != ns)
		fputs("\tnan", f);
	else
		fprintf(f, "\t%.9g", ns / 1e9);
}

static int write_tsv(const char *path, const struct sweep *s, const struct merged *by_index,
		     struct errbuf *eb)
{
	struct atomicfile *af = atomicfile_open_regular(path, 0644, eb);
	size_t i, k, cap = 0;
	double *scratch = NULL;
	FILE *f;

	if (af == NULL)
		return -1;
	f = atomicfile_stream(af);
	fputs("subject\tformat\thost\tnb_roles\tnb_users\tnb_tasks\tnb_commands\trepetition\tn"
	      "\tmean_s\tstddev_s\tmedian_s\tq1_s\tq3_s\tmin_s\tmax_s\n",
	      f);
	for (i = 0; i < sweep_count(s); i++) {
		const struct sweep_point *sp = sweep_at(s, i);
		const struct merged *p = &by_index[i];

		for (k = 0; k < p->nsubjects; k++) {
			const struct journal_subject *js = &p->subjects[k];
			struct stats_summary sum;

			if (runner_is_calibration(js->subject))
				continue;

			if (growarray(&scratch, &cap, js->result.n, sizeof(*scratch), SIZE_MAX,
				      eb) < 0) {
				free(scratch);
				atomicfile_abort(af);
				return errbuf_prefix(eb, "%s", path);
			}
			stats_summarize_u64(js->result.wall_ns, js->result.n, scratch, &sum);
			fprintf(f, "%s\t%s\t-\t%u\t%u\t%u\t%u\t%u\t%zu", js->subject, js->format,
				sp->value[0], sp->value[1], sp->value[2], sp->value[3],
				sp->repetition, sum.n);
			fmt_seconds(f, sum.mean);
			fmt_seconds(f, sum.stddev);
			fmt_seconds(f, sum.median);
			fmt_seconds(f, sum.q1);
			fmt_seconds(f, sum.q3);
			fmt_seconds(f, sum.min);
			fmt_seconds(f, sum.max);
			fputc('\n', f);
		}
	}
	free(scratch);
	return atomicfile_commit(af, eb);
}

/* What an entry is: a subject's, rarref's or one of rarkref's kinds (runner_kernel.h). */
enum entry_kind { ENTRY_SUBJECT, ENTRY_REFERENCE, ENTRY_KERNEL };

/*
 * Moves the reference's entries (refs[i] ENTRY_REFERENCE) out of entries (*n
 * shrinks to the subjects', order kept) into extra's "reference" object;
 * rarkref's are dropped (their prices go to it: add_kernel). 0 or -1.
 */
static int split_reference(const struct manifest *m, struct export_entry *entries,
			   const unsigned char *refs, size_t *n, cJSON *extra, struct errbuf *eb)
{
	struct export_entry *ref = NULL;
	cJSON *doc = NULL, *obj = NULL;
	size_t i, nr = 0, ns = 0;
	int rc = -1;

	if (!m->reference)
		return 0;
	if ((ref = calloc(*n ? *n : 1, sizeof(*ref))) == NULL)
		return errbuf_set(eb, "out of memory");
	for (i = 0; i < *n; i++) {
		if (refs[i] == ENTRY_REFERENCE)
			ref[nr++] = entries[i];
		else if (refs[i] == ENTRY_SUBJECT)
			entries[ns++] = entries[i];
	}
	*n = ns;
	if (nr == 0) {
		rc = 0;
		goto out;
	}
	if ((doc = export_json_build(ref, nr, NULL, eb)) == NULL)
		goto out;
	/* obj adopts the results array (deleting it when out of memory). */
	obj = resultsfile_reference_new(ref[0].command, m->reference_units,
					resultsfile_detach_results(doc));
	if (obj == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	cJSON_AddItemToObject(extra, RESULTSFILE_REFERENCE, obj);
	obj = NULL;
	rc = 0;
out:
	cJSON_Delete(obj);
	cJSON_Delete(doc);
	free(ref);
	return rc;
}

/*
 * With m's "kernel_reference": rarkref's prices at every point and round
 * (runner_kernel_costs) as "kernel" in extra's "reference" object (which
 * split_reference made: the manifest has "reference" too). 0 or -1.
 */
static int add_kernel(const struct manifest *m, const struct sweep *s,
		      const struct merged *by_index, cJSON *extra, struct errbuf *eb)
{
	cJSON *ref = jsonget_member(extra, RESULTSFILE_REFERENCE), *obj;
	const char *program = NULL;
	size_t i, k;

	if (!m->kernel_reference || ref == NULL)
		return 0;
	for (i = 0; i < sweep_count(s) && program == NULL; i++)
		for (k = 0; k < by_index[i].nsubjects && program == NULL; k++)
			if (runner_is_kernel(by_index[i].subjects[k].subject))
				program = by_index[i].subjects[k].command;
	if (program == NULL)
		return 0;
	/* ref adopts obj; the prices are added to its array in place. */
	if ((obj = runner_kernel_object(program)) == NULL)
		return errbuf_set(eb, "out of memory");
	cJSON_AddItemToObject(ref, RESULTSFILE_REFERENCE_KERNEL, obj);
	for (i = 0; i < sweep_count(s); i++)
		if (runner_kernel_costs(jsonget_member(obj, "unit_costs"), sweep_at(s, i),
					by_index[i].subjects, by_index[i].run_round,
					by_index[i].nsubjects, m->max_rounds, eb) < 0)
			return -1;
	return 0;
}

/* rarref's counts (runner_refcount.h), when the counted pass made them, as "counts" in extra's
 * "reference" object. 0 or -1. */
static int add_refcount(const char *dir, cJSON *extra, struct errbuf *eb)
{
	cJSON *ref = jsonget_member(extra, RESULTSFILE_REFERENCE);
	cJSON *doc = runner_refcount_read(dir, eb);

	if (doc == NULL)
		return eb->msg[0] != '\0' ? -1 : 0;
	if (ref == NULL) {
		cJSON_Delete(doc);
		return 0;
	}
	cJSON_AddItemToObject(ref, RESULTSFILE_REFERENCE_COUNTS, doc);
	return 0;
}

/* The parameters of one result at point sp (the axes; a subject's id and format, never the
 * reference's; the repetition and the swept limit when there are any), in ep. Returns how many. */
static size_t entry_params_of(const struct manifest *m, const struct sweep_point *sp,
			      const char *subject, const char *format, bool is_ref,
			      struct entry_params *ep)
{
	size_t np = 0;

	for (int a = 0; a < MANIFEST_AXIS_COUNT; a++) {
		snprintf(ep->values[a], VALUE_LEN, "%u", sp->value[a]);
		ep->params[np++] = (struct export_param){manifest_axis_name(a), ep->values[a]};
	}
	if (m->files.n > 0) {
		snprintf(ep->values[6], VALUE_LEN, "%u", sp->value[MANIFEST_VALUE_FILES]);
		ep->params[np++] = (struct export_param){MANIFEST_FILES_AXIS, ep->values[6]};
	}
	if (!is_ref) {
		ep->params[np++] = (struct export_param){"subject", subject};
		ep->params[np++] = (struct export_param){"format", format};
	}
	if (m->repetitions > 1) {
		snprintf(ep->values[4], VALUE_LEN, "%u", sp->repetition);
		ep->params[np++] = (struct export_param){"repetition", ep->values[4]};
	}
	if (m->env.nlimit_values > 0) {
		/* "limit.nofile": rarplot draws one line per value (its README). */
		snprintf(ep->values[5], VALUE_LEN, "%llu", (unsigned long long)sp->limit);
		snprintf(ep->limit_key, sizeof(ep->limit_key), "limit.%s",
			 m->env.limits[m->env.limit_axis].name);
		ep->params[np++] = (struct export_param){ep->limit_key, ep->values[5]};
	}
	return np;
}

/* The daemon subject's runs asked at point index over its steps (journal "daemons"), summed
 * into x (peak memory: the largest); none: x->daemon_name stays NULL. */
static void daemon_of(const struct journal_contents *c, size_t index, const char *subject,
		      struct export_extras *x)
{
	x->daemon_name = NULL;
	x->daemon_cpu_ns = x->daemon_runs = x->daemon_maxrss_kib = 0;
	for (size_t p = 0; p < c->npoints; p++) {
		const struct journal_step_info *info = &c->points[p].info;

		if (c->points[p].index != index)
			continue;
		for (size_t d = 0; d < info->ndaemons; d++) {
			const struct journal_daemon *jd = &info->daemons[d];

			if (strcmp(jd->subject, subject) != 0)
				continue;
			x->daemon_name = jd->name;
			x->daemon_cpu_ns += jd->cpu_ns;
			x->daemon_runs += jd->runs;
			if (jd->maxrss_kib > x->daemon_maxrss_kib)
				x->daemon_maxrss_kib = jd->maxrss_kib;
		}
	}
}

/* Contract in runner_output.h. Just over 80 lines: five arrays owned together under one cleanup
 * label, the entries' loop and the two writes. */
int runner_output_write(const char *dir, const struct manifest *m, const struct sweep *s,
			const struct journal_contents *c, bool partial, const cJSON *meta,
			struct errbuf *eb)
{
	struct merged *by_index = NULL;
	struct export_entry *entries = NULL;
	struct export_extras *xs = NULL;
	struct entry_params *params = NULL;
	cJSON *extra = NULL, **profiles = NULL, **counts = NULL;
	unsigned char *refs = NULL;
	char path[PATH_MAX];
	size_t n = 0, i, k, e = 0;
	int rc = -1;

	by_index = calloc(sweep_count(s), sizeof(*by_index));
	if (by_index == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	if (merge_points(m, s, c, partial, by_index, &n, eb) < 0)
		goto out;
	entries = calloc(n, sizeof(*entries));
	xs = calloc(n, sizeof(*xs));
	params = calloc(n, sizeof(*params));
	refs = calloc(n ? n : 1, sizeof(*refs));
	extra = cJSON_CreateObject();
	profiles = calloc(sweep_count(s), sizeof(*profiles));
	counts = calloc(sweep_count(s), sizeof(*counts));
	if (entries == NULL || xs == NULL || params == NULL || refs == NULL || extra == NULL ||
	    profiles == NULL || counts == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	for (i = 0; i < sweep_count(s); i++) {
		const struct sweep_point *sp = sweep_at(s, i);

		profiles[i] = runner_profile_read(dir, i, eb);
		if (profiles[i] == NULL && eb->msg[0] != '\0')
			goto out;
		counts[i] = runner_counts_read(dir, i, eb);
		if (counts[i] == NULL && eb->msg[0] != '\0')
			goto out;
		for (k = 0; k < by_index[i].nsubjects; k++, e++) {
			const struct journal_subject *js = &by_index[i].subjects[k];
			struct entry_params *ep = &params[e];
			bool is_ref = runner_is_calibration(js->subject);
			size_t np = entry_params_of(m, sp, js->subject, js->format, is_ref, ep);

			xs[e] = by_index[i].extras;
			xs[e].has_reference = true;
			xs[e].reference_ns = subject_reference(s, by_index, js->subject);
			xs[e].profile =
			    jsonget_member(jsonget_member(profiles[i], "subjects"), js->subject);
			xs[e].counts =
			    jsonget_member(jsonget_member(counts[i], "subjects"), js->subject);
			xs[e].counts_instrument = jsonget_member(counts[i], "instrument");
			daemon_of(c, i, js->subject, &xs[e]);
			entries[e] = (struct export_entry){js->command, &js->result,
							   ep->params,  np,
							   &xs[e],      by_index[i].run_round[k]};
			refs[e] = !is_ref                         ? ENTRY_SUBJECT
				  : runner_is_kernel(js->subject) ? ENTRY_KERNEL
								  : ENTRY_REFERENCE;
		}
	}
	if (split_reference(m, entries, refs, &n, extra, eb) < 0 ||
	    add_kernel(m, s, by_index, extra, eb) < 0 || add_refcount(dir, extra, eb) < 0)
		goto out;
	/* extra adopts the copy of meta (after "reference", when there is one). */
	cJSON_AddItemToObject(extra, RESULTSFILE_META, cJSON_Duplicate(meta, 1));
	if (fileio_fmt(path, sizeof(path), "%s/" RUNFILES_RESULTS, dir) < 0) {
		errbuf_set(eb, "%s: path too long", dir);
		goto out;
	}
	if (export_json(path, entries, n, extra, eb) < 0)
		goto out;
	if (fileio_fmt(path, sizeof(path), "%s/" RUNFILES_POINTS, dir) < 0) {
		errbuf_set(eb, "%s: path too long", dir);
		goto out;
	}
	if (write_tsv(path, s, by_index, eb) < 0 || runner_profile_tsv(dir, s, eb) < 0)
		goto out;
	rc = 0;
out:
	for (i = 0; profiles != NULL && i < sweep_count(s); i++)
		cJSON_Delete(profiles[i]);
	free(profiles);
	for (i = 0; counts != NULL && i < sweep_count(s); i++)
		cJSON_Delete(counts[i]);
	free(counts);
	cJSON_Delete(extra);
	free(refs);
	free(params);
	free(xs);
	free(entries);
	merged_clear(by_index, sweep_count(s));
	return rc;
}
