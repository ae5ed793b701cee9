#!/bin/bash
# interference.sh: how often rarplot names a host that interferes (doc/precision.md, "A host that
# interferes"): INT_SWEEPS small sweeps (sudo and doas at 1, 10 and 100 tasks, INT_RUNS runs in 5
# rounds, the calibration workload in every step, as tests/integration/73-host-interference.sh
# measures them), each judged by rarplot --compare sudo:doas; prints per sweep the load at its
# start, the reference's slow share (runs past twice its fastest tenth), how many of those the
# guest's scheduler did not see, the verdict's cause, and at the end how many sweeps were named.
# Goal (issue 51): on a quiet machine at most 1 sweep in 20 named. With INT_STAGE=1 every sweep
# runs beside tests/lib/hoststeal.py (the sweep's cgroup frozen INT_ON_MS every INT_ON_MS +
# INT_OFF_MS, a host taking the CPU unseen), where every sweep should be named.
#   sudo selfbench/interference.sh                       # 20 sweeps as the machine is
#   INT_STAGE=1 INT_SWEEPS=5 selfbench/interference.sh   # 5 staged
#   selfbench/interference.sh DIR...                     # earlier sweeps' output directories
# Knobs: RARPERF_PREFIX (default /opt/rarperf), INT_SWEEPS (20), INT_RUNS (60), INT_STAGE (0),
# INT_ON_MS (10), INT_OFF_MS (10), INT_KEEP (a directory to keep the sweeps in).
set -uo pipefail
cd "$(dirname "$0")/.."
prefix=${RARPERF_PREFIX:-/opt/rarperf}
sweeps=${INT_SWEEPS:-20}
runs=${INT_RUNS:-60}
stage=${INT_STAGE:-0}

# judge DIR: one line for the sweep in DIR; returns 0 when the host was named.
judge() {
	local v line
	v=$(bin/rarplot --compare sudo:doas --format none "$1/results.json" 2>&1)
	line=$(printf '%s\n' "$v" | grep -m1 '^The host ')
	printf '%s\t%s\t%s\n' "$(basename "$1")" "$(cat "$1.load" 2>/dev/null || echo -)" \
		"$(printf '%s' "$line" | sed -E 's/^The host (was quiet|interfered): the calibration workload \(rarref, the same work at every point\) ran past 2 times its fastest tenth in ([0-9.]+ %) of its runs \(([0-9]+ of [0-9]+)[^)]*\)(: (.*)\. Wall times.*)?\.?$/\1\t\2 (\3)\t\5/')"
	printf '%s' "$line" | grep -q '^The host interfered'
}

if [ $# -gt 0 ]; then
	dirs=("$@")
else
	[ "$(id -u)" -eq 0 ] || { echo "interference: run as root (policies are root's)" >&2; exit 2; }
	[ -x bin/rarbench ] && [ -x bin/rarplot ] || { echo "interference: build first (make)" >&2; exit 2; }
	user=$(jq -r '.bench_user // "rarperf"' "$prefix/facts.json")
	if [ -n "${INT_KEEP:-}" ]; then
		. tools/lib/keepdir.sh
		# root writes there: made now, or root's along its whole path (doc/security.md R34)
		work=$(keepdir_make INT_KEEP "$INT_KEEP") || exit 2
	else
		work=$(mktemp -d /tmp/rarperf-interference-XXXXXX)
		trap 'rm -rf "$work"' EXIT
	fi
	chmod 0755 "$work"
	cat >"$work/m.json" <<JSON
{"name": "interference", "subjects": [{"id": "sudo", "format": "sudoers"}, {"id": "doas", "format": "doas"}],
 "axes": {"nb_roles": [1], "nb_users": [1], "nb_tasks": [1, 10, 100], "nb_commands": [1]},
 "command": "/usr/bin/true", "bench_user": "$user", "warmup": 5, "min_runs": $runs, "max_runs": $runs,
 "min_time_s": 0, "order": "interleaved", "rounds": 5, "seed": 1, "reference": true}
JSON
	dirs=()
	for i in $(seq 1 "$sweeps"); do
		d=$work/sweep-$i
		rm -rf "$d"
		cut -d' ' -f1 /proc/loadavg >"$d.load"
		bin/rarbench --manifest "$work/m.json" --prefix "$prefix" --wait --progress none --out "$d" \
			>"$d.log" 2>&1 &
		pid=$!
		[ "$stage" = 1 ] && /usr/bin/python3 tests/lib/hoststeal.py "$pid" "${INT_ON_MS:-10}" \
			"${INT_OFF_MS:-10}" 600 >"$d.steal" 2>&1 &
		wait "$pid" || { echo "interference: sweep $i failed:" >&2; tail -3 "$d.log" >&2; exit 1; }
		wait
		dirs+=("$d")
	done
fi
printf 'sweep\tload\thost\tslow share (runs)\tcause\n'
named=0
for d in "${dirs[@]}"; do
	judge "$d" && named=$((named + 1))
done
echo "named: $named of ${#dirs[@]} sweeps ($([ "$stage" = 1 ] && echo "staged: the cgroup frozen ${INT_ON_MS:-10} ms every $((${INT_ON_MS:-10} + ${INT_OFF_MS:-10})) ms" || echo "as the machine was"))"
