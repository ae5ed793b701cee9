#!/bin/sh
# guard_cost.sh: what the guard of a manifest run's measured runs costs (the run in a process
# group of its own, waited for on a pidfd with the run_timeout_s deadline, instead of a
# blocking wait4): the median wall time of /usr/bin/true and of the prefix's sudo -V (a setuid
# tool) through proc_run both ways, N runs each in alternating blocks, ROUNDS times.
# Usage: selfbench/guard_cost.sh [N (2000)] [ROUNDS (5)]
set -eu
cd "$(dirname "$0")/.."
n=${1:-2000}
rounds=${2:-5}
prefix=${RARPERF_PREFIX:-/opt/rarperf}
out=build/selfbench/guard
mkdir -p "$out"
make -s build/libbench.a build/libcommon.a
cc -std=c11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -Isrc/common -Isrc/bench -o "$out/guard_cost" \
	selfbench/guard_cost.c build/libbench.a build/libcommon.a -lm
for prog in /usr/bin/true "$prefix/bin/sudo -V"; do
	: >"$out/rounds"
	i=1
	while [ "$i" -le "$rounds" ]; do
		# shellcheck disable=SC2086
		"$out/guard_cost" "$n" $prog >>"$out/rounds"
		i=$((i + 1))
	done
	a=$(cut -d' ' -f1 "$out/rounds" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
	b=$(cut -d' ' -f2 "$out/rounds" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
	awk -v p="$prog" -v a="$a" -v b="$b" -v r="$rounds" 'BEGIN {
		printf "%s: median wall %.1f us plain, %.1f us guarded (%+.1f us, %+.2f %%), median of %d rounds\n",
			p, a, b, b - a, 100 * (b - a) / a, r}'
done
