/* rarplot: fit time = intercept + slope x size per subject and format, print the comparison, draw
 * the figures. This file: the command line parsed (plotcli), the inputs read, the mode dispatched
 * (--compare: compare_cli; else fitrun, with --history) and the exit status decided. */
#include <stdbool.h>
#include <stdio.h>

#include "axishint.h"
#include "compare_cli.h"
#include "errbuf.h"
#include "exitcode.h"
#include "fitrun.h"
#include "numarg.h"
#include "plotcli.h"
#include "results.h"

/* Prints what plotcli_parse's result rc asks for (help, version, a usage error); the exit status.
 */
static int parse_args_done(int rc, const struct errbuf *eb)
{
	if (rc == NUMARG_HELP) {
		plotcli_usage(stdout);
		return EXITCODE_OK;
	}
	if (rc == NUMARG_VERSION) {
		printf("rarplot %s (%s)\n", RARPERF_VERSION, RARPERF_GIT_COMMIT);
		return EXITCODE_OK;
	}
	if (eb->msg[0] != '\0')
		plotcli_message(eb->msg);
	if (rc == NUMARG_USAGE)
		plotcli_usage(stderr);
	return EXITCODE_BAD_INPUT;
}

/* The exit status of the default mode's outcome (fitrun.h); *print: eb says why it failed. */
static int fitrun_status(enum fitrun_outcome o, bool *print)
{
	*print = o == FITRUN_BAD_INPUT || o == FITRUN_FAILED;
	switch (o) {
	case FITRUN_OK:
		return EXITCODE_OK;
	case FITRUN_BAD_INPUT:
		return EXITCODE_BAD_INPUT;
	case FITRUN_FAILED:
	case FITRUN_FIGURE_FAILED:
		break;
	}
	return EXITCODE_FAILED;
}

int main(int argc, char **argv)
{
	struct plotcli cfg;
	struct errbuf eb = {{0}};
	struct results *res = NULL;
	int status = EXITCODE_BAD_INPUT, rc;
	bool print;

	rc = plotcli_parse(argc, argv, &cfg, &eb);
	if (rc != 0)
		return parse_args_done(rc, &eb);

	/* Everything that can reject the input happens before anything is written. */
	res = results_new();
	if (res == NULL) {
		fputs("rarplot: out of memory\n", stderr);
		goto out;
	}
	for (size_t i = 0; i < cfg.n_inputs; i++)
		if (results_load_file(res, cfg.inputs[i], &eb) != 0)
			goto fail;
	if (cfg.compare.pair == NULL &&
	    results_machines_assign(res, cfg.machines,
				    results_has_subject(res, cfg.baseline) ? cfg.baseline : NULL,
				    &eb) != 0)
		goto fail;
	if (!cfg.axis_given)
		cfg.axis = axishint_default(res, PLOTSERIES_MEDIAN);
	if (cfg.compare.pair != NULL) {
		cfg.compare.formats = cfg.formats; /* the ratio figure's */
		cfg.compare.n_formats = cfg.n_formats;
		cfg.compare.plots_dir = cfg.plots_dir;
		status = compare_cli_run(&cfg.compare, res, cfg.axis, cfg.use_weights,
					 cfg.out_given ? cfg.out_dir : NULL);
		goto out;
	}
	status = fitrun_status(fitrun_run(&cfg, res, &eb), &print);
	if (!print)
		goto out;
fail:
	plotcli_message(eb.msg);
out:
	results_free(res);
	return status;
}
