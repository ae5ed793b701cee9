/* normfig: rarplot's fits and figure in reference units (normfig.h). */
#include "normfig.h"

#include <stdio.h>
#include <string.h>

#include "atomicfile.h"
#include "fileio.h"
#include "fitreport.h"
#include "results.h"

/* normalised.md: what the numbers are, then fitreport's table. Atomic. */
static int write_markdown(const struct fitreport *rep, const struct results *res, size_t dropped,
			  const char *path, struct errbuf *eb)
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
	if (fileio_join(path, sizeof(path), env->out_dir, "fits-normalised.tsv", eb) != 0 ||
	    fitreport_write_tsv(rep, path, eb) != 0 ||
	    fileio_join(path, sizeof(path), env->out_dir, "normalised.md", eb) != 0 ||
	    write_markdown(rep, res, dropped, path, eb) != 0)
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
