#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# 67-counts: the counted pass ("counts": true, issue 51) on the real prefix. Every tool (sudo,
# sudo-rs, doas, dosr JSON and CBOR 3.3.4, CBOR 4.0.3, the PAM builds when present) counted
# under callgrind with the bench user's set-ID identity: its instructions per point and per
# process in results.json; the same launch without valgrind makes the profile pass's system
# calls (the identity takes the timed runs' path); three sweeps give every point's count within
# 0.01 %; rarplot fits them (fits.tsv, report.md) and --compare gives its exit status on them:
# an A/A exactly "no change" (exit 0), 3.3.4 against 4.0.3 "regressed" (exit 1), a change of
# 0.5 % in instructions per call (tests/fixtures/counts/countloop.c) detected.
set -u
cd "$(dirname "$0")/../.." || exit 2
prefix=${RARPERF_PREFIX:-/opt/rarperf}
rarbench=$PWD/bin/rarbench
rarplot=$PWD/bin/rarplot
. tests/lib/tap.sh

need jq
need strace
need valgrind
need cc
need_prefix "$prefix"
user=$(jq -r '.bench_user // "rarperf"' "$prefix/facts.json")
work=$(mktemp -d /tmp/rarperf-it-counts-XXXXXX)
# The stand-in tool must be root's along its path (doc/security.md R1): beside the build.
loopdir=$PWD/build/counts-fixture
trap 'rm -rf "$work" "$loopdir"' EXIT
mkdir -p "$loopdir" && chmod 0755 "$loopdir"
cc -O1 -o "$loopdir/countloop" tests/fixtures/counts/countloop.c
check "the stand-in tool compiled" [ -x "$loopdir/countloop" ]

pam=""
for t in sudo-pam doas-pam; do
	[ -x "$prefix/bin/$t" ] || continue
	f=sudoers; [ "$t" = doas-pam ] && f=doas
	pam="$pam {\"id\": \"$t\", \"format\": \"$f\", \"program\": \"{prefix}/bin/$t\", \"optional\": true},"
done
cat >"$work/c.json" <<JSON
{"name": "counts", "subjects": [
  {"id": "sudo", "format": "sudoers"},
  {"id": "sudo-rs", "format": "sudoers", "program": "{prefix}/bin/sudo-rs",
   "policy_mount_at": "/etc/sudoers-rs", "policy": "{prefix}/etc/sudoers-rs"},
  {"id": "doas", "format": "doas"},
  {"id": "sr-json", "format": "rar-json"},
  {"id": "sr-cbor", "format": "rar-cbor"},
  {"id": "sr-cbor-b", "format": "rar-cbor"},
  {"id": "sr4-cbor", "format": "rar-cbor", "rar_version": "4.0.3", "optional": true},
  $pam
  {"id": "loop", "format": "doas", "program": "$loopdir/countloop", "args": ["400000", "{command}"]},
  {"id": "loop-more", "format": "doas", "program": "$loopdir/countloop", "args": ["402000", "{command}"]}],
 "axes": {"nb_tasks": [1, 10, 100]}, "bench_user": "$user", "warmup": 0, "min_runs": 2,
 "max_runs": 2, "min_time_s": 0, "profile": true, "profile_budget": 0, "counts": true}
JSON

for k in 1 2 3; do
	start=$(date +%s)
	"$rarbench" --manifest "$work/c.json" --prefix "$prefix" --wait --out "$work/c$k" \
		--progress none 2>"$work/c$k.err"
	rc=$?
	check "counted sweep $k exits 0 ($(($(date +%s) - start)) s)" [ "$rc" -eq 0 ]
	[ "$rc" -eq 0 ] || sed 's/^/    /' "$work/c$k.err"
done
res=$work/c1/results.json
check "every result is counted by callgrind, its version recorded" \
	jq -e '[.results[] | .counts.status == "ok" and .counts.instrument == "callgrind"
		and (.counts.version | startswith("callgrind-")) and .counts.instructions > 0] | all' "$res"
jq -r '.results[] | select(.parameters.nb_tasks == "1") |
	"    \(.parameters.subject): \(.counts.instructions) instructions (\(.counts.identity)): " +
	([.counts.processes[] | "\(.name) \(.instructions)\(if .execs then " execs" else "" end)"] | join(", "))' "$res"
check "every process is named, each tool's first one by its program" \
	jq -e '[.results[] | .counts.processes | (.[0].name | length) > 0 and all(.[]; .instructions > 0)] | all' "$res"
check "sudo forks a child that executes the command; doas executes it itself" \
	jq -e '([.results[] | select(.parameters.subject == "sudo") | .counts.processes
		| any(.[]; .name == "sudo.child1" and .execs)] | all) and
		([.results[] | select(.parameters.subject == "doas") | .counts.processes
		| length == 1 and .[0].execs] | all)' "$res"
# The identity: the same launch without valgrind, under strace, against the profile pass's.
jq -r '.results[] | select(.counts.launch.same_calls != true) |
	"    \(.parameters.subject) at \(.parameters.nb_tasks): \(.counts.launch.differs // .counts.launch_message)"' "$res"
check "for every tool the counted identity makes the timed runs' system calls, call for call" \
	jq -e '[.results[] | .counts.launch.same_calls] | all' "$res"

# Determinism: every point's count in three sweeps.
jq -s '[.[] | .results[] | {k: "\(.parameters.subject) \(.parameters.nb_tasks)", v: .counts.instructions}]
	| group_by(.k) | map({k: .[0].k, lo: (map(.v) | min), hi: (map(.v) | max)})
	| map(. + {d: ((.hi - .lo) / .lo)}) | max_by(.d)' \
	"$work/c1/results.json" "$work/c2/results.json" "$work/c3/results.json" >"$work/det.json"
check "three sweeps: every point's count within 0.01 % (largest: $(jq -r '"\(.k) \(.d * 100) % (\(.lo) to \(.hi))"' "$work/det.json"))" \
	jq -e '.d <= 0.0001' "$work/det.json"

# rarplot: the counts fitted beside the times.
"$rarplot" --format none -o "$work/plot" "$res" >/dev/null 2>"$work/plot.err"
check "fits.tsv has instructions per call and per task, with ratios to the baseline" \
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == "sudo" && $(c["instr_per_call_ratio"]) == 1 && $(c["instr_per_call"]) > 100000 { f = 1 }
		END { exit !f }' "$work/plot/fits.tsv"
check "report.md's \"Instructions counted\" says the verdicts rest on the wall time" \
	grep -q "verdicts above rest on the wall time" "$work/plot/report.md"
sed -n '/^## Instructions counted/,/^## /p' "$work/plot/report.md" | grep '^|' | sed 's/^/    /'

compare() { # compare A:B FILES...: stdout in $work/out, status in rc
	"$rarplot" --compare "$1" --format none "${@:2}" >"$work/out" 2>"$work/err"
	rc=$?
}
compare sr-cbor:sr-cbor-b "$res"
check "A/A on counts (the same dosr twice): exactly \"no change\", exit 0 (rc $rc)" \
	[ "$rc" -eq 0 ]
check "... the verdict rests on counts, ratio 1.00000" \
	grep -q 'Verdict on counts: \*\*no change\*\*' "$work/out"
grep -q '| instructions per call | [0-9]* | [0-9]* | 1.00000 |' "$work/out" ||
	notok "A/A: instructions per call differ: $(grep 'per call' "$work/out")"
if jq -e '[.results[] | select(.parameters.subject == "sr4-cbor")] | length > 0' "$res" >/dev/null; then
	compare sr-cbor:sr4-cbor "$res"
	check "RootAsRole 3.3.4 against 4.0.3 on counts: \"regressed\", exit 1 (rc $rc)" [ "$rc" -eq 1 ]
	grep 'instructions' "$work/out" | sed 's/^/    /'
fi
compare loop:loop-more "$res"
check "a change of about 0.5 % in instructions per call: regressed, exit 1 (rc $rc)" [ "$rc" -eq 1 ]
grep 'per call' "$work/out" | sed 's/^/    /'
check "... the change measured is between 0.4 % and 0.6 %" \
	awk -F'|' '/instructions per call/ { r = $5 + 0; exit !(r > 1.004 && r < 1.006) }' "$work/out"
compare loop:loop-more "$work/c1/results.json" "$work/c2/results.json" "$work/c3/results.json"
check "... over three sweeps too (rc $rc)" [ "$rc" -eq 1 ]

# A second instrument, once: cachegrind (--cache-sim=no) and callgrind, with the counted run's
# options, count the same instructions for a program that executes nothing (the stand-in
# tool without a command, sudo -V as root).
for cmd in "$loopdir/countloop 400000" "$prefix/bin/sudo -V"; do
	rm -rf "$work/vg" && mkdir "$work/vg"
	# shellcheck disable=SC2086
	valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$work/vg/cachegrind.out" \
		--log-file="$work/vg/cachegrind.log" $cmd >/dev/null 2>&1
	# shellcheck disable=SC2086
	valgrind --tool=callgrind --callgrind-out-file="$work/vg/cg.%p" --log-file="$work/vg/vg.%p" \
		--dump-instr=no --dump-line=no --dump-before=fork --dump-before=execve $cmd >/dev/null 2>&1
	a=$(sed -n 's/^summary: \([0-9]*\).*/\1/p' "$work/vg/cachegrind.out")
	b=$(cat "$work/vg"/cg.* | sed -n 's/^summary: \([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s }')
	check "cachegrind and callgrind count ${cmd##*/} alike: $a and $b instructions" \
		awk -v a="${a:-0}" -v b="${b:-0}" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && d <= a * 0.0001) }'
done
tap_status
