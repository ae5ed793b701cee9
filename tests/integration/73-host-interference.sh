#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# 73-host-interference: a host that takes the CPU from the sweep, unseen by the guest, is named in
# report.md, on the figure and in --compare's verdict, with counts or another machine as the
# remedy, never "more runs" (issue 51 item 5).
# The host is staged without a hypervisor: tests/lib/hoststeal.py freezes the sweep's cgroup
# (cgroup v2's freezer, rarperf-sweep-PID, which holds rarbench and everything it starts) for
# 10 ms every 20 ms while the sweep runs. A frozen task is not runnable: its wait is no run delay
# in schedstat, no CPU time and no steal, as when a hypervisor stops a vCPU; only the wall time
# grows. The calibration workload (rarref, "reference": true) then runs past twice its floor
# whenever a freeze falls in one of its runs (about a third of them), far above the 10 % that
# names a host (doc/precision.md, "A host that interferes"; the quiet sweeps published had at
# most 1.6 %).
# On a machine busy with other work too (its load average above its CPUs) the staged host cannot
# be told from that work, and the report names the machine busy, with its load: then that is
# checked instead. The same sweep without the staged host is measured first and its verdict
# printed, not required: on a noisy host (issue 53) it may be named too, rightly; selfbench/interference.sh counts how
# often a quiet machine is named (at most 1 sweep in 20 is the goal).
# Time: two sweeps of sudo and doas at 3 sizes, 60 runs in 5 rounds: about 20 s on 2 cores.
set -u
cd "$(dirname "$0")/../.." || exit 2
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 77; }
prefix=${RARPERF_PREFIX:-/opt/rarperf}
. tests/lib/tap.sh
need jq /usr/bin/python3
need_prefix "$prefix"
cg2=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
if [ -z "$cg2" ] || [ ! -w "$cg2/cgroup.procs" ]; then
	echo "no writable cgroup2 hierarchy: the freezer cannot be staged"
	exit 77
fi
user=$(jq -r '.bench_user // "rarperf"' "$prefix/facts.json")
work=$(mktemp -d /tmp/rp-it67.XXXXXX)
chmod 0755 "$work"
steal_pid=
cleanup() {
	[ -n "$steal_pid" ] && kill "$steal_pid" 2>/dev/null && wait "$steal_pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cat >"$work/m.json" <<JSON
{"name": "it67", "subjects": [{"id": "sudo", "format": "sudoers"}, {"id": "doas", "format": "doas"}],
 "axes": {"nb_roles": [1], "nb_users": [1], "nb_tasks": [1, 10, 100], "nb_commands": [1]},
 "command": "/usr/bin/true", "bench_user": "$user", "warmup": 5, "min_runs": 60, "max_runs": 60,
 "min_time_s": 0, "order": "interleaved", "rounds": 5, "seed": 1, "reference": true}
JSON

# sweep NAME [steal]: the manifest into $work/NAME, with the staged host when asked; then
# rarplot's report and figures (svg), and --compare doas:sudo's verdict into NAME.verdict.
sweep() {
	bin/rarbench --manifest "$work/m.json" --prefix "$prefix" --wait --progress none \
		--out "$work/$1" >"$work/$1.log" 2>&1 &
	local pid=$! rc
	if [ "${2:-}" = steal ]; then
		/usr/bin/python3 tests/lib/hoststeal.py "$pid" 10 10 300 >"$work/$1.steal" 2>&1 &
		steal_pid=$!
	fi
	wait "$pid"
	rc=$?
	if [ -n "$steal_pid" ]; then
		wait "$steal_pid"
		steal_pid=
	fi
	[ "$rc" -eq 0 ] || return "$rc"
	bin/rarplot --format svg -o "$work/$1/plots" "$work/$1/results.json" >"$work/$1.plot" 2>&1 &&
		{ bin/rarplot --compare sudo:doas --format none "$work/$1/results.json" >"$work/$1.verdict" 2>&1
		[ $? -le 3 ]; }
}

sweep quiet
check "the sweep without a staged host runs and is drawn" [ $? -eq 0 ] || tail -5 "$work"/quiet.*
sed -n '/^The host /p' "$work/quiet.verdict" | sed 's/^/# without the staged host (printed, not required): /'

sweep staged steal
check "the sweep with a host freezing it 10 ms in 20 runs and is drawn" [ $? -eq 0 ] || tail -5 "$work"/staged.*
sed 's/^/# /' "$work/staged.steal"
check "the staged host froze the sweep's cgroup" grep -q '^hoststeal: froze .* [1-9][0-9]* times' "$work/staged.steal"
check "the guest saw none of it: every reference point's steal under 1 %" \
	jq -e '[.reference.results[].rarbench.steal // 0] | all(. < 0.01)' "$work/staged/results.json"
report=$work/staged/plots/report.md
# On a quiet machine the cause is the host, unseen. On a machine busy with other work as well
# (its load average above its CPUs during the sweep: make check beside other jobs) the two cannot
# be told apart (doc/precision.md), and the report says the machine was busy, with its load.
if grep -q "^\*\*The host interfered: .*: other work on this machine held the CPU (load" "$report"; then
	check "report.md names the interference: on a machine busy besides (its load said), as busy" \
		grep -q "^\*\*The host interfered: .*other work on this machine held the CPU (load [0-9.]* on [0-9]* CPUs; .*Remedy: measure time when the machine is quiet or on another machine, or compare counts" "$report"
else
	check "report.md names the host that interfered, unseen by the guest" \
		grep -q "^\*\*The host interfered: .* the host took the CPU away from this machine and the guest could not see it (steal" "$report"
	check "report.md says wall times are not the tools' cost and names counts or another machine" \
		grep -q "Wall times here are not the tools' cost; counts are. Remedy: compare counts (manifest \"counts\".*or measure time on another machine; more runs would measure the host" "$report"
fi
check "report.md never asks for more runs per point as the remedy" \
	sh -c "! grep -q 'more runs per point (min_runs, rounds)' '$report'"
grep -m1 '^\*\*The host interfered' "$report" | cut -c1-220 | sed 's/^/# /'
check "the figure names it under its caption" \
	grep -q "The host interfered (rarref past 2× its floor in [0-9]* % of its runs, steal 0.0 %: \(the guest could not see it\|other work on this machine\))" "$work/staged/plots/perf_tasks.svg"
check "--compare's verdict names it beside the wall-time verdicts" \
	sh -c "grep -q '^The host interfered: ' '$work/staged.verdict' &&
		grep -q '^Verdict: .*, on a host that interfered: these wall times are the host' '$work/staged.verdict'"
tap_status
