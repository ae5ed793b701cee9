/* netpin: one command's runs through proc_run with the network pin off and on
 * (selfbench/netpin.sh): N runs each, alternating blocks, median wall and CPU time of each. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "proc.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static double median_ms(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return (n % 2 ? (double)v[n / 2] : ((double)v[n / 2 - 1] + (double)v[n / 2]) / 2) / 1e6;
}

int main(int argc, char **argv)
{
	static const char *const names[2] = {"host", "loopback"};
	struct proc_pin pin[2] = {{.umask = -1, .net = PROC_NET_HOST},
				  {.umask = -1, .net = PROC_NET_LOOPBACK}};
	struct errbuf eb = {{0}};
	struct proc_cmd *cmd[2];
	uint64_t *wall[2], *cpu[2];
	size_t done[2] = {0, 0};
	long n;

	if (argc < 3 || (n = strtol(argv[1], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: netpin N PROGRAM [ARG...]\n");
		return 2;
	}
	if (proc_set_launcher("bin/rarlaunch", &eb) != 0) {
		fprintf(stderr, "netpin: %s\n", eb.msg);
		return 1;
	}
	for (int k = 0; k < 2; k++) {
		struct proc_opts o = {.stdin_null = true, .pin = &pin[k]};

		cmd[k] = proc_cmd_new(argv + 2, &o, &eb);
		wall[k] = calloc((size_t)n, sizeof(uint64_t));
		cpu[k] = calloc((size_t)n, sizeof(uint64_t));
		if (cmd[k] == NULL || wall[k] == NULL || cpu[k] == NULL) {
			fprintf(stderr, "netpin: %s\n", eb.msg);
			return 1;
		}
	}
	/* Blocks of 10 in alternation: a drift of the host reaches both alike. */
	while (done[1] < (size_t)n) {
		for (int k = 0; k < 2; k++) {
			for (int i = 0; i < 10 && done[k] < (size_t)n; i++) {
				struct proc_sample s;

				if (proc_run(cmd[k], &s, &eb) != 0) {
					fprintf(stderr, "netpin: %s\n", eb.msg);
					return 1;
				}
				wall[k][done[k]] = s.wall_ns;
				cpu[k][done[k]] = s.user_ns + s.system_ns;
				done[k]++;
			}
		}
	}
	for (int k = 0; k < 2; k++)
		printf("%-8s %ld runs: median wall %.3f ms, median cpu %.3f ms\n", names[k], n,
		       median_ms(wall[k], (size_t)n), median_ms(cpu[k], (size_t)n));
	return 0;
}
