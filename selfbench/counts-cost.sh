#!/bin/bash
# counts-cost.sh: what the counted pass ("counts": true, doc/counts.md) costs, against issue 51's
# targets: the seed sweep's five main subjects (sudo, sudo-rs, sr-json, sr-cbor, doas) at its 14
# sizes counted within 10 minutes on 2 cores, and the CI manifest (experiments/regression.json)
# within 3 minutes. Each manifest is run with the fewest timed runs a sweep allows (1 run, no
# warmup, no calibration, no profile: what they cost is not the counted pass's), "counts": true;
# the pass's own time is rarbench's "counted pass X s" line, and per subject the sum of its
# counted runs (counts/point-*.json's counted_ns). (A second instrument, cachegrind, checks
# callgrind's totals in tests/integration/67-counts.sh.)
# Must run as root on a provisioned prefix. regression.json's dev build (make provision-dev):
# when the prefix has none, its release subject is counted twice in its place (said so).
# Knobs: RARPERF_PREFIX (default /opt/rarperf), COUNTS_KEEP (a directory to keep the results in).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${RARPERF_PREFIX:-/opt/rarperf}
rarbench=$PWD/bin/rarbench
for tool in "$rarbench" jq valgrind; do
	command -v "$tool" >/dev/null || { echo "counts-cost: $tool is missing" >&2; exit 2; }
done
if [ -n "${COUNTS_KEEP:-}" ]; then
	. tools/lib/keepdir.sh
	# root writes there: made now, or root's along its whole path (doc/security.md R34)
	work=$(keepdir_make COUNTS_KEEP "$COUNTS_KEEP") || exit 2
else
	work=$(mktemp -d /tmp/rarperf-bench-counts-XXXXXX)
	trap 'rm -rf "$work"' EXIT
fi
fast='.warmup = 0 | .min_runs = 1 | .max_runs = 1 | .min_time_s = 0 | .rounds = 1
	| .reference = false | .kernel_reference = false | .profile = false | .counts = true
	| del(.precision, .precision_baseline, .remeasure)'
jq "$fast | .subjects = [.subjects[] | select(.id == (\"sudo\", \"sudo-rs\", \"sr-json\", \"sr-cbor\", \"doas\"))]" \
	experiments/seed-tasks.json >"$work/seed.json"
if [ -x "$prefix/bin/dosr-dev-cbor" ]; then
	jq "$fast" experiments/regression.json >"$work/regression.json"
else
	echo "regression.json: the prefix has no dev build (make provision-dev): its release counted twice"
	jq "$fast | .subjects = [.subjects[0], (.subjects[0] | .id = \"dosr-cbor-again\")]" \
		experiments/regression.json >"$work/regression.json"
fi
echo "host: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $(valgrind --version)"
status=0
for m in seed:600 regression:180; do
	name=${m%%:*} limit=${m##*:}
	"$rarbench" --manifest "$work/$name.json" --prefix "$prefix" --wait --out "$work/$name" \
		--progress none 2>"$work/$name.err" || { cat "$work/$name.err" >&2; exit 1; }
	s=$(sed -n 's/^rarbench: counted pass \([0-9.]*\) s$/\1/p' "$work/$name.err")
	points=$(ls "$work/$name"/counts/point-*.json | wc -l)
	printf '%s: %s points, counted pass %s s (target %s s)\n' "$name" "$points" "$s" "$limit"
	jq -rs '[.[] | .subjects | to_entries[]] | group_by(.key)[]
		| "  \(.[0].key): \(map(.value.counted_ns) | add / 1e9 | . * 10 | round / 10) s, "
		+ "\(map(.value.instructions) | max) instructions at most"' "$work/$name"/counts/point-*.json
	awk -v s="$s" -v l="$limit" 'BEGIN { exit !(s <= l) }' || { echo "  over its target"; status=1; }
done

exit $status
