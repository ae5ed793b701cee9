/* fitreport_impl: what fitreport.c and fitreport_pair.c share (not for other modules). */
#ifndef RARPERF_FITREPORT_IMPL_H
#define RARPERF_FITREPORT_IMPL_H

#include "fitreport.h"

/* fitreport_pair.c: r compared with its baseline b (fitreport_compare_rows), and the crossover kept
 * when in range. */
void fitreport_row_compare(const struct fitreport *rep, struct fitreport_row *r,
			   const struct fitreport_row *b);

#endif
