/* plotseries_tsv: a series as the TSV gnuplot draws (plotseries_tsv.h). */
#include "plotseries_tsv.h"

#include <stdio.h>

#include "atomicfile.h"
#include "sanitize.h"

int plotseries_write_tsv(const struct plotseries *s, const char *path, struct errbuf *eb)
{
	struct atomicfile *af = NULL;
	FILE *f;
	size_t i;

	af = atomicfile_open(path, 0644, eb);
	if (af == NULL)
		return -1;
	f = atomicfile_stream(af);
	fputs("# subject=", f);
	sanitize_fputs(s->subject, SANITIZE_TEXT, f);
	fputs(" format=", f);
	sanitize_fputs(s->format, SANITIZE_TEXT, f);
	fputs(" host=", f);
	sanitize_fputs(s->host, SANITIZE_TEXT, f);
	fputc('\n', f);
	fprintf(f, "# x\ty_ms\tylow_ms\tyhigh_ms\tsigma_ms\truns\tnb_roles\tnb_tasks\tci_low_ms"
		   "\tci_high_ms\n");
	for (i = 0; i < s->n; i++) {
		const struct plotseries_point *p = &s->pts[i];

		fprintf(f, "%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%zu\t%.17g\t%.17g\t%.17g\t%.17g\n",
			p->x, p->y_ms, p->ylow_ms, p->yhigh_ms, p->sigma_ms, p->runs, p->nb_roles,
			p->nb_tasks, p->ci_lo_ms, p->ci_hi_ms);
	}
	if (ferror(f)) {
		atomicfile_abort(af);
		return errbuf_set(eb, "%s: write error", path);
	}
	return atomicfile_commit(af, eb);
}
