#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# 66-kernel-reference: a small real sweep (sudo and doas on the provisioned prefix, 3 sizes, 3
# rounds) with "reference" and "kernel_reference": rarkref's kinds are measured in every step
# and their prices per point and round exported in results.json's reference.kernel, never
# among the results nor in results.tsv; the calibration runs are paced (no point gives rarref
# more runs than its busiest subject, though min_time asks for more); rarplot predicts each
# subject's line from its profile and the prices (predicted.tsv, predicted.md); a manifest with
# "kernel_reference" but no "reference" is refused (exit 2) naming the key.
set -u
cd "$(dirname "$0")/../.." || exit 2
prefix=${RARPERF_PREFIX:-/opt/rarperf}
rarbench=$PWD/bin/rarbench
rarplot=$PWD/bin/rarplot
. tests/lib/tap.sh
need jq
need_prefix "$prefix"
[ -x bin/rarkref ] || { echo "Bail out! bin/rarkref missing: make all"; exit 1; }
user=$(jq -r '.bench_user // "rarperf"' "$prefix/facts.json")
work=$(mktemp -d /tmp/rarperf-it-kernel-XXXXXX)
trap 'rm -rf "$work"' EXIT

cat >"$work/k.json" <<JSON
{"name": "k", "subjects": [{"id": "sudo", "format": "sudoers"}, {"id": "doas", "format": "doas"}],
 "axes": {"nb_tasks": [1, 100, 1000]}, "bench_user": "$user", "rounds": 3, "order": "interleaved",
 "warmup": 3, "min_runs": 6, "min_time_s": 0.6, "reference": true, "kernel_reference": true,
 "profile": true, "profile_budget": 0}
JSON
"$rarbench" --manifest "$work/k.json" --prefix "$prefix" --wait --out "$work/k" --progress none \
	2>"$work/k.err"
check "the sweep with rarref and rarkref exits 0" [ "$?" -eq 0 ] || sed 's/^/    /' "$work/k.err"
res=$work/k/results.json
check "reference.kernel: rarkref, its 9 kinds, 9 prices per point each with 3 rounds" \
	[ "$(jq '.reference.kernel as $k | ($k.program | endswith("/rarkref")) and
		([$k.kinds[].kind] == ["exec","faults","execve","getppid","close","read","openat","newfstatat","mmap"]) and
		($k.unit_costs | length) == 27 and
		([$k.unit_costs[] | (.rounds | length) == 3 and (.ns | type) == "number"] | all)' "$res")" = true ]
check "the bare run's and an execve's price is a run's (0.02..20 ms); a fault and a call 10 ns..100 us" \
	[ "$(jq '[.reference.kernel.unit_costs[] | if .kind == "exec" or .kind == "execve" then .ns > 2e4 and .ns < 2e7
		else .ns > 10 and .ns < 1e5 end] | all' "$res")" = true ]
check "rarkref's runs are no result and not in results.tsv; rarref's results as before" \
	[ "$(jq '([.results[].parameters.subject] | unique) == ["doas", "sudo"] and
		(.reference.results | length) == 3' "$res")" = true ] &&
	! grep -q '@kernel' "$work/k/results.tsv"
# min_time asks rarref (2-3 ms a run) for more runs than sudo and doas (4-10 ms): paced, it gets
# no more than the busiest subject, in every round of every point.
check "paced: rarref never has more runs in a step than its busiest subject" \
	[ "$(jq '. as $d | [.reference.results[] as $r | (1, 2, 3) as $round |
		([$d.results[] | select(.parameters.nb_tasks == $r.parameters.nb_tasks)
		  | [.run_rounds[] | select(. == $round)] | length] | max) >=
		([$r.run_rounds[] | select(. == $round)] | length)] | all' "$res")" = true ]
check "the journal holds each kind's runs beside the subjects' in every step" \
	[ "$(grep -c '"subject":"@kernel.faults"' "$work/k/journal.jsonl")" -eq 9 ]
"$rarplot" --format none -o "$work/plot" "$res" >"$work/out" 2>"$work/err"
check "rarplot: predicted.tsv, one row per subject, measured and accounted intercepts > 0" \
	[ "$?" -eq 0 ] && [ "$(head -1 "$work/plot/predicted.tsv" | cut -f1-7)" = "$(printf 'input\tsubject\tn\tintercept_ms\taccounted_ms\tresidual_ms\tresidual_pct')" ] &&
	[ "$(awk -F'\t' 'NR > 1 && $3 == 3 && $4 > 0 && $5 > 0' "$work/plot/predicted.tsv" | wc -l)" -eq 2 ]
check "predicted.md: the prices, then the table" \
	grep -q "^# Each subject's time split by the kernel's prices" "$work/plot/predicted.md" &&
	grep -q '| exec ns |' "$work/plot/predicted.md" && grep -q '^| .* | sudo | ' "$work/plot/predicted.md"
jq 'del(.reference)' "$work/k.json" >"$work/bad.json"
"$rarbench" --manifest "$work/bad.json" --prefix "$prefix" --out "$work/bad" --progress none \
	>"$work/out" 2>"$work/err"
rc=$?
check "kernel_reference without reference: exit 2 naming the key" \
	[ "$rc" -eq 2 ] && grep -q 'kernel_reference.*needs "reference"' "$work/err"
tap_status
