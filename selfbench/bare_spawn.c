/* bare_spawn: the floor for selfbench/overhead.sh (posix_spawn + wait4, N times, median wall). */
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	posix_spawn_file_actions_t fa;
	uint64_t *wall_ns;
	long n;

	if (argc < 3 || (n = strtol(argv[1], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: bare_spawn N PROGRAM [ARG...]\n");
		return 2;
	}
	wall_ns = calloc((size_t)n, sizeof(*wall_ns));
	if (wall_ns == NULL)
		return 1;
	/* Same stdio as hyperfine and rarbench give a timed command: all three on /dev/null. */
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	for (long i = 0; i < n; i++) {
		struct timespec t0, t1;
		struct rusage ru;
		int status;
		pid_t pid;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (posix_spawn(&pid, argv[2], &fa, NULL, argv + 2, environ) != 0) {
			perror("posix_spawn");
			return 1;
		}
		wait4(pid, &status, 0, &ru);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		wall_ns[i] = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000ULL +
			     (uint64_t)(t1.tv_nsec - t0.tv_nsec);
	}
	qsort(wall_ns, (size_t)n, sizeof(*wall_ns), cmp_u64);
	/* median and minimum, in seconds */
	printf("%.9f %.9f\n",
	       n % 2 ? (double)wall_ns[n / 2] / 1e9
		     : ((double)wall_ns[n / 2 - 1] + (double)wall_ns[n / 2]) / 2e9,
	       (double)wall_ns[0] / 1e9);
	posix_spawn_file_actions_destroy(&fa);
	free(wall_ns);
	return 0;
}
