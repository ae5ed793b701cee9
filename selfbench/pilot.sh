#!/bin/sh
# pilot.sh: how close `rarbench --manifest M --pilot`'s wall-time estimate comes to the sweep it
# plans. Runs the pilot, then the sweep itself (timed with date), and prints both and their ratio;
# the target is within ±30 %. Needs root, bin/rarbench (make), the prefix provisioned.
# Usage: selfbench/pilot.sh [MANIFEST (experiments/quick.json)]
set -eu
cd "$(dirname "$0")/.."
manifest=${1:-experiments/quick.json}
prefix=${RARPERF_PREFIX:-/opt/rarperf}
out=build/selfbench/pilot
rm -rf "$out"
mkdir -p "$out"
[ -x bin/rarbench ] || make -s bin/rarbench
t0=$(date +%s.%N)
bin/rarbench --manifest "$manifest" --prefix "$prefix" --pilot >"$out/plan.txt"
t1=$(date +%s.%N)
est=$(sed -n 's/^Estimated wall time: \([0-9.]*\) s.*/\1/p' "$out/plan.txt")
bin/rarbench --manifest "$manifest" --prefix "$prefix" --out "$out/run" --progress none
t2=$(date +%s.%N)
awk -v e="$est" -v p0="$t0" -v p1="$t1" -v r1="$t1" -v r2="$t2" -v m="$manifest" 'BEGIN {
	real = r2 - r1
	printf "%s: pilot took %.1f s and estimated %.0f s; the sweep took %.0f s: estimate/real = %.2f (%+.0f %%)\n",
		m, p1 - p0, e, real, e / real, 100 * (e / real - 1)
}'
