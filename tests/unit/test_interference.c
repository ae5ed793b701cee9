/* test_interference: the host named from the calibration workload's spread (interference.h). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "harness.h"
#include "interference.h"
#include "results.h"

/* Twenty runs of 3 ms: k of them 8 ms (past twice the 3 ms floor). */
static void runs(double *w, size_t k)
{
	for (size_t i = 0; i < 20; i++)
		w[i] = i < k ? 0.008 : 0.003;
}

static void test_count(void)
{
	double w[20], st[20] = {0}, scratch[20];
	size_t slow, unseen;

	runs(w, 0);
	slowruns_count(w, st, 20, scratch, &slow, &unseen);
	CHECK_INT_EQ(slow, 0);
	/* Two groups 1.35 times apart (an interleaved order's): none past twice the floor. */
	for (size_t i = 0; i < 10; i++)
		w[i] = 0.00445;
	slowruns_count(w, st, 20, scratch, &slow, &unseen);
	CHECK_INT_EQ(slow, 0);
	runs(w, 5);
	slowruns_count(w, st, 20, scratch, &slow, &unseen);
	CHECK_INT_EQ(slow, 5);
	CHECK_INT_EQ(unseen, 5);
	/* Two of them waited 5 ms on the run queue: seen; one waited 1 ms: still slow, unseen. */
	st[0] = st[1] = 0.005;
	st[2] = 0.001;
	slowruns_count(w, st, 20, scratch, &slow, &unseen);
	CHECK_INT_EQ(slow, 5);
	CHECK_INT_EQ(unseen, 3);
	/* Stall unknown: slow, none said unseen. */
	slowruns_count(w, NULL, 20, scratch, &slow, &unseen);
	CHECK_INT_EQ(slow, 5);
	CHECK_INT_EQ(unseen, 0);
	/* The floor is the 10th percentile, not the minimum: one lucky 1 ms run in 20 does not
	 * make the others slow (two, a tenth of them, would: they are the floor). */
	runs(w, 0);
	w[19] = 0.001;
	slowruns_count(w, st, 20, scratch, &slow, &unseen);
	CHECK_INT_EQ(slow, 0);
	slowruns_count(w, st, 0, scratch, &slow, &unseen);
	CHECK_INT_EQ(slow, 0);
}

/* A results file (of a 2-CPU machine) with sudo at 1 task and the reference there: times (s),
 * stalls (ns) and the reference's rarbench keys (steal, load1) given. */
static struct results *load(const char *times, const char *stall, const char *steal)
{
	char doc[4096];
	struct results *res = results_new();
	struct errbuf eb = {{0}};

	snprintf(doc, sizeof(doc),
		 "{\"meta\":{\"host\":{\"cpus\":2}},"
		 "\"results\":[{\"command\":\"sudo\",\"mean\":0.01,\"stddev\":0.001,"
		 "\"median\":0.01,\"min\":0.009,\"max\":0.011,"
		 "\"parameters\":{\"subject\":\"sudo\",\"nb_tasks\":\"1\"}}],"
		 "\"reference\":{\"command\":\"rarref 10\",\"units\":10,\"results\":["
		 "{\"command\":\"rarref 10\",\"mean\":0.004,\"stddev\":0.001,\"median\":0.003,"
		 "\"min\":0.003,\"max\":0.008,\"times\":%s%s%s,"
		 "\"parameters\":{\"nb_tasks\":\"1\"}%s%s%s}]}}",
		 times, stall ? ",\"cpu_stall_ns\":" : "", stall ? stall : "",
		 steal ? ",\"rarbench\":{\"estimate\":0.003,\"ci95\":[0.003,0.003],"
			 "\"estimator\":\"median\","
		       : "",
		 steal ? steal : "", steal ? "}" : "");
	if (res == NULL || results_parse(res, doc, strlen(doc), "r.json", &eb) != 0) {
		fprintf(stderr, "  load: %s\n", eb.msg);
		results_free(res);
		return NULL;
	}
	return res;
}

#define QUIET "[0.003,0.003,0.003,0.003,0.003,0.003,0.003,0.003,0.003,0.004]"
#define NOISY "[0.003,0.003,0.003,0.003,0.003,0.003,0.003,0.008,0.008,0.009]"

static void test_of_and_words(void)
{
	struct results *res;
	struct interference in;
	char s[1024];

	res = load(QUIET, NULL, NULL);
	CHECK(res != NULL);
	interference_of(res, SIZE_MAX, &in);
	CHECK_INT_EQ(in.points, 1);
	CHECK_INT_EQ(in.runs, 10);
	CHECK_INT_EQ(in.slow, 0);
	CHECK(!interference_named(&in));
	interference_sentence(&in, s, sizeof(s));
	CHECK(strstr(s, "The host was quiet") == s);
	interference_figure_line(&in, s, sizeof(s));
	CHECK_STR_EQ(s, "");
	results_free(res);

	/* 3 of 10 slow, none waited on the run queue, no steal: the host, unseen. */
	res = load(NOISY, "[0,0,0,0,0,0,0,0,0,0]", "\"steal\":0,\"load1\":1.3");
	CHECK(res != NULL);
	interference_of(res, SIZE_MAX, &in);
	CHECK_INT_EQ(in.slow, 3);
	CHECK_INT_EQ(in.unseen, 3);
	CHECK(in.stall_known);
	CHECK(in.cause == INTERFERENCE_UNSEEN);
	interference_sentence(&in, s, sizeof(s));
	CHECK(strstr(s, "The host interfered") == s);
	CHECK(strstr(s, "the guest could not see it (steal 0.0 %") != NULL);
	CHECK(strstr(s, "not the tools' cost; counts are") != NULL);
	CHECK(strstr(interference_remedy(&in), "another machine") != NULL);
	CHECK(strstr(interference_remedy(&in), "more runs would measure the host") != NULL);
	interference_figure_line(&in, s, sizeof(s));
	CHECK(strstr(s, "The host interfered (") == s);
	results_free(res);

	/* The same runs, each slow one having waited 6 ms on this machine's run queue. */
	res = load(NOISY, "[0,0,0,0,0,0,0,6000000,6000000,6000000]", NULL);
	interference_of(res, SIZE_MAX, &in);
	CHECK(in.cause == INTERFERENCE_LOCAL);
	interference_sentence(&in, s, sizeof(s));
	CHECK(strstr(s, "other work on this machine held the CPU (3 of the 3 slow runs") != NULL);
	CHECK(strstr(interference_remedy(&in), "quiet") != NULL);
	results_free(res);

	/* The same runs on a machine whose load (5 on 2 CPUs) says other work ran too: still the
	 * host (none of the slow runs waited on the run queue), the load said beside it. */
	res = load(NOISY, "[0,0,0,0,0,0,0,0,0,0]", "\"steal\":0,\"load1\":5");
	interference_of(res, SIZE_MAX, &in);
	CHECK(in.cause == INTERFERENCE_UNSEEN);
	CHECK(in.busy);
	CHECK_INT_EQ(in.cpus, 2);
	interference_sentence(&in, s, sizeof(s));
	CHECK(strstr(s, "while this machine was busy too (load 5.0 on 2 CPUs)") != NULL);
	results_free(res);
	/* One of the three slow runs waited 6 ms: a third, other work on this machine. */
	res = load(NOISY, "[0,0,0,0,0,0,0,6000000,0,0]", "\"steal\":0,\"load1\":5");
	interference_of(res, SIZE_MAX, &in);
	CHECK(in.cause == INTERFERENCE_LOCAL);
	interference_sentence(&in, s, sizeof(s));
	CHECK(
	    strstr(s, "other work on this machine held the CPU (load 5.0 on 2 CPUs; 1 of the 3") !=
	    NULL);
	results_free(res);

	/* A steal of 12 %: the hypervisor, said. A null stall: unknown. */
	res = load(NOISY, "[0,0,0,0,0,0,0,null,0,0]", "\"steal\":0.12");
	interference_of(res, SIZE_MAX, &in);
	CHECK(in.cause == INTERFERENCE_STEAL);
	CHECK(!in.stall_known);
	CHECK(fabs(in.steal - 0.12) < 1e-12);
	interference_sentence(&in, s, sizeof(s));
	CHECK(strstr(s, "the hypervisor gave 12.0 % of the CPU time to others") != NULL);
	/* Another file's reference is not this one's. */
	interference_of(res, 1, &in);
	CHECK_INT_EQ(in.points, 0);
	interference_sentence(&in, s, sizeof(s));
	CHECK_STR_EQ(s, "");
	results_free(res);

	/* A stall array of the wrong length is refused, naming it. */
	{
		struct results *r = results_new();
		struct errbuf eb = {{0}};
		const char bad[] =
		    "{\"results\":[{\"command\":\"sudo\",\"mean\":0.01,\"stddev\":0.001,"
		    "\"median\":0.01,\"min\":0.009,\"max\":0.011}],"
		    "\"reference\":{\"results\":[{\"command\":\"r\",\"mean\":0.003,\"stddev\":0,"
		    "\"median\":0.003,\"min\":0.003,\"max\":0.003,\"times\":[0.003,0.003],"
		    "\"cpu_stall_ns\":[0]}]}}";

		CHECK_INT_EQ(results_parse(r, bad, strlen(bad), "b.json", &eb), -1);
		CHECK(strstr(eb.msg, "cpu_stall_ns: not an array of 2 numbers") != NULL);
		results_free(r);
	}
	interference_of(NULL, SIZE_MAX, &in);
	CHECK_INT_EQ(in.points, 0);
}

int main(void)
{
	RUN(test_count);
	RUN(test_of_and_words);
	return HARNESS_EXIT();
}
