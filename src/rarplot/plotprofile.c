/* plotprofile: the profiles beside rarplot's inputs, fitted and reported. */
#include "plotprofile.h"
#include "profilefit_report.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <errno.h>
#include <stdio.h>

#include "fileio.h"
#include "plotrun.h"
#include "profileload.h"
#include "runfiles.h"

/* Sizes drawn per subject at most. */
#define PLOTPROFILE_POINTS_MAX 1024

/* dir of path (".": none) + "/" + name into buf. 0 or -1. */
static int beside(const char *path, const char *name, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');
	int n = slash == NULL ? snprintf(buf, len, "./%s", name)
			      : snprintf(buf, len, "%.*s/%s", (int)(slash - path), path, name);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* Reads profile-costs.tsv at path into pf when there is one. 0 or -1. */
static int load_costs(struct profilefit *pf, const char *path, struct errbuf *eb)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (access(path, F_OK) != 0)
		return 0;
	if (fileio_read(path, PROFILEFIT_FILE_MAX_BYTES, "cannot open", &text, &len, eb) < 0)
		return -1;
	rc = profilefit_add_costs(pf, text, len, path, eb);
	free(text);
	return rc;
}

/* Each subject's first time fit (ms, per unit) from rep. */
static int take_times(struct plotprofile *p, const struct fitreport *rep, struct errbuf *eb)
{
	p->times = calloc(rep->n_rows + 1, sizeof(*p->times));
	if (p->times == NULL)
		return errbuf_set(eb, "out of memory");
	for (size_t i = 0; i < rep->n_rows; i++) {
		const char *s = rep->rows[i].series->subject;
		bool seen = false;

		for (size_t k = 0; k < p->n_times; k++)
			seen |= strcmp(p->times[k].subject, s) == 0;
		if (!seen)
			p->times[p->n_times++] = (struct profilefit_time){
			    s, rep->rows[i].fit.slope, rep->rows[i].fit.intercept};
	}
	return 0;
}

int plotprofile_load(struct plotprofile *p, const char *const *inputs, size_t n_inputs,
		     const char *axis, const struct fitreport *rep, struct errbuf *eb)
{
	char path[PATH_MAX];
	size_t found = 0;
	struct profileload_sink sink;

	memset(p, 0, sizeof(*p));
	if ((p->pf = profilefit_new(axis)) == NULL)
		return errbuf_set(eb, "out of memory");
	profilefit_sink(p->pf, &sink);
	for (size_t i = 0; i < n_inputs; i++) {
		size_t before = found;

		if (profileload_file(&sink, inputs[i], NULL, axis, &found, eb) < 0)
			return -1;
		if (found == before)
			continue;
		if (beside(inputs[i], RUNFILES_PROFILE_COSTS, path, sizeof(path)) < 0)
			return errbuf_set(eb, "%s: path too long", inputs[i]);
		if (load_costs(p->pf, path, eb) < 0)
			return -1;
	}
	if (found == 0) {
		profilefit_free(p->pf);
		p->pf = NULL;
		return 0;
	}
	if (profilefit_compute(p->pf, eb) < 0)
		return -1;
	return take_times(p, rep, eb);
}

int plotprofile_write(const struct plotprofile *p, const char *out_dir, struct errbuf *eb)
{
	char path[PATH_MAX];

	if (p->pf == NULL)
		return 0;
	if (fileio_join(path, sizeof(path), out_dir, RUNFILES_PROFILE_FITS, eb) != 0)
		return -1;
	return profilefit_write_tsv(p->pf, path, eb);
}

void plotprofile_clear(struct plotprofile *p)
{
	profilefit_free(p->pf);
	free(p->times);
	memset(p, 0, sizeof(*p));
}

/* Appends " word" (or "word" first) to a list of cap bytes. 0 or -1 when full. */
static int list_add(char *list, size_t cap, const char *word)
{
	size_t used = strlen(list);
	int n = snprintf(list + used, cap - used, "%s%s", used > 0 ? " " : "", word);

	return n < 0 || (size_t)n >= cap - used ? -1 : 0;
}

/* subject as a file-name and gnuplot-word safe name into buf. */
static void safe_name(const char *subject, char *buf, size_t len)
{
	size_t i;

	for (i = 0; subject[i] != '\0' && i + 1 < len; i++) {
		char c = subject[i];

		buf[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
				 (c >= '0' && c <= '9') || c == '-' || c == '.'
			     ? c
			     : '_';
	}
	buf[i] = '\0';
}

/* The look of subject among the run's styles (any format), or NULL. */
static const struct plotstyle *style_of(const struct plotfig_env *env, const char *subject)
{
	for (size_t i = 0; i < env->n_styles; i++)
		if (strcmp(env->styles[i].subject, subject) == 0 && env->styles[i].style.known)
			return &env->styles[i].style;
	return NULL;
}

/* One subject's TSV (x calls bytes_read) under dir; its name into file. 0 or -1. */
static int write_subject(const struct profilefit *pf, const char *dir, size_t k,
			 const char *subject, char *file, size_t len, struct errbuf *eb)
{
	double x[PLOTPROFILE_POINTS_MAX], c[PLOTPROFILE_POINTS_MAX], bx[PLOTPROFILE_POINTS_MAX],
	    b[PLOTPROFILE_POINTS_MAX];
	size_t n = profilefit_points(pf, subject, "calls", x, c, PLOTPROFILE_POINTS_MAX);
	size_t nb = profilefit_points(pf, subject, "bytes_read", bx, b, PLOTPROFILE_POINTS_MAX);
	char name[64], path[PATH_MAX];
	FILE *f;

	safe_name(subject, name, sizeof(name));
	if (fileio_fmt(file, len, "%02zu_%s.tsv", k + 1, name) < 0)
		return errbuf_set(eb, "%s: name too long", name);
	if (fileio_join(path, sizeof(path), dir, file, eb) != 0)
		return -1;
	if ((f = fopen(path, "we")) == NULL)
		return errbuf_set_errno(eb, errno, "%s", path);
	fprintf(f, "# x calls bytes_read (mean per point)\n");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%.17g\t%.17g\t%.17g\n", x[i], c[i], i < nb && bx[i] == x[i] ? b[i] : 0);
	if (fclose(f) != 0)
		return errbuf_set_errno(eb, errno, "%s", path);
	return 0;
}

/* The gnuplot word lists of the counters figure: one word per subject. */
struct profile_lists {
	char files[4096], titles[4096], colors[1024], points[512], dashes[512];
};

/* Each subject's counters written under dir, its file, name and look added to l. */
static int write_subjects(const struct plotprofile *p, const struct plotfig_env *env,
			  const char *dir, struct profile_lists *l, struct errbuf *eb)
{
	char file[96], num[16];
	const char *last = "";
	size_t k = 0;

	for (size_t i = 0; i < p->pf->n_lines; i++) {
		const char *s = p->pf->lines[i].subject;
		const struct plotstyle *st;
		char name[64];

		if (strcmp(s, last) == 0)
			continue;
		last = s;
		if (write_subject(p->pf, dir, k, s, file, sizeof(file), eb) < 0)
			return -1;
		st = style_of(env, s);
		safe_name(s, name, sizeof(name));
		snprintf(num, sizeof(num), "%d", st != NULL ? st->point : (int)k + 1);
		if (list_add(l->files, sizeof(l->files), file) < 0 ||
		    list_add(l->titles, sizeof(l->titles), name) < 0 ||
		    list_add(l->colors, sizeof(l->colors), st != NULL ? st->color : "#000000") <
			0 ||
		    list_add(l->points, sizeof(l->points), num) < 0)
			return errbuf_set(eb, "too many subjects for the counters figure");
		snprintf(num, sizeof(num), "%d", st != NULL ? st->dash : 1);
		if (list_add(l->dashes, sizeof(l->dashes), num) < 0)
			return errbuf_set(eb, "too many subjects for the counters figure");
		k++;
	}
	return 0;
}

/* The figure in format f: drawn to a hidden file, renamed into place when gnuplot succeeds. */
static int draw_format(const struct plotprofile *p, const struct plotfig_env *env, const char *dir,
		       const char *f, const struct profile_lists *l, struct plotfig_out *drawn,
		       struct errbuf *eb)
{
	char final[PATH_MAX], script[PATH_MAX], tmp[PATH_MAX], leaf[64];
	struct plotrun_param params[] = {
	    {"dir", dir, 1},
	    {"files", l->files, 1},
	    {"titles", l->titles, 1},
	    {"colors", l->colors, 1},
	    {"points", l->points, 1},
	    {"dashes", l->dashes, 1},
	    {"xlabel", p->pf->axis, 1},
	    {"out", tmp, 1},
	    {"term",
	     strcmp(f, "svg") == 0   ? "svg"
	     : strcmp(f, "pdf") == 0 ? "pdfcairo"
				     : "pngcairo",
	     1},
	};

	snprintf(leaf, sizeof(leaf), "profile_counters.%s", f);
	if (snprintf(final, sizeof(final), "%s/%s", env->out_dir, leaf) >= (int)sizeof(final) ||
	    snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", env->out_dir, leaf) >= (int)sizeof(tmp) ||
	    snprintf(script, sizeof(script), "%s/profile_counters.gp", env->scripts_dir) >=
		(int)sizeof(script))
		return errbuf_set(eb, "%s: path too long", env->out_dir);
	if (plotrun_run(env->gnuplot, script, params, sizeof(params) / sizeof(params[0]), eb) !=
	    0) {
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, final) != 0) {
		unlink(tmp);
		return errbuf_set_errno(eb, errno, "%s", final);
	}
	if (plotfig_out_file(drawn, leaf,
			     "The profile: system calls and bytes read per run of each subject "
			     "against the size (strace, one traced run per point; log-log).") != 0)
		return errbuf_set(eb, "out of memory");
	return 0;
}

int plotprofile_draw(const struct plotprofile *p, const struct plotfig_env *env,
		     struct plotfig_out *drawn, struct errbuf *eb)
{
	static struct profile_lists l;
	char dir[PATH_MAX];

	if (p->pf == NULL)
		return 0;
	l.files[0] = l.titles[0] = l.colors[0] = l.points[0] = l.dashes[0] = '\0';
	if (snprintf(dir, sizeof(dir), "%s/data/profile_counters", env->out_dir) >=
	    (int)sizeof(dir))
		return errbuf_set(eb, "%s: path too long", env->out_dir);
	if (fileio_mkdirs(dir, eb) < 0)
		return -1;
	if (write_subjects(p, env, dir, &l, eb) != 0)
		return -1;
	for (size_t i = 0; i < env->n_formats; i++)
		if (draw_format(p, env, dir, env->formats[i], &l, drawn, eb) != 0)
			return -1;
	return 0;
}
