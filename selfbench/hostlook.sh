#!/bin/bash
# hostlook.sh: the first look at a machine rarperf has not measured before (the brief: "a pinned
# 1 ms spin repeated: does it stay within a few %?"). On each CPU, selfbench/spin runs a loop
# calibrated to 1 ms, HOSTLOOK_RUNS times (default 2000), pinned with taskset, HOSTLOOK_ROUNDS
# times (default 3) a few seconds apart; it prints each round's distribution, the guest's steal
# over the look (/proc/stat) and a verdict: "quiet" when every round's 90th percentile is within
# 5 % of its minimum, else "the host interferes" with the worst stretch, and the load average
# at the start (look on an idle machine: the machine's own work stretches runs as well). The guest's steal is
# printed beside because a host can take the CPU without the guest seeing it (steal 0).
# HOSTLOOK_KEEP=DIR keeps each round's runs (made here, or root's along its whole path: R34).
# Exit: 0 quiet, 1 the host interferes, 2 usage.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${HOSTLOOK_RUNS:-2000} rounds=${HOSTLOOK_ROUNDS:-3}
work=$(mktemp -d /tmp/rarperf-hostlook-XXXXXX)
trap 'rm -rf "$work"' EXIT
cc -O1 -Wall -Wextra -Werror -o "$work/spin" selfbench/spin.c
keep=
if [ -n "${HOSTLOOK_KEEP:-}" ]; then
	. tools/lib/keepdir.sh
	# written as root: made now, or root's along its whole path (doc/security.md R34)
	keep=$(keepdir_make HOSTLOOK_KEEP "$HOSTLOOK_KEEP") || exit 2
fi
steal() { awk '/^cpu /{print $9}' /proc/stat; }
hz=$(getconf CLK_TCK)
load0=$(cut -d" " -f1 /proc/loadavg)
steal0=$(steal) t0=$(date +%s.%N)
verdict=quiet worst=0
for cpu in $(seq 0 $(($(nproc) - 1))); do
	for r in $(seq 1 "$rounds"); do
		line=$(taskset -c "$cpu" "$work/spin" "$runs" 2>&1 >"$work/cpu$cpu-round$r.txt")
		echo "cpu $cpu round $r: $line"
		stretch=$(echo "$line" | awk '{print int(($10 / $4 - 1) * 100 + 0.5)}')
		[ "$stretch" -le "$worst" ] || worst=$stretch
		[ "$stretch" -le 5 ] || verdict="the host interferes"
		[ -z "$keep" ] || cp "$work/cpu$cpu-round$r.txt" "$keep/"
		sleep 2
	done
done
steal1=$(steal) t1=$(date +%s.%N)
awk -v s="$((steal1 - steal0))" -v hz="$hz" -v t0="$t0" -v t1="$t1" -v n="$(nproc)" \
	'BEGIN { printf "steal over the look: %.2f %% of the CPUs'"'"' time (%d ticks)\n", 100 * s / hz / (t1 - t0) / n, s }'
echo "verdict: $verdict (the 90th percentile at most $worst % above the calibrated 1 ms run;"
echo "  load average $load0 at the start: above ~0.5 on $(nproc) CPUs the machine's own work stretches runs too)"
[ "$verdict" = quiet ]
