/* history_diary: the original README's sentences, each matched to the release pair it describes
 * best (diary.h): report.md's table "The original README, sentence by sentence" and
 * history-diary.tsv. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diary.h"
#include "fitreport.h"
#include "history_impl.h"
#include "sanitize.h"

/* A release's fit as diary.h takes it: one unit of time, ms, for the intercept and the slope, so
 * that a crossover comes out in units of the axis. fits.tsv has no covariance: 0. */
static void to_line(const struct history_fit *x, struct fit_line *out)
{
	memset(out, 0, sizeof(*out));
	out->intercept = x->v[HISTORY_INTERCEPT];
	out->intercept_se = x->se[HISTORY_INTERCEPT];
	out->slope = x->v[HISTORY_SLOPE] / 1000.0;
	out->slope_se = x->se[HISTORY_SLOPE] / 1000.0;
	out->n = x->n;
}

int history_diary_match(struct history *h, const struct history_opts *o, struct errbuf *eb)
{
	struct fit_line anchor;
	size_t n = 0, cap = 0;

	if (o->diary == NULL || o->diary->n == 0)
		return 0;
	for (size_t l = 0; l < h->n_lines; l++)
		cap += h->lines[l].n;
	h->diary_builds = calloc(cap > 0 ? cap : 1, sizeof(*h->diary_builds));
	h->diary = calloc(o->diary->n, sizeof(*h->diary));
	if (h->diary_builds == NULL || h->diary == NULL)
		return errbuf_set(eb, "out of memory");
	/* A line's storage is its name's last part: sr-json, sr-cbor. */
	for (size_t l = 0; l < h->n_lines; l++) {
		const char *dash = strrchr(h->lines[l].name, '-');

		for (size_t r = 0; r < h->lines[l].n; r++, n++) {
			struct diary_build *b = &h->diary_builds[n];

			b->storage = dash != NULL ? dash + 1 : h->lines[l].name;
			b->version = h->lines[l].rel[r].version;
			b->name = h->lines[l].name;
			memcpy(b->ver, h->lines[l].rel[r].ver, sizeof(b->ver));
			to_line(&h->lines[l].rel[r].fit, &b->line);
		}
	}
	if (h->has_anchor)
		to_line(&h->anchor, &anchor);
	for (size_t i = 0; i < o->diary->n; i++)
		diary_match(&o->diary->items[i], h->diary_builds, n, h->has_anchor ? &anchor : NULL,
			    &h->diary[i]);
	h->n_diary = o->diary->n;
	return 0;
}

/* "sr-cbor 3.3.4 → 4.0.0", "sr-json 4.2.0 → sr-cbor 4.2.0", "sr-cbor 4.2.0 vs sudo". */
static void pair_name(const struct diary_match *m, const char *anchor, char *buf, size_t size)
{
	if (m->to == NULL)
		snprintf(buf, size, "-");
	else if (m->from == NULL)
		snprintf(buf, size, "%s %s vs %s", m->to->name, m->to->version, anchor);
	else if (strcmp(m->from->name, m->to->name) == 0)
		snprintf(buf, size, "%s %s → %s", m->from->name, m->from->version, m->to->version);
	else
		snprintf(buf, size, "%s %s → %s %s", m->from->name, m->from->version, m->to->name,
			 m->to->version);
}

static void measured_text(const struct diary_match *m, const char *axis, char *buf, size_t size)
{
	const struct fit_estimate *e = &m->measured;

	if (m->to == NULL)
		snprintf(buf, size, "-");
	else if (m->entry->quantity == CLAIMS_CROSSOVER)
		snprintf(buf, size, "%.0f %s%s [%.0f, %.0f]", e->value, axis,
			 fabs(e->value) == 1 ? "" : "s", e->lo, e->hi);
	else
		/* One decimal, not the comparisons' rounding: a diary states -97.15 %, and its
		 * interval must show whether it holds that. */
		snprintf(buf, size, "%+.1f %% [%+.1f, %+.1f]", e->value, e->lo, e->hi);
}

static const char *verdict_text(const struct diary_match *m)
{
	if (m->to == NULL)
		return "no candidate";
	return m->matches ? "matches" : "no release pair matches";
}

void history_diary_markdown(const struct history *h, const struct history_opts *o, FILE *f)
{
	const char *anchor = o->anchor != NULL ? o->anchor : "the anchor";
	char axis[64], who[2 * HISTORY_NAME_MAX];

	if (h->n_diary == 0)
		return;
	/* The axis is a name from the results: escaped once, the numbers around it need not be. */
	sanitize_markdown(axis, sizeof(axis), fitreport_unit(h->axis));
	fputs("\n### The original README, sentence by sentence\n\n", f);
	sanitize_markdown(who, sizeof(who), anchor);
	fprintf(
	    f,
	    "Each quantitative sentence of the diary (rarplot --diary) against every "
	    "candidate pair of these builds: for a change, an older release to a newer one of "
	    "the same storage, or one release's JSON build to its CBOR build (a pair changing "
	    "both is none); for a statement against %s, each release and storage against %s. "
	    "The measured value is the percentage (or crossover) of the two fitted lines, with "
	    "its 95 %% interval by the delta method (rarplot --compare's delta method; fits.tsv "
	    "holds no intercept-slope covariance, taken as 0). A pair *matches* when the stated "
	    "value lies in its interval. The best pair is a matching one if any matches, the "
	    "one whose interval's far end lies nearest the stated value (|measured - stated| + "
	    "half the interval: a vague pair does not win by its width; ties: the narrower "
	    "interval, then the first in version order). When no pair's interval holds the "
	    "stated value, no pair "
	    "matches and the nearest by that measure is shown as the closest. Table: "
	    "history-diary.tsv.\n\n",
	    who, who);
	fputs("| sentence | kind | stated | best pair | measured [95 %] | verdict | the words |\n"
	      "|---|---|---:|---|---:|---|---|\n",
	      f);
	for (size_t i = 0; i < h->n_diary; i++) {
		const struct diary_match *m = &h->diary[i];
		char pair[2 * HISTORY_NAME_MAX + 64], measured[160];

		pair_name(m, anchor, pair, sizeof(pair));
		measured_text(m, axis, measured, sizeof(measured));
		fputs("| ", f);
		sanitize_fputs(m->entry->id, SANITIZE_MARKDOWN, f);
		fprintf(f, " | %s, %s, %s | %g%s | ", diary_kind_name(m->entry->kind),
			claims_quantity_name(m->entry->quantity),
			diary_storage_name(m->entry->storage), m->entry->stated,
			m->entry->quantity == CLAIMS_CROSSOVER ? "" : " %");
		sanitize_fputs(pair, SANITIZE_MARKDOWN, f);
		fprintf(f, " | %s | %s", measured, verdict_text(m));
		if (m->to != NULL && m->matches)
			fprintf(f, " (%zu of %zu candidates do)", m->n_matching, m->n_candidates);
		else if (m->to != NULL)
			fprintf(f, " (of %zu; the closest is shown)", m->n_candidates);
		fputs(" | ", f);
		sanitize_fputs(m->entry->source, SANITIZE_MARKDOWN, f);
		fputs(" |\n", f);
	}
}

/* "sr-cbor-4.2.0" for b, or none when b is NULL. */
static void build_name(const struct diary_build *b, const char *none, char *buf, size_t size)
{
	if (b == NULL)
		snprintf(buf, size, "%s", none);
	else
		snprintf(buf, size, "%s-%s", b->name, b->version);
}

void history_diary_tsv(const struct history *h, const struct history_opts *o, FILE *f)
{
	const char *anchor = o->anchor != NULL ? o->anchor : "-";

	fputs("id\tkind\tquantity\tstorage\tstated\tfrom\tto\tmeasured\tse\tlo\thi\tfar_end\t"
	      "candidates\tmatching\tverdict\n",
	      f);
	for (size_t i = 0; i < h->n_diary; i++) {
		const struct diary_match *m = &h->diary[i];
		char from[HISTORY_NAME_MAX + 32], to[HISTORY_NAME_MAX + 32];

		sanitize_fputs(m->entry->id, SANITIZE_TEXT, f);
		fprintf(f, "\t%s\t%s\t%s\t%.12g\t", diary_kind_name(m->entry->kind),
			claims_quantity_name(m->entry->quantity),
			diary_storage_name(m->entry->storage), m->entry->stated);
		build_name(m->from, m->to != NULL ? anchor : "-", from, sizeof(from));
		build_name(m->to, "-", to, sizeof(to));
		/* Names come from the results: escaped, so that no byte ends a field. */
		sanitize_fputs(from, SANITIZE_TEXT, f);
		fputc('\t', f);
		sanitize_fputs(to, SANITIZE_TEXT, f);
		fprintf(f, "\t%.6g\t%.6g\t%.6g\t%.6g\t%.4g\t%zu\t%zu\t%s\n", m->measured.value,
			m->measured.se, m->measured.lo, m->measured.hi, m->score, m->n_candidates,
			m->n_matching, verdict_text(m));
	}
}
