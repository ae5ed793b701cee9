#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# The profile pass on the real prefix: RootAsRole 3.3.4's JSON build makes one read(2) per policy
# byte and 4.0.3 one close(2) per descriptor number up to the pinned nofile limit; the counts land
# in results.json beside the timing, in profile.tsv, and rarplot says so in words. A subject that
# exits otherwise when traced is marked and keeps its timing; --resume profiles only what is
# missing, with the same counts; no strace: exit 2 before anything runs.
set -u
cd "$(dirname "$0")/../.." || exit 2
prefix=${RARPERF_PREFIX:-/opt/rarperf}
rarbench=$PWD/bin/rarbench
rarplot=$PWD/bin/rarplot
. tests/lib/tap.sh

need jq
need strace
need_prefix "$prefix"
user=$(jq -r '.bench_user // "rarperf"' "$prefix/facts.json")
work=$(mktemp -d /tmp/rarperf-it-profile-XXXXXX)
trap 'rm -rf "$work"' EXIT

cat >"$work/p.json" <<JSON
{"name": "profile", "subjects": [
  {"id": "sr-json", "format": "rar-json", "program": "{prefix}/bin/dosr-json"},
  {"id": "sr-json-4.0.3", "format": "rar-json", "rar_version": "4.0.3",
   "program": "{prefix}/bin/dosr-4.0.3-json", "policy": "{prefix}/etc/rootasrole-4.0.3-json.json"}],
 "axes": {"nb_tasks": [10, 40, 160]}, "bench_user": "$user", "warmup": 0, "min_runs": 2,
 "max_runs": 2, "min_time_s": 0, "limits": {"nofile": 512}, "profile": true, "profile_budget": 0}
JSON
# RootAsRole 4.x's timestamp file as an earlier sweep leaves it: rarbench empties it first.
stale=$prefix/run/rar/ts/rarperf-it-stale
[ -d "$prefix/run/rar/ts" ] && : >"$stale"
"$rarbench" --manifest "$work/p.json" --prefix "$prefix" --wait --out "$work/p" --progress none \
	2>"$work/p.err"
rc=$?
check "a sweep with \"profile\": true exits 0" [ "$rc" -eq 0 ]
check "the tools' state in the prefix (RootAsRole's timestamp files) was emptied before the sweep" \
	[ ! -e "$stale" ]
[ "$rc" -eq 0 ] || sed 's/^/    /' "$work/p.err"
res=$work/p/results.json
check "every result carries its profile beside the timing keys, traced with exit 0" \
	jq -e '[.results[] | (.profile.status == "ok" and .profile.traced_exit_code == 0
		and (.times | length) == 2 and .profile.syscalls.execve.calls >= 1)] | all and length == 6' "$res"
check "the results record how many network interfaces the host showed (sudo's cost follows it)" \
	jq -e '.meta.host.net_interfaces >= 1' "$res"
check "every profile records rarlaunch's peak RSS, the floor of a run's, under 2 MiB (doc/profile.md)" \
	jq -e '[.results[] | .profile.rss_floor_kib > 0 and .profile.rss_floor_kib < 2048] | all' "$res"
check "each run's own peak: memory_usage_byte per run, above the floor, rusage.maxrss_kib in KiB" \
	jq -e '[.results[] | .profile.rss_floor_kib as $f | (.memory_usage_byte | length) == 2
		and .memory_usage_byte == [.rusage.maxrss_kib[] * 1024] and (.rusage.maxrss_kib | min) >= $f]
		| all' "$res"
check "every timed run keeps its rusage counters (page faults, peak RSS, blocks read, switches)" \
	jq -e '[.results[] | .rusage | (.minflt | length) == 2 and (.maxrss_kib | min) > 0
		and (.majflt | length) == 2 and (.inblock | length) == 2 and (.nvcsw | length) == 2] | all' "$res"
# read(2) calls against the policy's bytes between the smallest and the largest point.
drd=$(jq '[.results[] | select(.parameters.subject == "sr-json") | .profile]
	| ((.[2].syscalls.read.calls - .[0].syscalls.read.calls) / (.[2].policy_bytes - .[0].policy_bytes))' "$res")
check "dosr-json 3.3.4: one more read(2) per policy byte (ratio $drd)" \
	jq -en "($drd - 1) | fabs < 0.02"
check "dosr 4.0.3 under nofile 512: at least 500 failed close(2) per run, the same at every point" \
	jq -e '[.results[] | select(.parameters.subject == "sr-json-4.0.3") | .profile.syscalls.close.failed]
		| (.[0] >= 500 and .[0] < 512 and (unique | length) == 1)' "$res"
check "profile.tsv holds a row per counter and point (sys.read of sr-json at 160 tasks)" \
	awk -F'\t' '$1 == "sr-json" && $4 == 160 && $7 == "sys.read" { f = 1 } END { exit !f }' "$work/p/profile.tsv"
check "profile-costs.tsv prices read(2) on this host" \
	awk -F'\t' '$1 == "read" && $2 > 0 { f = 1 } END { exit !f }' "$work/p/profile-costs.tsv"

# The same subject under nofile 2048: its failed close(2) grow by the 1536 more descriptors.
jq '.limits.nofile = 2048 | .axes.nb_tasks = [10] | .subjects = [.subjects[1]]' "$work/p.json" >"$work/big.json"
"$rarbench" --manifest "$work/big.json" --prefix "$prefix" --wait --out "$work/big" --progress none 2>"$work/big.err"
c512=$(jq '.results[] | select(.parameters.subject == "sr-json-4.0.3") | .profile.syscalls.close.failed' "$res" | head -1)
c2048=$(jq '.results[0].profile.syscalls.close.failed' "$work/big/results.json")
check "dosr 4.0.3's failed close(2) follow the limit: $c512 at 512, $c2048 at 2048" \
	[ "$((c2048 - c512))" -eq 1536 ]

# rarplot: the fits and the findings in words.
"$rarplot" --format none -o "$work/plot" "$res" >/dev/null 2>"$work/plot.err"
check "rarplot writes profile-fits.tsv with sr-json's read(2) slope" \
	awk -F'\t' '$1 == "sr-json" && $2 == "sys.read" && $4 > 300 { f = 1 } END { exit !f }' "$work/plot/profile-fits.tsv"
check "the report says sr-json reads one byte per call" \
	grep -q "one read(2) per policy byte: unbuffered reading" "$work/plot/report.md" ||
	sed -n '/^### sr-json$/,/^### /p' "$work/plot/report.md" "$work/plot.err" | sed 's/^/    /'
check "the report says 4.0.3 closes every possible descriptor" \
	grep -q "close(2) once per possible descriptor" "$work/plot/report.md"
check "the report finds every count identical (one profile per point)" \
	grep -q "Every system call count, byte count, file and program count is identical" "$work/plot/report.md"

# A budget of 1 % of two runs a point: each subject's first point is traced, the others are
# predicted to overrun it and run untraced only, saying so; rarplot fits what was traced.
jq '.profile_budget = 1' "$work/p.json" >"$work/budget.json"
"$rarbench" --manifest "$work/budget.json" --prefix "$prefix" --wait --out "$work/budget" \
	--progress none 2>"$work/budget.err"
rc=$?
bres=$work/budget/results.json
check "a budget of 1 %: exit 0, each subject traced at its first point only" \
	jq -e '[.results[] | select(.parameters.nb_tasks == "10") | .profile.status == "ok"] | all and length == 2' "$bres"
[ "$rc" -eq 0 ] || sed 's/^/    /' "$work/budget.err"
# Everything the pass costs is spent from the budget (issue 34): a point it can still start runs
# each subject untraced (the policy's bytes, the untraced run's rusage), a point whose writing
# alone would overrun it is skipped whole (no policy written, no run); both say why.
check "the other points: status skipped, reason profile_budget, the message, no trace" \
	jq -e '[.results[] | select(.parameters.nb_tasks != "10") | .profile
		| .status == "skipped" and .reason == "profile_budget" and (has("syscalls") | not)
		and (((.message | test("^not traced: predicted [0-9.]+ s, [0-9.]+ s left of the profile budget \\(1 % of [0-9.]+ s of timed runs\\)$"))
		      and .policy_bytes > 0 and .rusage.maxrss_kib > 0)
		     or ((.message | test("^profile budget: [0-9.]+ s spent, [0-9.]+ s left of [0-9.]+ s \\(1 % of [0-9.]+ s of timed runs\\)$"))
		      and (has("rusage") | not)))] | all and length == 4' "$bres"
"$rarplot" --format none -o "$work/bplot" "$bres" >/dev/null 2>"$work/bplot.err"
check "the report says where each subject was not traced" \
	grep -q "Not traced at 2 point(s) from nb_tasks = 40: tracing them was predicted to overrun" "$work/bplot/report.md"

# --resume profiles the missing point only, and counts the same.
mv "$work/p/profile/point-2.json" "$work/point-2.before"
"$rarbench" --manifest "$work/p.json" --prefix "$prefix" --wait --out "$work/p" --resume --progress none \
	2>"$work/resume.err"
rc=$?
check "--resume after a lost profile exits 0 and profiles that point again" \
	test "$rc" -eq 0 -a -s "$work/p/profile/point-2.json"
[ "$rc" -eq 0 ] || sed 's/^/    /' "$work/resume.err"
# 3.3.4: every count. 4.0.3 rewrites its timestamp file (PREFIX/run/rar/ts/UID), which grows by
# an entry per parent process it has seen, and polls its child (wait4, non-blocking reads): its
# writes, reads and waits vary run to run (doc/profile.md); its closes and the files it opens do not.
check "3.3.4's system calls, bytes, files and programs are the same as before" \
	sh -c "jq -S '.subjects[\"sr-json\"] | del(.rusage, .profile_ns, .rss_floor_kib)' '$work/point-2.before' >'$work/a' &&
		jq -S '.subjects[\"sr-json\"] | del(.rusage, .profile_ns, .rss_floor_kib)' '$work/p/profile/point-2.json' >'$work/b' && cmp -s '$work/a' '$work/b'" ||
	diff "$work/a" "$work/b" | head -20 | sed 's/^/    /'
check "4.0.3's close(2) and the files it opens are the same as before" \
	sh -c "jq -S '.subjects[\"sr-json-4.0.3\"] | [.syscalls.close, .files]' '$work/point-2.before' >'$work/a' &&
		jq -S '.subjects[\"sr-json-4.0.3\"] | [.syscalls.close, .files]' '$work/p/profile/point-2.json' >'$work/b' && cmp -s '$work/a' '$work/b'"

# Two profiles of the same points given to rarplot: a count made to differ is named with its source.
jq '(.results[] | select(.parameters.subject == "sr-json-4.0.3") | .profile.syscalls.close.failed) += 1' \
	"$res" >"$work/other.json"
"$rarplot" --format none -o "$work/plot2" "$res" "$work/other.json" >/dev/null 2>&1
check "rarplot names the input whose count differs (fail.close of sr-json-4.0.3)" \
	grep -q "| sr-json-4.0.3 | fail.close | .*other.json" "$work/plot2/report.md"

# A subject that exits otherwise when traced: marked, its timing kept.
probe='grep -q "^TracerPid:[[:space:]]*0$" /proc/self/status'
cat >"$work/odd.json" <<JSON
{"name": "odd", "subjects": [{"id": "probe", "format": "doas", "program": "/bin/sh",
  "args": ["-c", $(jq -Rn --arg s "$probe" '$s')]}],
 "axes": {"nb_tasks": [1]}, "bench_user": "$user", "warmup": 0, "min_runs": 2, "max_runs": 2,
 "min_time_s": 0, "profile": true}
JSON
"$rarbench" --manifest "$work/odd.json" --prefix "$prefix" --wait --out "$work/odd" --progress none 2>"$work/odd.err"
check "a subject that fails only when traced: exit 0, status exit_differs, its two timed runs kept" \
	jq -e '.results[0] | .profile.status == "exit_differs" and .profile.traced_exit_code == 1
		and (.times | length) == 2' "$work/odd/results.json"

# No tracer: one line naming the package and the role, exit 2, nothing written.
RARPERF_STRACE=/nonexistent/strace "$rarbench" --manifest "$work/p.json" --prefix "$prefix" --wait \
	--out "$work/none" --progress none 2>"$work/none.err"
rc=$?
check "strace missing: exit 2, one line naming the package strace and the role rarperf_packages" \
	sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$work/none.err') -eq 1 ] &&
		grep -q 'package strace (the playbook.s role rarperf_packages installs it)' '$work/none.err' &&
		[ ! -e '$work/none' ]"
# Plain mode: --profile traces each command once after its runs; the export keeps hyperfine's keys.
(cd "$work" && "$rarbench" --profile -N -r 3 --as-user "$user" --export-json "$work/plain.json" \
	'/usr/bin/id' >/dev/null 2>"$work/plain.err")
rc=$?
check "rarbench --profile in plain mode: exit 0, id's profile beside hyperfine's keys, run as $user" \
	sh -c "[ $rc -eq 0 ] && jq -e '.results[0] | .profile.status == \"ok\" and .profile.execs == 1
		and .profile.files[\"/etc/passwd\"].count >= 1 and (.times | length) == 3 and has(\"mean\")' '$work/plain.json' >/dev/null &&
		grep -q '^Profile of /usr/bin/id: ok' '$work/plain.err'"
RARPERF_STRACE=/nonexistent/strace "$rarbench" --profile -N -r 3 /usr/bin/true >/dev/null 2>"$work/plain-none.err"
rc=$?
check "plain --profile without strace: exit 2 before any run, one line naming the package" \
	sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$work/plain-none.err') -eq 1 ] && grep -q 'package strace' '$work/plain-none.err'"
tap_status
