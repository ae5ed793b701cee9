/* fitreport: fit every series and compare each with the baseline subject (the writers of fits.tsv
 * and report.md are src/fitio's fitreport_table.c and fitreport_markdown.c). */
#include "fitreport.h"
#include "fitreport_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *fitreport_unit(const char *axis)
{
	static const struct {
		const char *axis, *unit;
	} units[] = {{"nb_tasks", "task"}, {"nb_roles", "role"},
		     {"nb_users", "user"}, {"nb_commands", "command"},
		     {"nb_files", "file"}, {PLOTSERIES_AXIS_BOTH, "role×task"}};
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(axis, units[i].axis) == 0)
			return units[i].unit;
	return axis;
}

void fitreport_free(struct fitreport *rep)
{
	if (rep == NULL)
		return;
	free(rep->rows);
	free(rep);
}

/*
 * Whether subject is the baseline of row's comparisons: the baseline itself, or for a series of
 * a swept limit ("sr-cbor (nofile 65536)") the baseline's series at the same value.
 */
static bool fitreport_is_baseline(const char *subject, const char *baseline, const char *row)
{
	const char *suffix = strstr(row, " (");
	size_t len = strlen(baseline);

	if (strcmp(subject, baseline) == 0)
		return true;
	return suffix != NULL && strncmp(subject, baseline, len) == 0 &&
	       strcmp(subject + len, suffix) == 0;
}

int fitreport_compute(const struct plotseries_set *set, const char *baseline, bool use_weights,
		      const struct results *res, struct fitreport **out, struct errbuf *eb)
{
	struct fitreport *rep = NULL;
	double *x = NULL, *y = NULL, *sigma = NULL;
	size_t i, j;
	int rc = -1;

	*out = NULL;
	rep = calloc(1, sizeof(*rep));
	if (rep == NULL || (rep->rows = calloc(set->n_series, sizeof(*rep->rows))) == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	rep->set = set;
	rep->res = res;
	rep->baseline = baseline;
	for (i = 0; i < set->n_series; i++) {
		const struct plotseries *s = &set->series[i];
		struct fitreport_row *r = &rep->rows[i];

		r->series = s;
		if (plotseries_xy(s, use_weights, &x, &y, &sigma, eb) != 0)
			goto out;
		if (fit_linear(x, y, sigma, s->n, &r->fit, eb) != 0) {
			errbuf_prefix(eb, "%s: subject %s format %s host %s",
				      s->source < res->n_sources ? res->sources[s->source] : "-",
				      s->subject, s->format, s->host);
			goto out;
		}
		free(x);
		free(y);
		free(sigma);
		x = y = sigma = NULL;
		rep->n_rows++;
	}
	for (i = 0; i < rep->n_rows; i++) {
		for (j = 0; j < rep->n_rows; j++)
			if (fitreport_is_baseline(rep->rows[j].series->subject, baseline,
						  rep->rows[i].series->subject) &&
			    strcmp(rep->rows[j].series->host, rep->rows[i].series->host) == 0)
				break;
		if (j < rep->n_rows)
			fitreport_row_compare(rep, &rep->rows[i], &rep->rows[j]);
	}
	*out = rep;
	rep = NULL;
	rc = 0;
out:
	free(x);
	free(y);
	free(sigma);
	fitreport_free(rep);
	return rc;
}

void fitreport_hosts_split(const double *slope, const double *se, size_t h,
			   struct fitreport_hosts *out)
{
	double sum = 0, var = 0, within = 0, sd;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->hosts = h;
	out->within_sd = out->between_sd = out->between_share = out->lo = out->hi = NAN;
	if (h == 0) {
		out->mean = NAN;
		return;
	}
	for (i = 0; i < h; i++) {
		sum += slope[i];
		within += se[i] * se[i];
	}
	out->mean = sum / (double)h;
	if (h < 2)
		return;
	for (i = 0; i < h; i++)
		var += (slope[i] - out->mean) * (slope[i] - out->mean);
	var /= (double)(h - 1);
	within /= (double)h;
	out->within_sd = sqrt(within);
	out->between_sd = var > within ? sqrt(var - within) : 0.0;
	out->between_share = var > within && var > 0 ? (var - within) / var : 0.0;
	sd = sqrt(var);
	out->lo = out->mean - fit_t95(h - 1) * sd / sqrt((double)h);
	out->hi = out->mean + fit_t95(h - 1) * sd / sqrt((double)h);
}
