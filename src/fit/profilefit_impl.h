/* profilefit_impl: the row profilefit.c and profilefit_tsv.c share (not for other modules). */
#ifndef RARPERF_PROFILEFIT_IMPL_H
#define RARPERF_PROFILEFIT_IMPL_H

#include <stddef.h>

#include "profilefit.h"

#define FIELD_MAX PROFILEFIT_FIELD_MAX

/* One row of a profile.tsv. */
struct profilefit_row {
	char *subject, *counter;
	char *point; /* every axis's value, "nb_roles=1,nb_tasks=10,..." (not the repetition) */
	unsigned repetition;
	size_t source;
	double x, value;
};

#endif
