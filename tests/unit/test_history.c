/* Tests for rarplot's history: releases sorted by version (not by name), a step placed between the
 * right releases, explained by the counter that changed with its price, and a flat history
 * without steps. Files written in a scratch directory, as rarplot's run leaves them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diary.h"
#include "fileio.h"
#include "harness.h"
#include "history.h"

static char dir[64];

static void put(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "we");
	if (f == NULL)
		return;
	fputs(text, f);
	fclose(f);
}

static char *get(const char *name)
{
	char path[256], *text = NULL;
	size_t len;
	struct errbuf eb = {{0}};

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (fileio_read(path, 1 << 20, NULL, &text, &len, &eb) != 0)
		return NULL;
	return text;
}

#define FITS_HEAD                                                                                  \
	"subject\tformat\thost\tx\tn\tintercept_ms\tintercept_se_ms\tslope_us\tslope_se_us\tr2\t"  \
	"intercept_lo_ms\tintercept_hi_ms\tslope_lo_us\tslope_hi_us\n"

/* A row: value ± se with its 95 % bounds (t 2.45, n 8). */
static void row(char *buf, size_t cap, const char *subject, double i, double s)
{
	size_t len = strlen(buf);

	snprintf(buf + len, cap - len,
		 "%s\trar-cbor\t-\tnb_tasks\t8\t%g\t0.01\t%g\t0.02\t0.99\t%g\t%g\t%g\t%g\n",
		 subject, i, s, i - 0.0245, i + 0.0245, s - 0.049, s + 0.049);
}

static int run(void)
{
	struct errbuf eb = {{0}};
	const struct history_opts o = {
	    .out_dir = dir,
	    .axis = "nb_tasks",
	    .anchor = "sudo",
	    .alpha = 0.05,
	    .min_rel_pct = 3.0,
	};
	int rc = history_run(&o, &eb);

	if (rc != 0)
		fprintf(stderr, "  %s\n", eb.msg);
	return rc;
}

static void test_step_found_and_explained(void)
{
	char fits[4096] = FITS_HEAD;
	char *steps, *report, *tsv;

	/* Given out of order (4.0.3 before 3.3.10, 3.3.9): version order is 3.3.9 3.3.10 4.0.3. */
	row(fits, sizeof(fits), "sudo", 2.48, 2.3);
	row(fits, sizeof(fits), "sr-cbor-4.0.3", 6.70, 2.30);
	row(fits, sizeof(fits), "sr-cbor-3.3.10", 2.60, 2.31);
	row(fits, sizeof(fits), "sr-cbor-3.3.9", 2.61, 2.29);
	put("fits.tsv", fits);
	put("profile-fits.tsv", "subject\tcounter\tn\tslope_per_nb_tasks\tintercept\tr2\tmin\tmax\n"
				"sr-cbor-3.3.10\tsys.close\t8\t0\t34\t1\t34\t34\n"
				"sr-cbor-4.0.3\tsys.close\t8\t0\t1193\t1\t1193\t1193\n"
				"sr-cbor-3.3.10\tsys.read\t8\t0.01\t192\t1\t192\t200\n"
				"sr-cbor-4.0.3\tsys.read\t8\t0.01\t192\t1\t192\t200\n");
	put("report.md", "# report\n");
	/* No inputs, so no prices (profile-costs.tsv beside results.json): counts only. */
	CHECK_INT_EQ(run(), 0);
	tsv = get("history.tsv");
	CHECK(tsv != NULL && strstr(tsv, "sr-cbor\t3.3.9\t1\t") != NULL &&
	      strstr(tsv, "sr-cbor\t3.3.10\t2\t") != NULL &&
	      strstr(tsv, "sr-cbor\t4.0.3\t3\t") != NULL);
	steps = get("history-steps.tsv");
	CHECK(steps != NULL);
	if (steps != NULL) {
		CHECK(strstr(steps, "sr-cbor\tintercept\t3.3.10\t4.0.3\t") != NULL);
		CHECK(strstr(strstr(steps, "sr-cbor\tintercept\t3.3.10\t4.0.3\t"), "\tstep\n") !=
		      NULL);
		/* Only one step: the pair 3.3.9 -> 3.3.10 and the slopes differ by less than noise
		 * (the header ends in "\tstep\n" too). */
		const char *first = strstr(strchr(steps, '\n'), "\tstep\n");

		CHECK(first != NULL && strstr(first + 1, "\tstep\n") == NULL);
	}
	report = get("report.md");
	CHECK(report != NULL && strncmp(report, "# report\n", 9) == 0);
	CHECK(report != NULL && strstr(report, "## Release history") != NULL);
	CHECK(report != NULL &&
	      strstr(report, "sr-cbor 3.3.10 → 4.0.3, intercept: +4.1 ms") != NULL);
	CHECK(report != NULL &&
	      strstr(report, "`close(2)`: 34 → 1193 calls per run (+1159)") != NULL);
	/* read(2) did not change: not in the explanation. */
	CHECK(report != NULL && strstr(report, "`read(2)`") == NULL);
	CHECK(report != NULL && strstr(report, "the grey band") == NULL &&
	      strstr(report, "The anchor, drawn as a band: sudo") != NULL);
	free(tsv);
	free(steps);
	free(report);
}

static void test_flat_history(void)
{
	char fits[4096] = FITS_HEAD;
	char *report;

	row(fits, sizeof(fits), "sr-json-4.1.0", 3.00, 1.0);
	row(fits, sizeof(fits), "sr-json-4.2.0", 3.01, 1.0);
	row(fits, sizeof(fits), "doas", 1.0, 1.0);
	put("fits.tsv", fits);
	unlink("profile-fits.tsv");
	put("report.md", "");
	CHECK_INT_EQ(run(), 0);
	report = get("report.md");
	CHECK(report != NULL && strstr(report, "No step:") != NULL);
	free(report);
	/* No releases at all: said, not an error. */
	put("fits.tsv",
	    FITS_HEAD "doas\tdoas\t-\tnb_tasks\t8\t1\t0.1\t1\t0.1\t1\t0.8\t1.2\t0.8\t1.2\n");
	put("report.md", "");
	CHECK_INT_EQ(run(), 0);
	report = get("report.md");
	CHECK(report != NULL && strstr(report, "no history") != NULL);
	free(report);
}

/* With a diary: each sentence's best pair in report.md's table and history-diary.tsv. */
static void test_diary_table(void)
{
	static const char sentences[] =
	    "raw\tchange\traw_pct\t-34\tany\t\"34% raw performance improvement\"\n"
	    "far\tchange\traw_pct\t-90\tany\tnothing this big\n"
	    "cross\tcrossover\tcrossover\t7500\tcbor\t~7500 tasks\n";
	char fits[4096] = FITS_HEAD;
	char *report, *tsv;
	struct errbuf eb = {{0}};
	struct diary *d = diary_parse(sentences, strlen(sentences), "d.tsv", &eb);
	struct history_opts o = {.out_dir = dir,
				 .axis = "nb_tasks",
				 .anchor = "sudo",
				 .alpha = 0.05,
				 .min_rel_pct = 3.0};

	CHECK(d != NULL);
	if (d == NULL)
		return;
	o.diary = d;
	/* JSON 4.9 ms -> CBOR 3.234 ms of one release: -34.0 %; CBOR 3.3.4 -> 4.0.3, -46.5 %, is
	 * the nearest to -90 % and still misses it. The CBOR 4.0.3 line meets sudo's at
	 * (2.48 - 1.73) ms / (2.4 - 2.3) us = 7500 tasks. */
	row(fits, sizeof(fits), "sudo", 2.48, 2.3);
	row(fits, sizeof(fits), "sr-json-3.3.4", 4.9, 2.3);
	row(fits, sizeof(fits), "sr-cbor-3.3.4", 3.234, 2.3);
	row(fits, sizeof(fits), "sr-cbor-4.0.3", 1.73, 2.4);
	put("fits.tsv", fits);
	unlink("profile-fits.tsv");
	put("report.md", "");
	CHECK_INT_EQ(history_run(&o, &eb), 0);
	report = get("report.md");
	CHECK(report != NULL &&
	      strstr(report, "### The original README, sentence by sentence") != NULL);
	CHECK(report != NULL &&
	      strstr(report,
		     "| raw | change, raw_pct, any | -34 % | sr-json 3.3.4 → sr-cbor 3.3.4 | "
		     "-34.0 % [") != NULL);
	CHECK(report != NULL && strstr(report, "matches (1 of 2 candidates do)") != NULL);
	CHECK(report != NULL &&
	      strstr(report,
		     "| far | change, raw_pct, any | -90 % | sr-cbor 3.3.4 → 4.0.3 | -46.5 % [") !=
		  NULL);
	CHECK(report != NULL &&
	      strstr(report, "no release pair matches (of 2; the closest is shown)") != NULL);
	CHECK(report != NULL &&
	      strstr(report,
		     "| cross | crossover, crossover, cbor | 7500 | sr-cbor 4.0.3 vs sudo | "
		     "7500 tasks [") != NULL);
	tsv = get("history-diary.tsv");
	CHECK(tsv != NULL &&
	      strstr(tsv, "raw\tchange\traw_pct\tany\t-34\tsr-json-3.3.4\tsr-cbor-3.3.4\t-34") !=
		  NULL);
	CHECK(tsv != NULL &&
	      strstr(tsv, "far\tchange\traw_pct\tany\t-90\tsr-cbor-3.3.4\tsr-cbor-4.0.3\t-46.5") !=
		  NULL);
	free(report);
	free(tsv);
	diary_free(d);
	/* Without a diary, no table and no file. */
	unlink("history-diary.tsv");
	put("report.md", "");
	CHECK_INT_EQ(run(), 0);
	report = get("report.md");
	CHECK(report != NULL && strstr(report, "sentence by sentence") == NULL);
	CHECK(access("history-diary.tsv", F_OK) != 0);
	free(report);
}

static void test_bad_fits(void)
{
	struct errbuf eb = {{0}};
	const struct history_opts o = {.out_dir = dir, .alpha = 0.05, .min_rel_pct = 3.0};

	put("fits.tsv", "subject\tx\n");
	CHECK_INT_EQ(history_run(&o, &eb), -1);
	CHECK(strstr(eb.msg, "no column") != NULL);
}

int main(void)
{
	char cmd[128];

	snprintf(dir, sizeof(dir), "/tmp/rp-history.XXXXXX");
	if (mkdtemp(dir) == NULL)
		return 1;
	RUN(test_step_found_and_explained);
	RUN(test_flat_history);
	RUN(test_diary_table);
	RUN(test_bad_fits);
	if (getenv("KEEP") != NULL)
		return HARNESS_EXIT();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (strncmp(dir, "/tmp/rp-history.", 16) == 0)
		(void)!system(cmd);
	return HARNESS_EXIT();
}
