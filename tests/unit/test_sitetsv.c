/* sitetsv: a published TSV read by its header; every malformed table refused with FILE:LINE. */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

#include "sitetsv.h"

static void expect_error(const char *text, size_t len, const char *want)
{
	struct errbuf eb = {{0}};
	struct sitetsv *t = sitetsv_parse(text, len, "t.tsv", &eb);

	CHECK(t == NULL);
	sitetsv_free(t);
	if (strstr(eb.msg, want) == NULL || strchr(eb.msg, '\n') != NULL) {
		fprintf(stderr, "  got \"%s\", expected \"%s\"\n", eb.msg, want);
		harness_failed_checks++;
	}
}

static void test_read(void)
{
	static const char text[] = "# a comment\n\nsubject\tmean\tmean_lo\r\nsudo\t1.5\t1.25\n"
				   "sr-cbor\t0.907746\t\n# late comment\n";
	struct errbuf eb = {{0}};
	struct sitetsv *t = sitetsv_parse(text, strlen(text), "t.tsv", &eb);

	CHECK(t != NULL);
	if (t == NULL)
		return;
	CHECK_INT_EQ(t->n_cols, 3);
	CHECK_INT_EQ(t->n_rows, 2);
	CHECK_INT_EQ(sitetsv_col(t, "mean_lo"), 2);
	CHECK_INT_EQ(sitetsv_col(t, "absent"), -1);
	CHECK_STR_EQ(sitetsv_cell(t, 1, sitetsv_col(t, "mean")), "0.907746");
	CHECK_STR_EQ(sitetsv_cell(t, 1, 2), ""); /* an empty cell is one */
	CHECK_STR_EQ(sitetsv_cell(t, 0, -1), "");
	CHECK_STR_EQ(sitetsv_cell(t, 7, 0), "");
	sitetsv_free(t);
}

static void test_errors(void)
{
	char many[SITETSV_COLS_MAX * 3 + 8];
	size_t n = 0;

	expect_error("a\tb\n1\n", 6,
		     "t.tsv:2: expected 2 tab-separated fields (as the header), got 1");
	expect_error("a\tb\n1\t2\t3\n", 10, "t.tsv:2: expected 2 tab-separated fields");
	expect_error("a\t\tb\n", 5, "t.tsv:1: column 2 of the header has no name");
	expect_error("# only\n\n", 8, "t.tsv: no header line");
	expect_error("a\n1\0002\n", 6, "t.tsv: a NUL byte");
	for (int i = 0; i <= SITETSV_COLS_MAX; i++)
		n += (size_t)snprintf(many + n, sizeof(many) - n, "%sc", i ? "\t" : "");
	expect_error(many, n, "t.tsv:1: more than 64 columns");
}

int main(void)
{
	RUN(test_read);
	RUN(test_errors);
	return HARNESS_EXIT();
}
