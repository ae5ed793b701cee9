#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# rarlab against hostile hosts: a namespace host (tests/lib/nshosts.sh) whose sshd runs in its
# own PID namespace and whose "rarbench" is a script that, under one inventory name each, prints
# terminal escapes (OSC 52, cursor, colour) in stderr, error events and parameters; writes a
# results.json that is not JSON, non-object results or duplicated host keys; lists no
# results.json, or done.json, a quote, a backslash or ../x in its done event; leaves a FIFO as
# results.json; stops its SFTP server; closes its output and keeps running; writes 1, or two
# pids, as its pid file. A second namespace host and a local host (which lists its descriptors)
# are good. rarlab must print and write no escape byte, merge the good hosts, call no bad host
# ok, stop within the timeouts, signal nothing the pid file names wrongly, write nothing outside
# DIR, and keep merged.json and summary.tsv on SIGTERM and on a second SIGINT.
# No host is provisioned: --remote-prefix points every host at the script under this test's
# temporary directory (the namespace hosts share /tmp).
set -u
cd "$(dirname "$0")/../.." || exit 2
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 77; }
. tests/lib/tap.sh
need ip unshare /usr/sbin/sshd /usr/bin/python3 pgrep pkill timeout
rarlab=${RARLAB:-$PWD/bin/rarlab}
[ -x "$rarlab" ] || { notok "bin/rarlab is missing: run make first"; exit 1; }

. tests/lib/nshosts.sh
tmp=$(mktemp -d /tmp/rp-it55.XXXXXX)
cleanup() {
	nshosts_down
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

g=r$$g h=r$$h
if nshosts_up "$g" "$h"; then ok "two namespace hosts up"; else
	notok "two namespace hosts up"
	exit 1
fi

# h's sshd again, in a PID namespace of its own: whatever a stop command signals there (even
# kill -- -1 from an unfixed rarlab), nothing outside that namespace is touched.
start_sshd_pidns() {
	_d=$NSHOSTS_STATE/$1
	nshosts_stop_sshd "$1"
	# shellcheck disable=SC2016 # expanded by the inner sh
	ip netns exec "rp-$1" unshare --mount --propagation private --pid --fork --kill-child \
		--mount-proc sh -c \
		'mount --bind "$1" "$2" && mount --bind "$3" /etc/ssh && mount --bind "$4" /root &&
		 exec /usr/sbin/sshd -D -e -f /etc/ssh/sshd_config' \
		sh "$_d/prefix" "$NSHOSTS_PREFIX_MNT" "$_d/etc-ssh" "$_d/root" </dev/null \
		>>"$_d/sshd.log" 2>&1 &
	echo $! >"$_d/sshd.launcher"
	_t=0
	while [ $_t -lt 100 ]; do
		ip netns exec "rp-$1" ss -Hltn "sport = :22" 2>/dev/null | grep -q . && return 0
		sleep 0.1
		_t=$((_t + 1))
	done
	return 1
}
check "$h's sshd restarted in its own PID namespace" start_sshd_pidns "$h"
nshosts_known_hosts "$tmp/known_hosts"
G=$(nshosts_addr "$g") H=$(nshosts_addr "$h")

# sentinels in h's PID namespace: a stop command that believed the pid file would kill them
# (SIGINT back to its default: a shell starts background jobs with it ignored)
nshosts_exec "$h" 'env --default-signal=INT sleep 301 </dev/null >/dev/null 2>&1 &
	env --default-signal=INT sleep 302 </dev/null >/dev/null 2>&1 &'
in_h() { ip netns pids "rp-$h" | xargs -r ps -o args= -p 2>/dev/null; }
n=0
while ! in_h | grep -q '^sleep 302' && [ $n -lt 50 ]; do
	sleep 0.1
	n=$((n + 1))
done
check "sentinels running in $h" sh -c "ip netns pids rp-$h | xargs -r ps -o args= -p | grep -q '^sleep 301'"

# --- the fake rarbench: one script, its behaviour chosen by the inventory name -----------------
mkdir -p "$tmp/prefix/bin"
cat >"$tmp/prefix/bin/rarbench" <<'SH'
#!/bin/sh
# rarbench --manifest M --out OUT --progress jsonl --resume: OUT is <dir>/<host>/out (remote)
# or DIR/<host>/run (local)
out=
while [ $# -gt 0 ]; do
	case $1 in --out) out=$2; shift ;; esac
	shift
done
host=$(basename "$(dirname "$out")")
rdir=$(dirname "$out")
mkdir -p "$out"
sha() { sha256sum "$1" | cut -d' ' -f1; }
good_results() {
	printf '{"results": [{"command": "sudo", "mean": 0.001, "times": [0.001, 0.0011], "parameters": {"nb_tasks": "1", "subject": "sudo"%s}},\n {"command": "doas", "mean": 0.002, "times": [0.002], "parameters": {"nb_tasks": "1", "subject": "doas"}}],\n "meta": {"host": "%s"}}\n' "${1:-}" "$host" >"$out/results.json"
}
other_files() {
	printf 'subject\tformat\n' >"$out/results.tsv"
	printf '{"point":"x"}\n' >"$out/journal.jsonl"
}
events() {
	echo '{"event":"start","t":0,"name":"it55","total":1,"done":0}'
	echo '{"event":"point_start","t":0.1,"index":0,"total":1,"params":{"nb_tasks":"1"}}'
	echo '{"event":"point_done","t":0.2,"index":0,"done":1,"total":1,"eta_s":0}'
}
done_all() {
	echo "{\"event\":\"done\",\"t\":0.3,\"status\":0,\"files\":{\"results.json\":\"$(sha "$out/results.json")\",\"results.tsv\":\"$(sha "$out/results.tsv")\",\"journal.jsonl\":\"$(sha "$out/journal.jsonl")\"}}"
}
escapes_in_events() {
	echo '{"event":"start","t":0,"name":"\u001b]52;c;cm0gLXJmIH4=\u0007","total":1,"done":0}'
	echo '{"event":"skip_subject","t":0.1,"subject":"\u001b[2J\u001b[H","reason":"\u001b[31mred\u009b"}'
	echo '{"event":"point_start","t":0.1,"index":0,"total":1,"params":{"nb_tasks":"\u001b]52;c;cm0gLXJmIH4=\u0007\u001b[2J\u001b[1;1H"}}'
	sleep 0.3
	echo '{"event":"error","t":0.2,"message":"\u001b]52;c;cm0gLXJmIH4=\u0007\u001b[31mred\u001b[0m\u009b\u007f"}'
	echo '{"event":"point_done","t":0.2,"index":0,"done":1,"total":1,"eta_s":0}'
	printf '\033]52;c;cm0gLXJmIH4=\007\033[2J\033[H\033[31m stderr \302\233 \177\n' >&2
}
case $host in
good | local)
	if [ "$host" = local ]; then
		# the SSH sessions of the other hosts are open by now: none may be inherited
		sleep 1
		ls -l /proc/self/fd >"@TMP@/local-fds.txt" 2>&1
	fi
	good_results
	other_files
	events
	done_all
	;;
esc)
	escapes_in_events
	printf 'fatal: \033[31mred\033[0m \033]52;c;cm0gLXJmIH4=\007\n' >&2
	exit 3
	;;
escok)
	escapes_in_events
	good_results ', "evil": "\u001b]52;c;cm0gLXJmIH4=\u0007"'
	other_files
	done_all
	;;
notjson)
	events
	echo 'this is not JSON' >"$out/results.json"
	other_files
	done_all
	;;
nonobj)
	events
	printf '{"results": [42, null, {"command": "x", "parameters": {}}]}\n' >"$out/results.json"
	other_files
	done_all
	;;
spoof)
	events
	printf '{"results": [{"command": "x", "parameters": {"host": "good", "nb_tasks": "1", "host": "x", "ho\\u0073t": "y"}}]}\n' >"$out/results.json"
	other_files
	done_all
	;;
nores)
	events
	other_files
	echo "{\"event\":\"done\",\"t\":0.3,\"status\":0,\"files\":{\"results.tsv\":\"$(sha "$out/results.tsv")\"}}"
	;;
donejson | quote | backslash | dotdot)
	events
	good_results
	other_files
	cp "$out/results.json" "$out/done.json"
	case $host in
	donejson) name=done.json ;;
	quote) name='a\"b' ;;
	backslash) name='a\\b' ;;
	dotdot) name=../x ;;
	esac
	printf '{"event":"done","t":0.3,"status":0,"files":{"results.json":"%s","%s":"%s"}}\n' \
		"$(sha "$out/results.json")" "$name" "$(sha "$out/results.json")"
	;;
fifo)
	events
	good_results
	s=$(sha "$out/results.json")
	rm -f "$out/results.json"
	mkfifo "$out/results.json"
	echo "{\"event\":\"done\",\"t\":0.3,\"status\":0,\"files\":{\"results.json\":\"$s\"}}"
	;;
stopsftp)
	events
	good_results
	other_files
	done_all
	# this session's SFTP server (a sibling under the same sshd) stops answering
	pkill -STOP -P "$(ps -o ppid= -p $$ | tr -d ' ')" -x sftp-server
	;;
closed)
	echo '{"event":"start","t":0,"name":"it55","total":1,"done":0}'
	exec >&- 2>&-
	exec sleep 41
	;;
pidone | pidsplit)
	echo '{"event":"start","t":0,"name":"it55","total":1,"done":0}'
	if [ "$host" = pidone ]; then
		echo 1 >"$rdir/rarbench.pid"
	else
		echo "99999999 $(pgrep -x -f 'sleep 302')" >"$rdir/rarbench.pid"
	fi
	exec sleep 42
	;;
slow)
	events
	exec sleep 43
	;;
deaf)
	trap '' INT TERM
	events
	sleep 44
	;;
esac
SH
sed -i "s|@TMP@|$tmp|" "$tmp/prefix/bin/rarbench"
chmod +x "$tmp/prefix/bin/rarbench"
# A manifest rarlab accepts (it checks one before contacting any host); the hosts' fake
# rarbench ignores it.
echo '{"name": "it55", "subjects": [{"id": "sudo", "format": "sudoers"}], "axes": {"nb_tasks": [1]}}' >"$tmp/m.json"

hostile="esc escok notjson nonobj spoof nores donejson quote backslash dotdot fifo stopsftp closed"
{
	echo "[lab]"
	echo "good ansible_host=$G"
	for n in $hostile; do echo "$n ansible_host=$H"; done
	echo "local ansible_connection=local"
	echo "[other]"
	echo "pidone ansible_host=$H"
	echo "pidsplit ansible_host=$H"
	echo "slow ansible_host=$H"
	echo "deaf ansible_connection=local"
	echo "[all:vars]"
	echo "ansible_user=root"
	echo "ansible_ssh_private_key_file=$NSHOSTS_KEY"
} >"$tmp/lab.ini"
lab=(-i "$tmp/lab.ini" --known-hosts "$tmp/known_hosts" --remote-prefix "$tmp/prefix"
	--remote-dir /opt/rarperf/runs --connect-timeout 3 --command-timeout 3 --forks 32)
outcome() { awk -F'\t' -v h="$2" '$1 == h { print $2 }' "$1/summary.tsv"; }
count() { jq --arg h "$2" '[.results[] | select(.parameters.host == $h)] | length' "$1/merged.json"; }
# no ESC, C1 (raw or UTF-8), DEL, or other C0 control but tab and newline in a file
no_control() { LC_ALL=C grep -qP '[\x00-\x08\x0b-\x1f\x7f\x80-\x9f]' "$1" && return 1; return 0; }

# --- the hostile run ------------------------------------------------------------------------
touch "$tmp/marker"
sleep 1
t0=$(date +%s)
timeout -k 5 90 "$rarlab" "${lab[@]}" -l lab -o "$tmp/out" "$tmp/m.json" \
	>"$tmp/run.out" 2>"$tmp/run.err"
rc=$?
t1=$(date +%s)
check "hostile run: exits 1, within the timeouts ($((t1 - t0)) s, rc $rc)" \
	test $rc -eq 1 -a $((t1 - t0)) -le 45
expect="good=ok local=ok escok=ok spoof=ok esc=exit=3 notjson=results nonobj=results
	nores=results donejson=results quote=results backslash=results dotdot=exec fifo=exec
	stopsftp=timeout closed=timeout"
for e in $expect; do
	n=${e%%=*} want=${e#*=}
	got=$(outcome "$tmp/out" "$n" 2>/dev/null)
	check "$n: outcome $want (got '$got': $(awk -F'\t' -v h="$n" '$1 == h { print $7 }' "$tmp/out/summary.tsv" 2>/dev/null | cut -c1-90))" \
		test "$got" = "$want"
done
check "no control byte on rarlab's stdout" no_control "$tmp/run.out"
check "no control byte on rarlab's stderr" no_control "$tmp/run.err"
check "no control byte in summary.tsv" no_control "$tmp/out/summary.tsv"
check "summary.tsv: nine fields on every line (the last: profile)" \
	test "$(awk -F'\t' 'NF != 9' "$tmp/out/summary.tsv" | wc -l)" -eq 0
check "the escapes are shown as text (\\x1b]52)" grep -qF '\x1b]52;c;' "$tmp/run.err"
check "merged.json: good, local, escok with 2 results each, spoof with 1" \
	test "$(count "$tmp/out" good) $(count "$tmp/out" local) $(count "$tmp/out" escok) $(count "$tmp/out" spoof)" = "2 2 2 1"
check "merged.json: nothing of a host that is not ok" \
	test "$(jq '[.results[] | select(.parameters.host | IN("good","local","escok","spoof") | not)] | length' "$tmp/out/merged.json")" = 0
check "merged.json: every result an object, no key twice anywhere (one host key each)" \
	/usr/bin/python3 -c '
import json, sys
def pairs(p):
    keys = [k for k, _ in p]
    if len(keys) != len(set(keys)):
        sys.exit("duplicate key in %r" % keys)
    return dict(p)
d = json.load(open(sys.argv[1]), object_pairs_hook=pairs)
assert all(isinstance(r, dict) for r in d["results"])
' "$tmp/out/merged.json"
check "every done.json is JSON, listing only expected files" /usr/bin/python3 -c '
import json, sys
for p in sys.argv[1:]:
    d = json.load(open(p))
    assert set(d["files"]) <= {"results.json", "results.tsv", "journal.jsonl"}, p
' "$tmp"/out/*/done.json
check "donejson: rarlab's record not overwritten (no done.json: not complete)" \
	test ! -e "$tmp/out/donejson/done.json"
check "nothing written outside DIR" test -z "$(find "$tmp" -mindepth 1 -newer "$tmp/marker" ! -path "$tmp/out*" \
	! -path "$tmp/local-fds.txt" ! -path "$tmp/run.*" 2>/dev/null)"
check "no file 'x' beside DIR or a host's directory, locally or on $h" \
	sh -c "! ls '$tmp/x' '$tmp/out/x' $NSHOSTS_STATE/$h/prefix/runs/*/x 2>/dev/null | grep -q ."
fds=$(grep -c ' -> ' "$tmp/local-fds.txt" 2>/dev/null)
check "local host: its rarbench got stdin, stdout, stderr and nothing else ($fds descriptors: ls's own directory is the 4th)" \
	sh -c "[ '$fds' = 4 ] && ! grep -q 'socket:' '$tmp/local-fds.txt'"
[ "$fds" = 4 ] || sed 's/^/# /' "$tmp/local-fds.txt"
check "closed: the command that closed its output was stopped" sh -c "! ip netns pids rp-$h | xargs -r ps -o args= -p | grep -q '^sleep 41'"

# --- pid files the host wrote: '1' (kill -- -1: every process) and two pids ------------------
timeout -k 5 60 "$rarlab" "${lab[@]}" -l good,pidone,pidsplit -o "$tmp/pid" "$tmp/m.json" \
	>/dev/null 2>&1
got="$(outcome "$tmp/pid" good) $(outcome "$tmp/pid" pidone) $(outcome "$tmp/pid" pidsplit)"
check "pid files: good ok, pidone and pidsplit stopped for silence ($got)" \
	test "$got" = "ok timeout timeout"
check "pid files '1' and '99999999 PID': nothing signalled (sentinels alive)" \
	sh -c "ip netns pids rp-$h | xargs -r ps -o args= -p | grep -c '^sleep 30[12]' | grep -qx 2"

# --- SIGTERM: stops like SIGINT, keeps what was gathered -------------------------------------
run_until_good_ok() { # $1 out dir, $2 limit, $3 signal list ("TERM" or "INT INT"), $4 state
	"$rarlab" -i "$tmp/lab.ini" --known-hosts "$tmp/known_hosts" --remote-prefix "$tmp/prefix" \
		--remote-dir /opt/rarperf/runs --connect-timeout 30 --command-timeout 600 \
		-l "$2" -o "$1" "$tmp/m.json" >"$1.out" 2>"$1.err" &
	pid=$!
	n=0
	while ! { grep -qE '^good +ok' "$1.err" && grep -qE "$4" "$1.err"; } 2>/dev/null && [ $n -lt 200 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	sleep 0.5
	t0=$(date +%s%N)
	for sig in $3; do
		kill -"$sig" $pid
		sleep 0.3
	done
	n=0
	while kill -0 $pid 2>/dev/null && [ $n -lt 150 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	kill -KILL $pid 2>/dev/null
	wait $pid
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
}
run_until_good_ok "$tmp/term" "good,slow" TERM '^slow +running'
got="$rc $(outcome "$tmp/term" good) $(outcome "$tmp/term" slow)"
check "SIGTERM: exit 1 within 10 s ($ms ms), good ok, slow interrupted ($got)" \
	test "$got" = "1 ok interrupted" -a $ms -lt 10000
check "SIGTERM: merged.json holds good's results" test "$(count "$tmp/term" good)" = 2
check "SIGTERM: slow's remote run was stopped" sh -c "! ip netns pids rp-$h | xargs -r ps -o args= -p | grep -q '^sleep 43'"
# a fetch blocked in SFTP (the server stopped; connect timeout 30 s) ends on SIGTERM too
run_until_good_ok "$tmp/termf" "good,stopsftp" TERM '^stopsftp +fetching'
got="$rc $(outcome "$tmp/termf" good) $(outcome "$tmp/termf" stopsftp)"
check "SIGTERM while fetching: exit 1 within 5 s ($ms ms), stopsftp interrupted ($got)" \
	test "$got" = "1 ok interrupted" -a $ms -lt 5000
check "SIGTERM while fetching: merged.json holds good's results" test "$(count "$tmp/termf" good)" = 2

# --- a second SIGINT: leaves at once, still with merged.json and summary.tsv ------------------
run_until_good_ok "$tmp/int2" "good,deaf" "INT INT" '^deaf +running'
check "second SIGINT: exit 1 within 2 s ($ms ms)" test "$rc" = 1 -a $ms -lt 2000
got="$(outcome "$tmp/int2" good) $(outcome "$tmp/int2" deaf)"
check "second SIGINT: summary.tsv written, deaf interrupted ($got)" test "$got" = "ok interrupted"
check "second SIGINT: merged.json holds good's results" test "$(count "$tmp/int2" good)" = 2
pkill -KILL -f "^sleep 44$" 2>/dev/null

# --- an inventory name that is a path: exit 2 naming file:line, nothing written ---------------
printf '[lab]\n../../x ansible_connection=local\n' >"$tmp/bad.ini"
"$rarlab" -i "$tmp/bad.ini" -o "$tmp/bad/out" --remote-prefix "$tmp/prefix" "$tmp/m.json" \
	>/dev/null 2>"$tmp/bad.err"
rc=$?
check "inventory host '../../x': exit 2, file:line named" \
	sh -c "[ $rc -eq 2 ] && grep -qF '$tmp/bad.ini:2: invalid host name' '$tmp/bad.err'"
check "inventory host '../../x': nothing created" test ! -e "$tmp/bad" -a ! -e "$tmp/x"

tap_status
