#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# Provisions two test hosts (real sshds in network namespaces, each with a private /opt/rarperf,
# tests/lib/nshosts.sh) over SSH with the same install.yml, then checks each host's own prefix:
# setuid sudo and doas (for the bench group only) granting the bench user /usr/bin/true, a facts file, the coordinator's key
# authorised once, and the hosts' keys recorded in the inventory's known_hosts.
set -u
cd "$(dirname "$0")/../.." || exit 2
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 77; }
. tests/lib/tap.sh
need ansible-playbook ip unshare /usr/sbin/sshd

. tests/lib/nshosts.sh
tmp=$(mktemp -d /tmp/rp-it11.XXXXXX)
cleanup() {
	nshosts_down
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

denied() { # denied HOST TOOL: the tool refuses /usr/bin/id to the bench user (exit 1, not ssh's 255)
	nshosts_exec "$1" runuser -u rarperf -- "/opt/rarperf/bin/$2" -n /usr/bin/id >/dev/null 2>&1
	[ $? -eq 1 ]
}

a=p$$a b=p$$b
if nshosts_up "$a" "$b"; then ok "two namespace hosts up ($(nshosts_addr "$a"), $(nshosts_addr "$b"))"; else
	notok "two namespace hosts up"
	exit 1
fi
nshosts_inventory "$tmp/lab.ini"

src=$PWD
if git rev-parse HEAD >/dev/null 2>&1; then
	git clone -q --shared "$PWD" "$tmp/src" && src=$tmp/src
fi
play() {
	/usr/bin/python3 /usr/bin/ansible-playbook -i "$tmp/lab.ini" install.yml \
		-e rarperf_tools_src_dir="$src" -e rarperf_tools_controller_stage_dir="$tmp/stage" \
		-e rarperf_ssh_public_key_file="$NSHOSTS_KEY.pub"
}
t0=$(date +%s)
play >"$tmp/run1.log" 2>&1
rc=$?
t1=$(date +%s)
if [ $rc -eq 0 ]; then ok "playbook over SSH on both hosts ($((t1 - t0)) s)"; else
	notok "playbook over SSH on both hosts (exit $rc)"
	grep -E 'fatal|FAILED|UNREACHABLE' "$tmp/run1.log" | tail -10
fi

refused() { ! nshosts_exec "$@" 2>/dev/null; }
for h in "$a" "$b"; do
	st=$NSHOSTS_STATE/$h/prefix
	check "$h: its private prefix holds sudo, doas and facts.json" test -x "$st/bin/sudo" -a -x "$st/bin/doas" -a -f "$st/facts.json"
	check "$h: sudo and doas setuid root for the bench group only (seen inside the host)" \
		test "$(nshosts_exec "$h" stat -c %u:%G:%a /opt/rarperf/bin/sudo /opt/rarperf/bin/doas | tr '\n' ' ')" = "0:rarperf:4750 0:rarperf:4750 "
	# As provisioned nothing is granted; a grant written as a sweep point writes it works.
	check "$h: as provisioned, the bench user is refused sudo -n /usr/bin/true (deny-all)" \
		refused "$h" runuser -u rarperf -- /opt/rarperf/bin/sudo -n /usr/bin/true
	uid=$(jq -r .bench_uid "$st/facts.json")
	nshosts_exec "$h" "exec 9>>/opt/rarperf/run/lock && flock 9 && /opt/rarperf/bin/confgen --uid $uid \
		--sudoers /opt/rarperf/etc/sudoers --doas /opt/rarperf/etc/doas.conf" >/dev/null 2>&1
	check "$h: bench user runs sudo -n /usr/bin/true" nshosts_exec "$h" runuser -u rarperf -- /opt/rarperf/bin/sudo -n /usr/bin/true
	check "$h: bench user runs doas -n /usr/bin/true" nshosts_exec "$h" runuser -u rarperf -- /opt/rarperf/bin/doas -n /usr/bin/true
	check "$h: bench user is denied sudo -n /usr/bin/id (exit 1)" denied "$h" sudo
	check "$h: bench user is denied doas -n /usr/bin/id (exit 1)" denied "$h" doas
	nshosts_exec "$h" "exec 9>>/opt/rarperf/run/lock && flock 9 && /opt/rarperf/bin/confgen --uid $uid \
		--deny-all --sudoers /opt/rarperf/etc/sudoers --doas /opt/rarperf/etc/doas.conf" >/dev/null 2>&1
	check "$h: facts.json names its prefix and sudo" sh -c "jq -e '.prefix == \"/opt/rarperf\" and .tools.sudo.present and .tools.doas.present' '$st/facts.json' >/dev/null"
	check "$h: coordinator key authorised exactly once" test "$(grep -c -F "$(cut -d' ' -f2 "$NSHOSTS_KEY.pub")" "$NSHOSTS_STATE/$h/authorized_keys")" = 1
done
check "the machine's own prefix is not one of the hosts' prefixes" sh -c "! [ '$NSHOSTS_STATE/$a/prefix/facts.json' -ef /opt/rarperf/facts.json ]"

nshosts_known_hosts "$tmp/expected_known_hosts"
if [ -f "$tmp/known_hosts" ] && diff <(LC_ALL=C sort "$tmp/expected_known_hosts") \
	<(grep -v '^#' "$tmp/known_hosts" | awk '{ print $1, $2, $3 }' | LC_ALL=C sort) >"$tmp/kh.diff"; then
	ok "inventory known_hosts records exactly the keys the hosts' sshds serve"
else
	notok "inventory known_hosts records exactly the keys the hosts' sshds serve"
	head "$tmp/kh.diff"
fi
check "known_hosts works for ssh with StrictHostKeyChecking=yes" ssh -n -i "$NSHOSTS_KEY" -o BatchMode=yes \
	-o UserKnownHostsFile="$tmp/known_hosts" -o StrictHostKeyChecking=yes root@"$(nshosts_addr "$b")" true

t2=$(date +%s)
play >"$tmp/run2.log" 2>&1
rc=$?
t3=$(date +%s)
recaps=$(grep -cE '^p[0-9]+[ab] +:.* changed=0 .*failed=0' "$tmp/run2.log")
if [ $rc -eq 0 ] && [ "$recaps" -eq 2 ]; then ok "second run: changed=0 on both hosts ($((t3 - t2)) s)"; else
	notok "second run: changed=0 on both hosts (exit $rc)"
	grep -E '^p[0-9]+[ab] +:' "$tmp/run2.log"
	grep -B3 -E '^changed:' "$tmp/run2.log" | grep TASK
fi
# --- shipping refuses what it cannot replace safely (roles/rarperf_ship) -----------------------
# Each host's /opt/rarperf is a bind mount under the /opt they share with this machine: a shipped
# prefix is swapped in by a rename, so it is refused there before anything is copied, and the
# shared /opt gets no staging directory. Shipping the controller's prefix onto itself is refused.
if [ -f /opt/rarperf/facts.json ]; then
	for h in "$a" "$b"; do sha256sum "$NSHOSTS_STATE/$h/prefix/facts.json"; done >"$tmp/facts.before"
	/usr/bin/python3 /usr/bin/ansible-playbook -i "$tmp/lab.ini" install.yml \
		-e rarperf_ship_prefix_from=/opt/rarperf -e rarperf_ship_stage_dir="$tmp/ship" \
		-e rarperf_ship_host_dir="$tmp/ship-host" -e rarperf_ssh_public_key_file="$NSHOSTS_KEY.pub" \
		>"$tmp/ship.log" 2>&1
	rc=$?
	n=$(grep -c "/opt/rarperf is a mount point" "$tmp/ship.log")
	check "ship into the hosts' bind-mounted prefixes: refused on both, one line each (exit $rc, $n lines)" \
		test $rc -ne 0 -a "$n" -ge 2
	check "... before the archive was made or copied" test ! -e "$tmp/ship" -a ! -e "$tmp/ship-host"
	check "... no staging left in the shared /opt" sh -c '! ls -d /opt/rarperf.ship-* 2>/dev/null'
	check "... both hosts' prefixes unchanged" sh -c "for h in '$a' '$b'; do sha256sum \"$NSHOSTS_STATE/\$h/prefix/facts.json\"; done | cmp -s - '$tmp/facts.before'"
	sha256sum /opt/rarperf/facts.json >"$tmp/own.before"
	/usr/bin/python3 /usr/bin/ansible-playbook -i inventory/local.ini install.yml \
		-e rarperf_ship_prefix_from=/opt/rarperf -e rarperf_ship_stage_dir="$tmp/ship" \
		-e rarperf_ship_host_dir="$tmp/ship-host" >"$tmp/self.log" 2>&1
	rc=$?
	check "ship the controller's prefix onto itself: refused (exit $rc)" \
		sh -c "[ $rc -ne 0 ] && grep -q \"is /opt/rarperf itself, the controller's prefix being shipped\" '$tmp/self.log'"
	check "... the machine's prefix unchanged" sha256sum -c --quiet "$tmp/own.before"
else
	notok "ship refusals: this machine's /opt/rarperf is not provisioned (make check provisions it first)"
fi
tap_status
