/* profilefit_impl: the row profilefit.c and profilefit_tsv.c share (not for other modules). */
#ifndef RARPERF_PROFILEFIT_IMPL_H
#define RARPERF_PROFILEFIT_IMPL_H

#include <stddef.h>

/* The longest profile.tsv line (and written field) accepted. */
#define FIELD_MAX 8192

/* One row of a profile.tsv. */
struct profilefit_row {
	char *subject, *counter;
	char *point; /* every axis's value, "nb_roles=1,nb_tasks=10,..." (not the repetition) */
	unsigned repetition;
	size_t source;
	double x, value;
};

#endif
