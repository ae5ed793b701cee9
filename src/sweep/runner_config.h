/* runner_config: what a manifest run is asked to do (rarbench --manifest's command line), as the
 * caller fills it for runner_open and the setup reads it (no code). */
#ifndef RARPERF_RUNNER_CONFIG_H
#define RARPERF_RUNNER_CONFIG_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "progress.h"

struct runner_config {
	const char *manifest;
	const char *out;
	const char *prefix;
	bool resume;
	bool wait;    /* wait for the prefix's lock instead of RUNNER_BUSY */
	bool dry_run; /* check and plan, touch nothing (src/plan) */
	bool pilot;   /* with dry_run: measure the ends of the sweep to estimate its time */
	/* with dry_run: skip the checks of this host's own environment (rarlab's controller) */
	bool not_this_host;
	bool counts; /* --counts: the counted pass whatever the manifest says */
	enum progress_mode progress;
	const char *tracer; /* the profile pass's strace (the plan's: plan.h) */
	/* Set by the caller's SIGINT/SIGTERM handler: the run stops at the next step and says
	 * "interrupted". NULL: never. */
	const volatile sig_atomic_t *stop;
	FILE *err; /* where the run's messages go (one line each); not NULL */
};

#endif
