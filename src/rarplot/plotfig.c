/* plotfig: render one figure (perf_tasks, perf_roles, perf_both) from a series set with gnuplot. */
#include "plotfig.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "fitreport.h"
#include "plotrun.h"

#define PLOTFIG_LIST_MAX 8192

struct plotfig plotfig_for_axis(const char *axis, char *name_buf, size_t len)
{
	struct plotfig f = {"perf_tasks", "perf_tasks.gp", axis};

	if (strcmp(axis, "nb_roles") == 0) {
		f.name = "perf_roles";
		f.script = "perf_roles.gp";
	} else if (strcmp(axis, PLOTSERIES_AXIS_BOTH) == 0) {
		f.name = "perf_both";
		f.script = "perf_both.gp";
	} else if (strcmp(axis, "nb_tasks") != 0) {
		snprintf(name_buf, len, "perf_%.40s",
			 strncmp(axis, "nb_", 3) == 0 ? axis + 3 : axis);
		f.name = name_buf;
	}
	return f;
}

/* Copies s to out keeping [A-Za-z0-9.+-], every other byte becoming '_'. */
static void plotfig_safe(const char *s, char *out, size_t len)
{
	size_t i;

	for (i = 0; s[i] != '\0' && i + 1 < len; i++) {
		char c = s[i];
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '.' || c == '+' || c == '-';

		out[i] = ok ? c : '_';
	}
	out[i] = '\0';
}

/* Appends "word " to a space-separated list; -1 when it would not fit. */
static int plotfig_list_add(char *list, const char *word)
{
	size_t used = strlen(list), n = strlen(word);

	if (used + n + 2 >= PLOTFIG_LIST_MAX)
		return -1;
	if (used > 0)
		list[used++] = ' ';
	memcpy(list + used, word, n + 1);
	return 0;
}

static int plotfig_note(char ***written, size_t *n_written, const char *name)
{
	char **nw = realloc(*written, (*n_written + 1) * sizeof(*nw));

	if (nw == NULL)
		return -1;
	*written = nw;
	nw[*n_written] = strdup(name);
	if (nw[*n_written] == NULL)
		return -1;
	(*n_written)++;
	return 0;
}

static const char *plotfig_terminal(const char *format)
{
	if (strcmp(format, "svg") == 0)
		return "svg";
	if (strcmp(format, "pdf") == 0)
		return "pdfcairo";
	return "pngcairo";
}

/* Writes the TSVs of set into dir, adding names/titles/weights to the lists when draw. */
static int plotfig_write_set(const struct plotseries_set *set, const char *dir, bool draw,
			     bool use_weights, const struct results *res, char *files, char *titles,
			     char *weights, struct errbuf *eb)
{
	char subject[64], format[64], host[64], name[256], path[PLOTRUN_PATH_MAX], title[200];
	char label[160];
	size_t i;

	for (i = 0; i < set->n_series; i++) {
		const struct plotseries *s = &set->series[i];

		plotfig_safe(s->subject, subject, sizeof(subject));
		plotfig_safe(s->format, format, sizeof(format));
		plotfig_safe(s->host, host, sizeof(host));
		if (strcmp(s->host, "-") == 0)
			snprintf(name, sizeof(name), "%02zu_%s_%s.tsv", i + 1, subject, format);
		else
			snprintf(name, sizeof(name), "%02zu_%s_%s_%s.tsv", i + 1, subject, format,
				 host);
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
			return errbuf_set(eb, "%s: path too long", dir);
		if (plotseries_write_tsv(s, path, eb) != 0)
			return -1;
		if (!draw)
			continue;
		/* One gnuplot word() each: quoted, from names already made safe. */
		fitreport_title(res, subject, strcmp(s->format, "-") == 0 ? "-" : format, label,
				sizeof(label));
		snprintf(title, sizeof(title), "\"%s\"", label);
		if (plotfig_list_add(files, name) != 0 || plotfig_list_add(titles, title) != 0 ||
		    plotfig_list_add(weights, use_weights && s->weighted ? "1" : "0") != 0)
			return errbuf_set(eb, "too many series to draw in one figure");
	}
	return 0;
}

int plotfig_render(const struct plotfig *fig, const struct plotseries_set *set,
		   const struct plotfig_env *env, char ***written, size_t *n_written,
		   struct errbuf *eb)
{
	struct plotseries_set *agg = NULL;
	char *files = NULL, *titles = NULL, *weights = NULL;
	char dir[PLOTRUN_PATH_MAX], script[PLOTRUN_PATH_MAX], tmp[PLOTRUN_PATH_MAX];
	char final[PLOTRUN_PATH_MAX], leaf[128], xlabel[512];
	bool band = set->n_hosts > 1;
	size_t i;
	int rc = -1;

	files = calloc(1, PLOTFIG_LIST_MAX);
	titles = calloc(1, PLOTFIG_LIST_MAX);
	weights = calloc(1, PLOTFIG_LIST_MAX);
	if (files == NULL || titles == NULL || weights == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	if ((size_t)snprintf(dir, sizeof(dir), "%s/data/%s", env->out_dir, fig->name) >=
		sizeof(dir) ||
	    (size_t)snprintf(script, sizeof(script), "%s/%s", env->scripts_dir, fig->script) >=
		sizeof(script)) {
		errbuf_set(eb, "%s: path too long", env->out_dir);
		goto out;
	}
	if (fileio_mkdirs(dir, eb) != 0)
		goto out;
	/* Per-host series are data for people; with several hosts the figure draws the band. */
	if (plotfig_write_set(set, dir, !band, env->use_weights, env->res, files, titles, weights,
			      eb) != 0)
		goto out;
	if (band) {
		if (plotseries_across_hosts(set, &agg, eb) != 0)
			goto out;
		if (plotfig_write_set(agg, dir, true, false, env->res, files, titles, weights,
				      eb) != 0)
			goto out;
	}
	if (strcmp(fig->axis, PLOTSERIES_AXIS_BOTH) == 0)
		snprintf(xlabel, sizeof(xlabel), "policy size: nb_roles × nb_tasks%s%s%s",
			 set->held[0] ? " (" : "", set->held, set->held[0] ? ")" : "");
	else
		snprintf(xlabel, sizeof(xlabel), "number of %ss (%s%s%s)",
			 fitreport_unit(fig->axis), fig->axis, set->held[0] ? "; " : "", set->held);
	for (i = 0; i < env->n_formats; i++) {
		const char *format = env->formats[i];
		struct plotrun_param params[] = {
		    {"dir", dir, 1},        {"files", files, 1},
		    {"titles", titles, 1},  {"weights", weights, 1},
		    {"out", tmp, 1},        {"term", plotfig_terminal(format), 1},
		    {"stat", env->stat, 1}, {"band", band ? "1" : "0", 0},
		    {"xlabel", xlabel, 1},  {"unit", fitreport_unit(fig->axis), 1},
		};

		snprintf(leaf, sizeof(leaf), "%s.%s", fig->name, format);
		if ((size_t)snprintf(final, sizeof(final), "%s/%s", env->out_dir, leaf) >=
			sizeof(final) ||
		    (size_t)snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", env->out_dir, leaf) >=
			sizeof(tmp)) {
			errbuf_set(eb, "%s: path too long", env->out_dir);
			goto out;
		}
		if (plotrun_run(env->gnuplot, script, params, sizeof(params) / sizeof(params[0]),
				eb) != 0) {
			unlink(tmp);
			goto out;
		}
		if (rename(tmp, final) != 0) {
			errbuf_set_errno(eb, errno, "%s", final);
			unlink(tmp);
			goto out;
		}
		if (plotfig_note(written, n_written, leaf) != 0) {
			errbuf_set(eb, "out of memory");
			goto out;
		}
	}
	rc = 0;
out:
	plotseries_set_free(agg);
	free(files);
	free(titles);
	free(weights);
	return rc;
}
