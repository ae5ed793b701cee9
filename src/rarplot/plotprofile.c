/* plotprofile: the profiles beside rarplot's inputs, fitted and reported. */
#include "plotprofile.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"

/* dir of path (".": none) + "/" + name into buf. 0 or -1. */
static int beside(const char *path, const char *name, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');
	int n = slash == NULL ? snprintf(buf, len, "./%s", name)
			      : snprintf(buf, len, "%.*s/%s", (int)(slash - path), path, name);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* Reads the file at path into pf with add (tsv or costs). 0, 1 when absent, -1. */
static int load_one(struct profilefit *pf, const char *path, const char *source, bool costs,
		    struct errbuf *eb)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (access(path, F_OK) != 0)
		return 1;
	if (fileio_read(path, PROFILEFIT_FILE_MAX_BYTES, "cannot open", &text, &len, eb) < 0)
		return -1;
	rc = costs ? profilefit_add_costs(pf, text, len, path, eb)
		   : profilefit_add_tsv(pf, text, len, source, eb);
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

	memset(p, 0, sizeof(*p));
	if ((p->pf = profilefit_new(axis)) == NULL)
		return errbuf_set(eb, "out of memory");
	for (size_t i = 0; i < n_inputs; i++) {
		int rc;

		if (beside(inputs[i], "profile.tsv", path, sizeof(path)) < 0)
			return errbuf_set(eb, "%s: path too long", inputs[i]);
		rc = load_one(p->pf, path, inputs[i], false, eb);
		if (rc < 0)
			return -1;
		if (rc > 0)
			continue;
		found++;
		if (beside(inputs[i], "profile-costs.tsv", path, sizeof(path)) < 0 ||
		    load_one(p->pf, path, inputs[i], true, eb) < 0)
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
	if (snprintf(path, sizeof(path), "%s/profile-fits.tsv", out_dir) >= (int)sizeof(path))
		return errbuf_set(eb, "%s: path too long", out_dir);
	return profilefit_write_tsv(p->pf, path, eb);
}

void plotprofile_clear(struct plotprofile *p)
{
	profilefit_free(p->pf);
	free(p->times);
	memset(p, 0, sizeof(*p));
}
