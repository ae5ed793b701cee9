/* fuzz_profilefit: libFuzzer target for the profile.tsv and profile-costs.tsv rarplot reads. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "profilefit.h"
#include "profilefit_report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct profilefit *pf = profilefit_new("nb_tasks");
	struct errbuf eb = {{0}};
	FILE *null = fopen("/dev/null", "w");

	if (pf == NULL || null == NULL)
		goto out;
	if (profilefit_add_tsv(pf, (const char *)data, size, "fuzz", &eb) == 0 &&
	    profilefit_add_costs(pf, (const char *)data, size, "fuzz", &eb) >= -1 &&
	    profilefit_compute(pf, &eb) == 0) {
		profilefit_print_markdown(pf, NULL, 0, null);
		for (size_t i = 0; i < pf->n_lines; i++)
			if (pf->lines[i].min > pf->lines[i].max)
				__builtin_trap();
	}
out:
	if (null != NULL)
		fclose(null);
	profilefit_free(pf);
	return 0;
}
