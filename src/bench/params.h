/* params: hyperfine's -L / -P / -D parameter lists, their cartesian product and {name}
 * substitution. */
#ifndef RARPERF_PARAMS_H
#define RARPERF_PARAMS_H

#include <stddef.h>

#include "errbuf.h"

/* hyperfine's MAX_PARAMETERS for one -P scan; also our cap on the whole product. */
#define PARAMS_MAX_COMBINATIONS 100000

/* One parameter and its values, in command-line order. */
struct params_dim {
	char *name;
	char **values;
	size_t n_values;
};

/* All parameters; zero-initialise, fill with params_add_*, free with params_clear. */
struct params {
	struct params_dim *dims;
	size_t n_dims, cap_dims;
};

/*
 * -L NAME V1,V2,...: values split on ',' with hyperfine's escapes ("\," is a
 * comma, "\\" a backslash). Fails on a duplicate name ("Duplicate parameter
 * names: x") or an empty name. Returns 0 or -1 with eb filled.
 */
int params_add_list(struct params *p, const char *name, const char *list, struct errbuf *eb);

/*
 * -P NAME MIN MAX [-D STEP]: integers when MIN, MAX and STEP (default 1) all
 * parse as int32, else decimals (STEP then required), values MIN, MIN+STEP,
 * ... <= MAX printed like hyperfine (decimals keep their digits after the
 * point: 0, 0.5, 1.0). Fails on an empty range, a zero step or more than
 * PARAMS_MAX_COMBINATIONS values.
 */
int params_add_scan(struct params *p, const char *name, const char *min, const char *max,
		    const char *step, struct errbuf *eb);

/* Number of parameter combinations (1 when there are no parameters). */
size_t params_combinations(const struct params *p);

/*
 * The value of dimension dim in combination combo. The first dimension
 * varies fastest (hyperfine's order: for each combination, every command).
 */
const char *params_value(const struct params *p, size_t combo, size_t dim);

/*
 * Returns a heap copy of tmpl with every "{name}" replaced by its value in
 * combination combo, scanning left to right without re-replacing inserted
 * text (hyperfine's rule; names tried in sorted order at each position).
 * NULL with eb filled on out-of-memory.
 */
char *params_substitute(const struct params *p, size_t combo, const char *tmpl, struct errbuf *eb);

/* Frees what p holds and zeroes it. NULL is a no-op. */
void params_clear(struct params *p);

#endif
