/* countcompare_print: the counted instructions' section of --compare --counts
 * (countcompare_print.h). */
#include "countcompare_print.h"

#include <stdio.h>

#include "fitreport.h"
#include "sanitize.h"

void countcompare_print(const struct countcompare *c, const char *baseline, const char *candidate,
			const char *axis, FILE *f)
{
	fputs("\n## Counted instructions\n\n", f);
	if (!c->available) {
		fprintf(f, "No verdict on counts: %s. The exit status rests on the wall time.\n",
			c->why);
		return;
	}
	fprintf(f,
		"Each point counted under valgrind's callgrind (rarbench --counts; twice, five "
		"times when "
		"the two differ by more than 0.01 %%, the median kept): the "
		"instructions of the tool's processes up to the exec of the command, fitted "
		"against %s. A count does not move with the host's load; \"no change\" is within "
		"±%.2f %% (a count's own spread over sweeps, %.1f %%, is its interval). **The exit "
		"status "
		"rests on these counts**; the wall-time verdict above is printed beside them.\n\n",
		axis, COUNTCOMPARE_NOISE * 100, COUNTCOMPARE_SPREAD * 100);
	if (c->spread > 0)
		fprintf(f,
			"Some points' counts varied and were counted again, their median kept "
			"(counts.repeats in results.json); the largest spread recorded, %.3f %%, "
			"widens every interval.\n\n",
			c->spread * 100);
	fputs("| quantity | ", f);
	sanitize_fputs(baseline, SANITIZE_MARKDOWN, f);
	fputs(" | ", f);
	sanitize_fputs(candidate, SANITIZE_MARKDOWN, f);
	fputs(" | ratio | verdict |\n|---|--:|--:|--:|---|\n", f);
	for (size_t i = 0; i < c->n_q; i++) {
		const struct countcompare_quantity *q = &c->q[i];
		const char *name = q->name;

		if (i == 1)
			fprintf(f, "| instructions per %s", fitreport_unit(axis));
		else
			fprintf(f, "| %s", name);
		fprintf(f, " | %.0f | %.0f | %.5f | %s |\n", q->base, q->cand, q->ratio.value,
			verdict_name(q->verdict));
	}
	fprintf(f, "\nVerdict on counts: **%s**\n",
		c->regressed  ? "regressed"
		: c->improved ? "improved"
			      : "no change");
}
