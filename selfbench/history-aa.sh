#!/bin/bash
# history-aa.sh: the false-alarm rate of rarplot --history's change points on A/A data. One build
# (dosr-cbor, RootAsRole 3.3.4) is entered as AA_RELEASES releases of one line (ids sr-cbor-1.0.0,
# sr-cbor-1.0.1, ...: the same program and policy, so any step found is a false alarm), with sudo
# as the anchor, as experiments/history.json measures a release (7 sizes, 10 rounds in random order);
# AA_REPEATS sweeps, each analysed alone. The criterion (issue 35): no step in at least 9 runs of
# 10. Prints each run's steps (history-steps.tsv) and the count.
# Root, a provisioned prefix; sweeps wait for the prefix's lock. Knobs:
#   RARPERF_PREFIX (/opt/rarperf)  AA_REPEATS (10)  AA_RELEASES (2)  AA_PROGRAM (dosr-cbor)
#   AA_KEEP  keep the results in this directory (default: a temporary one, removed)
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/lib/keepdir.sh
prefix=${RARPERF_PREFIX:-/opt/rarperf}
repeats=${AA_REPEATS:-10}
releases=${AA_RELEASES:-2}
program=${AA_PROGRAM:-dosr-cbor}
keep=${AA_KEEP:-}
# root writes there: made now, or root's along its whole path (R34)
if [ -n "$keep" ]; then
	work=$(keepdir_make AA_KEEP "$keep") || exit 2
else
	work=$(mktemp -d /tmp/rarperf-history-aa-XXXXXX)
fi
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT
[ -x bin/rarbench ] && [ -x bin/rarplot ] || make -s bin/rarbench bin/rarplot

# history.json's measurement, with sudo and the A/A releases as its subjects.
jq --arg p "{prefix}/bin/$program" --argjson k "$releases" '.name = "history-aa" | .subjects =
	[{"id": "sudo", "format": "sudoers"}] + [range(0; $k) |
	 {"id": ("sr-cbor-1.0." + tostring), "format": "rar-cbor", "program": $p}] | .profile = false' \
	experiments/history.json >"$work/aa.json"
alarms=0
for i in $(seq 1 "$repeats"); do
	out=$work/run-$i
	t0=$(date +%s)
	bin/rarbench --manifest "$work/aa.json" --prefix "$prefix" --out "$out" --wait \
		--progress none >"$out.log" 2>&1 || { echo "run $i: rarbench failed"; tail -3 "$out.log"; exit 1; }
	bin/rarplot --history --format none -o "$out/plot" "$out/results.json" >/dev/null 2>"$out.plot.err" ||
		{ echo "run $i: rarplot failed"; cat "$out.plot.err"; exit 1; }
	steps=$(awk -F'\t' 'NR > 1 && $12 == "step" {printf "%s %s %s->%s %+.3g%% (p_holm %s); ", $1, $2, $3, $4, $6, $11}' \
		"$out/plot/history-steps.tsv")
	# The smallest adjusted p of the run: how close it came to a false alarm.
	minp=$(awk -F'\t' 'NR > 1 {print $11}' "$out/plot/history-steps.tsv" | sort -g | head -1)
	[ -z "$steps" ] || alarms=$((alarms + 1))
	printf 'run %2d: sweep %3d s, smallest Holm p %s: %s\n' "$i" $(($(date +%s) - t0)) "$minp" \
		"${steps:-no step}"
done
echo "== A/A, $releases releases of one build, $repeats runs: $alarms with a step (false alarms), $((repeats - alarms)) without"
