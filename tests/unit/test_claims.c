/* claims and fit_compare: the claims file's grammar and errors, the delta-method intervals, and
 * each verdict on lines with known values. */
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "claims.h"
#include "claims_file.h"
#include "fit.h"

static struct claims *parse(const char *text, struct errbuf *eb)
{
	return claims_parse(text, strlen(text), "c.tsv", eb);
}

static void expect_error(const char *text, const char *want)
{
	struct errbuf eb = {{0}};
	struct claims *c = parse(text, &eb);

	CHECK(c == NULL);
	claims_free(c);
	if (strstr(eb.msg, want) == NULL || strchr(eb.msg, '\n') != NULL) {
		fprintf(stderr, "  got \"%s\", expected \"%s\"\n", eb.msg, want);
		harness_failed_checks++;
	}
}

static void test_parse(void)
{
	struct errbuf eb = {{0}};
	struct claims *c =
	    parse("# comment\n\nr\tsr-cbor\tsudo\traw_pct\t-66.4\t\"66.4% better\"\r\n"
		  "x\tsr-cbor\tsudo\tcrossover\t7500\tabout 7500 tasks",
		  &eb);

	CHECK(c != NULL);
	if (c == NULL)
		return;
	CHECK_INT_EQ(c->n, 2);
	CHECK_STR_EQ(c->items[0].subject, "sr-cbor");
	CHECK_INT_EQ(c->items[0].quantity, CLAIMS_RAW_PCT);
	CHECK(c->items[0].claimed == -66.4);
	CHECK_STR_EQ(c->items[0].source, "\"66.4% better\"");
	CHECK_INT_EQ(c->items[1].quantity, CLAIMS_CROSSOVER);
	claims_free(c);

	expect_error("a\tb\tc\traw_pct\t1\n", "c.tsv:1: expected 6 tab-separated fields");
	expect_error("\n\na\tb c\tc\traw_pct\t1\tx\n", "c.tsv:3: field 2");
	expect_error("a\tb\tc\tmean\t1\tx\n", "c.tsv:1: quantity: expected raw_pct");
	expect_error("a\tb\tc\traw_pct\t1x\tx\n", "c.tsv:1: claimed: not a finite number");
	expect_error("a\tb\tc\traw_pct\tnan\tx\n", "c.tsv:1: claimed: not a finite number");
	expect_error("a\tb\tc\traw_pct\t1\tx\ty\n", "c.tsv:1: expected 6 tab-separated fields");
	/* the claim's words are data: any byte but NUL, tab and newline is kept (and escaped
	 * where shown) */
	c = parse("a\tb\tc\traw_pct\t1\tbell\a \x9b\n", &eb);
	CHECK(c != NULL && strcmp(c->items[0].source, "bell\a \x9b") == 0);
	claims_free(c);
	expect_error("a\tb\tc\traw_pct\t1\tbell\ta\n", "c.tsv:1: expected 6 tab-separated fields");
}

static void test_t95(void)
{
	CHECK(fabs(fit_t95(1) - 12.7062) < 1e-4);
	CHECK(fabs(fit_t95(12) - 2.1788) < 1e-4);
	CHECK(fabs(fit_t95(40) - 2.0211) < 2e-4);
	CHECK(fabs(fit_t95(1000) - 1.9623) < 2e-4);
	CHECK(isnan(fit_t95(0)));
}

static struct fit_line line(double a, double ase, double b, double bse, double cov, size_t n)
{
	struct fit_line l;

	memset(&l, 0, sizeof(l));
	l.intercept = a;
	l.intercept_se = ase;
	l.slope = b;
	l.slope_se = bse;
	l.cov = cov;
	l.n = n;
	return l;
}

static void test_compare(void)
{
	/* base: 2 ms + 2 us/task; a: 1 ms + 1 us/task: -50 % and -50 %, parallel nowhere. */
	struct fit_line base = line(2.0, 0.02, 0.002, 0.0001, 0, 14);
	struct fit_line a = line(1.0, 0.01, 0.001, 0.00005, 0, 14);
	struct fit_comparison c;
	double t = fit_t95(12);

	fit_compare(&a, &base, &c);
	CHECK_INT_EQ(c.df, 12);
	CHECK(fabs(c.raw_pct.value + 50.0) < 1e-9);
	/* delta method: 100 sqrt((0.01/2)^2 + (1 * 0.02 / 4)^2) = 0.7071 */
	CHECK(fabs(c.raw_pct.se - 100 * sqrt(2.5e-5 + 2.5e-5)) < 1e-9);
	CHECK(fabs(c.raw_pct.hi - (c.raw_pct.value + t * c.raw_pct.se)) < 1e-9);
	CHECK(fabs(c.slope_pct.value + 50.0) < 1e-9);
	CHECK(fit_significant(&c.raw_pct));
	CHECK(c.has_crossover);
	CHECK(fabs(c.crossover.value + 1000.0) < 1e-6); /* (2 - 1) / (0.001 - 0.002) */
	/* The same line: no significant difference. */
	fit_compare(&base, &base, &c);
	CHECK(!fit_significant(&c.raw_pct) && !fit_significant(&c.slope_pct));
	CHECK(!c.has_crossover);
}

/* Verdicts: two fits crossing at 1000 tasks, checked against claims that hold, do not, etc. */
static void test_verdicts(void)
{
	static const double xs[] = {1, 10, 100, 500, 1000, 2000};
	struct plotseries_point pts_a[6], pts_b[6];
	struct plotseries series[2];
	struct plotseries_set set;
	struct fitreport rep;
	struct fitreport_row rows[2];
	struct errbuf eb = {{0}};
	struct claims_check *checks = NULL;
	size_t n = 0;
	struct claims *c = parse("ok\tfast\tsudo\traw_pct\t-50\tx\n"
				 "dir\tfast\tsudo\traw_pct\t-20\tx\n"
				 "wrong\tfast\tsudo\traw_pct\t20\tx\n"
				 "cross\tfast\tsudo\tcrossover\t1000\tx\n"
				 "gone\tghost\tsudo\tslope_pct\t1\tx\n",
				 &eb);

	CHECK(c != NULL);
	if (c == NULL)
		return;
	memset(&set, 0, sizeof(set));
	memset(&rep, 0, sizeof(rep));
	memset(series, 0, sizeof(series));
	memset(rows, 0, sizeof(rows));
	memset(pts_a, 0, sizeof(pts_a));
	memset(pts_b, 0, sizeof(pts_b));
	series[0].subject = "sudo";
	series[1].subject = "fast";
	series[0].format = series[1].format = "f";
	series[0].host = series[1].host = "-";
	series[0].pts = pts_b;
	series[1].pts = pts_a;
	series[0].n = series[1].n = 6;
	series[0].x_min = series[1].x_min = xs[0];
	series[0].x_max = series[1].x_max = xs[5];
	set.series = series;
	set.n_series = 2;
	set.n_hosts = 1;
	set.axis = "nb_tasks";
	/* sudo: 2 ms + 1 us/task; fast: 1 ms + 2 us/task (meet at 1000), tiny standard errors. */
	rows[0].series = &series[0];
	rows[0].fit = line(2.0, 0.001, 0.001, 1e-6, 0, 6);
	rows[1].series = &series[1];
	rows[1].fit = line(1.0, 0.001, 0.002, 1e-6, 0, 6);
	rep.set = &set;
	rep.res = NULL;
	rep.baseline = "sudo";
	rep.rows = rows;
	rep.n_rows = 2;
	CHECK_INT_EQ(claims_check(c, &rep, &checks, &n, &eb), 0);
	CHECK_INT_EQ(n, 5);
	if (n == 5) {
		CHECK_INT_EQ(checks[0].verdict, CLAIMS_HOLDS);
		CHECK_INT_EQ(checks[1].verdict, CLAIMS_DIRECTION_HOLDS);
		CHECK_INT_EQ(checks[2].verdict, CLAIMS_CONTRADICTED);
		CHECK_INT_EQ(checks[3].verdict, CLAIMS_HOLDS);
		CHECK(checks[3].in_range);
		CHECK_INT_EQ(checks[4].verdict, CLAIMS_NOT_MEASURED);
	}
	free(checks);
	claims_free(c);
}

/*
 * A claims file line whose words hold an 8-bit CSI (0x9b), HTML, a bidi override, a pipe and an
 * OSC 52 sequence: escaped in the Markdown section (report.md and rarplot's stdout) and in
 * claims.tsv.
 */
static const char hostile_line[] = "x_1\tsr-cbor\tsudo\traw_pct\t-1\t\x9b"
				   "31m<img src=x onerror=alert(1)> gpj.\xe2\x80\xae"
				   "exe | \x1b]52;c;AA\x07 `code` [l](javascript:x)\n";

/* The Markdown section for the hostile claim, not measured, on host (NULL: "-"). */
static char *hostile_markdown(const char *host)
{
	struct errbuf eb = {{0}};
	struct claims *c = parse(hostile_line, &eb);
	struct claims_check ck;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	CHECK(c != NULL);
	if (c == NULL)
		return NULL;
	memset(&ck, 0, sizeof(ck));
	ck.claim = &c->items[0];
	ck.host = host != NULL ? host : "-";
	ck.measured.value = ck.measured.se = ck.measured.lo = ck.measured.hi = NAN;
	ck.verdict = CLAIMS_NOT_MEASURED;
	f = open_memstream(&out, &len);
	CHECK(f != NULL);
	if (f != NULL) {
		claims_print_markdown(&ck, 1, "task", f);
		fclose(f);
	}
	claims_free(c);
	return out;
}

static void test_hostile_words(void)
{
	char *md = hostile_markdown("h<b>|\xc2\x9b");
	const char *row;

	CHECK(md != NULL);
	if (md == NULL)
		return;
	row = strstr(md, "| x_1: sr-cbor vs sudo |");
	CHECK(row != NULL);
	/* the CSI as \x9b, the tag as text, the override as its bytes, the pipe escaped */
	CHECK(strstr(md, "| \\x9b31m\\<img src=x onerror=alert(1)\\> gpj.\\xe2\\x80\\xaeexe \\| "
			 "\\x1b\\]52;c;AA\\x07 \\`code\\` \\[l\\](javascript:x) |\n") != NULL);
	CHECK(strstr(md, "| h\\<b\\>\\|\\xc2\\x9b |") != NULL);
	/* nothing raw is left: no CSI byte, no ESC, no BEL, no override, no live tag */
	CHECK(strchr(md, '\x9b') == NULL && strchr(md, '\x1b') == NULL && strchr(md, '\a') == NULL);
	CHECK(strstr(md, "\xe2\x80\xae") == NULL);
	CHECK(strstr(md, " <img") == NULL);
	/* the row is one line with its 7 cells: no unescaped '|' inside */
	if (row != NULL) {
		size_t pipes = 0;

		for (const char *p = row; *p != '\n' && *p != '\0'; p++)
			pipes += *p == '|' && p[-1] != '\\';
		CHECK_INT_EQ(pipes, 8);
	}
	free(md);
}

static void test_hostile_tsv(void)
{
	struct errbuf eb = {{0}};
	struct claims *c = parse(hostile_line, &eb);
	struct claims_check ck;
	char dir[] = "/tmp/test_claims.XXXXXX", path[64], buf[1024];
	FILE *f;
	size_t n;

	CHECK(c != NULL);
	CHECK(mkdtemp(dir) != NULL);
	if (c == NULL)
		return;
	memset(&ck, 0, sizeof(ck));
	ck.claim = &c->items[0];
	ck.host = "a\tb\x9b";
	ck.verdict = CLAIMS_NOT_MEASURED;
	snprintf(path, sizeof(path), "%s/claims.tsv", dir);
	CHECK_INT_EQ(claims_write_tsv(&ck, 1, path, &eb), 0);
	f = fopen(path, "r");
	CHECK(f != NULL);
	if (f != NULL) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		buf[n] = '\0';
		fclose(f);
		/* the host cannot add a column nor drive a terminal */
		CHECK(strstr(buf, "\nx_1\ta\\tb\\x9b\tsr-cbor\tsudo\traw_pct\t") != NULL);
	}
	unlink(path);
	rmdir(dir);
	claims_free(c);
}

/*
 * The claims section says what the report's table says: a crossover outside the measured sizes
 * is "none in range" (not "-1000 tasks ... extrapolated"), a percentage is printed as the table and
 * rarplot --compare print it, and a ratio over a zero intercept is undefined.
 */
static void test_same_words_as_table(void)
{
	static const double xs[] = {1, 10, 100, 500, 1000, 2000};
	struct plotseries_point pts[3][6];
	struct plotseries series[3];
	struct plotseries_set set;
	struct fitreport rep;
	struct fitreport_row rows[3];
	struct errbuf eb = {{0}};
	struct claims_check *checks = NULL;
	char *md = NULL;
	size_t n = 0, len = 0;
	FILE *f;
	struct claims *c = parse("cross\tslow\tsudo\tcrossover\t7500\tx\n"
				 "raw\tslow\tsudo\traw_pct\t50\tx\n"
				 "zero\tslow\tnull\traw_pct\t-10\tx\n",
				 &eb);
	static const char *names[] = {"sudo", "slow", "null"};

	CHECK(c != NULL);
	if (c == NULL)
		return;
	memset(&set, 0, sizeof(set));
	memset(&rep, 0, sizeof(rep));
	memset(series, 0, sizeof(series));
	memset(rows, 0, sizeof(rows));
	memset(pts, 0, sizeof(pts));
	for (int i = 0; i < 3; i++) {
		series[i].subject = names[i];
		series[i].format = "f";
		series[i].host = "-";
		series[i].pts = pts[i];
		series[i].n = 6;
		series[i].x_min = xs[0];
		series[i].x_max = xs[5];
		rows[i].series = &series[i];
	}
	set.series = series;
	set.n_series = 3;
	set.n_hosts = 1;
	set.axis = "nb_tasks";
	/* sudo 2 ms + 1 us/task, slow 3 ms + 2 us/task: they would meet at -1000 tasks */
	rows[0].fit = line(2.0, 0.001, 0.001, 1e-6, 0, 6);
	rows[1].fit = line(3.0, 0.001, 0.002, 1e-6, 0, 6);
	rows[2].fit = line(0.0, 0.001, 0.002, 1e-6, 0, 6);
	rep.set = &set;
	rep.baseline = "sudo";
	rep.rows = rows;
	rep.n_rows = 3;
	CHECK_INT_EQ(claims_check(c, &rep, &checks, &n, &eb), 0);
	CHECK_INT_EQ(n, 3);
	f = open_memstream(&md, &len);
	CHECK(f != NULL);
	if (f != NULL && n == 3) {
		CHECK(!checks[0].in_range);
		CHECK_INT_EQ(checks[0].verdict, CLAIMS_CONTRADICTED);
		CHECK_INT_EQ(checks[1].verdict, CLAIMS_HOLDS);
		claims_print_markdown(checks, n, "task", f);
		fclose(f);
		CHECK(strstr(md, "| 7500 | none in range | contradicted |") != NULL);
		CHECK(strstr(md, "extrapolated") == NULL);
		/* +50 % exactly, as verdict_format_pct prints it */
		CHECK(strstr(md, "| 50% | +50 % [+") != NULL);
		CHECK(strstr(md, "| -10% | undefined: intercept 0 |") != NULL);
		CHECK(strstr(md, "nan") == NULL);
		if (strstr(md, "none in range") == NULL || strstr(md, "undefined") == NULL)
			fprintf(stderr, "%s", md);
	}
	free(md);
	free(checks);
	claims_free(c);
}

int main(void)
{
	RUN(test_same_words_as_table);
	RUN(test_parse);
	RUN(test_t95);
	RUN(test_compare);
	RUN(test_verdicts);
	RUN(test_hostile_words);
	RUN(test_hostile_tsv);
	return HARNESS_EXIT();
}
