/* sitesvg: a figure's axes always have numbers (a log axis within one decade too), every point
 * its tooltip with the interval, the figure its table, and names from files are escaped. */
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sitesvg.h"

static char *draw(const struct sitesvg_fig *fig)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (f == NULL)
		return NULL;
	sitesvg_write(f, fig);
	fclose(f);
	return out;
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	for (const char *p = s; (p = strstr(p, what)) != NULL; p += strlen(what))
		n++;
	return n;
}

/* The tick labels of the log group: text elements of class tick between its start and end. */
static size_t log_ticks(const char *svg)
{
	const char *start = strstr(svg, "data-scale=\"log\">"), *end;
	size_t n = 0;

	if (start == NULL)
		return 0;
	end = strstr(start, "<clipPath");
	for (const char *p = start; (p = strstr(p, "class=\"tick\">")) != NULL && p < end; p++)
		n++;
	return n;
}

static void test_log_within_a_decade(void)
{
	/* perf_roles_log's case: every y within 2.8 to 3.6 ms, no decade line inside. */
	static const struct sitesvg_point pts[] = {
	    {1, 2.8, 2.75, 2.85}, {10, 3.0, 2.9, 3.1}, {100, 3.3, 3.2, 3.4}, {1000, 3.6, 3.5, 3.7}};
	struct sitesvg_series s = {.name = "sudo", .pts = pts, .n = 4};
	struct sitesvg_fig fig = {.id = "f",
				  .title = "t",
				  .xlabel = "nb_roles",
				  .ylabel = "ms",
				  .yunit = "ms",
				  .xunit = "nb_roles",
				  .series = &s,
				  .n_series = 1,
				  .yref = NAN,
				  .log_first = true};
	char *svg = draw(&fig);

	CHECK(svg != NULL);
	if (svg == NULL)
		return;
	/* x has 4 decades (1, 10, 100, 1000), y needs the integers 3 ... at least 3 of its own */
	CHECK(log_ticks(svg) >= 4 + 3);
	CHECK(strstr(svg, ">3</text>") != NULL);
	CHECK(strstr(svg, "data-scale=\"log\"") != NULL);
	/* every point has a tooltip with its interval, on both scales, and a row in the table */
	CHECK_INT_EQ(count(svg, "class=\"pt\""), 8);
	CHECK(strstr(svg, "data-tip=\"sudo · nb_roles = 100: 3.3 ms [3.2, 3.4]\"") != NULL);
	CHECK_INT_EQ(count(svg, "<tr data-series=\"0\">"), 4);
	free(svg);
}

static void test_escaped_and_no_log_for_negatives(void)
{
	static const struct sitesvg_point pts[] = {{0, -1, NAN, NAN}, {1, 2, 1, 3}, {2, 4, 3, 5}};
	static const char *const cats[] = {"<b>a</b>", "b", "c"};
	struct sitesvg_series s = {.name = "x\"><script>", .pts = pts, .n = 3, .connect = true};
	struct sitesvg_fig fig = {.id = "g",
				  .title = "t&",
				  .xlabel = "x",
				  .ylabel = "y",
				  .yunit = "",
				  .xunit = "",
				  .xcats = cats,
				  .n_xcats = 3,
				  .series = &s,
				  .n_series = 1,
				  .yref = 1,
				  .log_first = true};
	char *svg = draw(&fig);

	CHECK(svg != NULL);
	if (svg == NULL)
		return;
	CHECK(strstr(svg, "<script>") == NULL);
	CHECK(strstr(svg, "<b>") == NULL);
	CHECK(strstr(svg, "&lt;b&gt;a&lt;/b&gt;") != NULL);
	CHECK(strstr(svg, "t&amp;") != NULL);
	/* a negative value: no log scale offered, the figure opens linear */
	CHECK(strstr(svg, "data-scale=\"log\"") == NULL);
	CHECK(strstr(svg, "scalebtn") == NULL);
	CHECK(strstr(svg, "data-scale=\"lin\"") != NULL);
	free(svg);
}

int main(void)
{
	RUN(test_log_within_a_decade);
	RUN(test_escaped_and_no_log_for_negatives);
	return HARNESS_EXIT();
}
