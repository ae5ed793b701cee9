#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# rarlab against five namespace hosts (tests/lib/nshosts.sh), three provisioned by install.yml:
# a manifest on all of them (merged results hold every host's points), a host whose sshd and
# session die mid-run (the others finish, --resume completes it from its journal), a host with a
# wrong pinned key (hostkey, nothing sent), a host without the key (auth), --accept-new, SIGINT,
# a flood of output, a local host (when this machine is provisioned) and usage errors.
set -u
cd "$(dirname "$0")/../.." || exit 2
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 77; }
. tests/lib/tap.sh
need ansible-playbook ip unshare /usr/sbin/sshd jq
rarlab=$PWD/bin/rarlab
[ -x "$rarlab" ] || { notok "bin/rarlab is missing: run make first"; exit 1; }

. tests/lib/nshosts.sh
tmp=$(mktemp -d /tmp/rp-it50.XXXXXX)
cleanup() {
	nshosts_down
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

a=r$$a b=r$$b c=r$$c d=r$$d e=r$$e
if nshosts_up "$a" "$b" "$c" "$d" "$e"; then ok "five namespace hosts up"; else
	notok "five namespace hosts up"
	exit 1
fi

# --- provisioning: the playbook on a, b and c (d and e fail before anything runs) -------------
mkdir -p "$tmp/prov"
nshosts_inventory "$tmp/prov/lab.ini" "$a" "$b" "$c"
src=$PWD
if git rev-parse HEAD >/dev/null 2>&1; then
	git clone -q --shared "$PWD" "$tmp/src" && src=$tmp/src
fi
t0=$(date +%s)
/usr/bin/python3 /usr/bin/ansible-playbook -i "$tmp/prov/lab.ini" install.yml \
	-e rarperf_tools_src_dir="$src" -e rarperf_tools_controller_stage_dir="$tmp/stage" \
	-e rarperf_ssh_public_key_file="$NSHOSTS_KEY.pub" >"$tmp/prov/play.log" 2>&1
rc=$?
if [ $rc -eq 0 ]; then ok "install.yml provisioned $a $b $c ($(($(date +%s) - t0)) s)"; else
	notok "install.yml provisioned $a $b $c (exit $rc)"
	grep -E 'fatal|FAILED|UNREACHABLE' "$tmp/prov/play.log" | cut -c1-300 | tail -5
fi
for h in "$a" "$b" "$c"; do
	if [ ! -x "$NSHOSTS_STATE/$h/prefix/bin/rarbench" ]; then
		notok "$h has no /opt/rarperf/bin/rarbench: cannot go on"
		exit 1
	fi
done

# --- the lab: inventory of all five hosts, pinned keys with a wrong one for d -----------------
nshosts_inventory "$tmp/lab.ini"
nshosts_known_hosts "$tmp/known_hosts"
nshosts_known_hosts "$tmp/real_known_hosts"
key_a=$(awk -v h="$(nshosts_addr "$a")" '$1 == h { print $3 }' "$tmp/known_hosts")
sed -i "s|^\($(nshosts_addr "$d") ssh-ed25519\) .*|\1 $key_a|" "$tmp/known_hosts"
nshosts_revoke_key "$e"
: >"$NSHOSTS_STATE/$d/sshd.log"
: >"$NSHOSTS_STATE/$e/sshd.log"
cat >"$tmp/m.json" <<'JSON'
{"name": "it50", "bench_user": "rarperf",
 "subjects": [{"id": "sudo", "format": "sudoers"}, {"id": "doas", "format": "doas"}],
 "axes": {"nb_tasks": [1, 2, 4, 8, 16, 32, 64, 128]},
 "warmup": 1, "min_runs": 40, "max_runs": 40}
JSON
points=16 # 8 points x 2 subjects
lab_args=(-i "$tmp/lab.ini" --known-hosts "$tmp/known_hosts" --remote-dir /opt/rarperf/runs --connect-timeout 5)
lab() { "$rarlab" "${lab_args[@]}" "$@"; }
outcome() { awk -F'\t' -v h="$2" '$1 == h { print $2 }' "$1/summary.tsv"; }
count() { jq --arg h "$2" '[.results[] | select(.parameters.host == $h)] | length' "$1/merged.json"; }

# --- run 1: all five; c's sshd and session are killed after its first point ------------------
t0=$(date +%s)
: >"$tmp/run1.err"
"$rarlab" "${lab_args[@]}" -o "$tmp/out" "$tmp/m.json" >"$tmp/run1.out" 2>"$tmp/run1.err" &
pid=$!
n=0
while ! grep -qE "^$c +running +[1-9][0-9]*/" "$tmp/run1.err" && [ $n -lt 600 ]; do
	sleep 0.1
	n=$((n + 1))
done
# everything in c's namespace at once (listener, session, rarbench), then the listener's record
kill $(ip netns pids "rp-$c") 2>/dev/null
nshosts_stop_sshd "$c"
wait $pid
rc=$?
t1=$(date +%s)
check "run 1 exits 1 (some hosts failed) ($((t1 - t0)) s)" test $rc -eq 1
check "run 1: $a and $b ok" test "$(outcome "$tmp/out" "$a") $(outcome "$tmp/out" "$b")" = "ok ok"
check "run 1: $c, killed mid-run, is 'connect'" test "$(outcome "$tmp/out" "$c")" = connect
check "run 1: $d with a wrong pinned key is 'hostkey'" test "$(outcome "$tmp/out" "$d")" = hostkey
check "run 1: $e without the authorised key is 'auth'" test "$(outcome "$tmp/out" "$e")" = auth
check "run 1: merged.json holds all $points points of $a and of $b" \
	test "$(count "$tmp/out" "$a") $(count "$tmp/out" "$b")" = "$points $points"
check "run 1: merged.json holds nothing of $c" test "$(count "$tmp/out" "$c")" = 0
check "run 1: $a's files verified and kept" test -s "$tmp/out/$a/results.json" -a -s "$tmp/out/$a/results.tsv" \
	-a -s "$tmp/out/$a/journal.jsonl" -a -s "$tmp/out/$a/done.json"
check "$d (hostkey): its sshd saw no authentication and no session" \
	sh -c "grep -q 'preauth' '$NSHOSTS_STATE/$d/sshd.log' && ! grep -qE 'Accepted|authenticating user|session|Failed' '$NSHOSTS_STATE/$d/sshd.log'"
check "$d (hostkey): nothing was uploaded" test ! -e "$NSHOSTS_STATE/$d/prefix/runs"
check "$e (auth): its sshd saw a refused key and no session" \
	sh -c "grep -q 'authenticating user root' '$NSHOSTS_STATE/$e/sshd.log' && ! grep -q Accepted '$NSHOSTS_STATE/$e/sshd.log'"
check "summary printed on stdout" grep -qE "^$c +connect" "$tmp/run1.out"

# --- run 2: --resume on a, b, c once c is back ------------------------------------------------
nshosts_start_sshd "$c"
lab -o "$tmp/out" --resume -l "$a,$b,$c" "$tmp/m.json" >"$tmp/run2.out" 2>"$tmp/run2.err"
rc=$?
check "resume exits 0" test $rc -eq 0
check "resume: $c ok" test "$(outcome "$tmp/out" "$c")" = ok
check "resume: $a and $b not run again" \
	test "$(grep -c 'fetched by an earlier run' "$tmp/out/summary.tsv")" = 2
first=$(grep -E "^$c +running +[0-9]+/$((points / 2)) " "$tmp/run2.err" | head -1 | awk '{ print $3 }')
check "resume: $c's rarbench continued from its journal (started at ${first%%/*} done)" test "${first%%/*}" -ge 1
check "resume: merged.json holds every host's $points points" \
	test "$(count "$tmp/out" "$a") $(count "$tmp/out" "$b") $(count "$tmp/out" "$c")" = "$points $points $points"
check "merged.json has each host's meta" \
	test "$(jq -r '.meta.hosts | keys | join(" ")' "$tmp/out/merged.json")" = "$a $b $c"
check "$c's files match the sums of its done event" sh -c "cd '$tmp/out/$c' && \
	jq -r '.files | to_entries[] | \"\(.value)  \(.key)\"' done.json | sha256sum -c --quiet"

# --- a host that cannot apply the pinned environment: reported with its reason, the others run -
# c's sshd (and so its sessions and rarbench) restarted with a hard nofile limit of 2048; the
# controller's own check leaves the environment to each host (this machine's limit is higher).
# Its hard limit makes the lab a mixed one: refused by the identity check (52-lab-identity),
# run with --allow-mixed, where c fails alone.
nshosts_stop_sshd "$c"
(ulimit -Sn 2048 && ulimit -Hn 2048 && nshosts_start_sshd "$c")
jq '. + {"name": "it50-env", "limits": {"nofile": [1024, 4096]}, "axes": {"nb_tasks": [1, 2]}}' \
	"$tmp/m.json" >"$tmp/env.json"
lab -o "$tmp/env0" -l "$a,$b,$c" "$tmp/env.json" >"$tmp/env0.out" 2>"$tmp/env0.err"
rc=$?
check "$c's hard limit 2048 makes a mixed lab: refused, exit 2, the table names $c's limit.nofile" \
	sh -c "test $rc -eq 2 && grep -A3 '^  limit.nofile:' '$tmp/env0.err' | grep -qE '^    2048 +$c\$'" ||
	cat "$tmp/env0.err"
lab --allow-mixed -o "$tmp/env" -l "$a,$b,$c" "$tmp/env.json" >"$tmp/env.out" 2>"$tmp/env.err"
rc=$?
check "nofile [1024, 4096], $c's hard limit 2048: exit 1, $a and $b ok with all their points, $c exit=2" \
	test "$rc $(outcome "$tmp/env" "$a") $(outcome "$tmp/env" "$b") $(outcome "$tmp/env" "$c") $(count "$tmp/env" "$a")" = "1 ok ok exit=2 8"
check "$c's reason names the limit and its hard limit" \
	sh -c "awk -F'\t' -v h='$c' '\$1 == h' '$tmp/env/summary.tsv' | grep -q 'limits.nofile.1.: 4096 is above this host.s hard limit 2048'" ||
	awk -F'\t' -v h="$c" '$1 == h' "$tmp/env/summary.tsv"
nshosts_stop_sshd "$c"
nshosts_start_sshd "$c"

# --- the profile counters compared across hosts: a and b, provisioned alike, count alike ------
# (tests/unit/test_profilefit.c's test_odd_host: differing counts name the host and the counter)
jq '. + {"name": "it50-prof", "profile": true, "axes": {"nb_tasks": [1, 4]}, "min_runs": 3, "max_runs": 3}' \
	"$tmp/m.json" >"$tmp/prof.json"
lab -o "$tmp/prof" -l "$a,$b" "$tmp/prof.json" >"$tmp/prof.out" 2>"$tmp/prof.err"
rc=$?
check "profile: true on $a and $b: exit 0, the verdict says identical on the 2 hosts profiled" \
	sh -c "test $rc -eq 0 && grep -qx 'profile counters: identical on the 2 hosts profiled' '$tmp/prof.out'" ||
	{ cat "$tmp/prof.out"; tail -5 "$tmp/prof.err"; }
check "profile: summary.tsv's profile column says same for both" \
	test "$(awk -F'\t' 'NR == 1 { print $9 } NR > 1 { print $9 }' "$tmp/prof/summary.tsv" | tr '\n' ' ')" = "profile same same "
check "profile: merged.json's meta.lab.profile: 2 hosts, identical, no difference" \
	test "$(jq -c '.meta.lab.profile | [.hosts, .identical, .differences_total]' "$tmp/prof/merged.json")" = "[2,true,0]"
check "profile: a manifest without the key compares nothing (column -, no verdict)" \
	sh -c "test \"\$(awk -F'\t' 'NR > 1 { print \$9 }' '$tmp/env/summary.tsv' | sort -u)\" = - &&
		! grep -q 'profile counters' '$tmp/env.out' && test \"\$(jq '.meta.lab.profile' '$tmp/env/merged.json')\" = null"

# --- SIGINT stops the remote run and keeps what was gathered ---------------------------------
# rarlab itself in the background (not a function's subshell) so that it gets the signal
: >"$tmp/int.err"
"$rarlab" "${lab_args[@]}" -o "$tmp/int" -l "$a" "$tmp/m.json" >"$tmp/int.out" 2>"$tmp/int.err" &
pid=$!
n=0
while ! grep -qE "^$a +running +[1-9][0-9]*/" "$tmp/int.err" && [ $n -lt 600 ]; do
	sleep 0.1
	n=$((n + 1))
done
kill -INT $pid
wait $pid
rc=$?
check "SIGINT: exit 1, $a 'interrupted', summary written" \
	test "$rc $(outcome "$tmp/int" "$a")" = "1 interrupted"
n=0
while ip netns pids "rp-$a" | xargs -r ps -o comm= -p | grep -q rarbench && [ $n -lt 30 ]; do
	sleep 0.1
	n=$((n + 1))
done
check "SIGINT: no rarbench left running on $a" sh -c "! ip netns pids rp-$a | xargs -r ps -o comm= -p | grep -q rarbench"

# --- a flood on stdout (a real script printing a start event then a 200 kB line) -------------
mkdir -p "$NSHOSTS_STATE/$a/prefix/flood/bin"
cat >"$NSHOSTS_STATE/$a/prefix/flood/bin/rarbench" <<'SH'
#!/bin/sh
echo '{"event":"start","t":0,"total":3}'
head -c 200000 /dev/zero | tr '\0' x
sleep 30
SH
chmod +x "$NSHOSTS_STATE/$a/prefix/flood/bin/rarbench"
lab -o "$tmp/flood" -l "$a" --remote-prefix /opt/rarperf/flood "$tmp/m.json" >/dev/null 2>&1
check "flood: a line over 64 KiB fails the host 'exec'" \
	test "$(outcome "$tmp/flood" "$a") $(grep -c 'longer than 65536' "$tmp/flood/summary.tsv")" = "exec 1"
check "flood: the remote command was stopped" sh -c "! ip netns pids rp-$a | xargs -r ps -o args= -p | grep -q flood"

# --- accept-new: an unknown key is recorded, a changed one still fails ------------------------
"$rarlab" -i "$tmp/lab.ini" -l "$d" --known-hosts "$tmp/new_known_hosts" --accept-new \
	--remote-dir /opt/rarperf/runs -o "$tmp/acc" "$tmp/m.json" >/dev/null 2>&1
check "--accept-new: $d's real key recorded, host got past the key check" sh -c \
	"ssh-keygen -F '$(nshosts_addr "$d")' -f '$tmp/new_known_hosts' | grep -qF '$(awk -v h="$(nshosts_addr "$d")" '$1 == h { print $3 }' "$tmp/real_known_hosts")' && \
	[ \"\$(awk -F'\t' -v h='$d' '\$1 == h { print \$2 }' '$tmp/acc/summary.tsv')\" != hostkey ]"
"$rarlab" -i "$tmp/lab.ini" -l "$d" --known-hosts "$tmp/known_hosts" --accept-new \
	--remote-dir /opt/rarperf/runs -o "$tmp/acc2" "$tmp/m.json" >/dev/null 2>&1
check "--accept-new: a changed key still fails 'hostkey'" test "$(outcome "$tmp/acc2" "$d")" = hostkey

# --- ansible_connection=local: rarbench forked here, same event reader -----------------------
if [ -x /opt/rarperf/bin/rarbench ] && [ -f /opt/rarperf/facts.json ]; then
	printf 'here ansible_connection=local\n' >"$tmp/local.ini"
	"$rarlab" -i "$tmp/local.ini" -o "$tmp/local" "$tmp/m.json" >/dev/null 2>"$tmp/local.err"
	rc=$?
	check "local host: exit 0, all $points points merged" \
		test "$rc $(outcome "$tmp/local" here) $(count "$tmp/local" here)" = "0 ok $points" ||
		{ echo "    exit $rc"; tail -3 "$tmp/local.err" | sed 's/^/    /'; }
else
	notok "local host: this machine's /opt/rarperf is not provisioned (make check provisions it first)"
fi

# --- usage and input errors exit 2 with the place named ---------------------------------------
printf '[lab]\nh1 ansible_port=http\n' >"$tmp/bad.ini"
"$rarlab" -i "$tmp/bad.ini" "$tmp/m.json" >/dev/null 2>"$tmp/bad.err"
check "bad inventory: exit 2, file:line named" \
	sh -c "[ $? -eq 2 ] && grep -qF '$tmp/bad.ini:2: ansible_port' '$tmp/bad.err'"
"$rarlab" -i "$tmp/lab.ini" -l nosuchhost "$tmp/m.json" >/dev/null 2>&1
check "-l matching nothing: exit 2" test $? -eq 2

tap_status