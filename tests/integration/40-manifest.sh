#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# rarbench --manifest against the provisioned prefix: a small sweep with every point and subject
# present and a positive sudo slope, kill -9 then --resume, a changed manifest refused, bad
# manifests rejected in one line with nothing written, a missing subject recorded in meta.
set -u
cd "$(dirname "$0")/../.." || exit 2
prefix=${RARPERF_PREFIX:-/opt/rarperf}
rarbench=$PWD/bin/rarbench
. tests/lib/tap.sh

if [ ! -r "$prefix/facts.json" ] || [ ! -x "$prefix/bin/sudo" ]; then
	notok "provisioned prefix $prefix is missing: run 'make provision' first"
	exit 1
fi
if [ ! -x "$rarbench" ]; then
	notok "bin/rarbench is not built: run make"
	exit 1
fi
user=$(jq -r '.bench_user // "rarperf"' "$prefix/facts.json")
work=$(mktemp -d /tmp/rarperf-it-manifest-XXXXXX)
trap 'rm -rf "$work"' EXIT

# manifest NAME SUBJECTS_JSON TASKS_JSON RUNS [ROUNDS] -> $work/NAME.json
manifest() {
	cat >"$work/$1.json" <<JSON
{"name": "$1", "subjects": $2,
 "axes": {"nb_tasks": $3}, "bench_user": "$user", "rounds": ${5:-1},
 "warmup": 3, "min_runs": $4, "max_runs": $4, "min_time_s": 0}
JSON
}

# --- 1. a small sweep: all points and subjects, positive sudo slope, missing subject in meta ---
manifest small '[{"id":"sudo","format":"sudoers"},{"id":"doas","format":"doas"},
 {"id":"ghost","format":"rar-json","program":"{prefix}/bin/no-such-tool","optional":true}]' '[1, 300, 1000, 3000]' 30
start=$(date +%s)
"$rarbench" --manifest "$work/small.json" --prefix "$prefix" --wait --out "$work/small" \
	--progress jsonl >"$work/small.events" 2>"$work/small.err"
rc=$?
check "small sweep exits 0 (took $(($(date +%s) - start))s)" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || sed 's/^/    /' "$work/small.err"
res=$work/small/results.json
check "results.json has 4 points x 2 subjects" \
	[ "$(jq '.results | length' "$res" 2>/dev/null)" = 8 ]
check "every (subject, nb_tasks) appears exactly once" \
	[ "$(jq -r '.results[].parameters | "\(.subject) \(.nb_tasks)"' "$res" | sort -u | wc -l)" = 8 ]
check "parameters carry axes, subject and format" \
	[ "$(jq -r '.results[0].parameters | [.nb_roles,.nb_users,.nb_commands,.format] | join(",")' "$res")" = "1,1,1,sudoers" ]
check "results.tsv has a header and 8 rows" [ "$(wc -l <"$work/small/results.tsv")" = 9 ]
check "missing subject recorded in meta.skipped_subjects" \
	[ "$(jq -r '.meta.skipped_subjects[0].id' "$res")" = ghost ]
check "skip_subject event emitted" grep -q '"event":"skip_subject".*"ghost"' "$work/small.events"
check "meta has the manifest hash, host and prefix facts" \
	[ "$(jq -r '.meta.manifest_sha256' "$res")" = "$(sha256sum <"$work/small.json" | cut -d' ' -f1)" ] \
	&& jq -e '.meta.host.cpus >= 1 and (.meta.prefix_facts.tools | type) == "object"' "$res" >/dev/null
check "meta.machine: this machine's ids hashed (never raw), its CPU, mitigations and load" bash -c '
	want=$(printf "rarperf machine-id\\n%s" "$(cat /etc/machine-id)" | sha256sum | cut -c1-16)
	boot=$(printf "rarperf boot-id\\n%s" "$(cat /proc/sys/kernel/random/boot_id)" | sha256sum | cut -c1-16)
	jq -e --arg m "$want" --arg b "$boot" ".meta.machine | .machine_id_sha256 == \$m and
		.boot_id_sha256 == \$b and (.cpu.model_name | length > 0) and (.cpu.caches | type) == \"object\"
		and (.mitigations | type) == \"object\" and (.thp.enabled | length > 0)
		and .load.before.load1 >= 0 and .load.during.points == 4" "$1" >/dev/null &&
	! grep -q -e "$(cat /etc/machine-id)" -e "$(cat /proc/sys/kernel/random/boot_id)" "$1"' _ "$res"
check "done event is last and its hashes match the files" bash -c '
	last=$(tail -1 "$1/small.events")
	[ "$(jq -r .event <<<"$last")" = done ] || exit 1
	for f in results.json results.tsv journal.jsonl; do
		[ "$(jq -r ".files[\"$f\"]" <<<"$last")" = "$(sha256sum <"$1/small/$f" | cut -d" " -f1)" ] || exit 1
	done' _ "$work"
# Least-squares slope of sudo's mean time over nb_tasks.
slope=$(jq -r '.results[] | select(.parameters.subject == "sudo") | "\(.parameters.nb_tasks) \(.mean)"' "$res" |
	awk '{n++; sx+=$1; sy+=$2; sxx+=$1*$1; sxy+=$1*$2}
	     END {if (n < 2) {print "nan"; exit} printf "%.6g\n", (n*sxy - sx*sy) / (n*sxx - sx*sx)}')
check "sudo slope is positive ($slope s/task)" awk -v s="$slope" 'BEGIN {exit !(s > 0)}'

# --- 2. kill -9 mid-sweep, then --resume: every point exactly once (2 rounds: 12 steps) ---
manifest killme '[{"id":"sudo","format":"sudoers"}]' '{"range": [1, 501, 100]}' 40 2
"$rarbench" --manifest "$work/killme.json" --prefix "$prefix" --wait --out "$work/killme" \
	--progress jsonl >"$work/killme.events" 2>/dev/null &
pid=$!
for _ in $(seq 1 600); do # at most 60 s
	[ "$(grep -c '"event":"point_done"' "$work/killme.events" 2>/dev/null)" -ge 2 ] && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
kill -9 "$pid" 2>/dev/null
{ wait "$pid"; } 2>/dev/null
before=$(($(wc -l <"$work/killme/journal.jsonl") - 1))
check "killed run left a partial journal ($before of 12 steps)" sh -c "[ $before -ge 1 ] && [ $before -lt 12 ]"
"$rarbench" --manifest "$work/killme.json" --prefix "$prefix" --wait --out "$work/killme" --resume \
	--progress jsonl >"$work/resume.events" 2>"$work/resume.err"
check "resume exits 0" [ $? -eq 0 ]
check "resume measured only the missing points" \
	[ "$(grep -c '"event":"point_start"' "$work/resume.events")" = $((12 - before)) ]
check "after resume every point appears exactly once" \
	[ "$(jq -r '.results[].parameters.nb_tasks' "$work/killme/results.json" | sort -n | uniq -c | awk '$1 == 1' | wc -l)" = 6 ] \
	&& [ "$(jq '.results | length' "$work/killme/results.json")" = 6 ]
check "each point holds both rounds' 40 runs" \
	[ "$(jq '[.results[].times | length] | unique' -c "$work/killme/results.json")" = "[40]" ]
check "journal holds the header and 12 steps" [ "$(wc -l <"$work/killme/journal.jsonl")" = 13 ]

# --- 3. a changed manifest: resume refuses ---
sed 's/"min_runs": 40/"min_runs": 39/' "$work/killme.json" >"$work/changed.json"
cp "$work/killme/journal.jsonl" "$work/journal.before"
"$rarbench" --manifest "$work/changed.json" --prefix "$prefix" --wait --out "$work/killme" --resume \
	--progress none 2>"$work/changed.err"
rc=$?
check "changed manifest: resume refuses with exit 2" [ "$rc" -eq 2 ]
check "changed manifest: the message says why" grep -q "manifest changed" "$work/changed.err"
check "changed manifest: journal untouched" cmp -s "$work/killme/journal.jsonl" "$work/journal.before"

# --- 4. a subject whose policy does not grant what it runs fails the point loudly ---
manifest denied '[{"id":"sudo-id","format":"sudoers","args":["-n","/usr/bin/id"]}]' '[1]' 5
"$rarbench" --manifest "$work/denied.json" --prefix "$prefix" --wait --out "$work/denied" \
	--progress jsonl >"$work/denied.events" 2>"$work/denied.err"
rc=$?
check "denied command: exit 1" [ "$rc" -eq 1 ]
check "denied command: the error names the subject and exit code" \
	grep -q 'subject sudo-id denied /usr/bin/true (exit 1)' "$work/denied.err"
check "denied command: the error quotes sudo's own words" \
	grep -q 'denied /usr/bin/true (exit 1): sudo: a password is required' "$work/denied.err"
check "denied command: an error event, no point recorded" \
	grep -q '"event":"error"' "$work/denied.events" && [ "$(wc -l <"$work/denied/journal.jsonl")" = 1 ]

# --- 4b. grant checks and measured runs get stdin, stdout and stderr only ---
fdw=$(mktemp -d /tmp/rarperf-it-fds-XXXXXX)
chmod 1777 "$fdw"
manifest fds "[{\"id\":\"ls\",\"format\":\"sudoers\",\"program\":\"/bin/sh\",
 \"args\":[\"-c\",\"ls /proc/self/fd >> $fdw/fds\"]}]" '[1]' 3
(exec 7>"$work/fd7" 251>"$work/fd251" && exec "$rarbench" --manifest "$work/fds.json" --prefix "$prefix" --wait \
	--out "$work/fds" --progress none >/dev/null 2>"$work/fds.err")
check "fds: the run exits 0" [ $? -eq 0 ]
check "fds: check and runs listed fds 0 1 2 only (and ls's own 3) in $(grep -cx 0 "$fdw/fds") runs" \
	[ "$(sort -u "$fdw/fds" | tr '\n' ' ')" = "0 1 2 3 " ] && [ "$(grep -cx 0 "$fdw/fds")" -ge 7 ]
rm -rf "$fdw"

# jqe FILTER FILE: jq -e without printing the value (the TAP log stays readable).
jqe() { jq -e "$@" >/dev/null; }

# --- 4c. precision mode: rounds until each point's estimate is within the target ---
cat >"$work/prec.json" <<JSON
{"name": "prec", "subjects": [{"id":"sudo","format":"sudoers"},{"id":"doas","format":"doas"}],
 "axes": {"nb_tasks": [1, 300, 1000]}, "bench_user": "$user",
 "precision": 2, "min_runs": 20, "max_runs": 200, "rounds": 2}
JSON
"$rarbench" --manifest "$work/prec.json" --prefix "$prefix" --wait --out "$work/prec" \
	--progress jsonl >"$work/prec.events" 2>"$work/prec.err"
rc=$?
check "precision: exit 0" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || sed 's/^/    /' "$work/prec.err"
res=$work/prec/results.json
check "precision: every result records the target, what was reached and its interval" \
	jqe '[.results[].rarbench | .precision == 0.02 and (.precision_met | type) == "boolean"
		and (.precision_reached | type) == "number" and (.ci95 | length) == 2
		and .estimator == "median" and .rounds >= 2] | all' "$res"
check "precision: a point that met it stopped; one that did not ran to max_runs" \
	jqe '[.results[] | .rarbench.precision_met or ((.times | length) + .rarbench.discarded_runs >= 190)] | all' "$res"
check "precision: each step of the journal is a round of 10 runs, with what the host did" \
	sh -c "tail -n +2 '$work/prec/journal.jsonl' | jq -e -s '[.[] | (.point | test(\";round=[0-9]+$\"))
		and (.subjects[0].wall_ns | length) == 10 and (.subjects[0].nivcsw | length) == 10
		and (.host.load1 | type) == \"number\"] | all' >/dev/null"
last=$(grep '"event":"point_done"' "$work/prec.events" | tail -1)
check "precision: the events' total grew with the extra rounds (done = total = $(jq .total <<<"$last") steps, 6 planned)" \
	jqe '.done == .total and .total >= 6' <<<"$last"
check "precision: results carry nivcsw per run and meta the settings" \
	jqe '(.results[0].nivcsw | length) == (.results[0].times | length)
		and .meta.measure.precision == 0.02 and .meta.measure.estimator == "median"' "$res"
# The page cache (issue 46's A/A): every measured program evicted before the sweep, the prefix's
# bin, sbin and libexec among them, none of their pages left resident at that moment.
check "page cache: evicted before the sweep, the prefix's programs among the files, none resident after" \
	jqe '.meta.measure.page_cache | .method == "evict" and .files >= 10 and .pages > 100
		and .resident_after == 0' "$res"
check "precision: rarplot reads it, the estimate as y" \
	sh -c "'$PWD/bin/rarplot' --format none -o '$work/prec-plot' '$res' >'$work/prec-plot.out' 2>&1 &&
		grep -q 'median estimate' '$work/prec-plot/report.md'"
check "page cache: report.md says how the programs came into the cache" \
	grep -q 'page cache.*evict' "$work/prec-plot/report.md"

# --- 4d. contention: a busy loop on the same CPU; flagged steps are measured again ---
cat >"$work/busy.json" <<JSON
{"name": "busy", "subjects": [{"id":"sudo","format":"sudoers"}],
 "axes": {"nb_tasks": [100, 1000]}, "bench_user": "$user", "precision": 50,
 "min_runs": 10, "max_runs": 40, "rounds": 1, "contention_limit": 0.2, "remeasure": 2}
JSON
cpu=$(taskset -pc $$ 2>/dev/null | sed 's/.*: *//; s/[-,].*//')
cpu=${cpu:-0}
busy_pids=
for _ in 1 2; do # two spinners for at most 60 s, on the CPU rarbench is pinned to
	taskset -c "$cpu" timeout 60 sh -c 'while :; do :; done' &
	busy_pids="$busy_pids $!"
done
taskset -c "$cpu" "$rarbench" --manifest "$work/busy.json" --prefix "$prefix" --wait --out "$work/busy" \
	--progress jsonl >"$work/busy.events" 2>"$work/busy.err"
rc=$?
for p in $busy_pids; do kill "$p" 2>/dev/null; done
wait $busy_pids 2>/dev/null
check "contention: exit 0 under a busy loop" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || sed 's/^/    /' "$work/busy.err"
res=$work/busy/results.json
check "contention: runs are flagged contended and counted" \
	jqe '[.results[].rarbench.contended_runs] | add > 0' "$res"
check "contention: flagged steps were measured again ($(grep -c '"event":"remeasure"' "$work/busy.events") times), and say so" \
	sh -c "grep -q '\"event\":\"remeasure\"' '$work/busy.events' &&
		jq -e '[.results[].rarbench.remeasured] | add > 0' '$res' >/dev/null &&
		jq -e '[.results[].rarbench.discarded_runs] | add > 0' '$res' >/dev/null"
check "contention: the host's load is recorded, the contention counted or flagged" \
	jqe '([.results[].rarbench | .load1 > 0] | all) and
		([.results[].rarbench | .contended or .remeasured > 0] | any)' "$res"

# --- 4e. a journal from before contention was recorded still resumes (read with defaults) ---
cat >"$work/old.json" <<JSON
{"name": "old", "subjects": [{"id":"sudo","format":"sudoers"}],
 "axes": {"nb_tasks": [1, 10, 100]}, "bench_user": "$user", "rounds": 2,
 "warmup": 1, "min_runs": 6, "max_runs": 6, "min_time_s": 0}
JSON
"$rarbench" --manifest "$work/old.json" --prefix "$prefix" --wait --out "$work/old" --progress none 2>/dev/null
# Strip what an older rarbench did not write, and drop the last step so the resume has work.
jq -c 'del(.host, .remeasured, .discarded_runs) | if .subjects then .subjects |= map(del(.nivcsw, .stall_ns)) else . end' \
	"$work/old/journal.jsonl" | head -n -1 >"$work/old-journal" && mv "$work/old-journal" "$work/old/journal.jsonl"
"$rarbench" --manifest "$work/old.json" --prefix "$prefix" --wait --out "$work/old" --resume \
	--progress none 2>"$work/old.err"
check "old journal: resumes and completes" [ $? -eq 0 ]
check "old journal: the resumed point has no nivcsw (unknown), the others are whole" \
	jqe '([.results[] | select(.nivcsw == null)] | length) >= 2 and
		([.results[].rarbench.preempted_runs] | map(select(. == null)) | length) >= 2 and
		(.results | length) == 3' "$work/old/results.json"

# --- 5. bad manifests: one line naming the field, exit 2, nothing written ---
bad() { # $1 name, $2 json, $3 expected text
	printf '%s\n' "$2" >"$work/bad-$1.json"
	"$rarbench" --manifest "$work/bad-$1.json" --prefix "$prefix" --wait --out "$work/out-$1" \
		--progress none 2>"$work/bad-$1.err" >/dev/null
	local rc=$?
	if [ "$rc" -eq 2 ] && [ "$(wc -l <"$work/bad-$1.err")" = 1 ] && grep -qF -- "$3" "$work/bad-$1.err" &&
		[ ! -e "$work/out-$1" ]; then
		ok "bad manifest ($1): exit 2, one line, nothing written"
	else
		notok "bad manifest ($1): rc=$rc, stderr: $(head -3 "$work/bad-$1.err")"
	fi
}
S='"subjects":[{"id":"sudo","format":"sudoers"}]'
bad unknown-key "{\"name\":\"b\",\"bench_user\":\"$user\",\"colour\":1,$S}" '$.colour: unknown key'
bad wrong-type "{\"name\":\"b\",\"bench_user\":\"$user\",\"min_runs\":\"5\",$S}" '$.min_runs: expected an integer'
bad empty-axis "{\"name\":\"b\",\"bench_user\":\"$user\",\"axes\":{\"nb_tasks\":[]},$S}" '$.axes.nb_tasks: empty axis'
bad format "{\"name\":\"b\",\"bench_user\":\"$user\",\"subjects\":[{\"id\":\"a\",\"format\":\"sudoers\"},{\"id\":\"b\",\"format\":\"yaml\"}]}" \
	'bad-format.json: $.subjects[1].format: unknown format "yaml" (expected sudoers, doas, rar-json, rar-cbor, please, polkit)'
bad user "{\"name\":\"b\",\"bench_user\":\"no-such-user-rarperf\",$S}" '$.bench_user: no such user'
bad root "{\"name\":\"b\",\"bench_user\":\"root\",$S}" '$.bench_user: "root" is root'
bad precision "{\"name\":\"b\",\"bench_user\":\"$user\",\"precision\":\"1%\",$S}" '$.precision: expected true, false or a percentage'
bad precision-time "{\"name\":\"b\",\"bench_user\":\"$user\",\"precision\":1,\"min_time_s\":3,$S}" '$.min_time_s: does not apply in precision mode'
bad estimator "{\"name\":\"b\",\"bench_user\":\"$user\",\"estimator\":\"mode\",$S}" '$.estimator: unknown'
bad too-large "{\"name\":\"b\",\"bench_user\":\"$user\",\"axes\":{\"nb_tasks\":[1,1000000],\"nb_commands\":[1,1000]},$S}" \
	'$.axes: nb_roles=1 * nb_tasks=1000000 * nb_commands=1000 = 1000000000 commands at the largest point'
bad policy-bytes "{\"name\":\"b\",\"bench_user\":\"$user\",\"axes\":{\"nb_tasks\":[10,1000000],\"nb_commands\":[100]},$S}" \
	'$.axes: nb_roles=1,nb_users=1,nb_tasks=1000000,nb_commands=100: subject "sudo" (sudoers) would write'
bad min-time "{\"name\":\"b\",\"bench_user\":\"$user\",\"min_time_s\":120,$S}" '$.min_time_s: 120 s without max_runs'
tap_status
