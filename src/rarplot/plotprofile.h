/* plotprofile: the profiles beside rarplot's inputs (profile.tsv), fitted and reported. */
#ifndef RARPERF_PLOTPROFILE_H
#define RARPERF_PLOTPROFILE_H

#include <stdio.h>

#include "errbuf.h"
#include "fitreport.h"
#include "plotfig.h"
#include "profilefit.h"

/* What report.md's profile sections need: the fits and each subject's time fit. */
struct plotprofile {
	struct profilefit *pf; /* NULL: no input had a profile */
	struct profilefit_time *times;
	size_t n_times;
};

/*
 * Reads the "profile" object of every result of every input (rarbench
 * --manifest's results.json, or rarlab's merged.json: then each host is a
 * source of its own) and profile-costs.tsv beside an input that has
 * profiles, fits them against axis and takes each subject's time fit from
 * rep. No profile anywhere: 0 with p->pf NULL. 0, or -1 with eb naming the
 * file.
 */
int plotprofile_load(struct plotprofile *p, const char *const *inputs, size_t n_inputs,
		     const char *axis, const struct fitreport *rep, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * Writes out_dir/profile-fits.tsv and the data of the counters figure
 * (out_dir/data/profile_counters.tsv: subject, x, system calls per run).
 * 0 or -1.
 */
int plotprofile_write(const struct plotprofile *p, const char *out_dir, struct errbuf *eb);

/*
 * The counters figure (plots/profile_counters.gp): system calls and bytes
 * read per run against the axis, each subject in its look of the time
 * figures; its TSV under out_dir/data/profile_counters/, one file per
 * format in drawn. Nothing without profiles. 0 or -1 (gnuplot failed).
 */
int plotprofile_draw(const struct plotprofile *p, const struct plotfig_env *env,
		     struct plotfig_out *drawn, struct errbuf *eb);

/* Frees what p holds. */
void plotprofile_clear(struct plotprofile *p);

#endif
