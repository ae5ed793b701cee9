#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# What a sweep leaves behind, against the provisioned prefix: no standing grant after a sweep
# (even of /bin/sh, which needs unsafe_command), no policy written outside PREFIX/etc, a hung
# measured command killed at its timeout while the sweep goes on, nothing left after SIGKILL
# once the next run has started (process, namespace directory, grant), and one sweep at a time.
set -u
cd "$(dirname "$0")/../.." || exit 2
prefix=${RARPERF_PREFIX:-/opt/rarperf}
rarbench=$PWD/bin/rarbench
. tests/lib/tap.sh

need jq runuser
need_prefix "$prefix"
user=$(jq -r '.bench_user // "rarperf"' "$prefix/facts.json")
work=$(mktemp -d /tmp/rarperf-it-leave-XXXXXX)
trap 'rm -rf "$work"' EXIT

# manifest NAME EXTRA_KEYS SUBJECTS TASKS -> $work/NAME.json
manifest() {
	cat >"$work/$1.json" <<JSON
{"name": "$1", $2 "subjects": $3, "axes": {"nb_tasks": $4}, "bench_user": "$user",
 "warmup": 1, "min_runs": 3, "max_runs": 3, "min_time_s": 0}
JSON
}
as_bench() { runuser -u "$user" -- "$@" </dev/null >/dev/null 2>&1; }

# --- 1. a sweep of /bin/sh: refused without unsafe_command; with it, no grant afterwards ---
manifest sh '"command": "/bin/sh",' '[{"id":"sudo","format":"sudoers","args":["-n","{command}","-c","exit 0"]},
 {"id":"doas","format":"doas","args":["-n","{command}","-c","exit 0"]}]' '[1, 5]'
cp "$prefix/etc/doas.conf" "$work/doas.before"
"$rarbench" --manifest "$work/sh.json" --prefix "$prefix" --wait --out "$work/sh" --progress none 2>"$work/sh.err"
rc=$?
check "command /bin/sh without unsafe_command: exit 2 naming \$.command" \
	sh -c "[ $rc -eq 2 ] && grep -q 'command.*unsafe_command' '$work/sh.err' && [ ! -e '$work/sh' ]"
sed -i 's/"command": "\/bin\/sh",/"command": "\/bin\/sh", "unsafe_command": true,/' "$work/sh.json"
"$rarbench" --manifest "$work/sh.json" --prefix "$prefix" --wait --out "$work/sh" --progress none 2>"$work/sh.err"
rc=$?
check "sweep of /bin/sh with unsafe_command: exit 0 (the grant held while measured)" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || sed 's/^/    /' "$work/sh.err"
check "after it, doas -n /bin/sh as the bench user is denied" \
	sh -c "! runuser -u '$user' -- '$prefix/bin/doas' -n /bin/sh -c id </dev/null >/dev/null 2>&1"
check "after it, sudo -n /bin/sh as the bench user is denied" \
	sh -c "! runuser -u '$user' -- '$prefix/bin/sudo' -n /bin/sh -c id </dev/null >/dev/null 2>&1"
check "after it, not even /usr/bin/true is granted (deny-all: match=none)" \
	sh -c "! runuser -u '$user' -- '$prefix/bin/doas' -n /usr/bin/true && grep -q 'match=none' '$prefix/etc/doas.conf' && grep -q 'match=none' '$prefix/etc/sudoers'"
check "no record, no holder left in $prefix/run" \
	sh -c "[ ! -e '$prefix/run/state.json' ] && [ ! -e '$prefix/run/holder' ]"

# --- 2. a policy outside the prefix: exit 2, the target untouched ---
echo precious >"$work/victim"
manifest out '' "[{\"id\":\"x\",\"format\":\"doas\",\"program\":\"/usr/bin/true\",\"policy\":\"$work/victim\"}]" '[1]'
"$rarbench" --manifest "$work/out.json" --prefix "$prefix" --wait --out "$work/out" --progress none 2>"$work/out.err"
rc=$?
check "policy outside PREFIX/etc: exit 2, one line naming it" \
	sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$work/out.err') -eq 1 ] && grep -q 'may only be written in' '$work/out.err'"
check "policy outside PREFIX/etc: the target is untouched" [ "$(cat "$work/victim")" = precious ]
manifest dotdot '' '[{"id":"x","format":"doas","program":"/usr/bin/true","policy":"{prefix}/etc/../../../tmp/x-rarperf"}]' '[1]'
"$rarbench" --manifest "$work/dotdot.json" --prefix "$prefix" --wait --out "$work/dotdot" --progress none 2>/dev/null
check "policy escaping PREFIX/etc with ..: exit 2, nothing written" \
	sh -c "[ $? -eq 2 ] && [ ! -e /tmp/x-rarperf ]"

# --- 3. a hung measured command: killed at run_timeout_s, the other points measured ---
# The tool hangs only at the 3-task point (its policy says so), in the grant check.
hang='grep -qw tasks=3 {prefix}/etc/doas.conf && exec sleep 60; exit 0'
manifest hang '"run_timeout_s": 1,' "[{\"id\":\"hang\",\"format\":\"doas\",\"program\":\"/bin/sh\",
 \"args\":[\"-c\",\"$hang\"]}]" '[1, 3, 5]'
start=$(date +%s)
"$rarbench" --manifest "$work/hang.json" --prefix "$prefix" --wait --out "$work/hang" --progress none 2>"$work/hang.err"
rc=$?
took=$(($(date +%s) - start))
check "hung command: exit 1 after ${took}s (bounded by the 1 s timeout)" sh -c "[ $rc -eq 1 ] && [ $took -lt 30 ]"
check "hung command: the message names the point and the timeout" grep -q 'point 2.*run_timeout_s' "$work/hang.err"
check "hung command: the other two points are in results.json" \
	[ "$(jq -r '[.results[].parameters.nb_tasks] | sort | join(",")' "$work/hang/results.json" 2>/dev/null)" = "1,5" ]
check "hung command: no sleep of it is left" sh -c "! pgrep -u '$user' -f 'sleep 60' >/dev/null"

# --- 4. SIGKILL mid-run, then a new run: nothing left ---
mount_subject=
if [ -d /etc ]; then
	mount_subject=',{"id":"ns","format":"sudoers","program":"/bin/true","policy":"{prefix}/etc/sudoers-ns","policy_mount_at":"/etc/rarperf-it-ns"}'
fi
hangall='exec sleep 60'
manifest killed '"run_timeout_s": 120,' "[{\"id\":\"hang\",\"format\":\"doas\",\"program\":\"/bin/sh\",
 \"args\":[\"-c\",\"$hangall\"]}$mount_subject]" '[1]'
ls -d /tmp/rarbench-mntns-* 2>/dev/null | sort >"$work/ns.before"
"$rarbench" --manifest "$work/killed.json" --prefix "$prefix" --wait --out "$work/killed" --progress none 2>/dev/null &
pid=$!
for _ in $(seq 1 100); do # at most 10 s for the grant check to start hanging
	pgrep -u "$user" -f 'sleep 60' >/dev/null && break
	sleep 0.1
done
check "killed run: its measured command was running" pgrep -u "$user" -f 'sleep 60' >/dev/null
check "killed run: it held the prefix's lock and a record" [ -e "$prefix/run/state.json" ]
kill -9 "$pid"
{ wait "$pid"; } 2>/dev/null
check "after SIGKILL, the measured command outlived it (what the next run must end)" \
	pgrep -u "$user" -f 'sleep 60' >/dev/null
manifest next '' '[{"id":"doas","format":"doas"}]' '[1]'
"$rarbench" --manifest "$work/next.json" --prefix "$prefix" --wait --out "$work/next" --progress none 2>"$work/next.err"
rc=$?
check "next run: exit 0 and says what it undid" \
	sh -c "[ $rc -eq 0 ] && grep -q 'took over the lock' '$work/next.err' && grep -q 'undid what a run that died left' '$work/next.err'"
[ "$rc" -eq 0 ] || sed 's/^/    /' "$work/next.err"
check "next run: no leftover measured process" sh -c "! pgrep -u '$user' -f 'sleep 60' >/dev/null"
ls -d /tmp/rarbench-mntns-* 2>/dev/null | sort >"$work/ns.after"
check "next run: no /tmp/rarbench-mntns-* directory beyond those before" cmp -s "$work/ns.before" "$work/ns.after"
check "next run: no overlay mount left in this namespace" sh -c "! grep -q rarbench-mntns /proc/self/mountinfo"
check "next run: the dead run's policies are deny-all" \
	sh -c "grep -q 'match=none' '$prefix/etc/doas.conf' && { [ ! -e '$prefix/etc/sudoers-ns' ] || grep -q 'match=none' '$prefix/etc/sudoers-ns'; }"
rm -f "$prefix/etc/sudoers-ns"

# --- 4b. SIGTERM mid-run: the measured group killed, every policy deny-all, lock released, exit 1 ---
manifest term '"run_timeout_s": 120,' '[{"id":"hang","format":"doas","program":"/bin/sh","args":["-c","exec sleep 60"]}]' '[1]'
"$rarbench" --manifest "$work/term.json" --prefix "$prefix" --wait --out "$work/term" --progress none 2>"$work/term.err" &
pid=$!
for _ in $(seq 1 100); do # at most 10 s for the grant check to start hanging
	pgrep -u "$user" -f 'sleep 60' >/dev/null && break
	sleep 0.1
done
start=$(date +%s%N)
kill -TERM "$pid"
wait "$pid"
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
check "SIGTERM: exit 1 in ${ms} ms, saying it was interrupted" \
	sh -c "[ $rc -eq 1 ] && [ $ms -lt 5000 ] && grep -q 'interrupted' '$work/term.err'"
check "SIGTERM: the measured process is gone" sh -c "! pgrep -u '$user' -f 'sleep 60' >/dev/null"
check "SIGTERM: the policy grants nothing, no record, no holder" \
	sh -c "grep -q 'match=none' '$prefix/etc/doas.conf' && [ ! -e '$prefix/run/state.json' ] && [ ! -e '$prefix/run/holder' ]"
check "SIGTERM: the journal is whole (its header, then whole lines)" \
	sh -c "jq -e . '$work/term/journal.jsonl' >/dev/null"

# --- 5. one sweep at a time: the second exits 3 naming the first; with --wait it waits ---
manifest slow '"command": "/usr/bin/sleep",' '[{"id":"doas","format":"doas","args":["-n","{command}","1"]}]' '[1, 2]'
"$rarbench" --manifest "$work/slow.json" --prefix "$prefix" --wait --out "$work/slow" --progress none 2>/dev/null &
first=$!
for _ in $(seq 1 100); do
	[ -e "$prefix/run/holder" ] && break
	sleep 0.1
done
manifest second '' '[{"id":"doas","format":"doas"}]' '[1]'
"$rarbench" --manifest "$work/second.json" --prefix "$prefix" --out "$work/second" --progress none 2>"$work/second.err"
rc=$?
check "second run on a locked prefix: exit 3" [ "$rc" -eq 3 ]
check "second run: one line naming the holder's pid and manifest" \
	sh -c "[ \$(wc -l <'$work/second.err') -eq 1 ] && grep -q 'in use by pid $first .*slow.json' '$work/second.err'"
check "second run: wrote nothing" [ ! -e "$work/second" ]
"$rarbench" --manifest "$work/second.json" --prefix "$prefix" --out "$work/second" --progress none --wait 2>/dev/null
rc=$?
wait "$first"
first_rc=$?
check "with --wait it ran after the first (both exit 0)" sh -c "[ $rc -eq 0 ] && [ $first_rc -eq 0 ]"
check "the first run's results are complete" [ "$(jq '.results | length' "$work/slow/results.json" 2>/dev/null)" = 2 ]
s2=$(jq -r .meta.started "$work/second/results.json" 2>/dev/null)
f1=$(jq -r .meta.finished "$work/slow/results.json" 2>/dev/null)
check "the second run started ($s2) once the first had finished ($f1)" \
	bash -c '[ -n "$1" ] && [ -n "$2" ] && [[ ! "$1" < "$2" ]]' _ "$s2" "$f1"

tap_status
