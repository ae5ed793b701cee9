/* diary: a diary's sentences read as claims are, each matched to the release pair it fits best. */
#include "diary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const diary_kind_names[] = {"change", "versus-sudo", "crossover"};
static const char *const diary_storage_names[] = {"any", "json", "cbor", "release", "storage"};

#define DIARY_COUNT(a) (sizeof(a) / sizeof((a)[0]))

const char *diary_kind_name(enum diary_kind k)
{
	return (size_t)k < DIARY_COUNT(diary_kind_names) ? diary_kind_names[k] : "?";
}

const char *diary_storage_name(enum diary_storage s)
{
	return (size_t)s < DIARY_COUNT(diary_storage_names) ? diary_storage_names[s] : "?";
}

void diary_free(struct diary *d)
{
	if (d == NULL)
		return;
	for (size_t i = 0; i < d->n; i++) {
		free(d->items[i].id);
		free(d->items[i].source);
	}
	free(d->items);
	free(d);
}

/* The index of s in names, or -1. */
static int diary_lookup(const char *s, const char *const *names, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (strcmp(s, names[k]) == 0)
			return (int)k;
	return -1;
}

static int diary_parse_line(char **f, const char *name, size_t lineno, void *ctx, struct errbuf *eb)
{
	struct diary *all = ctx;
	struct diary_entry *e = &all->items[all->n++];
	int kind, storage;

	if (!claims_is_name(f[0]))
		return errbuf_set(eb, "%s:%zu: id: use 1-64 letters, digits, '.', '_', '-'", name,
				  lineno);
	if ((kind = diary_lookup(f[1], diary_kind_names, DIARY_COUNT(diary_kind_names))) < 0)
		return errbuf_set(eb, "%s:%zu: kind: expected change, versus-sudo or crossover",
				  name, lineno);
	e->kind = (enum diary_kind)kind;
	if (claims_parse_quantity(f[2], &e->quantity) != 0)
		return errbuf_set(eb, "%s:%zu: quantity: expected raw_pct, slope_pct or crossover",
				  name, lineno);
	/* A crossover is no ratio: the quantity and the kind say the same or the line is wrong. */
	if ((e->kind == DIARY_CROSSOVER) != (e->quantity == CLAIMS_CROSSOVER))
		return errbuf_set(eb,
				  "%s:%zu: quantity: crossover goes with kind crossover, and only "
				  "with it",
				  name, lineno);
	if (claims_parse_number(f[3], &e->stated) != 0)
		return errbuf_set(eb, "%s:%zu: stated: not a finite number", name, lineno);
	storage = diary_lookup(f[4], diary_storage_names, DIARY_COUNT(diary_storage_names));
	if (storage < 0 ||
	    (e->kind != DIARY_CHANGE && (storage == DIARY_RELEASE || storage == DIARY_SWITCH)))
		return errbuf_set(eb, "%s:%zu: storage: expected json, cbor, any%s", name, lineno,
				  e->kind == DIARY_CHANGE ? ", release or storage" : "");
	e->storage = (enum diary_storage)storage;
	/* The words are data: any bytes, escaped by sanitize wherever they are shown. */
	if (strlen(f[5]) > CLAIMS_TEXT_MAX)
		return errbuf_set(eb, "%s:%zu: source: at most %d bytes", name, lineno,
				  CLAIMS_TEXT_MAX);
	e->id = strdup(f[0]);
	e->source = strdup(f[5]);
	if (e->id == NULL || e->source == NULL)
		return errbuf_set(eb, "out of memory");
	return 0;
}

struct diary *diary_parse(const char *text, size_t len, const char *name, struct errbuf *eb)
{
	static const struct claims_format fmt = {6, "ID KIND QUANTITY STATED STORAGE SOURCE",
						 DIARY_MAX, "sentences"};
	struct diary *d = calloc(1, sizeof(*d));

	if (d == NULL || (d->items = calloc(DIARY_MAX, sizeof(*d->items))) == NULL) {
		errbuf_set(eb, "out of memory");
		diary_free(d);
		return NULL;
	}
	if (claims_read_lines(text, len, &fmt, name, diary_parse_line, d, eb) != 0) {
		diary_free(d);
		return NULL;
	}
	return d;
}

static bool diary_storage_is(const struct diary_build *b, const char *storage)
{
	return b->storage != NULL && strcmp(b->storage, storage) == 0;
}

/* Whether b is a build the sentence's storage admits at all (json or cbor). */
static bool diary_admits(const struct diary_entry *e, const struct diary_build *b)
{
	if (e->storage == DIARY_JSON)
		return diary_storage_is(b, "json");
	if (e->storage == DIARY_CBOR)
		return diary_storage_is(b, "cbor");
	return diary_storage_is(b, "json") || diary_storage_is(b, "cbor");
}

static int diary_ver_cmp(const unsigned *a, const unsigned *b)
{
	for (int k = 0; k < 3; k++)
		if (a[k] != b[k])
			return a[k] < b[k] ? -1 : 1;
	return 0;
}

/* Whether (a -> b) is a pair a change of e's storage may name. */
static bool diary_pair(const struct diary_entry *e, const struct diary_build *a,
		       const struct diary_build *b)
{
	bool release, change_of_storage;

	if (!diary_admits(e, a) || !diary_admits(e, b))
		return false;
	/* An older release to a newer one of the same storage. */
	release = strcmp(a->storage, b->storage) == 0 && diary_ver_cmp(a->ver, b->ver) < 0;
	/* One release's JSON build to its CBOR build: the README's optimisation. A pair that
	 * changes both the release and the storage is none: it would mix two causes. */
	change_of_storage = diary_storage_is(a, "json") && diary_storage_is(b, "cbor") &&
			    diary_ver_cmp(a->ver, b->ver) == 0;
	switch (e->storage) {
	case DIARY_SWITCH:
		return change_of_storage;
	case DIARY_ANY:
		return release || change_of_storage;
	case DIARY_JSON:
	case DIARY_CBOR:
	case DIARY_RELEASE:
	default:
		return release;
	}
}

static const struct fit_estimate *diary_quantity(const struct fit_comparison *c,
						 enum claims_quantity q)
{
	if (q == CLAIMS_RAW_PCT)
		return &c->raw_pct;
	if (q == CLAIMS_SLOPE_PCT)
		return &c->slope_pct;
	return c->has_crossover ? &c->crossover : NULL;
}

/* Weighs one candidate (to against base) and keeps it in out when it is the best so far. */
static void diary_consider(const struct diary_entry *e, const struct diary_build *from,
			   const struct diary_build *to, const struct fit_line *base,
			   struct diary_match *out)
{
	struct fit_comparison cmp;
	const struct fit_estimate *m;
	double half, score;
	bool matches, better;

	fit_compare(&to->line, base, &cmp);
	m = diary_quantity(&cmp, e->quantity);
	if (m == NULL || !isfinite(m->value) || !isfinite(m->lo) || !isfinite(m->hi))
		return;
	half = (m->hi - m->lo) / 2;
	/* How far the interval's far end lies from the stated value: distance and imprecision
	 * alike count against a pair, so that a vague pair whose wide interval happens to be
	 * centred near the statement does not beat a precise one just beside it. */
	score = fabs(m->value - e->stated) + half;
	matches = e->stated >= m->lo && e->stated <= m->hi;
	out->n_candidates++;
	out->n_matching += matches;
	better = out->to == NULL || (matches && !out->matches) ||
		 (matches == out->matches &&
		  (score < out->score ||
		   (score == out->score && half < (out->measured.hi - out->measured.lo) / 2)));
	if (!better)
		return;
	out->from = from;
	out->to = to;
	out->measured = *m;
	out->score = score;
	out->matches = matches;
}

void diary_match(const struct diary_entry *e, const struct diary_build *builds, size_t n,
		 const struct fit_line *anchor, struct diary_match *out)
{
	memset(out, 0, sizeof(*out));
	out->entry = e;
	out->score = INFINITY;
	out->measured.value = out->measured.se = out->measured.lo = out->measured.hi = NAN;
	for (size_t i = 0; i < n; i++) {
		if (e->kind != DIARY_CHANGE) {
			if (anchor != NULL && diary_admits(e, &builds[i]))
				diary_consider(e, NULL, &builds[i], anchor, out);
			continue;
		}
		for (size_t j = 0; j < n; j++)
			if (j != i && diary_pair(e, &builds[i], &builds[j]))
				diary_consider(e, &builds[i], &builds[j], &builds[i].line, out);
	}
}
