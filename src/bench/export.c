/* export: hyperfine-format JSON, CSV and Markdown exports of measure results, written atomically.
 */
#include "export.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "atomicfile.h"
#include "contention.h"
#include "export_rounds.h"
#include "numarg.h"
#include "resultsfile.h"
#include "stats.h"

#define EXPORT_NS_PER_S 1e9

/* Shortest round-tripping form of x, always with a '.' or exponent (serde's f64 style). */
static void export_fmt_double(double x, char *buf, size_t len)
{
	if (!isfinite(x)) {
		snprintf(buf, len, "null");
		return;
	}
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, x);
		if (numarg_leading_double(buf) == x)
			break;
	}
	if (strpbrk(buf, ".eE") == NULL && strlen(buf) + 3 <= len)
		memcpy(buf + strlen(buf), ".0", 3);
}

static cJSON *export_number(double x)
{
	char buf[64];

	export_fmt_double(x, buf, sizeof(buf));
	return cJSON_CreateRaw(buf);
}

/* Means and summary of one result, in seconds. */
struct export_row {
	struct stats_summary wall;
	double user_s, system_s;
};

static int export_row(const struct measure_result *r, struct export_row *row, struct errbuf *eb)
{
	double *scratch;
	double u = 0, s = 0;

	if (r == NULL || r->n == 0)
		return errbuf_set(eb, "a benchmark without runs cannot be exported");
	scratch = malloc(r->n * sizeof(double));
	if (scratch == NULL)
		return errbuf_set(eb, "out of memory");
	stats_summarize_u64(r->wall_ns, r->n, scratch, &row->wall);
	free(scratch);
	for (size_t i = 0; i < r->n; i++) {
		u += (double)r->user_ns[i];
		s += (double)r->system_ns[i];
	}
	row->wall.mean /= EXPORT_NS_PER_S;
	row->wall.stddev /= EXPORT_NS_PER_S;
	row->wall.median /= EXPORT_NS_PER_S;
	row->wall.q1 /= EXPORT_NS_PER_S;
	row->wall.q3 /= EXPORT_NS_PER_S;
	row->wall.min /= EXPORT_NS_PER_S;
	row->wall.max /= EXPORT_NS_PER_S;
	row->user_s = u / (double)r->n / EXPORT_NS_PER_S;
	row->system_s = s / (double)r->n / EXPORT_NS_PER_S;
	return 0;
}

static int export_cmp_param(const void *a, const void *b)
{
	return strcmp(((const struct export_param *)a)->name,
		      ((const struct export_param *)b)->name);
}

/* The entry's parameters sorted by name (hyperfine keeps them in a BTreeMap). */
static struct export_param *export_sorted_params(const struct export_entry *e)
{
	struct export_param *p = calloc(e->n_params ? e->n_params : 1, sizeof(*p));

	if (p == NULL)
		return NULL;
	if (e->n_params > 0) {
		memcpy(p, e->params, e->n_params * sizeof(*p));
		qsort(p, e->n_params, sizeof(*p), export_cmp_param);
	}
	return p;
}

static int export_add(cJSON *obj, const char *key, cJSON *item)
{
	if (item == NULL)
		return -1;
	if (!cJSON_AddItemToObject(obj, key, item)) { /* obj adopts item on success */
		cJSON_Delete(item);
		return -1;
	}
	return 0;
}

int export_summarize(const struct measure_result *r, const struct export_extras *x,
		     struct export_summary *out, struct errbuf *eb)
{
	double *scratch = malloc(2 * (r->n ? r->n : 1) * sizeof(double));
	int64_t base = contention_baseline_ns(r);

	memset(out, 0, sizeof(*out));
	if (scratch == NULL)
		return errbuf_set(eb, "out of memory");
	if (x->has_reference && x->reference_ns < base)
		base = x->reference_ns;
	out->fell_back = contention_estimate(r, x->estimator, x->contended, base, scratch,
					     &out->est, &out->contended);
	free(scratch);
	out->preempted = contention_preempted(r);
	out->reached = estimate_rel_halfwidth(&out->est);
	out->met = x->precision > 0 && !out->fell_back && estimate_meets(&out->est, x->precision);
	out->contended_point = (r->n > 0 && (double)out->contended > x->contention_limit * r->n) ||
			       (x->has_point && x->steal > CONTENTION_STEAL_LIMIT);
	return 0;
}

/* A number, or null when it is not finite (an interval from too few runs). */
static cJSON *export_number_or_null(double x)
{
	return isfinite(x) ? export_number(x) : cJSON_CreateNull();
}

cJSON *export_rusage_json(const struct measure_result *r)
{
	static const struct {
		const char *name;
		size_t off;
	} fields[] = {
	    {"minflt", offsetof(struct proc_rusage, minflt)},
	    {"majflt", offsetof(struct proc_rusage, majflt)},
	    {"maxrss_kib", offsetof(struct proc_rusage, maxrss_kib)},
	    {"inblock", offsetof(struct proc_rusage, inblock)},
	    {"nvcsw", offsetof(struct proc_rusage, nvcsw)},
	};
	cJSON *o = cJSON_CreateObject();

	for (size_t f = 0; o != NULL && f < sizeof(fields) / sizeof(fields[0]); f++) {
		cJSON *a = cJSON_AddArrayToObject(o, fields[f].name);

		for (size_t i = 0; a != NULL && i < r->n; i++) {
			cJSON *x = cJSON_CreateNumber(
			    (double)*(const uint64_t *)((const char *)&r->ru[i] + fields[f].off));

			if (x == NULL || !cJSON_AddItemToArray(a, x)) {
				cJSON_Delete(x);
				a = NULL;
			}
		}
		if (a == NULL) {
			cJSON_Delete(o);
			return NULL;
		}
	}
	return o;
}

/* The "rarbench" object of one result (export.h). */
static cJSON *export_extras_json(const struct measure_result *r, const struct export_extras *x,
				 const uint32_t *run_round, struct errbuf *eb)
{
	struct export_summary sum;
	cJSON *o = NULL, *ci;

	if (export_summarize(r, x, &sum, eb) != 0)
		return NULL;
	o = cJSON_CreateObject();
	if (o == NULL)
		goto oom;
	if (export_add(o, "estimator", cJSON_CreateString(estimate_kind_name(x->estimator))) != 0 ||
	    export_add(o, "estimate", export_number(sum.est.value / EXPORT_NS_PER_S)) != 0)
		goto oom;
	ci = cJSON_AddArrayToObject(o, "ci95");
	if (ci == NULL)
		goto oom;
	cJSON_AddItemToArray(ci, export_number_or_null(sum.est.lo / EXPORT_NS_PER_S));
	cJSON_AddItemToArray(ci, export_number_or_null(sum.est.hi / EXPORT_NS_PER_S));
	if (cJSON_GetArraySize(ci) != 2 ||
	    export_add(o, "runs_used", cJSON_CreateNumber((double)sum.est.n)) != 0 ||
	    export_add(o, "contended_runs", cJSON_CreateNumber((double)sum.contended)) != 0 ||
	    /* The share a reader compares across points and tools (report.md shows it). */
	    export_add(o, "contended_share",
		       r->n > 0 ? export_number((double)sum.contended / (double)r->n)
				: cJSON_CreateNull()) != 0 ||
	    export_add(o, "contended_treatment",
		       cJSON_CreateString(estimate_contended_name(x->contended))) != 0 ||
	    export_add(o, "preempted_runs",
		       r->nivcsw != NULL || r->stall_ns != NULL
			   ? cJSON_CreateNumber((double)sum.preempted)
			   : cJSON_CreateNull()) != 0 ||
	    export_add(o, "precision",
		       x->precision > 0 ? export_number(x->precision) : cJSON_CreateNull()) != 0 ||
	    export_add(o, "precision_reached", export_number_or_null(sum.reached)) != 0 ||
	    export_add(o, "precision_met",
		       x->precision > 0 ? cJSON_CreateBool(sum.met) : cJSON_CreateNull()) != 0 ||
	    export_add(o, "contended", cJSON_CreateBool(sum.contended_point)) != 0)
		goto oom;
	if (x->has_point &&
	    (export_add(o, "rounds", cJSON_CreateNumber(x->rounds)) != 0 ||
	     export_add(o, "remeasured", cJSON_CreateNumber(x->remeasured)) != 0 ||
	     export_add(o, "discarded_runs", cJSON_CreateNumber((double)x->discarded_runs)) != 0 ||
	     export_add(o, "steal", export_number(x->steal)) != 0 ||
	     export_add(o, "load1", export_number(x->load1)) != 0))
		goto oom;
	if (x->daemon_name != NULL) {
		cJSON *d = cJSON_CreateObject();

		if (d == NULL || export_add(o, "daemon", d) != 0 ||
		    cJSON_AddStringToObject(d, "name", x->daemon_name) == NULL ||
		    cJSON_AddNumberToObject(d, "cpu_ns", (double)x->daemon_cpu_ns) == NULL ||
		    cJSON_AddNumberToObject(d, "runs", (double)x->daemon_runs) == NULL ||
		    cJSON_AddNumberToObject(d, "cpu_ns_per_run",
					    x->daemon_runs > 0
						? (double)x->daemon_cpu_ns / (double)x->daemon_runs
						: 0) == NULL ||
		    cJSON_AddNumberToObject(d, "maxrss_kib", (double)x->daemon_maxrss_kib) == NULL)
			goto oom;
	}
	if (run_round != NULL) {
		int64_t base = contention_baseline_ns(r);
		cJSON *rounds;

		if (x->has_reference && x->reference_ns < base)
			base = x->reference_ns;
		rounds =
		    export_rounds_estimates(r, run_round, x->estimator, x->contended, base, eb);
		if (rounds == NULL) {
			cJSON_Delete(o);
			return NULL;
		}
		if (export_add(o, "round_estimates", rounds) != 0)
			goto oom;
	}
	return o;
oom:
	cJSON_Delete(o);
	errbuf_set(eb, "out of memory building the JSON export");
	return NULL;
}

/* The peak RSS of r's runs in bytes, one number each; NULL when out of memory. */
static cJSON *export_memory_json(const struct measure_result *r)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; a != NULL && i < r->n; i++) {
		cJSON *x = cJSON_CreateNumber((double)(r->ru[i].maxrss_kib * 1024u));

		if (x == NULL || !cJSON_AddItemToArray(a, x)) { /* a adopts x */
			cJSON_Delete(x);
			cJSON_Delete(a);
			return NULL;
		}
	}
	return a;
}

/* The involuntary context switches of r's runs, one number each; NULL when out of memory. */
static cJSON *export_nivcsw_json(const struct measure_result *r)
{
	cJSON *csw = cJSON_CreateArray();

	for (size_t i = 0; csw != NULL && i < r->n; i++) {
		cJSON *c = cJSON_CreateNumber(r->nivcsw[i]);

		if (c == NULL || !cJSON_AddItemToArray(csw, c)) { /* csw adopts c */
			cJSON_Delete(c);
			cJSON_Delete(csw);
			return NULL;
		}
	}
	return csw;
}

/* Each run's CPU stall in ns (null where unknown); NULL when out of memory. */
static cJSON *export_stall_json(const struct measure_result *r)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; a != NULL && i < r->n; i++) {
		cJSON *c = r->stall_ns[i] >= 0 ? cJSON_CreateNumber((double)r->stall_ns[i])
					       : cJSON_CreateNull();

		if (c == NULL || !cJSON_AddItemToArray(a, c)) { /* a adopts c */
			cJSON_Delete(c);
			cJSON_Delete(a);
			return NULL;
		}
	}
	return a;
}

static cJSON *export_result_json(const struct export_entry *e, struct errbuf *eb)
{
	const struct measure_result *r = e->result;
	struct export_param *params = NULL;
	struct export_row row;
	cJSON *o = NULL, *times = NULL, *codes = NULL, *po = NULL;

	if (export_row(r, &row, eb) != 0)
		return NULL;
	o = cJSON_CreateObject();
	if (o == NULL)
		goto oom;
	if (export_add(o, "command", cJSON_CreateString(e->command)) != 0 ||
	    export_add(o, "mean", export_number(row.wall.mean)) != 0 ||
	    export_add(o, "stddev",
		       r->n > 1 ? export_number(row.wall.stddev) : cJSON_CreateNull()) != 0 ||
	    export_add(o, "median", export_number(row.wall.median)) != 0 ||
	    export_add(o, "user", export_number(row.user_s)) != 0 ||
	    export_add(o, "system", export_number(row.system_s)) != 0 ||
	    export_add(o, "min", export_number(row.wall.min)) != 0 ||
	    export_add(o, "max", export_number(row.wall.max)) != 0)
		goto oom;
	times = cJSON_AddArrayToObject(o, "times");
	/* hyperfine 1.20's key, in its place: each run's own peak RSS in bytes (wait4's maxrss
	 * of the run, which starts from rarlaunch's small address space: proc.h). */
	if (times == NULL ||
	    (r->ru != NULL && export_add(o, "memory_usage_byte", export_memory_json(r)) != 0))
		goto oom;
	codes = cJSON_AddArrayToObject(o, "exit_codes");
	if (codes == NULL)
		goto oom;
	for (size_t i = 0; i < r->n; i++) {
		cJSON *t = export_number((double)r->wall_ns[i] / EXPORT_NS_PER_S);
		cJSON *c = cJSON_CreateNumber(r->exit_codes[i]);

		if (t == NULL || !cJSON_AddItemToArray(times, t)) {
			cJSON_Delete(t);
			cJSON_Delete(c);
			goto oom;
		}
		if (c == NULL || !cJSON_AddItemToArray(codes, c)) {
			cJSON_Delete(c);
			goto oom;
		}
	}
	if (e->n_params > 0) {
		params = export_sorted_params(e);
		po = cJSON_AddObjectToObject(o, "parameters");
		if (params == NULL || po == NULL)
			goto oom;
		for (size_t i = 0; i < e->n_params; i++)
			if (export_add(po, params[i].name, cJSON_CreateString(params[i].value)) !=
			    0)
				goto oom;
	}
	if (e->extras != NULL) {
		cJSON *rb;

		if (r->nivcsw != NULL && export_add(o, "nivcsw", export_nivcsw_json(r)) != 0)
			goto oom;
		/* How long each run waited for a CPU (contention.h judges by it; hyperfine has no
		 * such key). */
		if (r->stall_ns != NULL && export_add(o, "cpu_stall_ns", export_stall_json(r)) != 0)
			goto oom;
		if (e->run_round != NULL &&
		    export_add(o, "run_rounds", export_rounds_runs(r, e->run_round)) != 0)
			goto oom;
		if (r->ru != NULL && export_add(o, "rusage", export_rusage_json(r)) != 0)
			goto oom;
		rb = export_extras_json(r, e->extras, e->run_round, eb);
		if (rb == NULL) {
			free(params);
			cJSON_Delete(o);
			return NULL;
		}
		if (export_add(o, "rarbench", rb) != 0)
			goto oom;
		if (e->extras->profile != NULL &&
		    export_add(o, "profile", cJSON_Duplicate(e->extras->profile, 1)) != 0)
			goto oom;
		if (e->extras->counts != NULL) {
			cJSON *c = cJSON_Duplicate(e->extras->counts, 1);

			if (c != NULL && cJSON_IsString(e->extras->counts_instrument))
				cJSON_AddStringToObject(c, "instrument",
							e->extras->counts_instrument->valuestring);
			if (export_add(o, "counts", c) != 0)
				goto oom;
		}
	}
	free(params);
	return o;
oom:
	free(params);
	cJSON_Delete(o);
	errbuf_set(eb, "out of memory building the JSON export");
	return NULL;
}

cJSON *export_json_build(const struct export_entry *entries, size_t n, const cJSON *extra,
			 struct errbuf *eb)
{
	cJSON *doc = resultsfile_new(), *results = resultsfile_results(doc);
	const cJSON *item;

	if (doc == NULL)
		goto oom;
	for (size_t i = 0; i < n; i++) {
		cJSON *o = export_result_json(&entries[i], eb);

		if (o == NULL) {
			cJSON_Delete(doc);
			return NULL;
		}
		if (!cJSON_AddItemToArray(results, o)) {
			cJSON_Delete(o);
			goto oom;
		}
	}
	cJSON_ArrayForEach(item, extra)
	{
		if (item->string == NULL)
			continue;
		if (export_add(doc, item->string, cJSON_Duplicate(item, 1)) != 0)
			goto oom;
	}
	return doc;
oom:
	cJSON_Delete(doc);
	errbuf_set(eb, "out of memory building the JSON export");
	return NULL;
}

int export_json(const char *path, const struct export_entry *entries, size_t n, const cJSON *extra,
		struct errbuf *eb)
{
	cJSON *doc = export_json_build(entries, n, extra, eb);
	int rc;

	if (doc == NULL)
		return -1;
	rc = resultsfile_write(path, doc, eb);
	cJSON_Delete(doc);
	return rc;
}

/* Writes one CSV field, quoted when it holds a comma, quote or line break (RFC 4180). */
static void export_csv_field(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

int export_csv(const char *path, const struct export_entry *entries, size_t n, struct errbuf *eb)
{
	struct atomicfile *af = atomicfile_open(path, 0644, eb);
	struct export_param *first = NULL;
	size_t n_first = 0;
	FILE *f;

	if (af == NULL)
		return -1;
	f = atomicfile_stream(af);
	/* hyperfine takes the parameter columns from the first result. */
	if (n > 0) {
		first = export_sorted_params(&entries[0]);
		if (first == NULL)
			goto oom;
		n_first = entries[0].n_params;
	}
	fputs("command,mean,stddev,median,user,system,min,max", f);
	for (size_t j = 0; j < n_first; j++) {
		fputc(',', f);
		fputs("parameter_", f);
		fputs(first[j].name, f);
	}
	fputc('\n', f);
	for (size_t i = 0; i < n; i++) {
		struct export_param *p = export_sorted_params(&entries[i]);
		struct export_row row;
		double vals[7];
		char buf[64];

		if (p == NULL)
			goto oom;
		if (export_row(entries[i].result, &row, eb) != 0) {
			free(p);
			goto fail;
		}
		vals[0] = row.wall.mean;
		vals[1] = entries[i].result->n > 1 ? row.wall.stddev : 0.0;
		vals[2] = row.wall.median;
		vals[3] = row.user_s;
		vals[4] = row.system_s;
		vals[5] = row.wall.min;
		vals[6] = row.wall.max;
		export_csv_field(f, entries[i].command);
		for (size_t j = 0; j < 7; j++) {
			/* Rust prints 0.0 as "0"; the shortest round-trip form otherwise. */
			export_fmt_double(vals[j], buf, sizeof(buf));
			if (strcmp(buf, "0.0") == 0)
				snprintf(buf, sizeof(buf), "0");
			fputc(',', f);
			fputs(buf, f);
		}
		for (size_t j = 0; j < entries[i].n_params; j++) {
			fputc(',', f);
			export_csv_field(f, p[j].value);
		}
		fputc('\n', f);
		free(p);
	}
	free(first);
	return atomicfile_commit(af, eb);
oom:
	errbuf_set(eb, "out of memory");
fail:
	free(first);
	atomicfile_abort(af);
	return -1;
}

/* hyperfine's Unit::format: "{:.1}" milliseconds or "{:.3}" seconds. */
static void export_fmt_time(FILE *f, double s, enum export_time_unit unit)
{
	if (unit == EXPORT_UNIT_MILLISECOND)
		fprintf(f, "%.1f", s * 1e3);
	else
		fprintf(f, "%.3f", s);
}

int export_markdown(const char *path, const struct export_entry *entries, size_t n,
		    const enum export_time_unit *unit_opt, struct errbuf *eb)
{
	struct export_row *rows = calloc(n ? n : 1, sizeof(*rows));
	enum export_time_unit unit = EXPORT_UNIT_SECOND;
	const char *us;
	struct atomicfile *af = NULL;
	size_t fastest = 0;
	FILE *f;

	if (rows == NULL)
		return errbuf_set(eb, "out of memory");
	for (size_t i = 0; i < n; i++) {
		if (export_row(entries[i].result, &rows[i], eb) != 0)
			goto fail;
		if (rows[i].wall.mean < rows[fastest].wall.mean)
			fastest = i;
	}
	if (n > 0 && rows[fastest].wall.mean == 0.0) {
		errbuf_set(eb, "Relative speed comparison is not available for markup exporter.");
		goto fail;
	}
	if (unit_opt != NULL)
		unit = *unit_opt;
	else if (n > 0 && rows[0].wall.mean < 1.0)
		unit = EXPORT_UNIT_MILLISECOND;
	us = unit == EXPORT_UNIT_MILLISECOND ? "ms" : "s";
	af = atomicfile_open(path, 0644, eb);
	if (af == NULL)
		goto fail;
	f = atomicfile_stream(af);
	fprintf(f, "| Command | Mean [%s] | Min [%s] | Max [%s] | Relative |\n", us, us, us);
	fputs("|:---|---:|---:|---:|---:|\n", f);
	for (size_t i = 0; i < n; i++) {
		const struct export_row *r = &rows[i], *fr = &rows[fastest];
		double ratio = r->wall.mean / fr->wall.mean;
		bool have_sd = entries[i].result->n > 1 && entries[fastest].result->n > 1;

		fputs("| `", f);
		for (const char *c = entries[i].command; *c; c++) {
			if (*c == '|')
				fputc('\\', f);
			fputc(*c, f);
		}
		fputs("` | ", f);
		export_fmt_time(f, r->wall.mean, unit);
		if (entries[i].result->n > 1) {
			fputs(" ± ", f);
			export_fmt_time(f, r->wall.stddev, unit);
		}
		fputs(" | ", f);
		export_fmt_time(f, r->wall.min, unit);
		fputs(" | ", f);
		export_fmt_time(f, r->wall.max, unit);
		fprintf(f, " | %.2f", ratio);
		if (i != fastest && have_sd)
			fprintf(f, " ± %.2f",
				ratio * sqrt(pow(r->wall.stddev / r->wall.mean, 2) +
					     pow(fr->wall.stddev / fr->wall.mean, 2)));
		fputs(" |\n", f);
	}
	free(rows);
	return atomicfile_commit(af, eb);
fail:
	free(rows);
	atomicfile_abort(af);
	return -1;
}
