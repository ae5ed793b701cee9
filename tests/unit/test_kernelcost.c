/* test_kernelcost: the kernel's prices read from a results.json and a run split by them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "fileio.h"
#include "harness.h"
#include "kernelcost.h"

#define SEED "fuzz/corpus/fuzz_kernelcost/two-points.json"

/* The seed's document, parsed; NULL when it cannot be read. */
static cJSON *load_seed(void)
{
	struct errbuf eb = {{0}};
	char *text = NULL;
	size_t len = 0;
	cJSON *root;

	if (fileio_read(SEED, 1 << 20, NULL, &text, &len, &eb) != 0)
		return NULL;
	root = cJSON_ParseWithLength(text, len);
	free(text);
	return root;
}

/* Each kind's median over points (exec: 400 and 500 us -> 450 us), its CV, rarref's user time;
 * a kind this reader does not know is left out. */
static void test_read(void)
{
	cJSON *root = load_seed();
	struct kernelcost_prices p;
	struct errbuf eb = {{0}};

	CHECK(root != NULL);
	CHECK_INT_EQ(kernelcost_read(root, &p, &eb), KERNELCOST_PRICED);
	CHECK(fabs(p.ns[KERNELCOST_EXEC] - 450000) < 1e-6);
	CHECK_INT_EQ((int)p.points[KERNELCOST_EXEC], 2);
	/* sd of {400, 500} us is 70.7 us, over a mean of 450 us: 15.7 %. */
	CHECK(fabs(p.cv[KERNELCOST_EXEC] - 0.157135) < 1e-5);
	CHECK(fabs(p.cv[KERNELCOST_FAULTS]) < 1e-12);
	CHECK(isnan(p.cv[KERNELCOST_READ]));
	CHECK(fabs(p.ns[KERNELCOST_OPENAT] - 2150) < 1e-9);
	CHECK(fabs(p.ref_user_ns - 2300000) < 1e-3);
	CHECK(fabs(p.ref_wall_ns - 2600000) < 1e-3);
	cJSON_Delete(root);
}

/* The seed's sudo profile at those prices, part by part. */
static void test_predict(void)
{
	cJSON *root = load_seed();
	struct kernelcost_prices p;
	struct kernelcost_parts parts;
	struct errbuf eb = {{0}};
	const cJSON *prof;

	CHECK(root != NULL);
	CHECK_INT_EQ(kernelcost_read(root, &p, &eb), KERNELCOST_PRICED);
	prof = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "results"), 0), "profile");
	CHECK_INT_EQ(kernelcost_predict(&p, prof, 2e6, &parts, &eb), 0);
	/* One process (the bare run's price), one exec more (execve's). */
	CHECK(fabs(parts.exec - (450000 + 150000)) < 1e-6);
	CHECK(fabs(parts.faults - 200 * 500) < 1e-6);
	CHECK(fabs(parts.calls[KERNELCOST_READ] - 12 * 400) < 1e-9);
	CHECK(fabs(parts.calls[KERNELCOST_CLOSE] - 20 * 150) < 1e-9);
	/* openat without the close its price holds; mmap and munmap half a pair each. */
	CHECK(fabs(parts.calls[KERNELCOST_OPENAT] - 10 * 2000) < 1e-9);
	CHECK(fabs(parts.calls[KERNELCOST_MMAP] - 40 * 600) < 1e-9);
	CHECK(fabs(parts.calls[KERNELCOST_NEWFSTATAT] - 8 * 1000) < 1e-9);
	CHECK(fabs(parts.calls[KERNELCOST_GETPPID] - 100) < 1e-9);
	/* 100 calls, 94 priced (execve and exit_group too): 6 at the floor. */
	CHECK(fabs(parts.other_calls - 6 * 100) < 1e-9);
	CHECK(fabs(parts.kernel -
		   (600000 + 100000 + 4800 + 3000 + 20000 + 24000 + 8000 + 100 + 600)) < 1e-6);
	/* What the CPU time leaves is the user part; never below 0. */
	CHECK(fabs(parts.user - (2e6 - parts.kernel)) < 1e-6);
	CHECK_INT_EQ(kernelcost_predict(&p, prof, 1e5, &parts, &eb), 0);
	CHECK(parts.user == 0);
	/* rarref's work: its wall (2.6 ms) less the bare run (0.45 ms). */
	CHECK(fabs(kernelcost_ref_work_ns(&p) - 2150000) < 1e-3);
	cJSON_Delete(root);
}

/* No prices: 0, nothing read; a malformed price: -1 naming it; a profile without its counts. */
static void test_bad_input(void)
{
	struct kernelcost_prices p;
	struct kernelcost_parts parts;
	struct errbuf eb = {{0}};
	cJSON *root = cJSON_Parse("{\"results\":[],\"reference\":{\"results\":[]}}");

	CHECK_INT_EQ(kernelcost_read(root, &p, &eb), KERNELCOST_NONE);
	cJSON_Delete(root);
	root = cJSON_Parse("{\"reference\":{\"kernel\":{\"unit_costs\":{}}}}");
	CHECK_INT_EQ(kernelcost_read(root, &p, &eb), KERNELCOST_MALFORMED);
	CHECK(strstr(eb.msg, "reference.kernel.unit_costs: not an array") != NULL);
	cJSON_Delete(root);
	root = cJSON_Parse("{\"reference\":{\"results\":[],\"kernel\":{\"unit_costs\":["
			   "{\"kind\":\"exec\",\"ns\":1},{\"kind\":\"faults\"}]}}}");
	CHECK_INT_EQ(kernelcost_read(root, &p, &eb), KERNELCOST_MALFORMED);
	CHECK(strstr(eb.msg, "reference.kernel.unit_costs[1].ns") != NULL);
	cJSON_Delete(root);
	root = cJSON_Parse("{\"status\":\"ok\",\"calls\":3}");
	memset(&p, 0, sizeof(p));
	CHECK_INT_EQ(kernelcost_predict(&p, root, 0, &parts, &eb), -1);
	CHECK(strstr(eb.msg, "profile.execs") != NULL);
	cJSON_Delete(root);
}

int main(void)
{
	RUN(test_read);
	RUN(test_predict);
	RUN(test_bad_input);
	return HARNESS_EXIT();
}
