/* Tests for diary: the file read as claims files are (the same refusals, FILE:LINE), and each
 * sentence matched with the pair of builds whose measured ratio holds it: inside one interval,
 * outside all (the closest named), a precise pair before a vague one, ties, the pairs a storage
 * admits (a pair changing release and storage never), against the anchor, crossovers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diary.h"
#include "harness.h"

static struct diary_build builds[8];
static size_t n_builds;

/* A build whose line is intercept ms ± ise, slope ms per task ± sse, from 1002 points (so that
 * the intervals are value ± 1.96 se: t95(1000)). */
static void add(const char *storage, const char *version, double intercept, double ise,
		double slope, double sse)
{
	struct diary_build *b = &builds[n_builds++];

	memset(b, 0, sizeof(*b));
	b->name = strcmp(storage, "json") == 0 ? "sr-json" : "sr-cbor";
	b->storage = storage;
	b->version = version;
	if (sscanf(version, "%u.%u.%u", &b->ver[0], &b->ver[1], &b->ver[2]) != 3)
		abort();
	b->line.intercept = intercept;
	b->line.intercept_se = ise;
	b->line.slope = slope;
	b->line.slope_se = sse;
	b->line.n = 1002;
}

static struct diary_entry entry(enum diary_kind kind, enum claims_quantity q,
				enum diary_storage storage, double stated)
{
	struct diary_entry e;

	memset(&e, 0, sizeof(e));
	e.id = "t";
	e.source = "words";
	e.kind = kind;
	e.quantity = q;
	e.storage = storage;
	e.stated = stated;
	return e;
}

static void expect_error_len(const char *text, size_t len, const char *msg)
{
	struct errbuf eb = {{0}};
	struct diary *d = diary_parse(text, len, "d.tsv", &eb);

	CHECK(d == NULL);
	diary_free(d);
	if (strstr(eb.msg, msg) == NULL)
		fprintf(stderr, "  expected \"%s\" in \"%s\"\n", msg, eb.msg);
	CHECK(strstr(eb.msg, msg) != NULL);
	CHECK(strchr(eb.msg, '\n') == NULL);
}

static void expect_error(const char *text, const char *msg)
{
	expect_error_len(text, strlen(text), msg);
}

static void test_parse(void)
{
	static const char good[] = "# a comment\n\n"
				   "r\tchange\traw_pct\t-34\tany\t\"34% better\"\r\n"
				   "s\tversus-sudo\tslope_pct\t97.09\tjson\tw\n"
				   "x\tcrossover\tcrossover\t7500\tcbor\t~7500 tasks";
	struct errbuf eb = {{0}};
	struct diary *d = diary_parse(good, strlen(good), "d.tsv", &eb);

	CHECK(d != NULL);
	if (d == NULL)
		return;
	CHECK(d->n == 3);
	CHECK_STR_EQ(d->items[0].id, "r");
	CHECK(d->items[0].kind == DIARY_CHANGE && d->items[0].quantity == CLAIMS_RAW_PCT);
	CHECK(d->items[0].stated == -34 && d->items[0].storage == DIARY_ANY);
	CHECK_STR_EQ(d->items[0].source, "\"34% better\"");
	CHECK(d->items[1].kind == DIARY_VERSUS && d->items[1].storage == DIARY_JSON);
	CHECK(d->items[2].kind == DIARY_CROSSOVER && d->items[2].stated == 7500);
	diary_free(d);

	/* The claims file's refusals, with the diary's fields. */
	expect_error("a\tchange\traw_pct\t1\tany\n",
		     "d.tsv:1: expected 6 tab-separated fields (ID KIND QUANTITY STATED STORAGE "
		     "SOURCE), got fewer");
	expect_error("a\tchange\traw_pct\t1\tany\tw\tmore\n", "d.tsv:1: expected 6");
	expect_error("\n#\na b\tchange\traw_pct\t1\tany\tw\n", "d.tsv:3: id");
	expect_error("a\tbetter\traw_pct\t1\tany\tw\n", "d.tsv:1: kind");
	expect_error("a\tchange\tspeed\t1\tany\tw\n", "d.tsv:1: quantity");
	expect_error("a\tchange\tcrossover\t1\tany\tw\n", "d.tsv:1: quantity: crossover goes");
	expect_error("a\tcrossover\traw_pct\t1\tany\tw\n", "d.tsv:1: quantity: crossover goes");
	expect_error("a\tchange\traw_pct\t1x\tany\tw\n", "d.tsv:1: stated");
	expect_error("a\tchange\traw_pct\tnan\tany\tw\n", "d.tsv:1: stated");
	expect_error("a\tchange\traw_pct\t1\tsqlite\tw\n", "d.tsv:1: storage");
	/* release and storage say which pairs of a change: against sudo they mean nothing. */
	expect_error("a\tversus-sudo\traw_pct\t1\trelease\tw\n", "d.tsv:1: storage");
	expect_error("a\tversus-sudo\traw_pct\t1\tstorage\tw\n", "d.tsv:1: storage");
	expect_error_len("a\tchange\traw_pct\t1\tany\tw\0x\n", 27, "d.tsv: holds a NUL byte");
	{
		static char many[DIARY_MAX * 40 + 64];
		size_t len = 0;

		for (int i = 0; i <= DIARY_MAX; i++)
			len += (size_t)snprintf(many + len, sizeof(many) - len,
						"a%d\tchange\traw_pct\t1\tany\tw\n", i);
		expect_error(many, "more than 64 sentences");
	}
}

/* A change of the intercept: -34 % lies in the interval of one pair only. */
static void test_inside_one_interval(void)
{
	struct diary_entry e = entry(DIARY_CHANGE, CLAIMS_RAW_PCT, DIARY_ANY, -34);
	struct diary_match m;

	n_builds = 0;
	add("json", "3.3.4", 10.0, 0.1, 0.2, 0.001);
	add("json", "4.0.0", 6.6, 0.1, 0.2, 0.001);  /* -34 % of 3.3.4 */
	add("json", "4.2.0", 6.5, 0.1, 0.2, 0.001);  /* -35 %: also near, but 4.0.0 -> 4.2.0 */
	add("cbor", "3.3.4", 5.0, 0.05, 0.1, 0.001); /* JSON -> CBOR of 3.3.4: -50 % */
	diary_match(&e, builds, n_builds, NULL, &m);
	CHECK(m.entry == &e);
	CHECK(m.to == &builds[1] && m.from == &builds[0]);
	CHECK(m.matches);
	CHECK(fabs(m.measured.value - (-34.0)) < 1e-9);
	CHECK(m.measured.lo < -34 && m.measured.hi > -34);
	/* Pairs: json 3.3.4->4.0.0, ->4.2.0, 4.0.0->4.2.0, JSON->CBOR of 3.3.4; cbor has one
	 * release. 3.3.4 -> 4.2.0 (-35 % ± 2.8) holds -34 too. */
	CHECK_INT_EQ((int)m.n_candidates, 4);
	CHECK_INT_EQ((int)m.n_matching, 2);
	CHECK(m.score < 3);
}

/* Outside every interval: no pair matches, and the closest is still named. */
static void test_outside_all(void)
{
	struct diary_entry e = entry(DIARY_CHANGE, CLAIMS_RAW_PCT, DIARY_ANY, -90);
	struct diary_match m;

	n_builds = 0;
	add("json", "3.3.4", 10.0, 0.1, 0.2, 0.001);
	add("json", "4.0.0", 6.6, 0.1, 0.2, 0.001);
	add("cbor", "3.3.4", 5.0, 0.05, 0.1, 0.001);
	diary_match(&e, builds, n_builds, NULL, &m);
	CHECK(!m.matches);
	CHECK_INT_EQ((int)m.n_matching, 0);
	/* JSON -> CBOR of 3.3.4, -50 %, lies nearer -90 than -34 % does. */
	CHECK(m.from == &builds[0] && m.to == &builds[2]);
	CHECK(fabs(m.measured.value - (-50.0)) < 1e-9);
	CHECK(m.measured.lo > -90);
}

/* A vague pair whose wide interval is centred on the statement does not beat a precise one
 * beside it; ties go to the first candidate in order. */
static void test_precise_before_vague_and_ties(void)
{
	struct diary_entry e = entry(DIARY_CHANGE, CLAIMS_RAW_PCT, DIARY_RELEASE, -34);
	struct diary_match m;

	n_builds = 0;
	add("json", "1.0.0", 10.0, 0.01, 0.2, 0.001);
	add("json", "1.0.1", 6.7, 0.01, 0.2, 0.001); /* -33 % ± 0.2 */
	add("cbor", "1.0.0", 10.0, 2.0, 0.2, 0.001);
	add("cbor", "1.0.1", 6.6, 2.0, 0.2, 0.001); /* -34 % ± 45 */
	diary_match(&e, builds, n_builds, NULL, &m);
	/* The precise pair misses -34 (-33 % [-33.2, -32.8]): the vague one matches and wins. */
	CHECK(m.matches && m.to == &builds[3]);
	builds[1].line.intercept_se = 0.1; /* -33 % ± 1.9: now both match */
	diary_match(&e, builds, n_builds, NULL, &m);
	CHECK(m.matches && m.to == &builds[1]);
	CHECK_INT_EQ((int)m.n_matching, 2);

	/* The same two pairs in both storages: the first, JSON's, wins the tie. */
	n_builds = 0;
	add("cbor", "1.0.0", 10.0, 0.1, 0.2, 0.001);
	add("cbor", "1.0.1", 6.6, 0.1, 0.2, 0.001);
	add("json", "1.0.0", 10.0, 0.1, 0.2, 0.001);
	add("json", "1.0.1", 6.6, 0.1, 0.2, 0.001);
	diary_match(&e, builds, n_builds, NULL, &m);
	CHECK(m.from == &builds[0] && m.to == &builds[1]);
	CHECK_INT_EQ((int)m.n_matching, 2);
}

/* Which pairs each storage admits: a pair changing both release and storage never. */
static void test_storages(void)
{
	struct diary_entry e = entry(DIARY_CHANGE, CLAIMS_SLOPE_PCT, DIARY_RELEASE, -97);
	struct diary_match m;

	n_builds = 0;
	add("json", "3.3.4", 10.0, 0.1, 0.100, 0.001);
	add("cbor", "4.0.0", 10.0, 0.1, 0.003,
	    0.0001); /* -97 % of JSON 3.3.4: release AND storage */
	add("cbor", "4.0.1", 10.0, 0.1, 0.004, 0.0001); /* +33 % of CBOR 4.0.0 */
	diary_match(&e, builds, n_builds, NULL, &m);
	CHECK_INT_EQ((int)m.n_candidates, 1); /* cbor 4.0.0 -> 4.0.1 only */
	CHECK(!m.matches && m.from == &builds[1] && m.to == &builds[2]);

	/* storage: one release's JSON build to its CBOR build, and nothing else. */
	e = entry(DIARY_CHANGE, CLAIMS_SLOPE_PCT, DIARY_SWITCH, -97);
	n_builds = 0;
	add("json", "3.3.4", 10.0, 0.1, 0.100, 0.001);
	add("json", "4.0.0", 10.0, 0.1, 0.003, 0.0001); /* -97 %, but a release change */
	add("cbor", "3.3.4", 10.0, 0.1, 0.0029, 0.0001);
	add("cbor", "4.0.0", 10.0, 0.1, 0.100, 0.001);
	diary_match(&e, builds, n_builds, NULL, &m);
	CHECK_INT_EQ((int)m.n_candidates, 2); /* 3.3.4 and 4.0.0, each JSON -> CBOR */
	CHECK(m.matches && m.from == &builds[0] && m.to == &builds[2]);
	/* any: both kinds; json / cbor: that storage's releases only. */
	e.storage = DIARY_ANY;
	diary_match(&e, builds, n_builds, NULL, &m);
	CHECK_INT_EQ((int)m.n_candidates, 4);
	e.storage = DIARY_JSON;
	diary_match(&e, builds, n_builds, NULL, &m);
	CHECK_INT_EQ((int)m.n_candidates, 1);
	CHECK(m.matches && m.from == &builds[0] && m.to == &builds[1]);
	/* A storage that is neither (a line "sudo-rs") is never a candidate. */
	builds[1].storage = "rs";
	diary_match(&e, builds, n_builds, NULL, &m);
	CHECK_INT_EQ((int)m.n_candidates, 0);
	CHECK(m.to == NULL && !m.matches && isnan(m.measured.value));
}

/* Against the anchor: each admitted build once; none without an anchor. */
static void test_versus_anchor(void)
{
	struct fit_line sudo = {.intercept = 3.2,
				.intercept_se = 0.01,
				.slope = 0.0002,
				.slope_se = 0.000001,
				.n = 1002};
	struct diary_entry e = entry(DIARY_VERSUS, CLAIMS_SLOPE_PCT, DIARY_CBOR, -66.1);
	struct diary_match m;

	n_builds = 0;
	add("json", "3.3.4", 10.0, 0.1, 0.0000678, 0.000001); /* -66.1 %, but JSON */
	add("cbor", "3.3.4", 1.0, 0.01, 0.0001, 0.000001);    /* -50 % */
	add("cbor", "4.2.0", 1.0, 0.01, 0.00007, 0.000002);   /* -65 % ± 2: holds -66.1 */
	diary_match(&e, builds, n_builds, &sudo, &m);
	CHECK_INT_EQ((int)m.n_candidates, 2);
	CHECK(m.from == NULL && m.to == &builds[2]);
	CHECK(fabs(m.measured.value - (-65.0)) < 1e-9 && m.matches);
	e.storage = DIARY_ANY;
	diary_match(&e, builds, n_builds, &sudo, &m);
	CHECK(m.to == &builds[0] && m.matches);
	diary_match(&e, builds, n_builds, NULL, &m);
	CHECK(m.to == NULL && m.n_candidates == 0);
	/* A base of 0 makes no ratio: no candidate. */
	sudo.slope = 0;
	diary_match(&e, builds, n_builds, &sudo, &m);
	CHECK(m.to == NULL && m.n_candidates == 0);
}

/* Where a build's line meets the anchor's: 3.2 + 0.0002 x = 1.7 + 0.0004 x at x = 7500. */
static void test_crossover(void)
{
	const struct fit_line sudo = {.intercept = 3.2,
				      .intercept_se = 0.01,
				      .slope = 0.0002,
				      .slope_se = 0.000001,
				      .n = 1002};
	struct diary_entry e = entry(DIARY_CROSSOVER, CLAIMS_CROSSOVER, DIARY_ANY, 7500);
	struct diary_match m;

	n_builds = 0;
	add("cbor", "4.0.3", 1.7, 0.01, 0.0004, 0.000001);
	add("cbor", "4.2.0", 2.2, 0.01, 0.0004, 0.000001); /* meets at 5000 */
	add("json", "4.2.0", 1.7, 0.01, 0.0002, 0.000001); /* parallel: no crossover */
	diary_match(&e, builds, n_builds, &sudo, &m);
	CHECK_INT_EQ((int)m.n_candidates, 2);
	CHECK(m.to == &builds[0] && m.matches);
	CHECK(fabs(m.measured.value - 7500) < 1e-6);
	e.stated = 20000;
	diary_match(&e, builds, n_builds, &sudo, &m);
	CHECK(!m.matches && m.to == &builds[0]);
}

int main(void)
{
	RUN(test_parse);
	RUN(test_inside_one_interval);
	RUN(test_outside_all);
	RUN(test_precise_before_vague_and_ties);
	RUN(test_storages);
	RUN(test_versus_anchor);
	RUN(test_crossover);
	return HARNESS_EXIT();
}
