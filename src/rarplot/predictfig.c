/*
 * predictfig: each subject's line predicted from its profile and the host's kernel-side prices,
 * against the measured one (predictfig.h). A point's prediction is kernelcost_predict's parts;
 * each part is fitted along the axis like the measured estimates, so that the parts' intercepts
 * add up to the predicted intercept and their slopes to the predicted slope.
 */
#include "predictfig.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "atomicfile.h"
#include "fileio.h"
#include "fit.h"
#include "jsonget.h"
#include "kernelcost.h"
#include "results.h"
#include "sanitize.h"

/* The parts, in the TSV's order: exec, faults, the six priced calls, other calls, user, total. */
enum { P_EXEC, P_FAULTS, P_CALL0, P_OTHER = P_CALL0 + 6, P_USER, P_TOTAL, P_COUNT };
static const char *const part_names[P_COUNT] = {"exec",        "faults", "getppid",    "close",
						"read",        "openat", "newfstatat", "mmap",
						"other_calls", "user",   "predicted"};

#define SUBJECT_MAX 96

/* One subject's profiled points at one host, then its fitted lines. */
struct subject_points {
	char subject[SUBJECT_MAX];
	double *x, *measured, *part[P_COUNT];
	size_t n, cap;
	bool fitted;
	struct fit_line meas, fit[P_COUNT];
};

struct host {
	const char *input;
	struct kernelcost_prices prices;
	struct subject_points *subs;
	size_t nsubs;
};

static void host_clear(struct host *h)
{
	for (size_t i = 0; i < h->nsubs; i++) {
		free(h->subs[i].x);
		free(h->subs[i].measured);
		for (int k = 0; k < P_COUNT; k++)
			free(h->subs[i].part[k]);
	}
	free(h->subs);
	h->subs = NULL;
	h->nsubs = 0;
}

/* The subject's points at h, made when new; NULL when out of memory. */
static struct subject_points *subject_of(struct host *h, const char *subject, size_t cap)
{
	struct subject_points *grown;

	for (size_t i = 0; i < h->nsubs; i++)
		if (strcmp(h->subs[i].subject, subject) == 0)
			return &h->subs[i];
	grown = realloc(h->subs, (h->nsubs + 1) * sizeof(*grown));
	if (grown == NULL)
		return NULL;
	h->subs = grown;
	grown = &h->subs[h->nsubs++];
	memset(grown, 0, sizeof(*grown));
	snprintf(grown->subject, sizeof(grown->subject), "%s", subject);
	grown->cap = cap;
	grown->x = calloc(cap, sizeof(double));
	grown->measured = calloc(cap, sizeof(double));
	for (int k = 0; k < P_COUNT; k++)
		grown->part[k] = calloc(cap, sizeof(double));
	for (int k = 0; k < P_COUNT; k++)
		if (grown->part[k] == NULL)
			return NULL;
	return grown->x != NULL && grown->measured != NULL ? grown : NULL;
}

/* A result's point: x along axis, the measured estimate (ns), the parts. 1 used, 0 skipped (no
 * profile, no x), -1 (eb). */
static int add_result(struct host *h, const cJSON *e, const char *axis, size_t cap,
		      struct errbuf *eb)
{
	const cJSON *params = jsonget_member(e, "parameters");
	const cJSON *sj = jsonget_member(params, "subject"), *xv = jsonget_member(params, axis);
	const cJSON *prof = jsonget_member(e, "profile"), *st = jsonget_member(prof, "status");
	const cJSON *est = jsonget_member(jsonget_member(e, "rarbench"), "estimate");
	const cJSON *med = jsonget_member(e, "median"), *user = jsonget_member(e, "user");
	struct kernelcost_parts parts;
	struct subject_points *sp;
	char *end = NULL;
	double x;

	if (!cJSON_IsString(sj) || !cJSON_IsString(xv) || !cJSON_IsString(st) ||
	    strcmp(st->valuestring, "ok") != 0 || !cJSON_IsNumber(user))
		return 0;
	x = strtod(xv->valuestring, &end);
	if (end == xv->valuestring || *end != '\0' || !isfinite(x))
		return 0;
	if (kernelcost_predict(&h->prices, prof, user->valuedouble * 1e9, &parts, eb) < 0)
		return errbuf_prefix(eb, "%s: subject %s", h->input, sj->valuestring);
	if ((sp = subject_of(h, sj->valuestring, cap)) == NULL)
		return errbuf_set(eb, "out of memory");
	sp->x[sp->n] = x;
	sp->measured[sp->n] = 1e9 * (cJSON_IsNumber(est)   ? est->valuedouble
				     : cJSON_IsNumber(med) ? med->valuedouble
							   : NAN);
	sp->part[P_EXEC][sp->n] = parts.exec;
	sp->part[P_FAULTS][sp->n] = parts.faults;
	for (int k = 0; k < 6; k++)
		sp->part[P_CALL0 + k][sp->n] = parts.calls[KERNELCOST_GETPPID + k];
	sp->part[P_OTHER][sp->n] = parts.other_calls;
	sp->part[P_USER][sp->n] = parts.user;
	sp->part[P_TOTAL][sp->n] = parts.total;
	sp->n++;
	return 1;
}

/* Reads input into h: its prices and its subjects' profiled points. 1 with prices, 0 without, -1.
 */
static int load_host(struct host *h, const char *input, const char *axis, struct errbuf *eb)
{
	char *text = NULL;
	size_t len = 0, cap;
	cJSON *root = NULL;
	const cJSON *e;
	int rc = -1, got;

	h->input = input;
	if (fileio_read(input, RESULTS_FILE_MAX_BYTES, NULL, &text, &len, eb) < 0)
		return -1;
	root = cJSON_ParseWithLength(text, len);
	if (root == NULL) {
		errbuf_set(eb, "%s: not JSON", input);
		goto out;
	}
	got = kernelcost_read(root, &h->prices, eb);
	if (got <= 0) {
		if (got < 0)
			errbuf_prefix(eb, "%s", input);
		rc = got;
		goto out;
	}
	cap = (size_t)cJSON_GetArraySize(jsonget_member(root, "results"));
	cJSON_ArrayForEach(e, jsonget_member(root, "results"))
	{
		if (add_result(h, e, axis, cap ? cap : 1, eb) < 0)
			goto out;
	}
	for (size_t i = 0; i < h->nsubs; i++) {
		struct subject_points *sp = &h->subs[i];
		struct errbuf fe = {{0}};

		sp->fitted = fit_linear(sp->x, sp->measured, NULL, sp->n, &sp->meas, &fe) == 0;
		for (int k = 0; k < P_COUNT && sp->fitted; k++)
			sp->fitted =
			    fit_linear(sp->x, sp->part[k], NULL, sp->n, &sp->fit[k], &fe) == 0;
	}
	rc = 1;
out:
	cJSON_Delete(root);
	free(text);
	return rc;
}

/* predicted.tsv: one row per host and fitted subject. */
static void print_tsv(FILE *f, const struct host *hosts, size_t n)
{
	fputs("input\tsubject\tn\tintercept_ms\tpredicted_ms\tresidual_ms\tresidual_pct", f);
	for (int k = 0; k < P_TOTAL; k++)
		fprintf(f, "\t%s_ms", part_names[k]);
	fputs("\tslope_us\tpredicted_slope_us\n", f);
	for (size_t h = 0; h < n; h++)
		for (size_t i = 0; i < hosts[h].nsubs; i++) {
			const struct subject_points *sp = &hosts[h].subs[i];
			char in[512], sj[SUBJECT_MAX * 4];
			double mi = sp->meas.intercept, pi = sp->fit[P_TOTAL].intercept;

			if (!sp->fitted)
				continue;
			sanitize_str(in, sizeof(in), hosts[h].input);
			sanitize_str(sj, sizeof(sj), sp->subject);
			fprintf(f, "%s\t%s\t%zu\t%.4f\t%.4f\t%.4f\t%.1f", in, sj, sp->n, mi / 1e6,
				pi / 1e6, (mi - pi) / 1e6, 100 * (mi - pi) / mi);
			for (int k = 0; k < P_TOTAL; k++)
				fprintf(f, "\t%.4f", sp->fit[k].intercept / 1e6);
			fprintf(f, "\t%.4f\t%.4f\n", sp->meas.slope / 1e3,
				sp->fit[P_TOTAL].slope / 1e3);
		}
}

/* The prices of each host, ns per unit, with their CV over the sweep's points. */
static void print_prices(FILE *f, const struct host *hosts, size_t n)
{
	fputs("| input | rarref user ms (wall) |", f);
	for (int k = 0; k < KERNELCOST_KINDS; k++)
		fprintf(f, " %s ns |", kernelcost_kind_name((enum kernelcost_kind)k));
	fputs("\n|---|---:|", f);
	for (int k = 0; k < KERNELCOST_KINDS; k++)
		fputs("---:|", f);
	fputc('\n', f);
	for (size_t h = 0; h < n; h++) {
		char in[512];

		sanitize_markdown(in, sizeof(in), hosts[h].input);
		fprintf(f, "| %s | %.3f (%.3f) |", in, hosts[h].prices.ref_user_ns / 1e6,
			hosts[h].prices.ref_wall_ns / 1e6);
		for (int k = 0; k < KERNELCOST_KINDS; k++)
			fprintf(f, " %.0f (CV %.1f %%) |", hosts[h].prices.ns[k],
				100 * hosts[h].prices.cv[k]);
		fputc('\n', f);
	}
}

/* The table: measured intercept, predicted, its parts, the residual. */
static void print_table(FILE *f, const struct host *hosts, size_t n)
{
	fputs("\n| input | subject | intercept ms | predicted ms | exec+reap | faults | calls "
	      "(priced) | other calls | user CPU | residual | slope µs | predicted µs |\n"
	      "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
	      f);
	for (size_t h = 0; h < n; h++)
		for (size_t i = 0; i < hosts[h].nsubs; i++) {
			const struct subject_points *sp = &hosts[h].subs[i];
			char in[512], sj[SUBJECT_MAX * 4];
			double mi, calls = 0;

			if (!sp->fitted)
				continue;
			mi = sp->meas.intercept;
			for (int k = P_CALL0; k < P_OTHER; k++)
				calls += sp->fit[k].intercept;
			sanitize_markdown(in, sizeof(in), hosts[h].input);
			sanitize_markdown(sj, sizeof(sj), sp->subject);
			fprintf(
			    f,
			    "| %s | %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %+.3f "
			    "(%+.1f %%) | %.3f | %.3f |\n",
			    in, sj, mi / 1e6, sp->fit[P_TOTAL].intercept / 1e6,
			    sp->fit[P_EXEC].intercept / 1e6, sp->fit[P_FAULTS].intercept / 1e6,
			    calls / 1e6, sp->fit[P_OTHER].intercept / 1e6,
			    sp->fit[P_USER].intercept / 1e6,
			    (mi - sp->fit[P_TOTAL].intercept) / 1e6,
			    100 * (mi - sp->fit[P_TOTAL].intercept) / mi, sp->meas.slope / 1e3,
			    sp->fit[P_TOTAL].slope / 1e3);
		}
}

/* A subject's points at host h, or NULL. */
static const struct subject_points *find(const struct host *h, const char *subject)
{
	for (size_t i = 0; i < h->nsubs; i++)
		if (strcmp(h->subs[i].subject, subject) == 0 && h->subs[i].fitted)
			return &h->subs[i];
	return NULL;
}

/*
 * From the first host to each other: each subject's change of intercept, measured against the
 * change its parts predict: the kernel parts at each host's prices and counts, the user part
 * the first host's user time scaled by the change of rarref's user time.
 */
static void print_changes(FILE *f, const struct host *hosts, size_t n)
{
	if (n < 2)
		return;
	fputs(
	    "\n## From one host to another\n\n"
	    "Each subject's change of intercept from the first input to each other: measured, and "
	    "predicted by the change of the kernel parts (each host's prices at its own counts) "
	    "and of the user part (the first host's user time times the ratio of rarref's user "
	    "times). \"left\" is the measured change the prediction does not explain, in % of "
	    "the first host's intercept.\n\n"
	    "| from | to | subject | measured change ms | predicted ms | left |\n"
	    "|---|---|---|---:|---:|---:|\n",
	    f);
	for (size_t h = 1; h < n; h++)
		for (size_t i = 0; i < hosts[0].nsubs; i++) {
			const struct subject_points *a = &hosts[0].subs[i], *b;
			double ratio = hosts[h].prices.ref_user_ns / hosts[0].prices.ref_user_ns;
			double dm, dp, ka, kb;
			char from[512], to[512], sj[SUBJECT_MAX * 4];

			if (!a->fitted || (b = find(&hosts[h], a->subject)) == NULL)
				continue;
			ka = a->fit[P_TOTAL].intercept - a->fit[P_USER].intercept;
			kb = b->fit[P_TOTAL].intercept - b->fit[P_USER].intercept;
			dm = b->meas.intercept - a->meas.intercept;
			dp = (kb - ka) + a->fit[P_USER].intercept * (ratio - 1);
			sanitize_markdown(from, sizeof(from), hosts[0].input);
			sanitize_markdown(to, sizeof(to), hosts[h].input);
			sanitize_markdown(sj, sizeof(sj), a->subject);
			fprintf(f, "| %s | %s | %s | %+.3f | %+.3f | %+.1f %% |\n", from, to, sj,
				dm / 1e6, dp / 1e6, 100 * (dm - dp) / a->meas.intercept);
		}
}

/* predicted.md: what the numbers are, the prices, the table, the changes. */
static void print_markdown(FILE *f, const struct host *hosts, size_t n, const char *axis)
{
	char ax[128];

	sanitize_markdown(ax, sizeof(ax), axis);
	fprintf(
	    f,
	    "# Predicted from the profiles and the kernel's prices\n\n"
	    "Each host's prices come from rarkref, measured in every step beside the subjects "
	    "(results.json's `reference.kernel`): a static program's exec and reap, one minor "
	    "fault, one call of each priced kind; each the median over the sweep's points, its "
	    "CV over them in brackets. A subject's point is predicted as its profile's counts at "
	    "those prices (execs, minor faults, the priced calls, every other call at getppid's "
	    "price) plus its user time as measured; the parts and the measured estimates are "
	    "fitted along %s, on the points that have a profile. The residual is what the parts "
	    "leave: waits, the calls priced at the floor that cost more, the dynamic loader's "
	    "work beyond its calls and faults.\n\n",
	    ax);
	print_prices(f, hosts, n);
	print_table(f, hosts, n);
	print_changes(f, hosts, n);
}

int predictfig_write(const char *const *inputs, size_t n_inputs, const char *axis,
		     const char *out_dir, bool *wrote, struct errbuf *eb)
{
	struct host *hosts = calloc(n_inputs ? n_inputs : 1, sizeof(*hosts));
	struct atomicfile *af;
	char path[4096];
	size_t n = 0;
	int rc = -1;

	*wrote = false;
	if (hosts == NULL)
		return errbuf_set(eb, "out of memory");
	for (size_t i = 0; i < n_inputs; i++) {
		int got = load_host(&hosts[n], inputs[i], axis, eb);

		if (got < 0) {
			host_clear(&hosts[n]);
			goto out;
		}
		if (got > 0)
			n++;
		else
			host_clear(&hosts[n]);
	}
	if (n == 0) {
		rc = 0;
		goto out;
	}
	if (fileio_join(path, sizeof(path), out_dir, "predicted.tsv", eb) != 0 ||
	    (af = atomicfile_open(path, 0644, eb)) == NULL)
		goto out;
	print_tsv(atomicfile_stream(af), hosts, n);
	if (atomicfile_commit(af, eb) != 0)
		goto out;
	if (fileio_join(path, sizeof(path), out_dir, "predicted.md", eb) != 0 ||
	    (af = atomicfile_open(path, 0644, eb)) == NULL)
		goto out;
	print_markdown(atomicfile_stream(af), hosts, n, axis);
	if (atomicfile_commit(af, eb) != 0)
		goto out;
	*wrote = true;
	rc = 0;
out:
	for (size_t i = 0; i < n; i++)
		host_clear(&hosts[i]);
	free(hosts);
	return rc;
}
