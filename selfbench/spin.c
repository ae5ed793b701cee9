/* spin: the host look's instrument. A loop calibrated to 1 ms on this CPU (the fastest of 50
 * trials: the moment the host left the CPU alone) is run N times; each run's wall time is printed
 * in ms, one a line, and the distribution on stderr. On a host that gives the guest its CPU every
 * run takes the calibrated 1 ms within a few %; a host that takes the CPU away stretches runs
 * although the work is the same, whatever /proc/stat's steal says (selfbench/hostlook.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long spin_sink;

static double seconds_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void spin_for(unsigned long iterations)
{
	unsigned long acc = 0;
	for (unsigned long i = 0; i < iterations; i++)
		acc += i * i;
	spin_sink = acc; /* kept, so the loop is not optimised away */
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int runs = argc > 1 ? atoi(argv[1]) : 1000;
	if (runs < 10 || runs > 1000000) {
		fprintf(stderr, "spin: runs: %s: give 10 to 1000000\n", argc > 1 ? argv[1] : "");
		return 2;
	}
	unsigned long iterations = 1000000;
	double fastest = 1e9;
	for (int k = 0; k < 50; k++) {
		double t = seconds_now();
		spin_for(iterations);
		t = seconds_now() - t;
		if (t < fastest)
			fastest = t;
	}
	iterations = (unsigned long)((double)iterations * 1e-3 / fastest);
	double *ms = malloc((size_t)runs * sizeof *ms);
	if (!ms) {
		fprintf(stderr, "spin: out of memory\n");
		return 1;
	}
	for (int i = 0; i < runs; i++) {
		double t = seconds_now();
		spin_for(iterations);
		ms[i] = (seconds_now() - t) * 1e3;
	}
	for (int i = 0; i < runs; i++)
		printf("%.4f\n", ms[i]);
	qsort(ms, (size_t)runs, sizeof *ms, compare_doubles);
	fprintf(stderr, "runs %d min %.3f p10 %.3f median %.3f p90 %.3f p99 %.3f max %.3f ms\n", runs,
		ms[0], ms[runs / 10], ms[runs / 2], ms[runs * 9 / 10], ms[runs * 99 / 100], ms[runs - 1]);
	free(ms);
	return 0;
}
