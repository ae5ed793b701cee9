#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# pkexec (Debian's pkexec and polkitd unpacked into the prefix, roles/rarperf_pkexec) judges
# confgen's polkit rules: with a private bus and polkitd in a private mount namespace (the
# compiled-in /run/dbus/system_bus_socket, /etc/polkit-1/rules.d and /usr/share/polkit-1 shown
# the prefix's), polkitd loads the rules with no error and pkexec grants the bench user
# /usr/bin/true and refuses /usr/bin/id, for several shapes and each --match. Then rarbench's own
# per-point bus and polkitd: a small sweep exits 0 with polkitd's cost beside pkexec's; no
# dbus-daemon or polkitd of the prefix is left after it, after a failed point (a rules file
# polkitd cannot compile) or after a kill -9 of rarbench; the rules left deny (pkexec refuses);
# the system's polkit and D-Bus files hash the same before and after. About 30 s.
set -u
cd "$(dirname "$0")/../.." || exit 2
[ "$(id -u)" -eq 0 ] || { echo "needs root (pkexec is setuid root, namespaces need root)"; exit 77; }
. tests/lib/tap.sh
need jq unshare runuser sha256sum flock
prefix=${RARPERF_PREFIX:-/opt/rarperf}
facts=$prefix/facts.json
CONFGEN=$PWD/bin/confgen
RB=$PWD/bin/rarbench
PKEXEC=$prefix/bin/pkexec
POLKITD=$prefix/polkit/usr/lib/polkit-1/polkitd
RULES=$prefix/etc/polkit-1/rules.d
[ -x "$CONFGEN" ] && [ -x "$RB" ] || { notok "bin/confgen and bin/rarbench are built (make)"; exit 1; }
if ! jq -e '.tools.pkexec.present' "$facts" >/dev/null 2>&1; then
	notok "facts.json names pkexec: provision the prefix (install.yml, role rarperf_pkexec)"
	exit 1
fi

tmp=$(mktemp -d /tmp/rp-it26pk.XXXXXX)
chmod 0755 "$tmp"
cleanup() {
	rm -f "$RULES/10-it26-broken.rules"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# What must not change: the system's polkit rules and actions, its D-Bus configuration and
# services (hashed, with their names).
system_state() {
	find /etc/polkit-1 /usr/share/polkit-1 /etc/dbus-1 /usr/share/dbus-1 /run/dbus \
		-xdev \( -type f -o -type l -o -type s \) 2>/dev/null | LC_ALL=C sort |
		while read -r f; do
			if [ -f "$f" ] && [ -r "$f" ]; then sha256sum "$f"; else stat -c '%n %F %a %U' "$f"; fi
		done
}
system_state >"$tmp/system.before"

# The prefix's daemons still running: polkitd by its binary, dbus-daemon by our bus.conf.
leftovers() {
	local p exe
	for p in /proc/[0-9]*; do
		exe=$(readlink "$p/exe" 2>/dev/null) || continue
		case $exe in
		"$POLKITD") echo "${p#/proc/} polkitd" ;;
		*/dbus-daemon) tr '\0' ' ' <"$p/cmdline" 2>/dev/null | grep -q "$prefix/polkit/run/bus.conf" &&
			echo "${p#/proc/} dbus-daemon" ;;
		esac
	done
	return 0
}
none_left() { [ -z "$(leftovers)" ]; }
jqe() { jq -e "$@" >/dev/null; }
# Waits up to $1 tenths of a second for the daemons to be gone.
none_left_within() {
	local i
	for ((i = 0; i < $1; i++)); do
		none_left && return 0
		sleep 0.1
	done
	none_left
}

user=$(jq -r .bench_user "$facts")
uid=$(jq -r .bench_uid "$facts")
group=$(jq -r '.privileged_group // empty' "$facts")
group=${group:-$(id -gn "$user")}
check "pkexec is setuid root for group $group only" [ "$(stat -c '%u:%G %a' "$PKEXEC")" = "0:$group 4750" ]
check "no set-ID file in the unpacked packages ($prefix/polkit)" \
	[ -z "$(find "$prefix/polkit" -perm /6000 -type f)" ]
check "facts.json: pkexec's rules shown at /etc/polkit-1/rules.d" \
	jqe '.tools.pkexec.policy_mounted_at == "/etc/polkit-1/rules.d"' "$facts"

# A private world of the test's own, as rarbench makes it (src/sweep/runner_polkit.h): the rules
# directory $tmp/rules, a bus on $tmp/bus/system_bus_socket.
mkdir -p "$tmp/rules" "$tmp/bus" && chmod 0755 "$tmp/rules" "$tmp/bus"
cat >"$tmp/bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>system</type><listen>unix:path=$tmp/bus/system_bus_socket</listen>
<auth>EXTERNAL</auth><policy context="default"><allow user="*"/><allow own="*"/>
<allow send_destination="*"/><allow receive_sender="*"/></policy></busconfig>
EOF
# judge CMD...: in a private mount namespace, starts the bus and polkitd on $tmp/rules, runs
# "pkexec CMD" as the bench user and prints "rc|polkitd's error lines"; stops both.
judge() {
	unshare -m --propagation private sh -c '
		tmp=$1 prefix=$2 polkitd=$3 pkexec=$4 user=$5; shift 5
		mount --bind "$tmp/bus" /run/dbus &&
		mount --bind "$tmp/rules" /etc/polkit-1/rules.d &&
		mount --bind "$prefix/polkit/usr/share/polkit-1/rules.d" /usr/share/polkit-1/rules.d &&
		mount --bind "$prefix/polkit/usr/share/polkit-1/actions" /usr/share/polkit-1/actions || exit 99
		dbus-daemon --config-file="$tmp/bus.conf" --nofork --nopidfile --nosyslog >/dev/null 2>&1 &
		bus=$!
		# Listening once the socket is open to all (dbus-daemon chmods it after bind).
		for i in $(seq 50); do
			[ "$(stat -c %a "$tmp/bus/system_bus_socket" 2>/dev/null)" = 777 ] && break
			sleep 0.1
		done
		rm -f "$tmp/polkitd.log" # the log of the judge before says it acquired its name
		"$polkitd" >"$tmp/polkitd.log" 2>&1 &
		pk=$!
		for i in $(seq 100); do grep -q "Acquired the name" "$tmp/polkitd.log" && break; sleep 0.1; done
		runuser -u "$user" -- "$pkexec" "$@" </dev/null >/dev/null 2>&1
		rc=$?
		kill $pk $bus; wait
		rm -f "$tmp/bus/system_bus_socket"
		echo "$rc|$(grep -i error "$tmp/polkitd.log" | tr "\n" " ")"' \
		sh "$tmp" "$prefix" "$POLKITD" "$PKEXEC" "$user" "$@"
}
granted() { case $1 in "0|") return 0 ;; *) return 1 ;; esac; }
# pkexec's "Not authorized" is exit 127; polkitd said no error.
refused() { case $1 in "127|") return 0 ;; *) return 1 ;; esac; }

for shape in 1:1:1:1 2:2:50:3 1:3:200:1 1:1:1000:1; do
	IFS=: read -r R U T C <<<"$shape"
	for m in last first middle; do
		what="pkexec R=$R U=$U T=$T C=$C --match $m"
		"$CONFGEN" --roles "$R" --users "$U" --tasks "$T" --commands "$C" --uid "$uid" --match "$m" \
			--polkit "$tmp/rules/50-rarperf.rules" >/dev/null 2>&1 ||
			{ notok "$what: confgen writes the rules"; continue; }
		out=$(judge /usr/bin/true)
		check "$what: polkitd loads the rules with no error, /usr/bin/true granted" granted "$out" ||
			echo "# $out"
		out=$(judge /usr/bin/id)
		check "$what: /usr/bin/id refused" refused "$out" || echo "# $out"
	done
done
"$CONFGEN" --uid "$uid" --deny-all --polkit "$tmp/rules/50-rarperf.rules" >/dev/null
out=$(judge /usr/bin/true)
check "--deny-all: /usr/bin/true refused" refused "$out" || echo "# $out"
check "the judge left no daemon" none_left_within 30

# rarbench's own bus and polkitd, per point. polkitd serves 12 runs a point: 2 rounds of one
# warm-up run and 5 timed ones.
cat >"$tmp/m.json" <<EOF
{"name": "it26-pkexec", "subjects": [{"id": "pkexec", "format": "polkit"}],
 "axes": {"nb_roles": [1], "nb_users": [1], "nb_tasks": [1, 30, 1000], "nb_commands": [1]},
 "command": "/usr/bin/true", "bench_user": "$user",
 "warmup": 2, "min_runs": 10, "max_runs": 10, "min_time_s": 0, "order": "interleaved", "rounds": 2, "seed": 1}
EOF
dry() { "$RB" --manifest "$tmp/m.json" --dry-run --prefix "$prefix" >/dev/null; }
check "the sweep's plan passes --dry-run" dry
jq '.subjects[0].pam = true' "$tmp/m.json" >"$tmp/pam.json"
"$RB" --manifest "$tmp/pam.json" --dry-run --prefix "$prefix" >"$tmp/pam.out" 2>&1
rc=$?
check "a polkit subject with a pam key: exit 2, one line naming it (exit $rc)" \
	sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$tmp/pam.out') -eq 1 ] && grep -q 'subjects\[0\].pam: not for a polkit subject' '$tmp/pam.out'"
start=$(date +%s.%N)
check "a small sweep of pkexec exits 0" "$RB" --manifest "$tmp/m.json" --prefix "$prefix" --wait --out "$tmp/out" 2>"$tmp/err" ||
	sed 's/^/# /' "$tmp/err"
echo "# the sweep took $(echo "$(date +%s.%N) - $start" | bc) s"
check "no dbus-daemon or polkitd left after the sweep" none_left_within 20 || leftovers | sed 's/^/# /'
check "the private bus's directory is reachable by root and polkitd's group only (0710)" \
	[ "$(stat -c '%a %U:%G' "$prefix/polkit/run")" = "710 root:polkitd" ]
check "the bus lets only polkitd's account own polkit's name" \
	grep -q '<policy user="polkitd">' "$prefix/polkit/run/bus.conf"
check "results.json: each pkexec point carries polkitd's CPU time per run and peak memory" \
	jqe '[.results[] | select(.parameters.subject == "pkexec") | .rarbench.daemon
		| select(.name == "polkitd" and .cpu_ns_per_run > 0 and .runs == 12 and .maxrss_kib > 1000)]
		| length == 3' "$tmp/out/results.json"
jq -r '.results[] | select(.parameters.subject == "pkexec") |
	"# \(.parameters.nb_tasks) rules: pkexec median \(.median * 1e6 | floor) us, polkitd \(.rarbench.daemon.cpu_ns_per_run / 1000 | floor) us CPU per run, \(.rarbench.daemon.maxrss_kib) KiB"' \
	"$tmp/out/results.json" 2>/dev/null
RP=$PWD/bin/rarplot
if [ -x "$RP" ] && "$RP" -o "$tmp/out/plots" "$tmp/out/results.json" >/dev/null 2>&1; then
	check "report.md shows polkitd's share: a row per size and its fitted line" \
		sh -c "grep -q '^## Where the wait goes: daemons' '$tmp/out/plots/report.md' &&
			[ \$(grep -c '^| [0-9]* | [0-9.]* | [0-9.]* | [0-9]* % | [0-9.]* |$' '$tmp/out/plots/report.md') -eq 3 ] &&
			grep -q \"^polkitd's CPU per run, fitted over the 3 points\" '$tmp/out/plots/report.md'"
else
	notok "rarplot draws the sweep (bin/rarplot built)"
fi
check "the rules left grant nothing (confgen's deny-all)" grep -q "match=none" "$RULES/50-rarperf.rules"
cp "$RULES/50-rarperf.rules" "$tmp/rules/50-rarperf.rules"
out=$(judge /usr/bin/true)
check "after the sweep the bench user holds no grant: pkexec refuses /usr/bin/true" refused "$out" ||
	echo "# $out"

# A failed point: a rules file polkitd cannot compile; the point fails with polkitd's line.
prefix_lock "$prefix" "26-pkexec: a broken rules file"
printf 'polkit.addRule(function(a, s) { return polkit.Result.YES; \n' >"$RULES/10-it26-broken.rules"
prefix_unlock "$prefix"
"$RB" --manifest "$tmp/m.json" --prefix "$prefix" --wait --out "$tmp/out-broken" 2>"$tmp/err-broken"
rc=$?
check "a rules file polkitd cannot compile fails the sweep (exit $rc) naming polkitd's error" \
	grep -q "polkitd: .*Error" "$tmp/err-broken" || sed 's/^/# /' "$tmp/err-broken"
check "no dbus-daemon or polkitd left after the failed point" none_left_within 20
rm -f "$RULES/10-it26-broken.rules"

# kill -9 of rarbench while a point's daemons serve.
sed 's/"max_runs": 10/"max_runs": 400/; s/"min_runs": 10/"min_runs": 400/' "$tmp/m.json" >"$tmp/long.json"
"$RB" --manifest "$tmp/long.json" --prefix "$prefix" --wait --out "$tmp/out-killed" 2>/dev/null &
rbpid=$!
for ((i = 0; i < 200; i++)); do [ -n "$(leftovers)" ] && break; sleep 0.05; done
check "the long sweep's daemons run" [ -n "$(leftovers)" ]
sleep 0.3
kill -9 "$rbpid"
wait "$rbpid" 2>/dev/null
check "no dbus-daemon or polkitd left 2 s after kill -9 of rarbench" none_left_within 20 ||
	leftovers | sed 's/^/# /'
check "the next sweep undoes the killed one's record and exits 0" \
	"$RB" --manifest "$tmp/m.json" --prefix "$prefix" --wait --out "$tmp/out-after" 2>/dev/null
check "no dbus-daemon or polkitd left after it" none_left_within 20

system_state >"$tmp/system.after"
check "the system's polkit and D-Bus files hash the same before and after" \
	cmp -s "$tmp/system.before" "$tmp/system.after" ||
	diff "$tmp/system.before" "$tmp/system.after" | sed 's/^/# /' | head -20
tap_status
