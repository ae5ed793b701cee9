/* manifest_output: rebuilds results.json and results.tsv of a manifest run from its journal. */
#include "manifest_output.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomicfile.h"
#include "export.h"
#include "stats.h"

#define PARAMS_PER_ENTRY 7
#define VALUE_LEN 24

/* Per result: its parameter array and the strings it points at. */
struct entry_params {
	struct export_param params[PARAMS_PER_ENTRY];
	char values[5][VALUE_LEN];
};

/* The journal point of every sweep index (NULL until found). */
static int map_points(const struct sweep *s, const struct journal_contents *c,
		      const struct journal_point **by_index, size_t *n_entries, struct errbuf *eb)
{
	size_t i, total = sweep_count(s);

	*n_entries = 0;
	for (i = 0; i < c->npoints; i++) {
		const struct journal_point *p = &c->points[i];
		long k = p->index < total && strcmp(sweep_at(s, p->index)->id, p->id) == 0
			     ? (long)p->index
			     : sweep_find(s, p->id);

		if (k < 0)
			return errbuf_set(eb, "journal point %s is not in this sweep", p->id);
		if (by_index[k] != NULL)
			return errbuf_set(eb, "journal point %s is recorded twice", p->id);
		by_index[k] = p;
		*n_entries += p->nsubjects;
	}
	for (i = 0; i < total; i++)
		if (by_index[i] == NULL)
			return errbuf_set(eb, "point %zu (%s) is missing from the journal", i + 1,
					  sweep_at(s, i)->id);
	return 0;
}

static void fmt_seconds(FILE *f, double ns)
{
	if (ns != ns)
		fputs("\tnan", f);
	else
		fprintf(f, "\t%.9g", ns / 1e9);
}

static int write_tsv(const char *path, const struct sweep *s, const struct journal_point **by_index,
		     struct errbuf *eb)
{
	struct atomicfile *af = atomicfile_open(path, 0644, eb);
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
		const struct journal_point *p = by_index[i];

		for (k = 0; k < p->nsubjects; k++) {
			const struct journal_subject *js = &p->subjects[k];
			struct stats_summary sum;

			if (js->result.n > cap) {
				double *grown = realloc(scratch, js->result.n * sizeof(double));

				if (grown == NULL) {
					free(scratch);
					atomicfile_abort(af);
					return errbuf_set(eb, "%s: out of memory", path);
				}
				scratch = grown;
				cap = js->result.n;
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

int manifest_output_write(const char *dir, const struct manifest *m, const struct sweep *s,
			  const struct journal_contents *c, const cJSON *meta, struct errbuf *eb)
{
	const struct journal_point **by_index = NULL;
	struct export_entry *entries = NULL;
	struct entry_params *params = NULL;
	cJSON *extra = NULL;
	char path[PATH_MAX];
	size_t n = 0, i, k, e = 0;
	int rc = -1, a;

	by_index = calloc(sweep_count(s), sizeof(*by_index));
	if (by_index == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	if (map_points(s, c, by_index, &n, eb) < 0)
		goto out;
	entries = calloc(n, sizeof(*entries));
	params = calloc(n, sizeof(*params));
	extra = cJSON_CreateObject();
	if (entries == NULL || params == NULL || extra == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	for (i = 0; i < sweep_count(s); i++) {
		const struct sweep_point *sp = sweep_at(s, i);

		for (k = 0; k < by_index[i]->nsubjects; k++, e++) {
			const struct journal_subject *js = &by_index[i]->subjects[k];
			struct entry_params *ep = &params[e];
			size_t np = 0;

			for (a = 0; a < MANIFEST_AXIS_COUNT; a++) {
				snprintf(ep->values[a], VALUE_LEN, "%u", sp->value[a]);
				ep->params[np++] =
				    (struct export_param){manifest_axis_name(a), ep->values[a]};
			}
			ep->params[np++] = (struct export_param){"subject", js->subject};
			ep->params[np++] = (struct export_param){"format", js->format};
			if (m->repetitions > 1) {
				snprintf(ep->values[4], VALUE_LEN, "%u", sp->repetition);
				ep->params[np++] =
				    (struct export_param){"repetition", ep->values[4]};
			}
			entries[e] =
			    (struct export_entry){js->command, &js->result, ep->params, np};
		}
	}
	/* extra adopts the copy of meta. */
	cJSON_AddItemToObject(extra, "meta", cJSON_Duplicate(meta, 1));
	if (snprintf(path, sizeof(path), "%s/results.json", dir) >= (int)sizeof(path)) {
		errbuf_set(eb, "%s: path too long", dir);
		goto out;
	}
	if (export_json(path, entries, n, extra, eb) < 0)
		goto out;
	snprintf(path, sizeof(path), "%s/results.tsv", dir);
	if (write_tsv(path, s, by_index, eb) < 0)
		goto out;
	rc = 0;
out:
	cJSON_Delete(extra);
	free(params);
	free(entries);
	free(by_index);
	return rc;
}
