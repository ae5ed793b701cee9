#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# What a sweep leaves behind, against the provisioned prefix: no standing grant after a sweep
# (even of /bin/sh, which needs unsafe_command), no policy written outside PREFIX/etc, a hung
# measured command killed at its timeout while the sweep goes on, nothing left after SIGKILL
# once the next run has started — a root process a real setuid tool (doas) started with a fresh
# environment, the private mount namespace it ran in (looked at from inside: its own mount
# table), the namespace's directory, the grant — every catchable fatal signal ending in deny-all,
# PREFIX/run closed to other users, a policy write that fails mid-sweep ending the sweep (never
# measured again), and one sweep at a time.
# RARBENCH=/path/to/rarbench runs it against another build (it must fail on one without these).
set -u
cd "$(dirname "$0")/../.." || exit 2
prefix=${RARPERF_PREFIX:-/opt/rarperf}
rarbench=${RARBENCH:-$PWD/bin/rarbench}
. tests/lib/tap.sh

need jq runuser flock chattr findmnt unshare
need_prefix "$prefix"
# The cases below kill runs mid-point and read the prefix's policies and run/ between runs: on a
# prefix other sweeps share, one of theirs could take the lock a killed run frees and undo its
# state first. So the script runs again in a private mount namespace that sees, at the prefix's
# path, a copy of it (setuid bits, owners, capabilities kept; run/ as an older provisioning left it,
# 0755 with a 0644 lock, for rarbench to close): its own lock, policies and record. Processes,
# cgroups and /tmp stay the machine's.
if [ -z "${RARPERF_IT45_COPY:-}" ]; then
	copy=$(mktemp -d /var/tmp/rarperf-it45-prefix-XXXXXX) || exit 1
	# A sweep on the shared prefix may be renaming a policy meanwhile: its temporary files
	# come and go (cp's complaint about one is no failure); what the copy needs is checked.
	(cd "$prefix" && find . -mindepth 1 -maxdepth 1 ! -name run -exec cp -a {} "$copy/" \; 2>/dev/null)
	[ -r "$copy/facts.json" ] && [ -u "$copy/bin/doas" ] && [ -r "$copy/etc/doas.conf" ] &&
		install -d -m 0755 "$copy/run" && install -m 0644 /dev/null "$copy/run/lock" || {
		notok "cannot copy $prefix to $copy"
		rm -rf "$copy"
		exit 1
	}
	chmod 0755 "$copy"
	RARPERF_IT45_COPY=$copy unshare --mount --propagation private \
		bash -c 'mount --bind "$RARPERF_IT45_COPY" "$1" && shift && exec bash "$@"' _ "$prefix" "$0"
	rc=$?
	rm -rf "$copy"
	exit "$rc"
fi
user=$(jq -r '.bench_user // "rarperf"' "$prefix/facts.json")
work=$(mktemp -d /tmp/rarperf-it-leave-XXXXXX)
# Root sleeps this test made a sweep start (through doas): whatever a failing build left is
# killed at the end, each by its pid, checked against its command line first.
started_pids=
test_start=$(date +%s)
cleanup() {
	local p age
	# A failing build can leave root sleeps the test never saw start: those with this test's
	# arguments that started after it did are its own.
	for p in $(pgrep -u 0 -xf '/usr/bin/sleep 36[01][0-9]'); do
		age=$(ps -o etimes= -p "$p" 2>/dev/null | tr -d ' ')
		[ -n "$age" ] && [ "$age" -le $(($(date +%s) - test_start)) ] && started_pids="$started_pids $p"
	done
	for p in $started_pids; do
		case "$(tr '\0' ' ' 2>/dev/null <"/proc/$p/cmdline")" in
		"/usr/bin/sleep 36"*) kill -9 "$p" 2>/dev/null ;;
		esac
	done
	chattr -i "$prefix/etc/sudoers-it-fail" 2>/dev/null
	rm -f "$prefix/etc/sudoers-it-fail" "$prefix/etc/sudoers-it-fail.link" "$prefix/etc/sudoers-ns"
	rm -rf "$work"
}
trap cleanup EXIT

# descends PID ANCESTOR: whether ANCESTOR is PID's parent, or its parent's (a launcher between).
descends() {
	local p=$1 i
	for i in 1 2 3 4; do
		p=$(awk '{print $4}' 2>/dev/null <"/proc/$p/stat")
		[ -n "$p" ] && [ "$p" -gt 1 ] || return 1
		[ "$p" = "$2" ] && return 0
	done
	return 1
}
# root_sleep PID ARG: the pid of the root "/usr/bin/sleep ARG" the sweep PID started (doas execs
# it in the grant check's process: a child of rarbench, or of the launcher it runs from); waits
# 60 s at most (the sweep may wait for the lock).
root_sleep() {
	local p
	for _ in $(seq 1 600); do
		for p in $(pgrep -u 0 -xf "/usr/bin/sleep $2"); do
			if descends "$p" "$1"; then
				echo "$p"
				return 0
			fi
		done
		sleep 0.1
	done
	return 1
}
# in_mntns INODE: whether any process still runs in the mount namespace INODE.
in_mntns() {
	local f
	for f in /proc/[0-9]*/ns/mnt; do
		[ "$(stat -Lc %i "$f" 2>/dev/null)" = "$1" ] && return 0
	done
	return 1
}
# alive PID: the process exists and is not a zombie (a reparented one may wait to be reaped).
alive() {
	local st
	st=$(sed -n 's/^[0-9]* ([^)]*) \(.\).*/\1/p' 2>/dev/null <"/proc/$1/stat")
	[ -n "$st" ] && [ "$st" != Z ]
}
gone() { ! alive "$1"; }
# bench_denied: the bench user cannot run the safe command through doas now.
bench_denied() {
	! runuser -u "$user" -- "$prefix/bin/doas" -n /usr/bin/sleep 0 </dev/null >/dev/null 2>&1
}

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
	sh -c "! runuser -u '$user' -- '$prefix/bin/doas' -n /usr/bin/true 2>/dev/null && grep -q 'match=none' '$prefix/etc/doas.conf' && grep -q 'match=none' '$prefix/etc/sudoers'"
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
hang='grep -qw tasks=3 {prefix}/etc/doas.conf && exec sleep 3661; exit 0'
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
check "hung command: no sleep of it is left" sh -c "! pgrep -u '$user' -xf 'sleep 3661' >/dev/null"

# --- 3b. a subject that hangs beside sudo: it costs its own runs of that point, not the others' ---
# hangcheck hangs in its grant check at 3 tasks; hangrun passes its check at 5 tasks and hangs in
# its first measured run. sudo never hangs: its three points must all be in results.json.
chmod 0711 "$work"
install -d -m 0700 -o "$user" "$work/hang"
flag=$work/hang/flag
hc='grep -qw tasks=3 {prefix}/etc/doas.conf && exec sleep 3662; exit 0'
hr="grep -qw tasks=5 {prefix}/etc/doas-it-hang.conf || exit 0; [ -e $flag ] && exec sleep 3662; touch $flag"
manifest hangpart '"run_timeout_s": 2,' "[{\"id\":\"sudo\",\"format\":\"sudoers\"},
 {\"id\":\"hangcheck\",\"format\":\"doas\",\"program\":\"/bin/sh\",\"args\":[\"-c\",\"$hc\"]},
 {\"id\":\"hangrun\",\"format\":\"doas\",\"program\":\"/bin/sh\",\"policy\":\"{prefix}/etc/doas-it-hang.conf\",
  \"args\":[\"-c\",\"$hr\"]}]" '[1, 3, 5]'
"$rarbench" --manifest "$work/hangpart.json" --prefix "$prefix" --wait --out "$work/hangpart" --progress none 2>"$work/hangpart.err"
rc=$?
rm -f "$prefix/etc/doas-it-hang.conf"
points_of() { jq -r --arg s "$1" '[.results[] | select(.parameters.subject == $s) | .parameters.nb_tasks] | sort | join(",")' \
	"$work/hangpart/results.json" 2>/dev/null; }
check "hung subjects beside sudo: exit 1" [ "$rc" -eq 1 ]
check "hung subjects beside sudo: sudo's three points are all in results.json" [ "$(points_of sudo)" = "1,3,5" ]
check "hung in its grant check at 3 tasks: its other points kept (1,5)" [ "$(points_of hangcheck)" = "1,5" ]
check "hung in a measured run at 5 tasks: its other points kept (1,3)" [ "$(points_of hangrun)" = "1,3" ]
check "each hung subject reported as timed out at its point" \
	sh -c "grep -q 'point 2: subject hangcheck timed out' '$work/hangpart.err' && grep -q 'point 3: subject hangrun timed out' '$work/hangpart.err'"
[ "$rc" -eq 1 ] || sed 's/^/    /' "$work/hangpart.err"
check "hung subjects: no sleep of theirs is left" sh -c "! pgrep -u '$user' -xf 'sleep 3662' >/dev/null"

# --- 4. SIGKILL mid-run, then a new run: nothing left ---
# The grant check runs sudo-rs, a real setuid tool, which resets the environment and starts
# /usr/bin/sleep as root; the subject's runs join a private mount namespace (policy_mount_at: its
# policy shown at /etc/sudoers-rs, where sudo-rs reads it, the one place R23 allows for it).
# The granted command (a shell, as root) also starts a sleep in a session of its own, as a daemon
# would: out of the run's process group, so nothing that kills the group ends it.
daemon='setsid /usr/bin/sleep 3601 </dev/null >/dev/null 2>&1 & exec /usr/bin/sleep 3610'
manifest killed '"command": "/bin/sh", "unsafe_command": true, "run_timeout_s": 120,' \
	"[{\"id\":\"sudors\",\"format\":\"sudoers\",\"program\":\"{prefix}/bin/sudo-rs\",\"policy\":\"{prefix}/etc/sudoers-rs\",
	  \"sudoers_layout\":\"per-task\",\"args\":[\"-n\",\"{command}\",\"-c\",\"$daemon\"],\"policy_mount_at\":\"/etc/sudoers-rs\"}]" '[1]'
ls -d /tmp/rarbench-mntns-* 2>/dev/null | sort >"$work/ns.before"
"$rarbench" --manifest "$work/killed.json" --prefix "$prefix" --wait --out "$work/killed" --progress none 2>/dev/null &
pid=$!
spid=$(root_sleep "$pid" 3601)
started_pids="$started_pids $spid"
check "killed run: what sudo-rs started as root started /usr/bin/sleep in a session of its own" \
	sh -c "[ -n '$spid' ] && [ \"\$(ps -o sid= -p '$spid' | tr -d ' ')\" = '$spid' ]"
env_marked=no
[ -n "$spid" ] && tr '\0' '\n' <"/proc/$spid/environ" | grep -q '^RARBENCH_PREFIX=' && env_marked=yes
check "killed run: the root sleep's environment does not carry RARBENCH_PREFIX (sudo-rs reset it)" \
	[ "$env_marked" = no ]
check "killed run: the sleep runs in the private namespace (its own mount table shows the overlay)" \
	sh -c "[ -n '$spid' ] && grep -q 'rarbench-mntns' /proc/$spid/mountinfo && ! grep -q rarbench-mntns /proc/self/mountinfo"
nsino=$(stat -Lc %i "/proc/$spid/ns/mnt" 2>/dev/null)
nsdir=$(sed -n 's/.*\(rarbench-mntns-[A-Za-z0-9]*\).*/\1/p' "/proc/$spid/mountinfo" 2>/dev/null | head -n 1)
check "killed run: it held the prefix's lock and a record naming the namespace directory" \
	sh -c "[ -n '$nsdir' ] && grep -q '$nsdir' '$prefix/run/state.json'"
kill -9 "$pid"
{ wait "$pid"; } 2>/dev/null
# Whether it outlived rarbench depends on what stands between (a launcher may end its runs when
# rarbench dies): said, not checked; what counts is that nothing is left once the next run began.
if alive "$spid"; then echo "# after SIGKILL, the root sleep outlived it (the next run must end it)"; else
	echo "# after SIGKILL, the root sleep ended with rarbench's launcher"
fi
manifest next '' '[{"id":"doas","format":"doas"}]' '[1]'
"$rarbench" --manifest "$work/next.json" --prefix "$prefix" --wait --out "$work/next" --progress none 2>"$work/next.err"
rc=$?
check "next run: exit 0 and says what it undid" \
	sh -c "[ $rc -eq 0 ] && grep -q 'took over the lock' '$work/next.err' && grep -q 'undid what a run that died left' '$work/next.err'"
[ "$rc" -eq 0 ] || sed 's/^/    /' "$work/next.err"
sleep 0.2
check "next run: the root sleep sudo-rs started is gone" gone "$spid"
left=yes
[ -n "$nsino" ] && ! in_mntns "$nsino" && left=no
check "next run: no process left in the dead run's mount namespace (inode $nsino)" [ "$left" = no ]
check "next run: no process's mount table holds the namespace's overlay ($nsdir)" \
	sh -c "[ -n '$nsdir' ] && ! grep -qs '$nsdir' /proc/[0-9]*/mountinfo"
ls -d /tmp/rarbench-mntns-* 2>/dev/null | sort >"$work/ns.after"
check "next run: its directory /tmp/$nsdir is gone, no other left" \
	sh -c "[ -n '$nsdir' ] && [ ! -e '/tmp/$nsdir' ] && ! comm -13 '$work/ns.before' '$work/ns.after' | grep -q ."
check "next run: the dead run's policies are deny-all" \
	sh -c "grep -q 'match=none' '$prefix/etc/doas.conf'"
check "next run: the bench user cannot run the command" bench_denied
cg2=$(findmnt -n -t cgroup2 -o TARGET | head -n 1)
check "next run: no sweep cgroup of the dead run left" sh -c "[ -z '$cg2' ] || [ ! -e '$cg2/rarperf-sweep-$pid' ]"

# --- 4b. SIGTERM mid-run: the measured group killed, every policy deny-all, lock released, exit 1 ---
manifest term '"run_timeout_s": 120,' '[{"id":"hang","format":"doas","program":"/bin/sh","args":["-c","exec sleep 3663"]}]' '[1]'
"$rarbench" --manifest "$work/term.json" --prefix "$prefix" --wait --out "$work/term" --progress none 2>"$work/term.err" &
pid=$!
for _ in $(seq 1 100); do # at most 10 s for the grant check to start hanging
	pgrep -u "$user" -xf 'sleep 3663' >/dev/null && break
	sleep 0.1
done
start=$(date +%s%N)
kill -TERM "$pid"
wait "$pid"
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
check "SIGTERM: exit 1 in ${ms} ms, saying it was interrupted" \
	sh -c "[ $rc -eq 1 ] && [ $ms -lt 5000 ] && grep -q 'interrupted' '$work/term.err'"
check "SIGTERM: the measured process is gone" sh -c "! pgrep -u '$user' -xf 'sleep 3663' >/dev/null"
check "SIGTERM: the policy grants nothing, no record, no holder" \
	sh -c "grep -q 'match=none' '$prefix/etc/doas.conf' && [ ! -e '$prefix/run/state.json' ] && [ ! -e '$prefix/run/holder' ]"
check "SIGTERM: the journal is whole (its header, then whole lines)" \
	sh -c "jq -e . '$work/term/journal.jsonl' >/dev/null"

# --- 4c. every catchable fatal signal mid-point: deny-all, the grant's root process ended ---
n=3602
for sig in QUIT XCPU USR1 ALRM; do
	n=$((n + 1))
	manifest "sig$sig" '"command": "/usr/bin/sleep", "run_timeout_s": 120,' \
		'[{"id":"doas","format":"doas","args":["-n","{command}","'$n'"]}]' '[1]'
	# A background job of a script starts with SIGQUIT (and SIGINT) ignored; from a terminal
	# it is not: every signal at its default, as a person's rarbench gets it.
	env --default-signal "$rarbench" --manifest "$work/sig$sig.json" --prefix "$prefix" --wait \
		--out "$work/sig$sig" --progress none 2>"$work/sig$sig.err" &
	pid=$!
	spid=$(root_sleep "$pid" "$n")
	started_pids="$started_pids $spid"
	check "SIG$sig: the point's root sleep (through doas) was running" [ -n "$spid" ]
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	check "SIG$sig: exit 1, saying it was interrupted" \
		sh -c "[ $rc -eq 1 ] && grep -q interrupted '$work/sig$sig.err'"
	check "SIG$sig: doas.conf is deny-all" grep -q 'match=none' "$prefix/etc/doas.conf"
	check "SIG$sig: the bench user cannot run the command" bench_denied
	check "SIG$sig: the root sleep is gone" gone "$spid"
	check "SIG$sig: no record, no holder" \
		sh -c "[ ! -e '$prefix/run/state.json' ] && [ ! -e '$prefix/run/holder' ]"
	# What a failing build left, for the next case to start clean.
	[ -e "$prefix/run/state.json" ] && "$rarbench" --manifest "$work/next.json" --prefix "$prefix" --wait \
		--out "$work/sig$sig-next" --progress none 2>/dev/null
done

# --- 4c'. a fault (SIGSEGV) mid-point: deny-all written by its handler before it dies ---
manifest sigsegv '"command": "/usr/bin/sleep", "run_timeout_s": 120,' \
	'[{"id":"doas","format":"doas","args":["-n","{command}","3609"]}]' '[1]'
(ulimit -c 0 && exec env --default-signal "$rarbench" --manifest "$work/sigsegv.json" --prefix "$prefix" --wait \
	--out "$work/sigsegv" --progress none 2>"$work/sigsegv.err") &
pid=$!
sleep 0.1
rpid=$(pgrep -P "$pid" -x rarbench | head -n 1)
[ -n "$rpid" ] || rpid=$pid
spid=$(root_sleep "$rpid" 3609)
started_pids="$started_pids $spid"
check "SIGSEGV: the point's root sleep (through doas) was running" [ -n "$spid" ]
kill -SEGV "$rpid"
wait "$pid"
rc=$?
check "SIGSEGV: it died of the fault (exit $rc)" [ "$rc" -eq 139 ]
check "SIGSEGV: doas.conf is deny-all before any other run" grep -q 'match=none' "$prefix/etc/doas.conf"
check "SIGSEGV: the bench user cannot run the command" bench_denied
"$rarbench" --manifest "$work/next.json" --prefix "$prefix" --wait --out "$work/sigsegv-next" --progress none 2>/dev/null
sleep 0.2
check "SIGSEGV: the next run ends the root sleep" gone "$spid"
check "SIGSEGV: the next run clears the record" [ ! -e "$prefix/run/state.json" ]

# --- 4d. PREFIX/run is root's alone: no other user can even open the lock ---
check "PREFIX/run is 0700, its lock 0600, both root's" \
	sh -c "[ \"\$(stat -c %a:%u '$prefix/run')\" = 700:0 ] && [ \"\$(stat -c %a:%u '$prefix/run/lock')\" = 600:0 ]"
runuser -u nobody -- flock -n "$prefix/run/lock" true 2>"$work/flock.err"
check "runuser -u nobody -- flock PREFIX/run/lock: cannot open it" grep -q 'Permission denied' "$work/flock.err"

# --- 4e. a policy write that fails mid-sweep: the sweep ends (exit 1), never measured again ---
# A second name for a policy file, made immutable after the first point: the write's transaction
# refuses to clear the attribute of a file with other hard links, so every later write of it fails.
manifest failwrite '"command": "/usr/bin/sleep", "remeasure": 3,' \
	'[{"id":"doas","format":"doas","args":["-n","{command}","0.2"]},
	  {"id":"aux","format":"sudoers","program":"/usr/bin/true","policy":"{prefix}/etc/sudoers-it-fail"}]' '[1, 2, 3, 4]'
"$rarbench" --manifest "$work/failwrite.json" --prefix "$prefix" --wait --out "$work/failwrite" --progress jsonl \
	>"$work/failwrite.jsonl" 2>"$work/failwrite.err" &
pid=$!
waited=0
lines=0
while [ "$waited" -lt 600 ]; do # the first point journalled (a header and one step)
	lines=$(wc -l 2>/dev/null <"$work/failwrite/journal.jsonl" || echo 0)
	[ "$lines" -ge 2 ] && break
	waited=$((waited + 1))
	sleep 0.05
done
# The sweep renames a new file over it at every write: the link and the attribute must land on
# one inode, else (a rename between the two) again.
f=$prefix/etc/sudoers-it-fail
for _ in $(seq 1 50); do
	ln -f "$f" "$f.link" && chattr +i "$f" &&
		[ "$(stat -c %i "$f")" = "$(stat -c %i "$f.link")" ] && lsattr "$f" | grep -q '^----i' && break
	chattr -i "$f" "$f.link" 2>/dev/null
	sleep 0.02
done
wait "$pid"
rc=$?
check "failed policy write: exit 1 with the error naming the file" \
	sh -c "[ $rc -eq 1 ] && grep -q 'sudoers-it-fail.*immutable' '$work/failwrite.err'"
grep -q 'sudoers-it-fail.*immutable' "$work/failwrite.err" ||
	{ echo "    exit $rc, made immutable after $lines journal line(s) (${waited}x50 ms); its events:"; sed 's/^/    /' "$work/failwrite.err" "$work/failwrite.jsonl"; }
check "failed policy write: never measured again (no remeasure event)" \
	sh -c "! grep -q '\"remeasure\"' '$work/failwrite.jsonl' && ! grep -q 'measured again' '$work/failwrite.err'"
check "failed policy write: the other policy (doas.conf) is deny-all all the same" \
	grep -q 'match=none' "$prefix/etc/doas.conf"
check "failed policy write: the bench user cannot run the command" bench_denied
chattr -i "$prefix/etc/sudoers-it-fail"
rm -f "$prefix/etc/sudoers-it-fail.link"
# Its record stays (a file it could not deny): the next run undoes it.
"$rarbench" --manifest "$work/next.json" --prefix "$prefix" --wait --out "$work/next2" --progress none 2>"$work/next2.err"
rc=$?
check "after it, the next run undoes its record (exit 0)" \
	sh -c "[ $rc -eq 0 ] && [ ! -e '$prefix/run/state.json' ] && grep -q 'match=none' '$prefix/etc/sudoers-it-fail'"
rm -f "$prefix/etc/sudoers-it-fail"

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
