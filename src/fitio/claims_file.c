/* claims_file: a claims file read, the claims checked written (claims_file.h). */
#include "claims_file.h"
#include "verdict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomicfile.h"
#include "fileio.h"
#include "sanitize.h"

/* A verdict as the report words it. */
static const char *claims_verdict_name(enum claims_verdict v)
{
	static const char *const names[] = {"holds", "direction holds, size differs",
					    "not confirmed (no significant difference)",
					    "contradicted", "not measured"};

	return (size_t)v < sizeof(names) / sizeof(names[0]) ? names[v] : "?";
}

static void claims_format_measured(const struct claims_check *ck, const char *unit, char *buf,
				   size_t size)
{
	const struct fit_estimate *m = &ck->measured;

	if (ck->verdict == CLAIMS_NOT_MEASURED)
		snprintf(buf, size, "-");
	else if (ck->claim->quantity == CLAIMS_CROSSOVER && !isfinite(m->value))
		snprintf(buf, size, "parallel lines: no crossover");
	else if (ck->claim->quantity == CLAIMS_CROSSOVER && !ck->in_range)
		/* As the report's table says it: where the lines would meet is no measurement. */
		snprintf(buf, size, "none in range");
	else if (ck->claim->quantity == CLAIMS_CROSSOVER)
		snprintf(buf, size, "%.0f %s%s [%.0f, %.0f]", m->value, unit,
			 fabs(m->value) == 1 ? "" : "s", m->lo, m->hi);
	else if (ck->base == 0 || !isfinite(ck->base))
		snprintf(buf, size, "undefined: %s 0",
			 ck->claim->quantity == CLAIMS_SLOPE_PCT ? "slope" : "intercept");
	else
		/* The interval string of the table and of rarplot --compare. */
		verdict_format_pct_values(m->value, m->lo, m->hi, buf, size);
}

struct claims *claims_load(const char *path, struct errbuf *eb)
{
	struct claims *c;
	char *text = NULL;
	size_t len = 0;

	if (fileio_read(path, CLAIMS_FILE_MAX, NULL, &text, &len, eb) != 0)
		return NULL;
	c = claims_parse(text, len, path, eb);
	free(text);
	return c;
}

void claims_print_markdown(const struct claims_check *checks, size_t n, const char *unit, FILE *f)
{
	char unit_md[64];
	size_t i;

	/* The unit may be an axis named on the command line or in the results. */
	sanitize_markdown(unit_md, sizeof(unit_md), unit);

	fputs("\n## The original claims, checked\n\n"
	      "Each claim is compared with the same quantity computed from the fitted lines"
	      " above, by the table's method (paired per round where the sweep has rounds, as"
	      " rarplot --compare): value [95 % interval]. A claim *holds* when its figure"
	      " lies in the interval; *direction holds* when the difference has the claimed"
	      " sign, significantly, but another size; *not confirmed* when the interval spans"
	      " zero and misses the claim: no difference could be told from none, which is"
	      " not a finding of no difference (the interval's half-width is the smallest"
	      " difference it could have detected).\n\n",
	      f);
	for (i = 0; i < n && !checks[i].one_sweep; i++)
		;
	if (i < n)
		fputs(
		    "**Preliminary.** These verdicts rest on one sweep: their intervals are that"
		    " sweep's own, and on a shared host another sweep's value falls outside such"
		    " intervals far more often than 1 time in 20 (doc/precision.md, the coverage"
		    " study: 9 to 12 of 24 held). A verdict near an interval's end can change from"
		    " one sweep to the next; quote one only when several sweeps agree"
		    " (doc/guide-first-comparison.md, step 3).\n\n",
		    f);
	fputs("| claim | host | quantity | claimed | measured | verdict | the claim's words |\n"
	      "|---|---|---|---:|---:|---|---|\n",
	      f);
	for (i = 0; i < n; i++) {
		const struct claims_check *ck = &checks[i];
		char measured[256];

		claims_format_measured(ck, unit_md, measured, sizeof(measured));
		/* Every name and the claim's words through sanitize: no byte of the claims file
		 * or the results drives the terminal, ends a cell or becomes HTML. */
		fputs("| ", f);
		sanitize_fputs(ck->claim->id, SANITIZE_MARKDOWN, f);
		fputs(": ", f);
		sanitize_fputs(ck->claim->subject, SANITIZE_MARKDOWN, f);
		fputs(" vs ", f);
		sanitize_fputs(ck->claim->versus, SANITIZE_MARKDOWN, f);
		if (ck->versus_tool != NULL) {
			/* Which sudo the verdict used: with PAM or without. */
			fputs(" (", f);
			sanitize_fputs(ck->versus_tool, SANITIZE_MARKDOWN, f);
			fputs(")", f);
		}
		fputs(" | ", f);
		sanitize_fputs(ck->host, SANITIZE_MARKDOWN, f);
		fprintf(f, " | %s | %g%s | ", claims_quantity_name(ck->claim->quantity),
			ck->claim->claimed, ck->claim->quantity == CLAIMS_CROSSOVER ? "" : "%");
		fputs(measured, f); /* numbers, and the unit already escaped */
		fprintf(f, " | %s | ", claims_verdict_name(ck->verdict));
		sanitize_fputs(ck->claim->source, SANITIZE_MARKDOWN, f);
		fputs(" |\n", f);
	}
}

int claims_write_tsv(const struct claims_check *checks, size_t n, const char *path,
		     struct errbuf *eb)
{
	struct atomicfile *af = atomicfile_open(path, 0644, eb);
	FILE *f;
	size_t i;

	if (af == NULL)
		return -1;
	f = atomicfile_stream(af);
	fputs("id\thost\tsubject\tversus\tquantity\tclaimed\tmeasured\tse\tlo\thi\tverdict"
	      "\tmethod\n",
	      f);
	for (i = 0; i < n; i++) {
		const struct claims_check *ck = &checks[i];

		sanitize_fputs(ck->claim->id, SANITIZE_TEXT, f);
		fputc('\t', f);
		sanitize_fputs(ck->host, SANITIZE_TEXT, f);
		fputc('\t', f);
		sanitize_fputs(ck->claim->subject, SANITIZE_TEXT, f);
		fputc('\t', f);
		sanitize_fputs(ck->claim->versus, SANITIZE_TEXT, f);
		fprintf(f, "\t%s\t%.12g\t%.12g\t%.12g\t%.12g\t%.12g\t%s\t%s\n",
			claims_quantity_name(ck->claim->quantity), ck->claim->claimed,
			ck->measured.value, ck->measured.se, ck->measured.lo, ck->measured.hi,
			claims_verdict_name(ck->verdict),
			ck->verdict == CLAIMS_NOT_MEASURED ? "-"
			: ck->paired                       ? "paired"
							   : "delta");
	}
	if (ferror(f)) {
		atomicfile_abort(af);
		return errbuf_set(eb, "%s: write error", path);
	}
	return atomicfile_commit(af, eb);
}
