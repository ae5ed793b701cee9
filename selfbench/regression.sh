#!/bin/bash
# regression.sh: how often does `rarplot --compare` on experiments/regression.json give the right
# verdict? Runs REG_REPEATS sweeps of a two-subject variant of the manifest and compares each:
#   aa  the same build twice (dosr-cbor 3.3.4 as baseline and candidate): every quantity should
#       say "no change" (criterion: at least 9 repetitions in 10);
#   ab  RootAsRole 3.3.4 against 4.0.3, CBOR: the intercept regression should be found each time.
# Prints each repetition's changelog line, its exit status and wall time, then the counts.
# Root, a provisioned prefix (4.0.3 for ab); sweeps wait for the prefix's lock. Knobs:
#   RARPERF_PREFIX  (default /opt/rarperf)   REG_REPEATS (default 10)   REG_MODES (default "aa ab")
#   REG_KEEP        keep the results in this directory (default: a temporary one, removed)
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/lib/keepdir.sh
prefix=${RARPERF_PREFIX:-/opt/rarperf}
repeats=${REG_REPEATS:-10}
modes=${REG_MODES:-aa ab}
keep=${REG_KEEP:-}
# root writes there: made now, or root's along its whole path (R34)
if [ -n "$keep" ]; then
	work=$(keepdir_make REG_KEEP "$keep") || exit 2
else
	work=$(mktemp -d /tmp/rarperf-regression-XXXXXX)
fi
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT
[ -x bin/rarbench ] && [ -x bin/rarplot ] || make -s bin/rarbench bin/rarplot

manifest() { # MODE: the manifest with its two subjects
	local cand
	case $1 in
	aa) cand='{"id": "candidate", "format": "rar-cbor", "program": "{prefix}/bin/dosr-cbor"}' ;;
	ab) cand='{"id": "candidate", "format": "rar-cbor", "rar_version": "4.0.3"}' ;;
	esac
	jq --argjson c "$cand" '.name = "regression-'"$1"'" | .subjects = [
		{"id": "baseline", "format": "rar-cbor", "program": "{prefix}/bin/dosr-cbor"}, $c]' \
		experiments/regression.json
}

for mode in $modes; do
	manifest "$mode" >"$work/$mode.json"
	declare -A verdicts=()
	exits=""
	for i in $(seq 1 "$repeats"); do
		out="$work/$mode-$i"
		t0=$(date +%s.%N)
		bin/rarbench --manifest "$work/$mode.json" --prefix "$prefix" --out "$out" --wait \
			--progress none >"$out.log" 2>&1 || { echo "$mode $i: rarbench failed"; tail -3 "$out.log"; continue; }
		t1=$(date +%s.%N)
		set +e
		line=$(bin/rarplot --compare baseline:candidate "$out/results.json" 2>&1)
		rc=$?
		set -e
		exits="$exits $rc"
		printf '%s %2d: exit %d, sweep %.0f s, load %s: %s\n' "$mode" "$i" "$rc" \
			"$(echo "$t1 - $t0" | bc)" "$(cut -d' ' -f1 /proc/loadavg)" \
			"$(echo "$line" | grep -E 'intercept' | head -1)"
		for q in intercept slope; do
			v=$(echo "$line" | grep -oE "$q [^(]*\(([a-z ]+)\)" | head -1 | sed -E 's/.*\(([a-z ]+)\)$/\1/')
			verdicts["$q ${v:-?}"]=$((${verdicts["$q ${v:-?}"]:-0} + 1))
		done
	done
	echo "== $mode: exit statuses:$exits"
	for k in "${!verdicts[@]}"; do echo "   $k: ${verdicts[$k]} of $repeats"; done | sort
	unset verdicts
done
