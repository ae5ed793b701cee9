/* profilefit_report: the report's profile sections: counters, their share of the time, findings. */
#include "profilefit_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atomicfile.h"
#include "claims.h"
#include "fitreport.h"
#include "sanitize.h"

#define TOP_COUNTERS 5
/* A slope below this (counts per unit) is "does not grow". */
#define GROWS_MIN 0.05
/* close(2) failing more than this per run is a loop over descriptor numbers. */
#define CLOSE_LOOP_MIN 64
#define NAME_MAX_SHOWN 512
/* At least this many write(2) per run of fewer bytes each on average: unbuffered writing. */
#define SMALL_WRITES_MIN 100
#define SMALL_WRITE_BYTES 16

/* The syscall a "sys.NAME" counter counts, or NULL. */
static const char *sys_name(const char *counter)
{
	return strncmp(counter, "sys.", 4) == 0 ? counter + 4 : NULL;
}

static double slope_of(const struct profilefit *pf, const char *subject, const char *counter)
{
	const struct profilefit_line *l = profilefit_find(pf, subject, counter);

	return l != NULL ? l->slope : 0;
}

static double intercept_of(const struct profilefit *pf, const char *subject, const char *counter)
{
	const struct profilefit_line *l = profilefit_find(pf, subject, counter);

	return l != NULL ? l->intercept : 0;
}

/* Whether i is among the first n of chosen. */
static bool chosen_has(const size_t *chosen, int n, size_t i)
{
	for (int k = 0; k < n; k++)
		if (chosen[k] == i)
			return true;
	return false;
}

/* Prints the TOP_COUNTERS sys.* lines of subject [first, last) with the largest key. */
static void top_table(const struct profilefit *pf, size_t first, size_t last, bool by_slope,
		      const char *unit, FILE *f)
{
	size_t chosen[TOP_COUNTERS];
	char name[NAME_MAX_SHOWN];

	fprintf(f, "| system call, by %s | per %s | per run |\n|---|---:|---:|\n",
		by_slope ? "slope" : "intercept", unit);
	for (int t = 0; t < TOP_COUNTERS; t++) {
		size_t best = last;

		for (size_t i = first; i < last; i++) {
			const struct profilefit_line *l = &pf->lines[i];
			double key = by_slope ? l->slope : l->intercept;

			if (chosen_has(chosen, t, i) || sys_name(l->counter) == NULL || key <= 0)
				continue;
			if (best == last ||
			    key > (by_slope ? pf->lines[best].slope : pf->lines[best].intercept))
				best = i;
		}
		if (best == last || (by_slope && pf->lines[best].slope < GROWS_MIN)) {
			if (t == 0)
				fprintf(f, "| none grows | | |\n");
			break;
		}
		chosen[t] = best;
		sanitize_markdown(name, sizeof(name), sys_name(pf->lines[best].counter));
		fprintf(f, "| %s(2) | %.3g | %.0f |\n", name, pf->lines[best].slope,
			pf->lines[best].intercept);
	}
	fputc('\n', f);
}

/*
 * What the counted calls cost at this host's prices: sum over sys.* of count x price, per
 * unit (slope) and per run (intercept), in us; the largest contributor to the slope.
 */
static void shares(const struct profilefit *pf, size_t first, size_t last,
		   const struct profilefit_time *t, const char *unit, FILE *f)
{
	double slope_us = 0, icpt_us = 0, best_us = 0;
	const char *best = NULL;
	bool own, all_own = true;

	if (pf->n_costs == 0) {
		fprintf(f,
			"No prices of system calls (profile-costs.tsv) were given: no share.\n\n");
		return;
	}
	for (size_t i = first; i < last; i++) {
		const char *s = sys_name(pf->lines[i].counter);
		double ns;

		if (s == NULL)
			continue;
		ns = profilefit_cost(pf, s, &own);
		slope_us += pf->lines[i].slope * ns / 1000;
		icpt_us += pf->lines[i].intercept * ns / 1000;
		if (pf->lines[i].slope >= GROWS_MIN)
			all_own &= own;
		if (pf->lines[i].slope * ns / 1000 > best_us) {
			best_us = pf->lines[i].slope * ns / 1000;
			best = s;
		}
	}
	fprintf(f,
		"At this host's prices (profile-costs.tsv%s), the counted system calls cost "
		"%.3g µs per %s",
		all_own ? "" : "; calls without a price of their own at the floor's", slope_us,
		unit);
	if (t != NULL && t->slope_ms > 0)
		fprintf(f, ", %.0f %% of its time slope (%.3g µs per %s)",
			100 * slope_us / (1000 * t->slope_ms), 1000 * t->slope_ms, unit);
	fprintf(f, ", and %.3g µs per run", icpt_us);
	if (t != NULL && t->intercept_ms > 0)
		fprintf(f, ", %.0f %% of its intercept (%.3g µs)",
			100 * icpt_us / (1000 * t->intercept_ms), 1000 * t->intercept_ms);
	fputs(".", f);
	if (best != NULL && slope_us > 0) {
		char name[NAME_MAX_SHOWN];

		sanitize_markdown(name, sizeof(name), best);
		fprintf(f, " The largest part of the slope: %s(2), %.3g µs per %s.", name, best_us,
			unit);
	}
	fputs(" The kernel's time is only part of a call's price: what a program does between "
	      "calls is not counted.\n\n",
	      f);
}

/* One finding line naming the files opened at least 0.5 times more per unit. 1 when printed. */
static size_t files_per_unit(const struct profilefit *pf, const char *s, const char *unit, FILE *f)
{
	char name[NAME_MAX_SHOWN];
	size_t shown = 0;

	for (size_t i = 0; i < pf->n_lines && shown < TOP_COUNTERS; i++) {
		const struct profilefit_line *l = &pf->lines[i];

		if (strcmp(l->subject, s) != 0 || strncmp(l->counter, "open.", 5) != 0 ||
		    l->slope < 0.5)
			continue;
		if (shown++ == 0)
			fprintf(f, "- files opened again per %s:", unit);
		sanitize_markdown(name, sizeof(name), l->counter + 5);
		fprintf(f, "%s %s (%.2f)", shown > 1 ? "," : "", name, l->slope);
	}
	if (shown > 0)
		fputc('\n', f);
	return shown > 0;
}

/* How the policy is read and written: unbuffered reads or writes, bytes read per byte. */
static size_t io_findings(const struct profilefit *pf, const char *s, const char *unit, FILE *f)
{
	double rd = slope_of(pf, s, "sys.read"), bytes = slope_of(pf, s, "bytes_read");
	double pol = slope_of(pf, s, "policy_bytes");
	double writes = intercept_of(pf, s, "sys.write"),
	       wbytes = intercept_of(pf, s, "bytes_written");
	size_t n = 0;

	if (rd >= 1 && pol > 0 && fabs(rd / pol - 1) < 0.05) {
		fprintf(f,
			"- one read(2) per policy byte: unbuffered reading (%.1f read(2) per %s "
			"for %.1f bytes of policy per %s, %.3f calls per byte; %.1f bytes read "
			"per %s in all)\n",
			rd, unit, pol, unit, rd / pol, bytes, unit);
		n++;
	} else if (rd >= GROWS_MIN && bytes > 0) {
		fprintf(f,
			"- reads the policy in %.0f-byte calls (%.3g read(2) and %.3g bytes per "
			"%s)\n",
			bytes / rd, rd, bytes, unit);
		n++;
	}
	if (writes >= SMALL_WRITES_MIN && wbytes / writes < SMALL_WRITE_BYTES) {
		fprintf(f,
			"- %.0f write(2) per run of %.1f bytes each: unbuffered writing (a file "
			"serialised item by item)\n",
			writes, wbytes / writes);
		n++;
	}
	if (pol > 0 && bytes / pol >= 1.5) {
		fprintf(
		    f,
		    "- reads %.1f bytes for every byte its policy grows by (%.1f bytes read per "
		    "%s for %.1f bytes of policy): the policy read more than once, or another "
		    "file read again per %s\n",
		    bytes / pol, bytes, unit, pol, unit);
		n++;
	}
	return n;
}

/* What the program does besides reading: a close loop, NSS lookups, memory, programs started. */
static size_t process_findings(const struct profilefit *pf, const char *s, const char *unit,
			       FILE *f)
{
	double fail_close = intercept_of(pf, s, "fail.close");
	double pw = slope_of(pf, s, "open./etc/passwd"), gr = slope_of(pf, s, "open./etc/group");
	double execs = intercept_of(pf, s, "execs");
	double alloc = slope_of(pf, s, "sys.mmap") + slope_of(pf, s, "sys.brk");
	size_t n = 0;

	if (fail_close >= CLOSE_LOOP_MIN) {
		fprintf(f,
			"- close(2) once per possible descriptor: %.0f failed close(2) per run "
			"(EBADF), a loop over every descriptor number up to RLIMIT_NOFILE; its "
			"cost grows with that limit, not with the policy\n",
			fail_close);
		n++;
	}
	if (pw >= 0.5 || gr >= 0.5) {
		fprintf(f,
			"- an NSS lookup per %s: /etc/passwd opened %.2f and /etc/group %.2f "
			"times per %s (a name resolved for every rule)\n",
			unit, pw, gr, unit);
		n++;
	}
	if (alloc >= 0.5) {
		fprintf(f, "- memory mapped per %s: %.2f mmap(2) and brk(2) per %s\n", unit, alloc,
			unit);
		n++;
	}
	if (execs >= 1.5) {
		fprintf(f,
			"- starts %.0f programs per run (successful execve(2), its own included)\n",
			execs);
		n++;
	}
	return n;
}

/* Whether any system call grows with the policy (or the trace cannot tell: one size only). */
static size_t growth_finding(const struct profilefit *pf, const char *s, const char *unit, FILE *f)
{
	const struct profilefit_line *calls = profilefit_find(pf, s, "calls");
	double grows = 0;

	for (size_t i = 0; i < pf->n_lines; i++)
		if (strcmp(pf->lines[i].subject, s) == 0 && sys_name(pf->lines[i].counter) != NULL)
			grows += pf->lines[i].slope > GROWS_MIN ? pf->lines[i].slope : 0;
	if (calls != NULL && !calls->fitted) {
		fprintf(f, "- traced at one %s only: what grows with the policy cannot be told\n",
			pf->axis);
		return 1;
	}
	if (grows < GROWS_MIN) {
		fprintf(f,
			"- no system call grows with the policy: what a %s costs is spent in user "
			"space (parsing and matching), not in the kernel\n",
			unit);
		return 1;
	}
	return 0;
}

/* The findings in words: each a rule on the fitted counters. */
static void findings(const struct profilefit *pf, const char *s, const char *unit, FILE *f)
{
	size_t n = 0;

	fputs("Findings:\n\n", f);
	n += io_findings(pf, s, unit, f);
	n += files_per_unit(pf, s, unit, f);
	n += process_findings(pf, s, unit, f);
	n += growth_finding(pf, s, unit, f);
	if (n == 0)
		fputs("- nothing above the thresholds of doc/profile.md\n", f);
	fputc('\n', f);
}

/* The counts that differ between repetitions or hosts. */
static void print_diffs(const struct profilefit *pf, FILE *f)
{
	char a[NAME_MAX_SHOWN], b[NAME_MAX_SHOWN], c[NAME_MAX_SHOWN], d[NAME_MAX_SHOWN];

	fputs("### Deterministic counts across repetitions and hosts\n\n", f);
	if (pf->n_diffs_total == 0) {
		fprintf(f,
			"Every system call count, byte count, file and program count is "
			"identical wherever a point was profiled more than once (%zu profile "
			"file%s; page faults, peak RSS and context switches follow the host and "
			"are not compared).\n\n",
			pf->n_sources, pf->n_sources == 1 ? "" : "s");
		return;
	}
	fprintf(f, "%zu count%s differ between profiles of the same point%s:\n\n",
		pf->n_diffs_total, pf->n_diffs_total == 1 ? "" : "s",
		pf->n_diffs_total > pf->n_diffs ? " (the first ones)" : "");
	fputs("| subject | counter | point | lowest (where) | highest (where) |\n"
	      "|---|---|---|---|---|\n",
	      f);
	for (size_t i = 0; i < pf->n_diffs; i++) {
		const struct profilefit_diff *x = &pf->diffs[i];

		sanitize_markdown(a, sizeof(a), x->subject);
		sanitize_markdown(b, sizeof(b), x->counter);
		sanitize_markdown(c, sizeof(c), x->lo_source);
		sanitize_markdown(d, sizeof(d), x->hi_source);
		fprintf(f, "| %s | %s | ", a, b);
		sanitize_fputs(x->point, SANITIZE_MARKDOWN, f);
		fprintf(f, " | %.0f (%s) | %.0f (%s) |\n", x->lo, c, x->hi, d);
	}
	fputc('\n', f);
}

/* Where s was not traced (the profile pass's budget), when it was not traced everywhere. */
static void untraced_points(const struct profilefit *pf, const char *s, FILE *f)
{
	const struct profilefit_line *calls = profilefit_find(pf, s, "calls");

	for (size_t i = 0; i < pf->n_untraced; i++) {
		const struct profilefit_untraced *u = &pf->untraced[i];

		if (strcmp(u->subject, s) != 0)
			continue;
		fprintf(f,
			"Not traced at %zu point(s) from %s = %g: tracing them was predicted to "
			"overrun the profile pass's budget (`profile_budget`); its counts are "
			"fitted from the %zu traced run(s), where they are exact.\n\n",
			u->points, pf->axis, u->from_x, calls != NULL ? calls->n : 0);
	}
}

void profilefit_print_markdown(const struct profilefit *pf, const struct profilefit_time *times,
			       size_t n_times, FILE *f)
{
	const char *unit = fitreport_unit(pf->axis);
	char name[NAME_MAX_SHOWN];
	size_t i = 0;

	fprintf(f,
		"## Profiles: why it costs what it costs\n\n"
		"Each subject traced once per point by strace (doc/profile.md); every counter "
		"fitted against %s like the time (profile-fits.tsv).\n\n",
		pf->axis);
	while (i < pf->n_lines) {
		const char *s = pf->lines[i].subject;
		const struct profilefit_time *t = NULL;
		size_t end = i;

		while (end < pf->n_lines && strcmp(pf->lines[end].subject, s) == 0)
			end++;
		for (size_t k = 0; k < n_times; k++)
			if (strcmp(times[k].subject, s) == 0 && t == NULL)
				t = &times[k];
		sanitize_markdown(name, sizeof(name), s);
		fprintf(f, "### %s\n\n", name);
		fprintf(f,
			"Per run: %.0f system calls (%.0f failed), %.0f bytes read, %.0f "
			"programs started, peak RSS %.0f KiB; per %s: %.3g calls, %.3g bytes "
			"read, %.3g KiB of peak RSS.\n\n",
			intercept_of(pf, s, "calls"), intercept_of(pf, s, "failed"),
			intercept_of(pf, s, "bytes_read"), intercept_of(pf, s, "execs"),
			intercept_of(pf, s, "maxrss_kib"), unit, slope_of(pf, s, "calls"),
			slope_of(pf, s, "bytes_read"), slope_of(pf, s, "maxrss_kib"));
		untraced_points(pf, s, f);
		top_table(pf, i, end, true, unit, f);
		top_table(pf, i, end, false, unit, f);
		shares(pf, i, end, t, unit, f);
		findings(pf, s, unit, f);
		i = end;
	}
	print_diffs(pf, f);
}

/* Counters other than system calls that a claim's explanation names when they differ. */
static const char *const OTHER_COUNTERS[] = {"bytes_read", "open./etc/passwd", "open./etc/group",
					     "execs", "maxrss_kib"};
#define EXPLAIN_TOP 3

/* subject's counter: its slope (per unit) or its intercept (per run). */
static double value_of(const struct profilefit *pf, const char *s, const char *counter, bool slope)
{
	return slope ? slope_of(pf, s, counter) : intercept_of(pf, s, counter);
}

/* a - b of every priced sys.* counter: the EXPLAIN_TOP largest |difference x price|, and the sum.
 */
static double explain_calls(const struct profilefit *pf, const char *a, const char *b, bool slope,
			    const char *unit, FILE *f)
{
	size_t top[EXPLAIN_TOP];
	double top_us[EXPLAIN_TOP], sum_us = 0;
	int n = 0;
	bool own;

	for (size_t i = 0; i < pf->n_lines; i++) {
		const char *s = sys_name(pf->lines[i].counter);
		double us, d;

		/* Each counter once: from a's lines, and b's that a lacks. */
		if (s == NULL || (strcmp(pf->lines[i].subject, a) != 0 &&
				  (strcmp(pf->lines[i].subject, b) != 0 ||
				   profilefit_find(pf, a, pf->lines[i].counter) != NULL)))
			continue;
		d = value_of(pf, a, pf->lines[i].counter, slope) -
		    value_of(pf, b, pf->lines[i].counter, slope);
		us = d * profilefit_cost(pf, s, &own) / 1000;
		sum_us += us;
		for (int k = 0; fabs(d) >= GROWS_MIN && k < EXPLAIN_TOP; k++) {
			if (k < n && fabs(us) <= fabs(top_us[k]))
				continue;
			for (int m = (n < EXPLAIN_TOP ? n : EXPLAIN_TOP - 1); m > k; m--) {
				top[m] = top[m - 1];
				top_us[m] = top_us[m - 1];
			}
			top[k] = i;
			top_us[k] = us;
			n += n < EXPLAIN_TOP;
			break;
		}
	}
	for (int k = 0; k < n; k++) {
		char name[NAME_MAX_SHOWN];
		const char *c = pf->lines[top[k]].counter;

		sanitize_markdown(name, sizeof(name), sys_name(c));
		fprintf(f, "%s%s(2) %+.4g (%+.4g µs)", k > 0 ? ", " : "", name,
			value_of(pf, a, c, slope) - value_of(pf, b, c, slope), top_us[k]);
	}
	for (size_t i = 0; i < sizeof(OTHER_COUNTERS) / sizeof(OTHER_COUNTERS[0]); i++) {
		double d = value_of(pf, a, OTHER_COUNTERS[i], slope) -
			   value_of(pf, b, OTHER_COUNTERS[i], slope);

		if (fabs(d) >= GROWS_MIN)
			fprintf(f, "%s%s %+.4g", n++ > 0 ? ", " : "", OTHER_COUNTERS[i], d);
	}
	if (n == 0)
		fprintf(f, "no counter differs by %g or more", GROWS_MIN);
	fprintf(f, " (per %s)", slope ? unit : "run");
	return sum_us;
}

/* The time of subject s (ms), its slope or intercept; NAN when not given. */
static double time_of(const struct profilefit_time *times, size_t n, const char *s, bool slope)
{
	for (size_t k = 0; k < n; k++)
		if (strcmp(times[k].subject, s) == 0)
			return slope ? times[k].slope_ms : times[k].intercept_ms;
	return NAN;
}

/* One row of the claims' explanation: check's claim, its time difference dt (µs), the counters. */
static void explain_row(const struct profilefit *pf, const struct claims_check *check, double dt,
			const char *unit, FILE *f)
{
	const struct claim *c = check->claim;
	bool slope = c->quantity != CLAIMS_RAW_PCT;
	char a[NAME_MAX_SHOWN], b[NAME_MAX_SHOWN], id[NAME_MAX_SHOWN], host[NAME_MAX_SHOWN];
	char *cell = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&cell, &len);
	double sum;

	if (m == NULL)
		return;
	/* The counters first, into a cell: their sum is printed before them. */
	sum = explain_calls(pf, c->subject, c->versus, slope, unit, m);
	fclose(m);
	sanitize_markdown(id, sizeof(id), c->id);
	sanitize_markdown(a, sizeof(a), c->subject);
	sanitize_markdown(b, sizeof(b), c->versus);
	sanitize_markdown(host, sizeof(host), check->host != NULL ? check->host : "-");
	fprintf(f, "| %s%s%s | %s − %s, %s | %+.4g µs | %+.4g µs", id,
		strcmp(host, "-") != 0 ? " on " : "", strcmp(host, "-") != 0 ? host : "", a, b,
		slope ? "slope" : "intercept", dt, sum);
	if (isfinite(dt) && fabs(dt) > 0)
		fprintf(f, " (%.0f %%)", 100 * sum / dt);
	fprintf(f, " | %s |\n", cell != NULL ? cell : "");
	free(cell);
}

void profilefit_explain_claims(const struct profilefit *pf, const struct claims_check *checks,
			       size_t n_checks, const struct profilefit_time *times, size_t n_times,
			       FILE *f)
{
	const char *unit = fitreport_unit(pf->axis);
	bool any = false;

	for (size_t i = 0; i < n_checks; i++) {
		const struct claim *c = checks[i].claim;
		bool slope = c->quantity != CLAIMS_RAW_PCT;

		if (checks[i].verdict == CLAIMS_NOT_MEASURED ||
		    profilefit_find(pf, c->subject, "calls") == NULL ||
		    profilefit_find(pf, c->versus, "calls") == NULL)
			continue;
		if (!any)
			fprintf(
			    f,
			    "## The claims, explained by the profiles\n\n"
			    "For each claim checked above whose two subjects were profiled: the "
			    "difference of their fitted counters (the first minus the second; per "
			    "%s for a slope or a crossover, per run for raw cost), the system "
			    "calls "
			    "whose difference weighs most at this host's prices "
			    "(profile-costs.tsv), and what all the counted calls' differences add "
			    "up to against the measured difference of time.\n\n"
			    "| claim | compared | measured difference | counted calls | the "
			    "counters that differ most |\n|---|---|---:|---:|---|\n",
			    unit);
		any = true;
		explain_row(pf, &checks[i],
			    1000 * (time_of(times, n_times, c->subject, slope) -
				    time_of(times, n_times, c->versus, slope)),
			    unit, f);
	}
	if (any)
		fputs(
		    "\nA share far below 100 % says the difference is spent in user space "
		    "(parsing, matching, allocating), not in the calls counted; the kernel's time "
		    "is only part of a call's price.\n\n",
		    f);
}

int profilefit_write_tsv(const struct profilefit *pf, const char *path, struct errbuf *eb)
{
	struct atomicfile *af = atomicfile_open(path, 0644, eb);
	char subject[256], counter[2 * PROFILEFIT_FIELD_MAX];
	FILE *f;

	if (af == NULL)
		return -1;
	f = atomicfile_stream(af);
	fprintf(f, "subject\tcounter\tn\tslope_per_%s\tintercept\tr2\tmin\tmax\n", pf->axis);
	for (size_t i = 0; i < pf->n_lines; i++) {
		const struct profilefit_line *l = &pf->lines[i];

		sanitize_text(subject, sizeof(subject), l->subject, strlen(l->subject));
		sanitize_text(counter, sizeof(counter), l->counter, strlen(l->counter));
		fprintf(f, "%s\t%s\t%zu\t%.6g\t%.6g\t%.6g\t%.0f\t%.0f\n", subject, counter, l->n,
			l->slope, l->intercept, l->r2, l->min, l->max);
	}
	return atomicfile_rename(af, eb);
}
