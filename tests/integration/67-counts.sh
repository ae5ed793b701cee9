#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# 67-counts: the counted pass ("counts": true, issue 51) on the real prefix. Every tool (sudo,
# sudo-rs, doas, dosr JSON and CBOR 3.3.4, JSON and CBOR 4.0.3 with PAM, the PAM builds when
# present) counted under callgrind with the bench user's set-ID identity (4.0.3 in a directory
# and mount namespace of the run's own; its monitor's wait-loop turns counted apart): its
# instructions per point and per process in results.json; the same launch without valgrind
# makes the profile pass's system calls (capable files: the named differences); three sweeps
# give sudo's and doas's (with the same /etc/passwd) counts within 0.01 % and dosr CBOR's
# within 0.1 % (the others' spread printed);
# each point counted twice, five times when they differ by more than 0.01 % (the median kept,
# range and reason recorded); rarplot fits them (fits.tsv, report.md) and --compare gives its exit status on them: an A/A
# "no change" (exit 0), 3.3.4 against 4.0.3 "regressed" (exit 1), a change of 0.5 % in
# instructions per call (tests/fixtures/counts/countloop.c) "regressed" (exit 1); cachegrind
# and lackey against callgrind. About 2 minutes on 2 cores.
set -u
cd "$(dirname "$0")/../.." || exit 2
prefix=${RARPERF_PREFIX:-/opt/rarperf}
rarbench=$PWD/bin/rarbench
rarplot=$PWD/bin/rarplot
. tests/lib/tap.sh

need jq
need strace
need valgrind
need setpriv
need cc
need_prefix "$prefix"
user=$(jq -r '.bench_user // "rarperf"' "$prefix/facts.json")
work=$(mktemp -d /tmp/rarperf-it-counts-XXXXXX)
# The stand-in tool must be root's along its whole path (doc/security.md R1), wherever the tree
# is (a clone under /tmp is not: /tmp is writable by others), and the bench user must reach it:
# a new directory of root's under /var/cache.
loopdir=$(mktemp -d /var/cache/rarperf-it-counts-XXXXXX)
trap 'rm -rf "$work" "$loopdir"' EXIT
chmod 0755 "$loopdir"
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
  {"id": "sudo-b", "format": "sudoers"},
  {"id": "sudo-rs", "format": "sudoers", "program": "{prefix}/bin/sudo-rs",
   "policy_mount_at": "/etc/sudoers-rs", "policy": "{prefix}/etc/sudoers-rs"},
  {"id": "doas", "format": "doas"},
  {"id": "sr-json", "format": "rar-json"},
  {"id": "sr-cbor", "format": "rar-cbor"},
  {"id": "sr-cbor-b", "format": "rar-cbor"},
  {"id": "sr4-cbor", "format": "rar-cbor", "rar_version": "4.0.3", "optional": true},
  {"id": "sr4-cbor-b", "format": "rar-cbor", "rar_version": "4.0.3", "optional": true},
  {"id": "sr4-json", "format": "rar-json", "rar_version": "4.0.3", "optional": true},
  $pam
  {"id": "loop", "format": "doas", "program": "$loopdir/countloop", "args": ["400000", "{command}"]},
  {"id": "loop-more", "format": "doas", "program": "$loopdir/countloop", "args": ["402000", "{command}"]}],
 "axes": {"nb_tasks": [1, 10, 100]}, "bench_user": "$user", "warmup": 0, "min_runs": 2,
 "max_runs": 2, "rounds": 2, "min_time_s": 0, "profile": true, "profile_budget": 0, "counts": true}
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
# doc/security.md R44: the directory a set-ID run wrote in is gone with the run.
check "no counted run's directory left (OUT/counts/run holds no ids/)" \
	sh -c '! ls -d "$1"/c[123]/counts/run/ids 2>/dev/null | grep -q .' sh "$work"
jq -r '.results[] | select(.counts.status != "ok") | "    \(.parameters.subject) at \(.parameters.nb_tasks): \(.counts.status) \(.counts.message)"' "$res"
check "every result is counted by callgrind, its version recorded (RootAsRole 4.0.3 too)" \
	jq -e '[.results[] | .counts.status == "ok"
		and .counts.instrument == "callgrind" and (.counts.version | startswith("callgrind-"))
		and .counts.instructions > 0] | all' "$res"
# RootAsRole 4.0.3 with PAM: its monitor (the first process, which waits for the command), the
# child that executes the PAM helper (unix_chkpwd, run natively: set-group-ID) and the child
# that executes the command, each named and counted; the monitor's turns of its wait loop apart.
jq -r '.results[] | select(.parameters.subject | test("^sr4-")) |
	"    \(.parameters.subject) at \(.parameters.nb_tasks): \(.counts.instructions) (" +
	([.counts.processes[] | "\(.name) \(.instructions)"] | join(", ")) +
	"; \(.counts.polls // 0) turns, \(.counts.poll_instructions // 0) instructions apart; executes \(.counts.launch.executes)"' "$res"
check "RootAsRole 4.0.3: the monitor and two children, one executing unix_chkpwd, one the command" \
	jq -e '[.results[] | select(.parameters.subject | test("^sr4-")) | .counts
		| (.processes | length == 3 and (.[0].execs | not) and .[1].execs and .[2].execs
		   and (.[1].name | endswith(".child1")) and (.[2].name | endswith(".child2")))
		and .launch.executes == ["/sbin/unix_chkpwd", "/usr/bin/true"]] | all' "$res"
check "... it wrote its last part (no final_part_lost): the directory of its own took every identity" \
	jq -e '[.results[] | select(.parameters.subject | test("^sr4-")) | .counts
		| .final_part_lost != true and .exit_code == 0] | all' "$res"
jq -r '.results[] | select(.parameters.nb_tasks == "1" and .counts.status == "ok") |
	"    \(.parameters.subject): \(.counts.instructions) instructions (\(.counts.identity)): " +
	([.counts.processes[] | "\(.name) \(.instructions)\(if .execs then " execs" else "" end)"] | join(", "))' "$res"
check "every process is named, each tool's first one by its program" \
	jq -e '[.results[] | select(.counts.status == "ok") | .counts.processes
		| (.[0].name | length) > 0 and all(.[]; .instructions > 0)] | all' "$res"
check "sudo and doas execute the command themselves; dosr 3.3.4 and sudo-rs from a child" \
	jq -e '([.results[] | select(.parameters.subject == ("sudo", "doas")) | .counts.processes
		| length == 1 and .[0].execs] | all) and
		([.results[] | select(.parameters.subject == ("sr-cbor", "sudo-rs")) | .counts.processes
		| any(.[]; (.name | endswith(".child1")) and .execs)] | all)' "$res"
# The identity: the same launch without valgrind, under strace, against the profile pass's.
jq -r '.results[] | select(.counts.launch.same_calls != true) |
	"    \(.parameters.subject) at \(.parameters.nb_tasks): \(.counts.launch.differs // .counts.launch_message)"' "$res"
# sudo-pam's monitor may poll once more or less (a ppoll that races the command's end).
check "set-user-ID tools: the counted identity makes the timed runs' system calls, call for call" \
	jq -e '[.results[] | select(.counts.identity == "set-user-ID") | .counts.launch
		| .same_calls or (.differs | keys == ["ppoll"])] | all' "$res"
# A capable file (dosr): ambient capabilities leave glibc out of secure mode (AT_SECURE 0): no
# access("/etc/suid-debug") twice, no fcntl(F_GETFD) of 0, 1, 2; the copy's longer path may add a
# read of /proc/self/maps. Nothing else (doc/counts.md, the named differences).
# RootAsRole 4.x's monitor polls for the command (wait4 with WNOHANG, then a read of its signal
# pipe, without a sleep): as many wait4 and reads as the clock gives, the same number of each.
check "capable tools: only the named differences (access 2, fcntl 3, read of the maps; 4.x: wait4 and read by its turns)" \
	jq -e '[.results[] | select(.counts.identity == "file capabilities (ambient)") | .counts.launch
		| (.differs | keys - ["access", "fcntl", "read", "wait4"] | length == 0)
		and ((.differs.access // [0, 0]) | .[0] - .[1] | . == 0 or . == 2)
		and ((.differs.fcntl // [0, 0]) | .[0] - .[1] | . == 0 or . == 3)
		and (((.differs.read // [0, 0]) | .[0] - .[1]) - ((.differs.wait4 // [0, 0]) | .[0] - .[1])
		     | fabs <= 2)] | all' "$res"
check "... and wait4 differs only for RootAsRole 4.x" \
	jq -e '[.results[] | select(.counts.launch.differs.wait4 != null) | .parameters.subject
		| test("^sr4-")] | all' "$res"

# Issue 51's rule: every point counted twice, five times when the two differ by more than
# 0.01 %, the median kept with its range, spread and reason (doc/counts.md).
check "every count taken twice, or five times with the median kept, its range and reason" \
	jq -e '[.results[] | select(.counts.status == "ok") | .counts
		| (.counted_runs == 2 and .repeats == null) or
		  (.counted_runs == 5 and (.repeats.instructions | length) == 5
		   and .repeats.min <= .instructions and .instructions <= .repeats.max
		   and (.repeats.reason | length) > 0)] | all' "$res"
check "... with /etc/passwd's and /etc/group's sizes recorded (doas reads /etc/passwd whole per rule)" \
	jq -e '[.results[] | select(.counts.status == "ok") | .counts.nss_files
		| .passwd_bytes > 0 and .group_bytes > 0] | all' "$res"
jq -r '.results[] | select(.counts.repeats != null) |
	"    repeated: \(.parameters.subject) at \(.parameters.nb_tasks): \(.counts.repeats.instructions | map(tostring) | join(" ")), spread \(.counts.repeats.spread * 100 | . * 10000 | round / 10000) %"' \
	"$work/c1/results.json" "$work/c2/results.json" "$work/c3/results.json"

# Determinism: every point's count (the median where repeated) in three sweeps. A count moves
# with /etc/passwd (doas: about 1 000 instructions per line per task; another program may add a
# user meanwhile): points are compared where /etc/passwd and /etc/group had the same sizes, and
# the largest difference over all is printed too.
spread() { # SUBJECT-REGEX OUT [any]: the largest difference of a point's count over the sweeps
	jq -s --arg re "$1" --arg any "${3:-}" '[.[] | .results[] | select(.counts.status == "ok" and (.parameters.subject | test($re))) |
		{k: ("\(.parameters.subject) \(.parameters.nb_tasks)" + (if $any == "" then " \(.counts.nss_files)" else "" end)),
		 v: .counts.instructions}]
		| group_by(.k) | map({k: (.[0].k | sub(" \\{.*"; "")), lo: (map(.v) | min), hi: (map(.v) | max)})
		| map(. + {d: ((.hi - .lo) / .lo)}) | max_by(.d)' \
		"$work/c1/results.json" "$work/c2/results.json" "$work/c3/results.json" >"$2"
}
said() { jq -r '"\(.k) \(.d * 100 | . * 10000 | round / 10000) % (\(.lo) to \(.hi))"' "$1"; }
spread '^(sudo|sudo-b|loop|loop-more)$' "$work/det-c.json"
check "three sweeps: sudo's and the stand-in's counts within 0.01 % at every point (largest: $(said "$work/det-c.json"))" \
	jq -e '.d <= 0.0001' "$work/det-c.json"
# doas at 100 tasks took one of two counts 2.7 % apart: /etc/passwd had one line more or less
# (doc/counts.md); with the same /etc/passwd, within 0.01 %.
spread '^doas$' "$work/det-d.json"
spread '^doas$' "$work/det-d-any.json" any
check "... doas's within 0.01 % with the same /etc/passwd (largest: $(said "$work/det-d.json"); over all: $(said "$work/det-d-any.json"))" \
	jq -e '.d <= 0.0001' "$work/det-d.json"
spread '^(sr-cbor|sr-cbor-b)$' "$work/det-r.json"
check "... dosr CBOR's (regression.json's tool) within 0.1 % (largest: $(said "$work/det-r.json"))" \
	jq -e '.d <= 0.001' "$work/det-r.json"
spread '^(sudo-rs|sr-json)$' "$work/det-j.json"
echo "# sudo-rs and dosr JSON, largest difference: $(said "$work/det-j.json") (not required: doc/counts.md)"
if jq -e '[.results[] | select(.parameters.subject | test("^sr4-"))] | length > 0' "$res" >/dev/null; then
	# The medians of five counts: 4.x seeds its hash maps from getrandom as 3.3.4 does, and a
	# run's count moves by up to about 0.06 % with them (doc/counts.md); its wait loop's turns
	# are counted apart and move nothing.
	spread '^sr4-' "$work/det-4.json"
	check "... RootAsRole 4.0.3's (JSON, CBOR) within 0.1 % (largest: $(said "$work/det-4.json"); 0.01 % is not reached)" \
		jq -e '.d <= 0.001' "$work/det-4.json"
fi
if jq -e '[.results[] | select(.parameters.subject | test("-pam$"))] | length > 0' "$res" >/dev/null; then
	spread '-pam$' "$work/det-p.json"
	echo "# the PAM builds' largest difference: $(said "$work/det-p.json")"
fi

# rarplot: the counts fitted beside the times.
"$rarplot" --format none -o "$work/plot" "$res" >/dev/null 2>"$work/plot.err"
check "fits.tsv has instructions per call and per task, with ratios to the baseline" \
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == "sudo" && $(c["instr_per_call_ratio"]) == 1 && $(c["instr_per_call"]) > 100000 { f = 1 }
		END { exit !f }' "$work/plot/fits.tsv"
check "report.md's \"Instructions counted\" says the verdicts rest on the wall time" \
	grep -q "verdicts above rest on the wall time" "$work/plot/report.md"
sed -n '/^## Instructions counted/,/^## /p' "$work/plot/report.md" | grep '^|' | sed 's/^/    /'

compare() { # compare A:B FILES... on counts (--counts: they decide the exit status): stdout in $work/out, status in rc
	"$rarplot" --compare "$1" --counts --format none "${@:2}" >"$work/out" 2>"$work/err"
	rc=$?
}
compare sudo:sudo-b "$res"
check "A/A on counts (sudo twice): \"no change\", exit 0 (rc $rc)" [ "$rc" -eq 0 ]
check "... the verdict rests on counts, instructions per call equal to 0.01 %" \
	awk -F'|' '/instructions per call/ { r = $5 + 0; f = (r > 0.9999 && r < 1.0001) }
		/Verdict on counts: \*\*no change\*\*/ { v = 1 } END { exit !(f && v) }' "$work/out"
grep 'instructions per' "$work/out" | sed 's/^/    /'
compare sr-cbor:sr-cbor-b "$res"
check "A/A on counts (dosr 3.3.4 twice): \"no change\", exit 0 (rc $rc)" [ "$rc" -eq 0 ]
grep 'instructions per' "$work/out" | sed 's/^/    /'
if jq -e '[.results[] | select(.parameters.subject == "sr4-cbor")] | length > 0' "$res" >/dev/null; then
	compare sr-cbor:sr4-cbor "$res"
	check "RootAsRole 3.3.4 against 4.0.3 (CBOR) on counts: \"regressed\", exit 1 (rc $rc)" \
		[ "$rc" -eq 1 ]
	check "... the verdict on counts says regressed" grep -q 'Verdict on counts: \*\*regressed\*\*' "$work/out"
	grep 'instructions per' "$work/out" | sed 's/^/    /'
	compare sr-json:sr4-json "$res"
	check "RootAsRole 3.3.4 against 4.0.3 (JSON) on counts: exit $rc" [ "$rc" -le 1 ]
	grep -E 'instructions per|Verdict on counts' "$work/out" | sed 's/^/    /'
	compare sr4-cbor:sr4-cbor-b "$res"
	check "A/A on counts (4.0.3 CBOR twice): \"no change\", exit 0 (rc $rc)" [ "$rc" -eq 0 ]
fi
compare loop:loop-more "$res"
check "a change of about 0.5 % in instructions per call: regressed, exit 1 (rc $rc)" [ "$rc" -eq 1 ]
grep 'per call' "$work/out" | sed 's/^/    /'
check "... the change measured is between 0.4 % and 0.6 %" \
	awk -F'|' '/instructions per call/ { r = $5 + 0; exit !(r > 1.004 && r < 1.006) }' "$work/out"
compare loop:loop-more "$work/c1/results.json" "$work/c2/results.json" "$work/c3/results.json"
check "... over three sweeps too (rc $rc)" [ "$rc" -eq 1 ]

# Other instruments, once, on a program that executes nothing (the stand-in tool without a
# command; /bin/true): cachegrind and lackey count
# the same instructions; callgrind, which the counted pass uses, a few thousand fewer
# (doc/counts.md: within 1 %, the same deficit in every run).
vg=$(command -v valgrind.bin || command -v valgrind)
for cmd in "$loopdir/countloop 400000" "/bin/true"; do
	# shellcheck disable=SC2086
	a=$("$vg" --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null $cmd 2>&1 >/dev/null |
		sed -n 's/.*I   refs: *\([0-9,]*\).*/\1/p' | tr -d ,)
	# shellcheck disable=SC2086
	l=$("$vg" --tool=lackey $cmd 2>&1 >/dev/null | sed -n 's/.*guest instrs: *\([0-9,]*\).*/\1/p' | tr -d ,)
	# shellcheck disable=SC2086
	b=$("$vg" --tool=callgrind --callgrind-out-file=/dev/null $cmd 2>&1 >/dev/null |
		sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')
	check "${cmd##*/}: cachegrind $a, lackey $l, callgrind $b instructions: the first two equal, callgrind within 1 %" \
		awk -v a="${a:-0}" -v l="${l:-1}" -v b="${b:-0}" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && a == l && d <= a * 0.01) }'
done
tap_status
