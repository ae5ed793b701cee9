/* fuzz_results: libFuzzer target feeding arbitrary bytes to the hyperfine-format results reader. */
#include <stddef.h>
#include <stdint.h>

#include "results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct errbuf eb = {{0}};
	struct results *res = results_new();
	size_t i;

	if (res == NULL)
		return 0;
	if (results_parse(res, (const char *)data, size, "fuzz", &eb) == 0) {
		/* Touch what a caller reads, so a half-built point shows up under ASan. */
		for (i = 0; i < res->n_points; i++) {
			const struct results_point *p = &res->points[i];

			if (p->subject[0] == '\0' || p->format[0] == '\0' || p->host[0] == '\0')
				__builtin_trap();
			(void)results_point_param(p, "nb_tasks");
		}
		/* The same bytes as a second file (a repetition or another machine, as its
		 * meta.machine says), then which files are one host: every label read must be a
		 * string. */
		if (results_parse(res, (const char *)data, size, "dir/fuzz", &eb) == 0 &&
		    results_machines_assign(res, (enum results_machines_mode)(size % 3), "sudo",
					    &eb) == 0)
			for (i = 0; i < res->n_points; i++)
				if (res->points[i].host == NULL || res->points[i].host[0] == '\0')
					__builtin_trap();
	}
	results_free(res);
	return 0;
}
