/* axishint: which axis a results set can be fitted along, as a hint after a refusal. */
#ifndef RARPERF_AXISHINT_H
#define RARPERF_AXISHINT_H

#include "errbuf.h"
#include "plotseries.h"
#include "results.h"

/*
 * When res cannot be fitted along axis (a roles sweep read along the default nb_tasks, a typo)
 * but can along another (nb_tasks, nb_roles, nb_users, nb_commands, both), appends
 * " (the inputs vary AXIS: try --x AXIS)" to eb's message for the first such axis; otherwise
 * leaves eb as it is. Plain rarplot and --compare give the same hint. Nothing is printed.
 */
void axishint_append(const struct results *res, const char *axis, enum plotseries_stat stat,
		     struct errbuf *eb);

/*
 * The axis rarplot fits along when --x is not given: "nb_tasks", unless res cannot be fitted
 * along it but can along "nb_files" (a files sweep at a fixed task count: issue 54 item 5).
 */
const char *axishint_default(const struct results *res, enum plotseries_stat stat);

#endif
