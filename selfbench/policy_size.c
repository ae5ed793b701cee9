/* policy_size bench: ns per policy_size call on one shape and format (selfbench/policy_size.sh). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "policy.h"
#include "policy_size.h"

#define BENCH_ROUNDS 15

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static const char *const path = "/opt/rarperf/etc/rootasrole-cbor.bin";
	struct policy_shape s;
	struct errbuf eb = {{0}};
	struct policy *p;
	long batch;

	if (argc != 6 || (batch = strtol(argv[5], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: policy_size R U T C BATCH\n");
		return 2;
	}
	policy_shape_init(&s);
	s.roles = (uint32_t)strtoul(argv[1], NULL, 10);
	s.users = (uint32_t)strtoul(argv[2], NULL, 10);
	s.tasks = (uint32_t)strtoul(argv[3], NULL, 10);
	s.commands = (uint32_t)strtoul(argv[4], NULL, 10);
	s.uid = 4242;
	p = policy_build(&s, &eb);
	if (p == NULL) {
		fprintf(stderr, "policy_size: %s\n", eb.msg);
		return 2;
	}
	for (int f = 0; f < POLICY_FORMAT_COUNT; f++) {
		uint64_t ns[BENCH_ROUNDS], sink = 0;
		struct policy_size_bytes sz = {0, 0};

		for (int r = 0; r < BENCH_ROUNDS; r++) {
			uint64_t t0 = now_ns();

			for (long i = 0; i < batch; i++) {
				if (policy_size(p, (enum policy_format)f, SUDOERS_LAYOUT_PER_ROLE,
						"4.0.3", path, &sz, &eb) != 0) {
					fprintf(stderr, "policy_size: %s\n", eb.msg);
					return 1;
				}
				sink += sz.policy_bytes;
			}
			ns[r] = (now_ns() - t0) / (uint64_t)batch;
		}
		qsort(ns, BENCH_ROUNDS, sizeof(ns[0]), cmp_u64);
		printf("  %-8s %14llu + %11llu bytes   best %6llu ns  median %6llu ns per call%s\n",
		       policy_format_name((enum policy_format)f),
		       (unsigned long long)sz.policy_bytes, (unsigned long long)sz.data_bytes,
		       (unsigned long long)ns[0], (unsigned long long)ns[BENCH_ROUNDS / 2],
		       sink == 0 ? " (?)" : "");
	}
	policy_free(p);
	return 0;
}
