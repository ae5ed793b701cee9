/* guard_cost: what a manifest run's per-run guard costs (selfbench/guard_cost.sh): proc_run of the
 * same command with no timeout (blocking wait4) and with one (own process group, pidfd, poll),
 * N runs each, alternating in blocks, median wall time of each. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "proc.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	struct proc_opts plain = {.stdin_null = true}, guarded = plain;
	struct errbuf eb = {{0}};
	struct proc_cmd *cmd[2];
	struct proc_sample s;
	uint64_t *wall[2];
	long n;

	if (argc < 3 || (n = strtol(argv[1], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: guard_cost N PROGRAM [ARG...]\n");
		return 2;
	}
	/* Runs start from rarlaunch; guard_cost.sh runs from the top of the tree. */
	if (proc_set_launcher("bin/rarlaunch", &eb) != 0) {
		fprintf(stderr, "guard_cost: %s\n", eb.msg);
		return 1;
	}
	guarded.timeout_ms = 60000;
	cmd[0] = proc_cmd_new(argv + 2, &plain, &eb);
	cmd[1] = proc_cmd_new(argv + 2, &guarded, &eb);
	wall[0] = calloc((size_t)n, sizeof(uint64_t));
	wall[1] = calloc((size_t)n, sizeof(uint64_t));
	if (cmd[0] == NULL || cmd[1] == NULL || wall[0] == NULL || wall[1] == NULL) {
		fprintf(stderr, "guard_cost: %s\n", eb.msg[0] ? eb.msg : "out of memory");
		return 1;
	}
	for (long i = 0; i < n; i += 10)
		for (int k = 0; k < 2; k++)
			for (long j = i; j < i + 10 && j < n; j++) {
				if (proc_run(cmd[k], &s, &eb) != 0) {
					fprintf(stderr, "guard_cost: %s\n", eb.msg);
					return 1;
				}
				wall[k][j] = s.wall_ns;
			}
	for (int k = 0; k < 2; k++)
		qsort(wall[k], (size_t)n, sizeof(uint64_t), cmp_u64);
	printf("%.1f %.1f\n", (double)wall[0][n / 2] / 1e3, (double)wall[1][n / 2] / 1e3);
	return 0;
}
