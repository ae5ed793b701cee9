#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# What a tool cannot hold is a result (issue 54 item 4): sudo-rs with the per-role sudoers layout
# (one user spec of N commands) refuses a list of 128 items, "too many items in list". A sweep of
# sudo and sudo-rs over 1..1000 tasks exits 0: sudo measured at every size, sudo-rs below 128
# only, its refusal (class, its own line, the first failing size) in meta.skipped_subjects, the
# larger sizes skipped without running it; rarplot's report says it in words, its fit rests on
# the sizes before the limit and the figure's line ends with a mark. With "after_refusal":
# "try_larger" each larger size is tried and refused in turn. Reads the prefix (rarbench writes
# and undoes its policies under its lock, as 40-manifest.sh).
set -u
cd "$(dirname "$0")/../.." || exit 2
prefix=${RARPERF_PREFIX:-/opt/rarperf}
rarbench=$PWD/bin/rarbench
. tests/lib/tap.sh
need_prefix "$prefix"
need jq gnuplot
if [ ! -x "$prefix/bin/sudo-rs" ]; then
	notok "$prefix/bin/sudo-rs is missing: run 'make provision' first"
	exit 1
fi
user=$(jq -r '.bench_user // "rarperf"' "$prefix/facts.json")
work=$(mktemp -d /tmp/rarperf-it-limits-XXXXXX)
trap 'rm -rf "$work"' EXIT

# manifest NAME EXTRA_KEYS -> $work/NAME.json: sudo, and sudo-rs with the manifest's default
# (per-role) layout, over sizes on both sides of sudo-rs's limit.
manifest() {
	cat >"$work/$1.json" <<JSON
{"name": "$1", "subjects": [{"id": "sudo", "format": "sudoers"},
  {"id": "sudo-rs", "format": "sudoers", "program": "{prefix}/bin/sudo-rs",
   "policy": "{prefix}/etc/sudoers-rs", "policy_mount_at": "/etc/sudoers-rs"}],
 "axes": {"nb_tasks": [1, 10, 100, 127, 128, 300, 1000]}, "bench_user": "$user",
 "warmup": 1, "min_runs": 5, "max_runs": 5, "min_time_s": 0 $2}
JSON
}

# --- 1. skip_larger (the default): exit 0, the limit named from sudo-rs's own line ---
manifest limits ''
"$rarbench" --manifest "$work/limits.json" --prefix "$prefix" --wait --out "$work/limits" \
	--progress jsonl >"$work/limits.events" 2>"$work/limits.err"
rc=$?
check "a sweep past sudo-rs's list limit exits 0" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || sed 's/^/    /' "$work/limits.err"
res=$work/limits/results.json
sizes() { # SUBJECT: its measured sizes, ascending, space-separated
	jq -r --arg s "$1" '[.results[] | select(.parameters.subject == $s) | .parameters.nb_tasks
		| tonumber] | sort | map(tostring) | join(" ")' "$res"
}
check "sudo measured at every size ($(sizes sudo))" [ "$(sizes sudo)" = "1 10 100 127 128 300 1000" ]
check "sudo-rs measured below its limit only ($(sizes sudo-rs))" [ "$(sizes sudo-rs)" = "1 10 100 127" ]
ref() { jq -r --arg f "$1" '.meta.skipped_subjects[] | select(.id == "sudo-rs") | .refusal | getpath($f | split("."))' "$res"; }
check "the refusal is a limit, in sudo-rs's own words" \
	[ "$(ref class)" = limit ] && grep -q 'too many items in list' <<<"$(ref error)"
check "the first failing size is 128 tasks (point 5)" [ "$(ref at.nb_tasks)" = 128 ] && [ "$(ref point)" = 5 ]
check "refused once, the 2 larger sizes skipped without running it" \
	[ "$(ref refused_steps)" = 1 ] && [ "$(ref skipped_steps)" = 2 ] && [ "$(ref after_refusal)" = skip_larger ]
reason=$(jq -r '.meta.skipped_subjects[] | select(.id == "sudo-rs") | .reason' "$res")
check "the reason says it in words" \
	grep -q 'sudo-rs cannot hold a policy of 128 tasks .*too many items in list' <<<"$reason"
check "rarbench says it on stderr, and as a skip_subject event" \
	grep -q 'sudo-rs cannot hold a policy of 128 tasks' "$work/limits.err" &&
	grep -q '"event":"skip_subject".*sudo-rs cannot hold' "$work/limits.events"
check "the error line is one line of safe text" \
	bash -c '[ "$(jq -r ".meta.skipped_subjects[0].refusal.error" "$1" | wc -l)" = 1 ] &&
		! jq -r ".meta.skipped_subjects[0].refusal.error" "$1" | LC_ALL=C grep -q "[[:cntrl:]]"' _ "$res"

check "the journal holds the refusal at its step" \
	grep -q '"refused":\[{"subject":"sudo-rs","class":"limit","error":"[^"]*too many items in list"}\]' "$work/limits/journal.jsonl"
"$rarbench" --manifest "$work/limits.json" --prefix "$prefix" --wait --resume --out "$work/limits" \
	>/dev/null 2>"$work/resume.err"
rc=$?
check "--resume of the whole sweep exits 0 and still says 128 tasks, from the journal" \
	[ "$rc" -eq 0 ] && [ "$(ref at.nb_tasks)" = 128 ] && [ "$(ref class)" = limit ] && [ "$(sizes sudo-rs)" = "1 10 100 127" ]

# --- 2. rarplot: the report in words, the fit on the sizes before the limit, the mark ---
bin/rarplot -o "$work/plot" "$res" >"$work/plot.out" 2>&1
check "rarplot draws the sweep" [ -s "$work/plot/report.md" ] && [ -s "$work/plot/perf_tasks.svg" ]
check "report.md says which size sudo-rs cannot hold, and why" \
	grep -q 'sudo-rs measured below its limit only: sudo-rs cannot hold a policy of 128 tasks.*too many items in list' "$work/plot/report.md"
check "sudo-rs's fit rests on its 4 sizes below the limit, sudo's on 7" \
	[ "$(awk -F'\t' '$1 == "sudo-rs" {print $5}' "$work/plot/fits.tsv")" = 4 ] &&
	[ "$(awk -F'\t' '$1 == "sudo" {print $5}' "$work/plot/fits.tsv")" = 7 ]
check "the figure ends sudo-rs's line with a mark at 128" grep -q 'cannot hold 128' "$work/plot/perf_tasks.svg"

# --- 3. "after_refusal": "try_larger": every larger size tried, each refused ---
manifest trylarger ', "after_refusal": "try_larger"'
"$rarbench" --manifest "$work/trylarger.json" --prefix "$prefix" --wait --out "$work/trylarger" \
	--progress jsonl >/dev/null 2>"$work/trylarger.err"
rc=$?
res=$work/trylarger/results.json
check "try_larger exits 0" [ "$rc" -eq 0 ]
check "try_larger: sudo-rs refused at 128, 300 and 1000, the smallest kept" \
	[ "$(ref refused_steps)" = 3 ] && [ "$(ref skipped_steps)" = 0 ] && [ "$(ref at.nb_tasks)" = 128 ]
check "try_larger: sudo-rs still measured below its limit only" [ "$(sizes sudo-rs)" = "1 10 100 127" ]

# --- 4. a tool's line is untrusted: an escape sequence in it is kept as text, never sent ---
# "fake" (a shell reading the policy doas would read) refuses 300 tasks and more with an ESC
# sequence and a word of a limit; sudo beside it is measured at every size.
fake='grep -qwE "tasks=(300|1000)" {prefix}/etc/doas.conf || exit 0; printf "\033[2Jfake: policy too large\n" >&2; exit 1'
jq -n --arg user "$user" --arg fake "$fake" '{name: "hostile",
	subjects: [{id: "sudo", format: "sudoers"},
		{id: "fake", format: "doas", program: "/bin/sh", args: ["-c", $fake]}],
	axes: {nb_tasks: [1, 10, 100, 300, 1000]}, bench_user: $user,
	warmup: 1, min_runs: 5, max_runs: 5, min_time_s: 0}' >"$work/hostile.json"
{"name": "hostile", "subjects": [{"id": "sudo", "format": "sudoers"},
  {"id": "fake", "format": "doas", "program": "/bin/sh", "args": ["-c", "$fake"]}],
 "axes": {"nb_tasks": [1, 10, 100, 300, 1000]}, "bench_user": "$user",
 "warmup": 1, "min_runs": 5, "max_runs": 5, "min_time_s": 0}
JSON
"$rarbench" --manifest "$work/hostile.json" --prefix "$prefix" --wait --out "$work/hostile" \
	--progress jsonl >"$work/hostile.events" 2>"$work/hostile.err"
rc=$?
res=$work/hostile/results.json
fakeref() { jq -r '.meta.skipped_subjects[] | select(.id == "fake") | .refusal.'"$1" "$res"; }
check "a refusal with an escape sequence: exit 0, a limit at 300 tasks" \
	[ "$rc" -eq 0 ] && [ "$(fakeref class)" = limit ] && [ "$(fakeref at.nb_tasks)" = 300 ]
check "the tool's ESC is kept as the text \\x1b, in results.json, on stderr and in the events" \
	bash -c '[ "$(jq -r ".meta.skipped_subjects[0].refusal.error" "$1")" = "\\x1b[2Jfake: policy too large" ] &&
		! grep -q $'"'"'\x1b'"'"' "$1" "$2" "$3"' _ "$res" "$work/hostile.err" "$work/hostile.events"
check "sudo measured at every size beside it" [ "$(jq '[.results[] | select(.parameters.subject == "sudo")] | length' "$res")" = 5 ]

# --- 5. a misspelt value: exit 2, the fix named in one line ---
manifest typo ', "after_refusal": "skip_large"'
out=$("$rarbench" --manifest "$work/typo.json" --prefix "$prefix" --dry-run 2>&1)
rc=$?
check "after_refusal misspelt: exit 2 and did you mean" \
	[ "$rc" -eq 2 ] && grep -q '\$.after_refusal: unknown after_refusal "skip_large" (did you mean "skip_larger"?)' <<<"$out"
# --- sudo-rs alone: every subject of a point refuses (or is skipped): still a sweep that ends ---
cat >"$work/alone.json" <<JSON
{"name": "alone", "subjects": [{"id": "sudo-rs", "format": "sudoers", "program": "{prefix}/bin/sudo-rs",
   "policy": "{prefix}/etc/sudoers-rs", "policy_mount_at": "/etc/sudoers-rs"}],
 "axes": {"nb_tasks": [1, 10, 100, 300, 1000]}, "bench_user": "$user",
 "warmup": 1, "min_runs": 3, "max_runs": 3, "rounds": 2, "min_time_s": 0}
JSON
"$rarbench" --manifest "$work/alone.json" --prefix "$prefix" --wait --out "$work/alone" \
	--progress none 2>"$work/alone.err"
rc=$?
check "sudo-rs alone past its limit: the sweep exits 0 (its points with no subject journalled)" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || sed 's/^/    /' "$work/alone.err"
check "... its three sizes below the limit measured, the refusal at 300 recorded" \
	jq -e '([.results[] | .parameters.nb_tasks] == ["1", "10", "100"]) and
		(.meta.skipped_subjects[0].refusal | .class == "limit" and .at.nb_tasks == 300)' \
	"$work/alone/results.json"
"$rarbench" --manifest "$work/alone.json" --prefix "$prefix" --wait --out "$work/alone" \
	--resume --progress none 2>"$work/alone-resume.err"
check "... and --resume reads that journal back (exit 0)" [ $? -eq 0 ]
tap_status
