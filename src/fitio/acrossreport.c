/* acrossreport: a report's comparisons combined over its hosts (acrossreport.h). */
#include "acrossreport.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atomicfile.h"
#include "fileio.h"
#include "results.h"
#include "sanitize.h"
#include "runfiles.h"

/* The published across-hosts.tsv read whole: bigger is not one (a few rows per subject). */
#define ACROSSREPORT_PUBLISHED_MAX_BYTES (1024u * 1024)

const char *acrossreport_quantity_name(enum acrossreport_quantity q)
{
	static const char *const names[] = {"intercept_ratio", "slope_ratio", "crossover"};

	return q < ACROSSREPORT_N_QUANTITIES ? names[q] : "?";
}

/* The words a reader sees for q. */
static const char *acrossreport_quantity_words(enum acrossreport_quantity q)
{
	static const char *const words[] = {"start-up (intercept ratio)", "per unit (slope ratio)",
					    "crossover size"};

	return q < ACROSSREPORT_N_QUANTITIES ? words[q] : "?";
}

/* Row r's value of q and its 95 % interval; value NaN when the host has none. */
static struct acrosshosts_value acrossreport_value(const struct fitreport_row *r,
						   enum acrossreport_quantity q)
{
	switch (q) {
	case ACROSSREPORT_INTERCEPT:
		return (struct acrosshosts_value){r->raw_ratio.value, r->raw_ratio.lo,
						  r->raw_ratio.hi};
	case ACROSSREPORT_SLOPE:
		return (struct acrosshosts_value){r->slope_ratio.value, r->slope_ratio.lo,
						  r->slope_ratio.hi};
	default:
		if (!r->has_crossover)
			return (struct acrosshosts_value){NAN, NAN, NAN};
		return (struct acrosshosts_value){r->crossover_x, r->cmp.crossover.lo,
						  r->cmp.crossover.hi};
	}
}

/* The distinct machines among row's hosts: hosts that share a boot id are one. */
static size_t acrossreport_machines(const struct results *res, const struct acrossreport_row *row)
{
	size_t n = 0;

	for (size_t i = 0; i < row->n; i++) {
		const struct results_machine *m =
		    res != NULL ? results_machine_of(res, row->hosts[i]) : NULL;
		bool seen = false;

		for (size_t j = 0; j < i && m != NULL && m->boot[0] != '\0' && !seen; j++) {
			const struct results_machine *o = results_machine_of(res, row->hosts[j]);

			seen = o != NULL && strcmp(o->boot, m->boot) == 0;
		}
		n += !seen;
	}
	return n;
}

/* Fills row from every comparison of subject x format (rows of rep from first on) for q. */
static int acrossreport_fill(const struct fitreport *rep, size_t first,
			     enum acrossreport_quantity q, struct acrossreport_row *row)
{
	const struct fitreport_row *f = &rep->rows[first];
	bool log_scale = true; /* ratios, and sizes: a host k % faster moves them by a factor */

	row->subject = f->series->subject;
	row->format = f->series->format;
	row->baseline = f->baseline->series->subject;
	row->quantity = q;
	row->hosts = calloc(rep->set->n_hosts + 1, sizeof(*row->hosts));
	row->v = calloc(rep->set->n_hosts + 1, sizeof(*row->v));
	if (row->hosts == NULL || row->v == NULL)
		return -1;
	row->complete = true;
	for (size_t i = first; i < rep->n_rows && row->n <= rep->set->n_hosts; i++) {
		const struct fitreport_row *r = &rep->rows[i];

		if (r->baseline == NULL || r->baseline == r ||
		    strcmp(r->series->subject, row->subject) != 0 ||
		    strcmp(r->series->format, row->format) != 0)
			continue;
		row->hosts[row->n] = r->series->host;
		row->v[row->n] = acrossreport_value(r, q);
		if (!isfinite(row->v[row->n].value))
			row->complete = false;
		else if (row->v[row->n].value <= 0)
			log_scale = false; /* a crossover below 0: its spread on the linear scale */
		row->n++;
	}
	row->machines = acrossreport_machines(rep->res, row);
	if (!row->complete || acrosshosts_combine(row->v, row->n, log_scale, &row->s) != 0) {
		row->complete = false;
		memset(&row->s, 0, sizeof(row->s));
		row->s.hosts = row->n;
	}
	return 0;
}

int acrossreport_compute(const struct fitreport *rep, struct acrossreport **out, struct errbuf *eb)
{
	struct acrossreport *ar = calloc(1, sizeof(*ar));
	size_t i, j;

	if (ar == NULL)
		return errbuf_set(eb, "out of memory");
	ar->rep = rep;
	ar->n_hosts = rep->set->n_hosts;
	ar->rows = calloc(rep->n_rows * ACROSSREPORT_N_QUANTITIES + 1, sizeof(*ar->rows));
	if (ar->rows == NULL)
		goto oom;
	for (i = 0; i < rep->n_rows; i++) {
		const struct fitreport_row *r = &rep->rows[i];

		if (r->baseline == NULL || r->baseline == r)
			continue;
		/* The first row of each subject x format gathers the others. */
		for (j = 0; j < i; j++)
			if (rep->rows[j].baseline != NULL &&
			    rep->rows[j].baseline != &rep->rows[j] &&
			    strcmp(rep->rows[j].series->subject, r->series->subject) == 0 &&
			    strcmp(rep->rows[j].series->format, r->series->format) == 0)
				break;
		if (j < i)
			continue;
		for (int q = 0; q < ACROSSREPORT_N_QUANTITIES; q++)
			if (acrossreport_fill(rep, i, (enum acrossreport_quantity)q,
					      &ar->rows[ar->n_rows++]) != 0)
				goto oom;
	}
	*out = ar;
	return 0;
oom:
	acrossreport_free(ar);
	return errbuf_set(eb, "out of memory");
}

void acrossreport_free(struct acrossreport *ar)
{
	if (ar == NULL)
		return;
	for (size_t i = 0; i < ar->n_rows; i++) {
		free(ar->rows[i].hosts);
		free(ar->rows[i].v);
	}
	free(ar->rows);
	free(ar);
}

/* A name made safe for one TSV field. */
static void acrossreport_tsv_name(FILE *f, const char *s)
{
	char buf[512];

	sanitize_str(buf, sizeof(buf), s);
	for (char *p = buf; *p != '\0'; p++)
		if (*p == '\t')
			*p = ' ';
	fputs(buf, f);
}

static void acrossreport_tsv_number(FILE *f, double v)
{
	fputc('\t', f);
	if (isfinite(v))
		fprintf(f, "%.6g", v);
	else
		fputs("nan", f);
}

/* across-hosts.tsv. */
static int acrossreport_write_summary(const struct acrossreport *ar, const char *path,
				      struct errbuf *eb)
{
	struct atomicfile *af = atomicfile_open(path, 0644, eb);
	FILE *f;

	if (af == NULL)
		return -1;
	f = atomicfile_stream(af);
	fputs("subject\tbaseline\tquantity\thosts\tmean\tmean_lo\tmean_hi\tbetween_sd\tpredict_lo"
	      "\tpredict_hi\tformat\twithin_sd\tscale\tmachines\thost_names\n",
	      f);
	for (size_t i = 0; i < ar->n_rows; i++) {
		const struct acrossreport_row *r = &ar->rows[i];

		if (!r->complete)
			continue; /* a crossover not on every host: nothing to combine */
		acrossreport_tsv_name(f, r->subject);
		fputc('\t', f);
		acrossreport_tsv_name(f, r->baseline);
		fprintf(f, "\t%s\t%zu", acrossreport_quantity_name(r->quantity), r->n);
		acrossreport_tsv_number(f, r->s.mean);
		acrossreport_tsv_number(f, r->s.mean_lo);
		acrossreport_tsv_number(f, r->s.mean_hi);
		acrossreport_tsv_number(f, r->s.between_sd);
		acrossreport_tsv_number(f, r->s.predict_lo);
		acrossreport_tsv_number(f, r->s.predict_hi);
		fputc('\t', f);
		acrossreport_tsv_name(f, r->format);
		acrossreport_tsv_number(f, r->s.within_sd);
		fprintf(f, "\t%s\t%zu\t", r->s.log_scale ? "log" : "linear", r->machines);
		for (size_t h = 0; h < r->n; h++) {
			if (h > 0)
				fputc(',', f);
			acrossreport_tsv_name(f, r->hosts[h]);
		}
		fputc('\n', f);
	}
	return atomicfile_commit(af, eb);
}

/* across-hosts-values.tsv: the long form, one line per host. */
static int acrossreport_write_values(const struct acrossreport *ar, const char *path,
				     struct errbuf *eb)
{
	struct atomicfile *af = atomicfile_open(path, 0644, eb);
	FILE *f;

	if (af == NULL)
		return -1;
	f = atomicfile_stream(af);
	fputs("subject\tbaseline\tquantity\thost\tvalue\tlo\thi\tformat\n", f);
	for (size_t i = 0; i < ar->n_rows; i++) {
		const struct acrossreport_row *r = &ar->rows[i];

		for (size_t h = 0; h < r->n; h++) {
			acrossreport_tsv_name(f, r->subject);
			fputc('\t', f);
			acrossreport_tsv_name(f, r->baseline);
			fprintf(f, "\t%s\t", acrossreport_quantity_name(r->quantity));
			acrossreport_tsv_name(f, r->hosts[h]);
			acrossreport_tsv_number(f, r->v[h].value);
			acrossreport_tsv_number(f, r->v[h].lo);
			acrossreport_tsv_number(f, r->v[h].hi);
			fputc('\t', f);
			acrossreport_tsv_name(f, r->format);
			fputc('\n', f);
		}
	}
	return atomicfile_commit(af, eb);
}

int acrossreport_write_tsv(const struct acrossreport *ar, const char *dir, struct errbuf *eb)
{
	char path[4096];

	if (fileio_join(path, sizeof(path), dir, RUNFILES_ACROSS, eb) != 0 ||
	    acrossreport_write_summary(ar, path, eb) != 0 ||
	    fileio_join(path, sizeof(path), dir, RUNFILES_ACROSS_VALUES, eb) != 0 ||
	    acrossreport_write_values(ar, path, eb) != 0)
		return -1;
	return 0;
}

static void acrossreport_md(FILE *f, const char *s)
{
	sanitize_fputs(s, SANITIZE_MARKDOWN, f);
}

/* A value as the table shows it: ratios to 3 decimals, sizes whole. */
static void acrossreport_print_value(FILE *f, enum acrossreport_quantity q, double v)
{
	if (!isfinite(v))
		fputs("–", f);
	else
		fprintf(f, q == ACROSSREPORT_CROSSOVER ? "%.0f" : "%.3f", v);
}

static void acrossreport_print_interval(FILE *f, enum acrossreport_quantity q, double lo, double hi)
{
	fputs("[", f);
	acrossreport_print_value(f, q, lo);
	fputs(", ", f);
	acrossreport_print_value(f, q, hi);
	fputs("]", f);
}

/* The hosts and what their files say of their machines; hosts sharing one boot said to be one. */
static void acrossreport_print_hosts(const struct acrossreport *ar, FILE *f)
{
	const struct results *res = ar->rep->res;
	const struct plotseries_set *set = ar->rep->set;
	size_t shared = 0;

	fputs("\n| host | machine | boot | CPU | kernel |\n|---|---|---|---|---|\n", f);
	for (size_t i = 0; i < set->n_series; i++) {
		const char *host = set->series[i].host;
		const struct results_machine *m =
		    res != NULL ? results_machine_of(res, host) : NULL;
		size_t j;

		for (j = 0; j < i && strcmp(set->series[j].host, host) != 0; j++)
			;
		if (j < i)
			continue;
		fputs("| ", f);
		acrossreport_md(f, host);
		fprintf(f, " | %.8s | %.8s | ",
			m != NULL && m->machine[0] != '\0' ? m->machine : "unknown",
			m != NULL && m->boot[0] != '\0' ? m->boot : "unknown");
		acrossreport_md(f, m != NULL && m->cpu[0] != '\0' ? m->cpu : "unknown");
		fputs(" | ", f);
		acrossreport_md(f, m != NULL && m->kernel[0] != '\0' ? m->kernel : "unknown");
		fputs(" |\n", f);
	}
	for (size_t i = 0; res != NULL && i < res->n_machines; i++)
		for (size_t j = 0; j < i; j++)
			shared += res->machines[i].boot[0] != '\0' &&
				  strcmp(res->machines[i].boot, res->machines[j].boot) == 0;
	fputs("\nMachine and boot are the first 8 hex digits of the SHA-256 of a fixed label and "
	      "the host's /etc/machine-id and boot id (never the ids themselves); \"unknown\": a "
	      "file written before rarbench recorded them.\n",
	      f);
	if (shared > 0)
		fputs(
		    "\n**One machine.** Some hosts above share one boot: namespace hosts or "
		    "containers on one machine, with its kernel and CPU. Their spread is the noise "
		    "of one machine, not evidence of spread between machines; the machines column "
		    "of across-hosts.tsv counts them once.\n",
		    f);
	if (res != NULL && strcmp(res->page_cache, RESULTS_MIXED) == 0)
		fputs(
		    "\n**Two methods.** Some files measured each program as it was found in the "
		    "page cache (rarperf 0.6 and earlier), others evicted every program before the "
		    "sweep (`meta.measure.page_cache`). A program's start-up moved 4-5 % with how "
		    "it came into the cache (doc/guide-ci.md, A/A), so part of the spread above "
		    "may "
		    "be the method's, not the machines'.\n",
		    f);
}

/* The subjects compared on fewer hosts than the report has, each with its hosts. */
static void acrossreport_print_partial(const struct acrossreport *ar, FILE *f)
{
	bool any = false;

	for (size_t i = 0; i < ar->n_rows; i++) {
		const struct acrossreport_row *r = &ar->rows[i];

		if (r->quantity != ACROSSREPORT_INTERCEPT || r->n >= ar->n_hosts)
			continue;
		if (!any)
			fputs(
			    "\nSubjects measured on fewer hosts are compared with the baseline on "
			    "the hosts they share with it, and only there:\n\n",
			    f);
		any = true;
		fputs("- ", f);
		acrossreport_md(f, r->subject);
		fprintf(f, " on %zu host%s (", r->n, r->n == 1 ? "" : "s");
		for (size_t h = 0; h < r->n; h++) {
			fputs(h ? ", " : "", f);
			acrossreport_md(f, r->hosts[h]);
		}
		fputs(r->n == 1 ? "): one host; its intervals hold for that machine, and nothing "
				  "is predicted for another.\n"
				: "): compared on those hosts only.\n",
		      f);
	}
}

void acrossreport_print_markdown(const struct acrossreport *ar, FILE *f)
{
	fprintf(f,
		"\n## Across machines\n\n"
		"The inputs come from %zu hosts. Nothing is pooled: each host's points are fitted "
		"on their own and each subject is compared with ",
		ar->n_hosts);
	fputs("`", f);
	acrossreport_md(f, ar->rep->baseline);
	fputs("` on the same host (as under Verdicts). Below, per subject and quantity: each "
	      "host's value, the mean over hosts with its 95 % interval, σ between hosts (the "
	      "spread beyond each host's own noise, in % on the log scale) and the 95 % "
	      "interval where a new machine's value should fall (across-hosts.tsv; "
	      "doc/precision.md says how).\n",
	      f);
	acrossreport_print_hosts(ar, f);
	fputs("\nEach host's values are in the order of the hosts above (for a subject measured on "
	      "fewer hosts, of the hosts listed under the table); a crossover is the size where "
	      "the subject's line meets the baseline's, combined only when within the sizes "
	      "measured on every host.\n"
	      "\n| subject | quantity | hosts | each host | mean [95 %] | σ between | new machine "
	      "(95 %) |\n|---|---|---:|---|---|---:|---|\n",
	      f);
	for (size_t i = 0; i < ar->n_rows; i++) {
		const struct acrossreport_row *r = &ar->rows[i];
		bool any = false;

		for (size_t h = 0; h < r->n; h++)
			any = any || isfinite(r->v[h].value);
		if (!any)
			continue; /* a crossover on no host: nothing to say */
		fputs("| ", f);
		acrossreport_md(f, r->subject);
		fprintf(f, " | %s | %zu | ", acrossreport_quantity_words(r->quantity), r->n);
		for (size_t h = 0; h < r->n; h++) {
			fputs(h ? "; " : "", f);
			acrossreport_print_value(f, r->quantity, r->v[h].value);
		}
		fputs(" | ", f);
		if (!r->complete) {
			fputs("not within the sizes on every host | | |\n", f);
			continue;
		}
		acrossreport_print_value(f, r->quantity, r->s.mean);
		fputs(" ", f);
		acrossreport_print_interval(f, r->quantity, r->s.mean_lo, r->s.mean_hi);
		if (r->n < 2) {
			fputs(" | one host | – |\n", f);
			continue;
		}
		if (isfinite(r->s.between_sd))
			fprintf(f, " | %.1f %%", 100 * r->s.between_sd);
		else
			fputs(" | ?", f);
		fputs(" | ", f);
		acrossreport_print_interval(f, r->quantity, r->s.predict_lo, r->s.predict_hi);
		/* Hosts of one machine (one boot) say nothing of another machine. */
		if (r->machines < 2)
			fputs(" (one machine: no prediction for another)", f);
		else if (r->machines < r->n)
			fputs(" (some hosts share a machine)", f);
		fputs(" |\n", f);
	}
	acrossreport_print_partial(ar, f);
}

/* The published row of subject, baseline and quantity q in text (a whole across-hosts.tsv), into
 * line; false when there is none. */
static bool acrossreport_published_row(const char *text, const char *subject, const char *baseline,
				       enum acrossreport_quantity q, char *line, size_t size)
{
	const char *p = text;

	while (p != NULL && *p != '\0') {
		const char *end = strchr(p, '\n');
		size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
		char want[512];
		int n = snprintf(want, sizeof(want), "%s\t%s\t%s\t", subject, baseline,
				 acrossreport_quantity_name(q));

		if (n > 0 && (size_t)n < sizeof(want) && len >= (size_t)n &&
		    strncmp(p, want, (size_t)n) == 0) {
			snprintf(line, size, "%.*s", (int)len, p);
			return true;
		}
		p = end != NULL ? end + 1 : NULL;
	}
	return false;
}

/*
 * Where this run's value v falls against the interval for a new machine [lo, hi]: " (this run
 * 1.554: outside, below)". The quoted interval alone never said whether this machine fits it.
 */
static void acrossreport_print_this_run(FILE *f, enum acrossreport_quantity q, double v, double lo,
					double hi)
{
	fputs(" (this run ", f);
	if (!isfinite(v)) {
		fputs(q == ACROSSREPORT_CROSSOVER ? "has none within its sizes)" : "has none)", f);
		return;
	}
	acrossreport_print_value(f, q, v);
	if (!isfinite(lo) || !isfinite(hi))
		fputs(")", f);
	else if (v < lo)
		fputs(": outside, below)", f);
	else if (v > hi)
		fputs(": outside, above)", f);
	else
		fputs(": inside)", f);
}

/* One published row as words: "1.131 over 3 machines, a new one [1.0, 1.3]", then where this
 * run's value v falls. */
static void acrossreport_print_published(FILE *f, const char *line, enum acrossreport_quantity q,
					 double v)
{
	char *copy = strdup(line), *field[10] = {0}, *save = NULL, *tok;
	size_t n = 0;

	if (copy == NULL)
		return;
	for (tok = strtok_r(copy, "\t", &save); tok != NULL && n < 10;
	     tok = strtok_r(NULL, "\t", &save))
		field[n++] = tok;
	if (n == 10) {
		fputs(", ", f);
		acrossreport_md(f, acrossreport_quantity_words(q));
		fputs(" ", f);
		acrossreport_print_value(f, q, strtod(field[4], NULL));
		if (strcmp(field[3], "1") == 0) {
			fputs(" on one machine only (no spread known)", f);
			acrossreport_print_this_run(f, q, v, NAN, NAN);
		} else {
			fputs(" over ", f);
			acrossreport_md(f, field[3]);
			fputs(" machines, a new one ", f);
			acrossreport_print_interval(f, q, strtod(field[8], NULL),
						    strtod(field[9], NULL));
			acrossreport_print_this_run(f, q, v, strtod(field[8], NULL),
						    strtod(field[9], NULL));
		}
	}
	free(copy);
}

void acrossreport_print_one_host(const struct fitreport *rep, const char *published,
				 const char *shown, FILE *f)
{
	char *text = NULL, line[1024];
	size_t len = 0, quoted = 0;
	struct errbuf unread;

	fputs("\n## On another machine\n\nEvery interval above holds for the machine these "
	      "inputs were measured on: it is the noise of that machine's sweep, not the spread "
	      "between machines, which is often larger.",
	      f);
	if (published == NULL || fileio_read(published, ACROSSREPORT_PUBLISHED_MAX_BYTES, NULL,
					     &text, &len, &unread) < 0) {
		fputs(" No published across-machine spread was found (rarplot --published).\n", f);
		return;
	}
	for (size_t i = 0; i < rep->n_rows; i++) {
		const struct fitreport_row *r = &rep->rows[i];
		bool any = false;

		if (r->baseline == NULL || r->baseline == r)
			continue;
		for (int q = 0; q < ACROSSREPORT_N_QUANTITIES; q++) {
			if (!acrossreport_published_row(text, r->series->subject, rep->baseline,
							(enum acrossreport_quantity)q, line,
							sizeof(line)))
				continue;
			if (!any) {
				if (quoted++ == 0) {
					fputs(" The published spread across machines for the same "
					      "comparisons (",
					      f);
					fputs("`", f);
					acrossreport_md(f, shown);
					fputs("`", f);
					fputs(
					    "; the mean over machines and the 95 % interval for a "
					    "new machine, and whether this run's value falls "
					    "inside it):\n\n",
					    f);
				}
				fputs("- ", f);
				acrossreport_md(f, r->series->subject);
				fputs(" against ", f);
				acrossreport_md(f, rep->baseline);
			}
			any = true;
			acrossreport_print_published(
			    f, line, (enum acrossreport_quantity)q,
			    acrossreport_value(r, (enum acrossreport_quantity)q).value);
		}
		if (any)
			fputs(".\n", f);
	}
	if (quoted == 0)
		fputs(" The published across-machine spread has none of these comparisons.\n", f);
	free(text);
}
