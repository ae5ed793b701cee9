/* test_plotstyle: one look per subject in every run, variants, the pool, legend names, the span.
 */
#include <math.h>

#include "harness.h"
#include "plotstyle.h"

#define N_MAX 64

/* Fills entries from "subject/format" strings and assigns their looks. */
static size_t looks(struct plotstyle_entry *e, const char *const *pairs, char store[][64])
{
	size_t n = 0;

	for (; pairs[n] != NULL && n < N_MAX; n++) {
		char *slash;

		snprintf(store[n], 64, "%s", pairs[n]);
		slash = strchr(store[n], '/');
		*slash = '\0';
		e[n].subject = store[n];
		e[n].format = slash + 1;
	}
	plotstyle_assign(e, n);
	return n;
}

static const struct plotstyle *style_of(const struct plotstyle_entry *e, size_t n, const char *s,
					const char *f)
{
	const struct plotstyle *st = plotstyle_find(e, n, s, f);

	if (st == NULL)
		fprintf(stderr, "  no style for %s/%s\n", s, f);
	return st;
}

static int same_look(const struct plotstyle *a, const struct plotstyle *b)
{
	return a != NULL && b != NULL && strcmp(a->color, b->color) == 0 && a->point == b->point &&
	       a->dash == b->dash;
}

static void test_the_shipped_subjects(void)
{
	static const char *const pairs[] = {"sudo/sudoers", "sudo-rs/sudoers", "doas/doas",
					    "sr-json/rar-json", "sr-cbor/rar-cbor",
					    "sr-json-4.0.3/rar-json", "sr-cbor-4.0.3/rar-cbor",
					    /* issue 54 */
					    "please/please", NULL};
	static const char *const colors[] = {"#000000", "#E69F00", "#009E73", "#D55E00",
					     "#0072B2", "#CC79A7", "#56B4E9", "#F0E442"};
	struct plotstyle_entry e[N_MAX];
	char store[N_MAX][64];
	size_t n = looks(e, pairs, store), i, j;

	CHECK_INT_EQ(n, 8);
	for (i = 0; i < n; i++) {
		CHECK_STR_EQ(e[i].style.color, colors[i]);
		CHECK(e[i].style.known);
		CHECK(!e[i].style.variant);
		CHECK_INT_EQ(e[i].style.dash, PLOTSTYLE_DASH_SOLID);
		for (j = 0; j < i; j++) {
			CHECK(strcmp(e[i].style.color, e[j].style.color) != 0);
			CHECK(e[i].style.point != e[j].style.point);
		}
	}
	CHECK_STR_EQ(e[0].style.color_name, "black");
	CHECK_INT_EQ(e[0].style.point, 7);
	CHECK_STR_EQ(plotstyle_point_name(e[0].style.point), "filled circle");
	CHECK_STR_EQ(plotstyle_dash_name(e[0].style.dash), "solid");
}

/* The demo (experiments/quick.json), seed-tasks and rar-versions: other sets, other orders. */
static void test_same_look_across_inputs(void)
{
	static const char *const quick[] = {"sudo/sudoers",     "sudo-rs/sudoers",  "doas/doas",
					    "sr-json/rar-json", "sr-cbor/rar-cbor", NULL};
	static const char *const versions[] = {"sr-cbor-4.0.3/rar-cbor", "sr-cbor/rar-cbor",
					       "sr-json/rar-json",       "sr-json-4.0.3/rar-json",
					       "sudo/sudoers",           NULL};
	static const char *const plain[] = {"printf/-", "sudo/-", "doas/-", NULL};
	static const char *const subjects[] = {"sudo", "sr-json", "sr-cbor"};
	struct plotstyle_entry a[N_MAX], b[N_MAX], c[N_MAX];
	char sa[N_MAX][64], sb[N_MAX][64], sc[N_MAX][64];
	size_t na = looks(a, quick, sa), nb = looks(b, versions, sb), nc = looks(c, plain, sc), i;

	for (i = 0; i < 3; i++) {
		const char *f = strcmp(subjects[i], "sudo") == 0      ? "sudoers"
				: strcmp(subjects[i], "sr-json") == 0 ? "rar-json"
								      : "rar-cbor";

		CHECK(same_look(style_of(a, na, subjects[i], f), style_of(b, nb, subjects[i], f)));
	}
	/* A plain hyperfine export of bin/sudo and bin/doas: format "-" is any format. */
	CHECK(same_look(style_of(a, na, "sudo", "sudoers"), style_of(c, nc, "sudo", "-")));
	CHECK(same_look(style_of(a, na, "doas", "doas"), style_of(c, nc, "doas", "-")));
	CHECK(!style_of(c, nc, "printf", "-")->known);
}

static void test_variants_share_the_colour(void)
{
	static const char *const pairs[] = {"sudo/sudoers",
					    "sudo-pam/sudoers",
					    "doas-pam/doas",
					    "foo/f",
					    "foo-pam/f",
					    "-pam/x",
					    NULL};
	struct plotstyle_entry e[N_MAX];
	char store[N_MAX][64];
	size_t n = looks(e, pairs, store);
	const struct plotstyle *sudo = style_of(e, n, "sudo", "sudoers");
	const struct plotstyle *pam = style_of(e, n, "sudo-pam", "sudoers");
	const struct plotstyle *doas = style_of(e, n, "doas-pam", "doas");
	const struct plotstyle *foo = style_of(e, n, "foo", "f");
	const struct plotstyle *foo_pam = style_of(e, n, "foo-pam", "f");
	const struct plotstyle *bare = style_of(e, n, "-pam", "x");

	CHECK(sudo != NULL && pam != NULL && doas != NULL && foo != NULL && foo_pam != NULL &&
	      bare != NULL);
	if (sudo == NULL || pam == NULL || doas == NULL || foo == NULL || foo_pam == NULL ||
	    bare == NULL)
		return;
	CHECK_STR_EQ(pam->color, sudo->color);
	CHECK_INT_EQ(pam->dash, PLOTSTYLE_DASH_VARIANT);
	CHECK_INT_EQ(pam->point, 6); /* sudo's circle, open */
	CHECK(pam->known && pam->variant);
	CHECK_STR_EQ(doas->color, "#009E73"); /* doas's colour though doas itself is absent */
	CHECK_INT_EQ(doas->dash, PLOTSTYLE_DASH_VARIANT);
	CHECK_STR_EQ(foo_pam->color, foo->color);
	CHECK_INT_EQ(foo_pam->point, foo->point);
	CHECK(foo_pam->dash != foo->dash);
	CHECK(!bare->variant); /* a suffix alone is an id, not a variant */
	CHECK_STR_EQ(plotstyle_dash_name(pam->dash), "dashed");
}

/* A known id with another format is another subject; the table does not bind it. */
static void test_known_id_other_format(void)
{
	static const char *const pairs[] = {"sudo/sudoers", "sudo/rar-json", NULL};
	struct plotstyle_entry e[N_MAX];
	char store[N_MAX][64];
	size_t n = looks(e, pairs, store);

	CHECK(e[0].style.known);
	CHECK(!e[1].style.known);
	CHECK(!same_look(&e[0].style, &e[1].style));
	(void)n;
}

/* Unknown subjects: distinct colour-and-line pairs, the same whatever the order. */
static void test_pool_is_deterministic_and_distinct(void)
{
	static const char *const fwd[] = {"sudo/sudoers",
					  "sudo-rs/sudoers",
					  "doas/doas",
					  "sr-json/rar-json",
					  "sr-cbor/rar-cbor",
					  "sr-json-4.0.3/rar-json",
					  "sr-cbor-4.0.3/rar-cbor",
					  "a/x",
					  "b/x",
					  "c/x",
					  "d/x",
					  "e/x",
					  "f/x",
					  "g/x",
					  "h/x",
					  "i/x",
					  "j/x",
					  "k/x",
					  NULL};
	const char *rev[N_MAX];
	struct plotstyle_entry a[N_MAX], b[N_MAX];
	char sa[N_MAX][64], sb[N_MAX][64];
	size_t n = 0, na, nb, i, j;

	while (fwd[n] != NULL)
		n++;
	for (i = 0; i < n; i++)
		rev[i] = fwd[n - 1 - i];
	rev[n] = NULL;
	na = looks(a, fwd, sa);
	nb = looks(b, rev, sb);
	CHECK_INT_EQ(na, nb);
	for (i = 0; i < na; i++) {
		CHECK(same_look(&a[i].style, style_of(b, nb, a[i].subject, a[i].format)));
		for (j = 0; j < i; j++)
			CHECK(strcmp(a[i].style.color, a[j].style.color) != 0 ||
			      a[i].style.dash != a[j].style.dash);
	}
	/* With every table colour in use, the first other subject gets the one left: yellow. */
	CHECK_STR_EQ(style_of(a, na, "a", "x")->color, "#F0E442");
	CHECK_INT_EQ(style_of(a, na, "a", "x")->dash, PLOTSTYLE_DASH_SOLID);
}

/* More subjects than slots: every one still gets a look. */
static void test_pool_overflow(void)
{
	struct plotstyle_entry e[N_MAX];
	char store[N_MAX][64];
	size_t i;

	for (i = 0; i < N_MAX; i++) {
		snprintf(store[i], 64, "s%zu", i);
		e[i].subject = store[i];
		e[i].format = "x";
	}
	plotstyle_assign(e, N_MAX);
	for (i = 0; i < N_MAX; i++)
		CHECK(e[i].style.color[0] == '#' && e[i].style.point > 0 && e[i].style.dash > 0);
}

static void test_legend_names(void)
{
	char buf[128];

	plotstyle_legend_name("sudo", "sudoers", "sudo 1.9.13p3", buf, sizeof(buf));
	CHECK_STR_EQ(buf, "sudo 1.9.13p3");
	plotstyle_legend_name("sr-json-4.0.3", "rar-json", "RootAsRole 4.0.3", buf, sizeof(buf));
	CHECK_STR_EQ(buf, "RootAsRole 4.0.3 JSON");
	plotstyle_legend_name("sr-cbor", "rar-cbor", "RootAsRole 3.3.4", buf, sizeof(buf));
	CHECK_STR_EQ(buf, "RootAsRole 3.3.4 CBOR");
	plotstyle_legend_name("doas", "doas", "OpenDoas 6.8.2", buf, sizeof(buf));
	CHECK_STR_EQ(buf, "OpenDoas 6.8.2");
	plotstyle_legend_name("sudo", "sudoers", NULL, buf, sizeof(buf));
	CHECK_STR_EQ(buf, "sudo/sudoers");
	plotstyle_legend_name("seq", "-", NULL, buf, sizeof(buf));
	CHECK_STR_EQ(buf, "seq");
	plotstyle_legend_name("x", "ldap", "tool 1", buf, sizeof(buf));
	CHECK_STR_EQ(buf, "tool 1 ldap");
	plotstyle_legend_name("sudo", "sudoers", "sudo 1.9.13p3", buf, 5);
	CHECK_STR_EQ(buf, "sudo");
	/* The authentication after the format; a swept limit's series keeps its value. */
	plotstyle_legend_name("sr-cbor-4.0.3", "rar-cbor", "RootAsRole 4.0.3, PAM", buf,
			      sizeof(buf));
	CHECK_STR_EQ(buf, "RootAsRole 4.0.3 CBOR, PAM");
	plotstyle_legend_name("sudo-pam", "sudoers", "sudo 1.9.13p3, PAM", buf, sizeof(buf));
	CHECK_STR_EQ(buf, "sudo 1.9.13p3, PAM");
	plotstyle_legend_name("sr-json (nofile 65536)", "rar-json", "RootAsRole 3.3.4, no PAM", buf,
			      sizeof(buf));
	CHECK_STR_EQ(buf, "RootAsRole 3.3.4 JSON, no PAM (nofile 65536)");
}

static void test_slope_span(void)
{
	/* seed-tasks: sudo, sudo-rs, sr-json, sr-cbor, doas (µs/task). */
	const double seed[] = {1.554, 5.414, 117.6, 1.322, 11.15};
	const double close_[] = {0.16, 0.30, 0.054};
	const double flat[] = {1.0, 0.0, -2.0};
	size_t steep = 99, shallow = 99;

	CHECK(fabs(plotstyle_slope_span(seed, 5, &steep, &shallow) - 117.6 / 1.322) < 1e-12);
	CHECK_INT_EQ(steep, 2);
	CHECK_INT_EQ(shallow, 3);
	CHECK(plotstyle_slope_span(seed, 5, NULL, NULL) > PLOTSTYLE_LOG_SPAN);
	CHECK(plotstyle_slope_span(close_, 3, NULL, NULL) < PLOTSTYLE_LOG_SPAN);
	CHECK(isnan(plotstyle_slope_span(flat, 3, NULL, NULL)));
	CHECK(isnan(plotstyle_slope_span(seed, 1, NULL, NULL)));
}

int main(void)
{
	RUN(test_the_shipped_subjects);
	RUN(test_same_look_across_inputs);
	RUN(test_variants_share_the_colour);
	RUN(test_known_id_other_format);
	RUN(test_pool_is_deterministic_and_distinct);
	RUN(test_pool_overflow);
	RUN(test_legend_names);
	RUN(test_slope_span);
	return HARNESS_EXIT();
}
