/* normfig: rarplot's fits and figure in reference units (normfig.h). */
#include "normfig.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomicfile.h"
#include "fileio.h"
#include "fitreport.h"
#include "fitreport_write.h"
#include "results.h"
#include "runfiles.h"

/* A reference point's value: its estimate, else its median (results_normalise's). */
static double ref_value(const struct results_point *r)
{
	return isfinite(r->estimate_s) && r->estimate_s > 0 ? r->estimate_s : r->median_s;
}

/* The CV of a point's round estimates over the root of their number (the noise of its
 * estimate, from its rounds), NaN with fewer than two. */
static double round_noise(const struct results_point *r)
{
	double m = 0, ss = 0;
	size_t n = 0;

	for (size_t i = 0; i < r->n_rounds; i++)
		if (isfinite(r->rounds[i].estimate_s)) {
			m += r->rounds[i].estimate_s;
			n++;
		}
	if (n < 2)
		return NAN;
	m /= (double)n;
	for (size_t i = 0; i < r->n_rounds; i++)
		if (isfinite(r->rounds[i].estimate_s))
			ss += (r->rounds[i].estimate_s - m) * (r->rounds[i].estimate_s - m);
	return sqrt(ss / (double)(n - 1)) / m / sqrt((double)n);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Whether each file's reference stayed put across its sizes (issue 43, item 5): the CV of its
 * per-point values against the noise of one (the median of round_noise), and the change from
 * the smallest size along axis to the largest. A reference that moves beyond twice its noise
 * makes the normalised slopes lean: said in bold.
 */
static void print_spread(FILE *f, const struct results *res, const char *axis)
{
	for (size_t s = 0; s < res->n_sources; s++) {
		double sum = 0, ss = 0, noise[256], first = NAN, last = NAN, xlo = INFINITY,
		       xhi = -INFINITY, cv, med;
		size_t n = 0, nn = 0;

		for (size_t i = 0; i < res->n_refs; i++) {
			const struct results_point *r = &res->refs[i];
			const char *xv = results_point_param(r, axis);
			double v = ref_value(r), x = xv != NULL ? strtod(xv, NULL) : NAN;

			if (r->source != s || !(v > 0))
				continue;
			sum += v;
			ss += v * v;
			n++;
			if (nn < sizeof(noise) / sizeof(noise[0]) && isfinite(round_noise(r)))
				noise[nn++] = round_noise(r);
			if (x < xlo) {
				xlo = x;
				first = v;
			}
			if (x > xhi) {
				xhi = x;
				last = v;
			}
		}
		if (n < 2)
			continue;
		cv = sqrt(fmax(0, (ss - sum * sum / (double)n) / (double)(n - 1))) / (sum / n);
		qsort(noise, nn, sizeof(noise[0]), cmp_double);
		med = nn == 0  ? NAN
		      : nn % 2 ? noise[nn / 2]
			       : (noise[nn / 2 - 1] + noise[nn / 2]) / 2;
		fprintf(f,
			"The reference across the %zu points of input %zu: CV %.1f %%, against the "
			"noise of one point's estimate from its rounds, %.1f %%; from the smallest "
			"size to the largest %+.1f %%.",
			n, s + 1, 100 * cv, 100 * med, 100 * (last / first - 1));
		if (isfinite(med) && cv > 2 * med)
			fprintf(f,
				" **It did not stay put: the normalised lines lean with the "
				"size by as much** (a sweep before rarbench paced the reference, "
				"issue 43, ran it back to back with itself where the subjects were "
				"slow, and faster).");
		fputs("\n\n", f);
	}
}

/* normalised.md: what the numbers are, then fitreport's table. Atomic. */
static int write_markdown(const struct fitreport *rep, const struct results *res, size_t dropped,
			  const char *axis, const char *path, struct errbuf *eb)
{
	struct atomicfile *af = atomicfile_open(path, 0644, eb);
	FILE *f;

	if (af == NULL)
		return -1;
	f = atomicfile_stream(af);
	fputs("# In reference units\n\n"
	      "Every time divided by the reference workload's estimate at the same point of the "
	      "same sweep (rarbench's \"reference\": rarref, measured in every step beside the "
	      "subjects; each round by the same round's). Below, \"ms\" reads **reference runs** "
	      "and \"µs\" **thousandths of a reference run**: a host k % faster moves neither. "
	      "With several hosts, the second table splits the variance of the normalised slopes "
	      "between and within hosts.\n\n",
	      f);
	fprintf(f, "%zu reference points; %zu results without one left out.\n\n", res->n_refs,
		dropped);
	print_spread(f, res, axis);
	fitreport_print_table(rep, f);
	return atomicfile_commit(af, eb);
}

int normfig_write(const struct normfig_opts *o, const struct plotfig_env *env,
		  struct plotfig_out *drawn, bool *wrote, struct errbuf *eb)
{
	struct results *res = results_new();
	struct plotseries_set *set = NULL;
	struct fitreport *rep = NULL;
	struct plotfig_env nenv = *env;
	struct plotfig fig;
	char name[64], path[4096], fname[80];
	size_t i, dropped = 0;
	long nref;
	int rc = -1;

	*wrote = false;
	if (res == NULL)
		return errbuf_set(eb, "out of memory");
	for (i = 0; i < o->n_inputs; i++)
		if (results_load_file(res, o->inputs[i], eb) != 0)
			goto out;
	if (results_machines_assign(res, o->machines, o->baseline, eb) != 0)
		goto out;
	if ((nref = results_normalise(res, &dropped, eb)) < 0)
		goto out;
	if (nref == 0 || res->n_points == 0) {
		rc = 0;
		goto out;
	}
	if (plotseries_build(res, o->axis, o->stat, &set, eb) != 0 ||
	    fitreport_compute(set, o->baseline, o->use_weights, res, &rep, eb) != 0)
		goto out;
	/* In reference units: a slope is thousandths of a reference run per task, not µs. */
	rep->yunit = "ref";
	rep->yunit_small = "mref";
	if (fileio_join(path, sizeof(path), env->out_dir, RUNFILES_FITS_NORMALISED, eb) != 0 ||
	    fitreport_write_tsv(rep, path, eb) != 0 ||
	    fileio_join(path, sizeof(path), env->out_dir, RUNFILES_NORMALISED_REPORT, eb) != 0 ||
	    write_markdown(rep, res, dropped, o->axis, path, eb) != 0)
		goto out;
	*wrote = true;
	fig = plotfig_for_axis(o->axis, name, sizeof(name));
	snprintf(fname, sizeof(fname), "normalised_%s",
		 strncmp(fig.name, "perf_", 5) == 0 ? fig.name + 5 : fig.name);
	fig.name = fname;
	nenv.res = res;
	nenv.yunit = "ref";
	nenv.yunit_small = "mref";
	/* A figure gnuplot cannot draw is a note; the fits are written. */
	if (plotfig_render(&fig, set, &nenv, drawn, eb) != 0 &&
	    plotfig_out_note(drawn, "%s not drawn: %s", fig.name, eb->msg) != 0) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	rc = 0;
out:
	fitreport_free(rep);
	plotseries_set_free(set);
	results_free(res);
	return rc;
}
