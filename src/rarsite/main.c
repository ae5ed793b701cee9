/* rarsite: the static site of every published run (doc/results/), or a results file's fits as
 * Bencher Metric Format JSON (--bmf). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cliopt.h"
#include "errbuf.h"
#include "exitcode.h"
#include "fileio.h"
#include "fitreport.h"
#include "numarg.h"
#include "plotseries.h"
#include "rarsite.h"
#include "results.h"
#include "sanitize.h"
#include "sitebmf.h"
#include "sitepages.h"
#include "siteout.h"
#include "runfiles.h"

struct config {
	const char *out_dir, *results_dir, *readme, *assets, *bmf, *axis;
	bool readme_given;
	char **inputs;
	size_t n_inputs;
	char assets_buf[SITELOAD_PATH_MAX], readme_buf[SITELOAD_PATH_MAX],
	    doc_buf[SITELOAD_PATH_MAX];
};

static void usage(FILE *f)
{
	fputs("usage: rarsite [-o DIR] [--results DIR] [--readme FILE|none] [--assets DIR]\n"
	      "       rarsite --bmf FILE [--x AXIS] RESULTS.json...\n"
	      "\n"
	      "Builds a static site of every published run: DIR/index.html (the answer per\n"
	      "tool across machines), across.html, runs.html and runs/RUN/index.html (each\n"
	      "run's figures, verdicts, claims, profile and raw files), history.html\n"
	      "(RootAsRole's releases) and counts.html. Local files only: it opens from\n"
	      "file:// and from any static host.\n"
	      "\n"
	      "  -o, --out DIR      where the site goes (default build/site)\n"
	      "      --results DIR  the published runs (default doc/results)\n"
	      "      --readme FILE  the README whose \"The newest published result\" the home\n"
	      "                     page quotes (default: DIR/../../README.md), none for none\n"
	      "      --assets DIR   site.js and site.css (default: src/rarsite/assets beside\n"
	      "                     the binary's tree, or the installed share/rarperf/site)\n"
	      "      --bmf FILE     instead: fit the results files (as rarplot does) and write\n"
	      "                     each fit as Bencher Metric Format JSON to FILE\n"
	      "      --x AXIS       with --bmf: the parameter on x (default nb_tasks)\n"
	      "  -h, --help         this text\n"
	      "  -V, --version      rarperf's version\n"
	      "\n"
	      "Exit status: 0 ok, 1 output failure, 2 usage or input error.\n",
	      f);
}

enum { OPT_RESULTS = 256, OPT_README, OPT_ASSETS, OPT_BMF, OPT_X };

/* The programs' parse_args contract (numarg.h). */
static int parse_args(int argc, char **argv, struct config *cfg, struct errbuf *eb)
{
	static const struct option opts[] = {
	    {"out", required_argument, NULL, 'o'},
	    {"results", required_argument, NULL, OPT_RESULTS},
	    {"readme", required_argument, NULL, OPT_README},
	    {"assets", required_argument, NULL, OPT_ASSETS},
	    {"bmf", required_argument, NULL, OPT_BMF},
	    {"x", required_argument, NULL, OPT_X},
	    {"help", no_argument, NULL, 'h'},
	    {"version", no_argument, NULL, 'V'},
	    {NULL, 0, NULL, 0},
	};
	struct cliopt_seen seen;
	int c;

	memset(cfg, 0, sizeof(*cfg));
	cfg->out_dir = "build/site";
	cfg->results_dir = "doc/results";
	cfg->axis = "nb_tasks";
	while ((c = cliopt_next(argc, argv, ":o:hV", opts, &seen)) != -1) {
		switch (c) {
		case 'o':
			cfg->out_dir = optarg;
			break;
		case OPT_RESULTS:
			cfg->results_dir = optarg;
			break;
		case OPT_README:
			cfg->readme = strcmp(optarg, "none") == 0 ? NULL : optarg;
			cfg->readme_given = true;
			break;
		case OPT_ASSETS:
			cfg->assets = optarg;
			break;
		case OPT_BMF:
			cfg->bmf = optarg;
			break;
		case OPT_X:
			cfg->axis = optarg;
			break;
		case 'h':
			return NUMARG_HELP;
		case 'V':
			return NUMARG_VERSION;
		case ':':
			errbuf_set(eb, "option '%s' needs a value", seen.typed);
			return NUMARG_ERROR;
		default:
			cliopt_unknown("rarsite", seen.typed, opts, NULL, eb);
			return NUMARG_ERROR;
		}
	}
	cfg->inputs = argv + optind;
	cfg->n_inputs = (size_t)(argc - optind);
	if (cfg->bmf != NULL && cfg->n_inputs == 0) {
		errbuf_set(eb, "--bmf %.64s: no results file given", cfg->bmf);
		return NUMARG_USAGE;
	}
	if (cfg->bmf == NULL && cfg->n_inputs > 0) {
		errbuf_set(eb,
			   "%.64s: results files are read with --bmf only; the site reads "
			   "--results DIR",
			   cfg->inputs[0]);
		return NUMARG_USAGE;
	}
	return 0;
}

static void print_message(const char *msg)
{
	fputs("rarsite: ", stderr);
	sanitize_fputs(msg, SANITIZE_TEXT, stderr);
	fputc('\n', stderr);
}

/* dir/name when it is readable, into buf; NULL otherwise. */
static const char *readable(char *buf, size_t size, const char *dir, const char *name)
{
	if (fileio_fmt(buf, size, "%s/%s", dir, name) != 0 || access(buf, R_OK) != 0)
		return NULL;
	return buf;
}

/* site.js and site.css: --assets, else beside the binary's tree, else the installed copy. */
static const char *find_assets(struct config *cfg, struct errbuf *eb)
{
	char exe[SITELOAD_PATH_MAX], probe[SITELOAD_PATH_MAX];
	ssize_t got = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (cfg->assets != NULL)
		return cfg->assets;
	if (got > 0) {
		exe[got] = '\0';
		slash = strrchr(exe, '/');
		if (slash != NULL) {
			*slash = '\0';
			if (fileio_fmt(cfg->assets_buf, sizeof(cfg->assets_buf),
				       "%s/../src/rarsite/assets", exe) == 0 &&
			    readable(probe, sizeof(probe), cfg->assets_buf, "site.js") != NULL)
				return cfg->assets_buf;
		}
	}
	if (fileio_fmt(cfg->assets_buf, sizeof(cfg->assets_buf), "%s/site", RARPERF_DATADIR) == 0 &&
	    readable(probe, sizeof(probe), cfg->assets_buf, "site.js") != NULL)
		return cfg->assets_buf;
	errbuf_set(eb,
		   "site.js not found beside the binary (../src/rarsite/assets) nor in %s/site: "
		   "give --assets DIR",
		   RARPERF_DATADIR);
	return NULL;
}

/* DIR/name as a table when the file is there; NULL and eb empty when it is absent. */
static struct sitetsv *optional_tsv(const char *dir, const char *name, struct errbuf *eb)
{
	char path[SITELOAD_PATH_MAX];

	eb->msg[0] = '\0';
	if (readable(path, sizeof(path), dir, name) == NULL)
		return NULL;
	return sitetsv_load(path, eb);
}

static int build_site(struct config *cfg, int *status)
{
	struct errbuf eb = {{0}};
	struct site s = {0};
	const char *assets;
	char path[SITELOAD_PATH_MAX];
	int rc = -1;

	*status = EXITCODE_BAD_INPUT;
	if ((assets = find_assets(cfg, &eb)) == NULL ||
	    siteload_scan(cfg->results_dir, &s.load, &eb) != 0)
		goto out;
	s.across = optional_tsv(cfg->results_dir, RUNFILES_ACROSS, &eb);
	if (s.across == NULL && eb.msg[0] != '\0')
		goto out;
	s.across_values = optional_tsv(cfg->results_dir, RUNFILES_ACROSS_VALUES, &eb);
	if (s.across_values == NULL && eb.msg[0] != '\0')
		goto out;
	s.results_dir = cfg->results_dir;
	if (fileio_fmt(cfg->doc_buf, sizeof(cfg->doc_buf), "%s/..", cfg->results_dir) != 0) {
		errbuf_set(&eb, "%s: path too long", cfg->results_dir);
		goto out;
	}
	s.doc_dir = cfg->doc_buf;
	s.readme = cfg->readme_given ? cfg->readme
				     : readable(cfg->readme_buf, sizeof(cfg->readme_buf),
						cfg->results_dir, "../../README.md");
	s.out_dir = cfg->out_dir;
	*status = EXITCODE_FAILED;
	if (fileio_mkdirs(cfg->out_dir, &eb) != 0)
		goto out;
	{
		static const char *const assets_files[] = {"site.js", "site.css"};
		static const char *const published[] = {RUNFILES_ACROSS, RUNFILES_ACROSS_VALUES,
							RUNFILES_ACROSS_REPORT};

		for (size_t i = 0; i < 2; i++)
			if (fileio_join(path, sizeof(path), assets, assets_files[i], &eb) != 0 ||
			    siteout_copy(path, cfg->out_dir, assets_files[i], &eb) != 0)
				goto out;
		for (size_t i = 0; i < 3; i++)
			if (readable(path, sizeof(path), cfg->results_dir, published[i]) != NULL &&
			    siteout_copy(path, cfg->out_dir, published[i], &eb) != 0)
				goto out;
	}
	/* The runs first: the other pages link to the files they copy. */
	if (sitepages_runs(&s, &eb) != 0 || sitepages_home(&s, &eb) != 0 ||
	    sitepages_across(&s, &eb) != 0 || sitepages_history(&s, &eb) != 0 ||
	    sitepages_counts(&s, &eb) != 0)
		goto out;
	fputs("rarsite: wrote ", stderr);
	sanitize_fputs(cfg->out_dir, SANITIZE_TEXT, stderr);
	fprintf(stderr, "/index.html and %zu run pages\n", s.load->n_runs);
	*status = EXITCODE_OK;
	rc = 0;
out:
	if (rc != 0)
		print_message(eb.msg);
	sitetsv_free(s.across_values);
	sitetsv_free(s.across);
	siteload_free(s.load);
	return rc;
}

/* --bmf: the results files fitted as rarplot fits them by default, written as BMF. */
static int build_bmf(const struct config *cfg)
{
	struct errbuf eb = {{0}};
	struct results *res = results_new();
	struct plotseries_set *set = NULL;
	struct fitreport *rep = NULL;
	struct siteload_meta meta = {0};
	int status = EXITCODE_BAD_INPUT;
	char *text = NULL;
	size_t len = 0;

	if (res == NULL) {
		print_message("out of memory");
		return EXITCODE_FAILED;
	}
	for (size_t i = 0; i < cfg->n_inputs; i++)
		if (results_load_file(res, cfg->inputs[i], &eb) != 0)
			goto fail;
	if (results_machines_assign(res, RESULTS_MACHINES_AUTO,
				    results_has_subject(res, "sudo") ? "sudo" : NULL, &eb) != 0 ||
	    plotseries_build(res, cfg->axis,
			     plotseries_all_estimated(res) ? PLOTSERIES_ESTIMATE
							   : PLOTSERIES_MEDIAN,
			     &set, &eb) != 0 ||
	    fitreport_compute(set, "sudo", true, res, &rep, &eb) != 0)
		goto fail;
	/* The benchmark names start with the sweep's name, from the first file's meta. */
	if (fileio_read(cfg->inputs[0], SITELOAD_RESULTS_MAX, NULL, &text, &len, &eb) != 0 ||
	    siteload_meta_parse(text, len, cfg->inputs[0], &meta, &eb) != 0)
		goto fail;
	status = EXITCODE_FAILED;
	if (sitebmf_write(rep, meta.name != NULL ? meta.name : "rarperf", cfg->bmf, &eb) != 0)
		goto fail;
	fputs("rarsite: wrote ", stderr);
	sanitize_fputs(cfg->bmf, SANITIZE_TEXT, stderr);
	fprintf(stderr, " (%zu benchmarks)\n", rep->n_rows);
	status = EXITCODE_OK;
	goto out;
fail:
	print_message(eb.msg);
out:
	free(text);
	siteload_meta_clear(&meta);
	fitreport_free(rep);
	plotseries_set_free(set);
	results_free(res);
	return status;
}

int main(int argc, char **argv)
{
	struct config cfg;
	struct errbuf eb = {{0}};
	int rc = parse_args(argc, argv, &cfg, &eb), status;

	if (rc == NUMARG_HELP) {
		usage(stdout);
		return EXITCODE_OK;
	}
	if (rc == NUMARG_VERSION) {
		printf("rarsite %s (%s)\n", RARPERF_VERSION, RARPERF_GIT_COMMIT);
		return EXITCODE_OK;
	}
	if (rc != 0) {
		if (eb.msg[0] != '\0')
			print_message(eb.msg);
		if (rc == NUMARG_USAGE)
			usage(stderr);
		return EXITCODE_BAD_INPUT;
	}
	if (cfg.bmf != NULL)
		return build_bmf(&cfg);
	build_site(&cfg, &status);
	return status;
}
