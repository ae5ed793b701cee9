# shellcheck shell=sh
# nshosts.sh: bring up test hosts on this machine, each a real sshd in its own network namespace.
#
# Usage (POSIX sh or bash, as root; needs iproute2, util-linux unshare, openssh-server):
#
#   . tests/lib/nshosts.sh
#   trap nshosts_down EXIT                  # always tear down (safe to call twice)
#   trap 'exit 130' INT TERM                # dash runs the EXIT trap only on exit
#   nshosts_up h1 h2 h3 || exit 1           # 3 hosts, sshd listening on port 22 of each
#   nshosts_inventory "$dir/inv.ini"        # INI: group [lab], ansible_host, ansible_user=root, key
#   nshosts_known_hosts "$dir/known_hosts"  # "<addr> <host key>" lines: the keys each sshd really uses
#   ssh -i "$NSHOSTS_KEY" -o UserKnownHostsFile="$dir/known_hosts" -o StrictHostKeyChecking=yes \
#       root@"$(nshosts_addr h1)" true
#   nshosts_stop_sshd h2; nshosts_start_sshd h2   # simulate a host going down and coming back
#   nshosts_revoke_key h3; nshosts_grant_key h3    # leave a host without the client's key (auth failure)
#   nshosts_exec h1 cat /opt/rarperf/facts.json    # run a command as root inside a host, over SSH
#
# nshosts_inventory also writes known_hosts.nshosts beside FILE and pins the inventory to it
# (StrictHostKeyChecking=yes); each host line carries rarperf_ssh_authorized_keys_path, so
# install.yml's rarperf_ssh role adds keys to that host's own authorized_keys file.
# NSHOSTS_PREFIX_MNT (default /opt/rarperf) is the path each host sees its private prefix at.
# NSHOSTS_PREFIX_LOWER (default empty): a provisioned prefix every host sees through an overlay,
# $NSHOSTS_STATE/NAME/prefix being its writable layer (the lower prefix is never written; run/
# is the host's own, so each host has its own prefix lock) — hosts without provisioning each.
# nshosts_snapshot_prefix PREFIX sets it to a copy of PREFIX (no lock held while the hosts run).
# NSHOSTS_MIN, NSHOSTS_MAX (default 1, 250): the veth indexes used; above 250, addresses come from
# 10.251.0.0/16. A large lab takes indexes above 250 (NSHOSTS_MIN=251), leaving 1..250 to the
# test scripts that may run meanwhile.
# NSHOSTS_SSHD_WRAP: a command prefix for the next sshd started (e.g. prlimit --nofile=512:512).
#
# What a host NAME is:
#   - network namespace rp-NAME, joined to the root namespace by a veth pair rpvIr (root side,
#     10.250.I.1/30) and rpvIh (host side, 10.250.I.2/30); I is the next free index in 1..250, so
#     several test scripts can run at once. These addresses are only ever hosts a test made.
#   - a private mount namespace in which /opt/rarperf is a bind mount of $NSHOSTS_STATE/NAME/prefix
#     and /etc/ssh a bind mount of $NSHOSTS_STATE/NAME/etc-ssh (its own host keys and sshd_config),
#     and /root a bind mount of $NSHOSTS_STATE/NAME/root (root's own, empty home: no dot files of
#     this machine's root, as on a fresh VM),
#     so each host has its own rarperf prefix and host keys; the rest of the filesystem is shared.
#   - sshd: PermitRootLogin prohibit-password, public-key only, UsePAM no, StrictModes no,
#     AuthorizedKeysFile $NSHOSTS_STATE/NAME/authorized_keys (holds $NSHOSTS_KEY.pub).
#
# Variables set by nshosts_up (read them, do not set them):
#   NSHOSTS_STATE  state directory (mktemp -d; removed by nshosts_down)
#   NSHOSTS_KEY    client private key (ed25519, no passphrase); NSHOSTS_KEY.pub is authorised
# NAME: 1-12 characters of [a-z0-9-]; must be unique on the machine while up (rp-NAME must not exist).
# Functions return 0 on success, 1 on failure with one line on stderr. Loops are bounded.

NSHOSTS_PREFIX_MNT=${NSHOSTS_PREFIX_MNT:-/opt/rarperf}
NSHOSTS_PREFIX_LOWER=${NSHOSTS_PREFIX_LOWER:-}
NSHOSTS_MIN=${NSHOSTS_MIN:-1}
NSHOSTS_MAX=${NSHOSTS_MAX:-250}
NSHOSTS_STATE=${NSHOSTS_STATE:-}
NSHOSTS_KEY=${NSHOSTS_KEY:-}

nshosts__err() {
	echo "nshosts: $*" >&2
	return 1
}

# nshosts__field NAME FIELD: prints field 2 (index) of NAME's line in the host list.
nshosts__index() {
	[ -n "$NSHOSTS_STATE" ] && [ -f "$NSHOSTS_STATE/hosts" ] || return 1
	awk -v n="$1" '$1 == n { print $2; found = 1 } END { exit !found }' "$NSHOSTS_STATE/hosts"
}

# nshosts__net I END: the address of end END (1: root side, 2: host side) of veth index I:
# 10.250.I.END for I <= 250, then /30s of 10.251.0.0/16 (index 251 is 10.251.0.1-2).
nshosts__net() {
	if [ "$1" -le 250 ]; then
		echo "10.250.$1.$2"
	else
		echo "10.251.$((($1 - 251) / 64)).$((($1 - 251) % 64 * 4 + $2))"
	fi
}

# nshosts_addr NAME: prints the address of NAME (host side of its veth).
nshosts_addr() {
	_nh_i=$(nshosts__index "$1") || { nshosts__err "no host $1"; return 1; }
	nshosts__net "$_nh_i" 2
}

nshosts__names() {
	[ -n "$NSHOSTS_STATE" ] && [ -f "$NSHOSTS_STATE/hosts" ] && awk '{ print $1 }' "$NSHOSTS_STATE/hosts"
}

nshosts__init() {
	if [ -z "$NSHOSTS_STATE" ] || [ ! -d "$NSHOSTS_STATE" ]; then
		NSHOSTS_STATE=$(mktemp -d /tmp/rp-nshosts.XXXXXX) || return 1
	fi
	: >>"$NSHOSTS_STATE/hosts"
	NSHOSTS_KEY=$NSHOSTS_STATE/id_ed25519
	if [ ! -f "$NSHOSTS_KEY" ]; then
		ssh-keygen -q -t ed25519 -N '' -C rarperf-nshosts -f "$NSHOSTS_KEY" ||
			{ nshosts__err "ssh-keygen failed"; return 1; }
	fi
	# sshd's privilege separation directory (systemd normally creates it).
	[ -d /run/sshd ] || { mkdir -p /run/sshd && chmod 0755 /run/sshd; }
	# The mount point of each host's private prefix must exist in the shared tree.
	[ -d "$NSHOSTS_PREFIX_MNT" ] || mkdir -p "$NSHOSTS_PREFIX_MNT"
	export NSHOSTS_STATE NSHOSTS_KEY
}

# nshosts__setup_one NAME: network namespace, veth, state dir, host keys, sshd_config.
nshosts__setup_one() {
	_nh_n=$1
	case $_nh_n in
	'' | *[!a-z0-9-]* | ?????????????*) nshosts__err "bad host name '$_nh_n'"; return 1 ;;
	esac
	nshosts__index "$_nh_n" >/dev/null && { nshosts__err "host $_nh_n is already up"; return 1; }
	ip netns add "rp-$_nh_n" 2>/dev/null || { nshosts__err "cannot create netns rp-$_nh_n (exists?)"; return 1; }
	# from the index after this script's last host: no rescan of the taken ones
	_nh_i=$(awk -v m="$((NSHOSTS_MIN - 1))" '$2 > m { m = $2 } END { print m + 1 }' "$NSHOSTS_STATE/hosts")
	_nh_w=$NSHOSTS_MIN
	while [ "$_nh_w" -le "$NSHOSTS_MAX" ]; do
		[ "$_nh_i" -le "$NSHOSTS_MAX" ] || _nh_i=$NSHOSTS_MIN
		ip link add "rpv${_nh_i}r" type veth peer name "rpv${_nh_i}h" 2>/dev/null && break
		_nh_i=$((_nh_i + 1))
		_nh_w=$((_nh_w + 1))
	done
	if [ "$_nh_w" -gt "$NSHOSTS_MAX" ]; then
		ip netns del "rp-$_nh_n"
		nshosts__err "no free veth index"
		return 1
	fi
	echo "$_nh_n $_nh_i" >>"$NSHOSTS_STATE/hosts"
	_nh_d=$NSHOSTS_STATE/$_nh_n
	# shellcheck disable=SC2015 # any failure in the chain is fatal
	mkdir -p "$_nh_d/prefix" "$_nh_d/etc-ssh" "$_nh_d/root" "$_nh_d/work" &&
		ip link set "rpv${_nh_i}h" netns "rp-$_nh_n" &&
		ip addr add "$(nshosts__net "$_nh_i" 1)/30" dev "rpv${_nh_i}r" &&
		ip link set "rpv${_nh_i}r" up &&
		ip -n "rp-$_nh_n" addr add "$(nshosts__net "$_nh_i" 2)/30" dev "rpv${_nh_i}h" &&
		ip -n "rp-$_nh_n" link set "rpv${_nh_i}h" up &&
		ip -n "rp-$_nh_n" link set lo up || { nshosts__err "network setup of $_nh_n failed"; return 1; }
	# Client tools run inside the host (ssh, ssh-keygen) keep working with the machine's client files.
	for _nh_f in moduli ssh_config; do
		[ -f "/etc/ssh/$_nh_f" ] && cp "/etc/ssh/$_nh_f" "$_nh_d/etc-ssh/"
	done
	ssh-keygen -q -t ed25519 -N '' -C "rp-$_nh_n" -f "$_nh_d/etc-ssh/ssh_host_ed25519_key" ||
		{ nshosts__err "host key of $_nh_n failed"; return 1; }
	cp "$NSHOSTS_KEY.pub" "$_nh_d/authorized_keys"
	cat >"$_nh_d/etc-ssh/sshd_config" <<EOF
# sshd of test host $_nh_n (tests/lib/nshosts.sh)
ListenAddress $(nshosts__net "$_nh_i" 2)
Port 22
HostKey /etc/ssh/ssh_host_ed25519_key
PidFile $_nh_d/sshd.pid
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
AuthorizedKeysFile $_nh_d/authorized_keys
MaxStartups 50:30:100
MaxSessions 50
PrintMotd no
Subsystem sftp /usr/lib/openssh/sftp-server
EOF
}

# nshosts_start_sshd NAME: starts NAME's sshd (in its netns, in a fresh private mount namespace)
# and waits until it listens (at most 10 s).
nshosts_start_sshd() {
	_nh_i=$(nshosts__index "$1") || { nshosts__err "no host $1"; return 1; }
	_nh_d=$NSHOSTS_STATE/$1
	if [ -n "$NSHOSTS_PREFIX_LOWER" ]; then
		# the host's prefix: its own writable layer over a provisioned prefix, with a run/
		# of its own (opaque: the lower prefix's lock and records are not this host's)
		mkdir -p "$_nh_d/prefix/run" && chmod 0700 "$_nh_d/prefix/run" &&
			python3 -c 'import os, sys; os.setxattr(sys.argv[1], "trusted.overlay.opaque", b"y")' \
				"$_nh_d/prefix/run" || { nshosts__err "overlay layer of $1 failed"; return 1; }
		_nh_mnt="mount -t overlay overlay -o lowerdir=$NSHOSTS_PREFIX_LOWER,upperdir=\$1,workdir=$_nh_d/work \$2"
	else
		_nh_mnt='mount --bind "$1" "$2"'
	fi
	# shellcheck disable=SC2016 # expanded by the inner sh
	ip netns exec "rp-$1" unshare --mount --propagation private ${NSHOSTS_SSHD_WRAP:-} sh -c \
		"$_nh_mnt"' && mount --bind "$3" /etc/ssh && mount --bind "$4" /root &&
		 exec /usr/sbin/sshd -D -e -f /etc/ssh/sshd_config' \
		sh "$_nh_d/prefix" "$NSHOSTS_PREFIX_MNT" "$_nh_d/etc-ssh" "$_nh_d/root" </dev/null >>"$_nh_d/sshd.log" 2>&1 &
	echo $! >"$_nh_d/sshd.launcher"
	_nh_t=0
	while [ "$_nh_t" -lt 100 ]; do
		if ip netns exec "rp-$1" ss -Hltn "sport = :22" 2>/dev/null | grep -q .; then
			return 0
		fi
		kill -0 "$(cat "$_nh_d/sshd.launcher")" 2>/dev/null || break
		sleep 0.1
		_nh_t=$((_nh_t + 1))
	done
	nshosts__err "sshd of $1 did not start; log:"
	tail -5 "$_nh_d/sshd.log" >&2
	return 1
}

# nshosts_stop_sshd NAME: stops NAME's listening sshd (open sessions keep running) and waits for it.
nshosts_stop_sshd() {
	nshosts__index "$1" >/dev/null || { nshosts__err "no host $1"; return 1; }
	_nh_d=$NSHOSTS_STATE/$1
	[ -f "$_nh_d/sshd.launcher" ] || return 0
	_nh_p=$(cat "$_nh_d/sshd.launcher")
	rm -f "$_nh_d/sshd.launcher"
	kill "$_nh_p" 2>/dev/null || return 0
	_nh_t=0
	while kill -0 "$_nh_p" 2>/dev/null && [ "$_nh_t" -lt 50 ]; do
		sleep 0.1
		_nh_t=$((_nh_t + 1))
	done
	kill -9 "$_nh_p" 2>/dev/null
	wait "$_nh_p" 2>/dev/null
	return 0
}

# nshosts_up NAME...: creates and starts each host; on failure tears down what it made and returns 1.
nshosts_up() {
	[ "$(id -u)" -eq 0 ] || { nshosts__err "must run as root"; return 1; }
	[ $# -gt 0 ] || { nshosts__err "usage: nshosts_up NAME..."; return 1; }
	nshosts__init || return 1
	for _nh_up in "$@"; do
		if ! nshosts__setup_one "$_nh_up" || ! nshosts_start_sshd "$_nh_up"; then
			nshosts_down
			return 1
		fi
	done
	return 0
}

# nshosts_down: kills every process of every host, deletes netns and veths, removes the state dir.
# Safe to call twice and from a trap.
nshosts_down() {
	[ -n "$NSHOSTS_STATE" ] && [ -d "$NSHOSTS_STATE" ] || return 0
	for _nh_n in $(nshosts__names); do
		_nh_i=$(nshosts__index "$_nh_n")
		nshosts_stop_sshd "$_nh_n"
		# Everything left in the namespace (sessions, commands they started). When the last
		# process of a host's mount namespace is gone, its bind mounts go with it.
		_nh_t=0
		while [ "$_nh_t" -lt 30 ]; do
			_nh_pids=$(ip netns pids "rp-$_nh_n" 2>/dev/null)
			[ -n "$_nh_pids" ] || break
			# shellcheck disable=SC2086 # a list of pids
			kill -9 $_nh_pids 2>/dev/null
			sleep 0.1
			_nh_t=$((_nh_t + 1))
		done
		ip link del "rpv${_nh_i}r" 2>/dev/null
		ip netns del "rp-$_nh_n" 2>/dev/null
	done
	rm -rf "$NSHOSTS_STATE"
	NSHOSTS_STATE=
	NSHOSTS_KEY=
	return 0
}

# nshosts_snapshot_prefix PREFIX: copies a provisioned PREFIX (all but its run/: setuid bits,
# owners and file capabilities kept) into the state directory and makes it NSHOSTS_PREFIX_LOWER
# for the hosts started after: they read the copy, so runs on PREFIX neither wait for them nor
# change what they see (the copy takes a moment; PREFIX's lock is not needed for reading).
nshosts_snapshot_prefix() {
	nshosts__init || return 1
	[ -r "$1/facts.json" ] || { nshosts__err "$1 is not a provisioned prefix"; return 1; }
	mkdir -p "$NSHOSTS_STATE/lower" &&
		(cd "$1" && find . -mindepth 1 -maxdepth 1 ! -name run -exec cp -a {} "$NSHOSTS_STATE/lower/" \;) &&
		mkdir -m 0700 "$NSHOSTS_STATE/lower/run" || { nshosts__err "copy of $1 failed"; return 1; }
	NSHOSTS_PREFIX_LOWER=$NSHOSTS_STATE/lower
}

# nshosts_inventory FILE [NAME...]: writes an Ansible INI inventory of the named hosts (default all)
# in group [lab], pinned to the known_hosts file nshosts_known_hosts writes beside it.
nshosts_inventory() {
	[ -n "${1:-}" ] || { nshosts__err "usage: nshosts_inventory FILE [NAME...]"; return 1; }
	_nh_file=$1
	shift
	# shellcheck disable=SC2046 # host names have no spaces
	[ $# -gt 0 ] || set -- $(nshosts__names)
	_nh_kh=$(dirname "$_nh_file")/known_hosts.nshosts
	nshosts_known_hosts "$_nh_kh" || return 1
	{
		echo "# Test hosts made by tests/lib/nshosts.sh ($NSHOSTS_STATE)"
		echo "[lab]"
		for _nh_n in "$@"; do
			_nh_a=$(nshosts_addr "$_nh_n") || return 1
			echo "$_nh_n ansible_host=$_nh_a rarperf_ssh_authorized_keys_path=$NSHOSTS_STATE/$_nh_n/authorized_keys"
		done
		echo
		echo "[lab:vars]"
		echo "ansible_user=root"
		echo "ansible_ssh_private_key_file=$NSHOSTS_KEY"
		echo "ansible_python_interpreter=/usr/bin/python3"
		echo "ansible_ssh_common_args='-o UserKnownHostsFile=$_nh_kh -o StrictHostKeyChecking=yes'"
	} >"$_nh_file"
}

# nshosts_known_hosts FILE: writes "<addr> <keytype> <key>" for every host, the keys its sshd uses.
nshosts_known_hosts() {
	[ -n "${1:-}" ] || { nshosts__err "usage: nshosts_known_hosts FILE"; return 1; }
	: >"$1" || return 1
	for _nh_n in $(nshosts__names); do
		_nh_a=$(nshosts_addr "$_nh_n") || return 1
		awk -v a="$_nh_a" '{ print a, $1, $2 }' "$NSHOSTS_STATE/$_nh_n/etc-ssh/ssh_host_ed25519_key.pub" >>"$1"
	done
}

# nshosts_revoke_key NAME / nshosts_grant_key NAME: empty or restore NAME's authorized_keys.
nshosts_revoke_key() {
	nshosts__index "$1" >/dev/null || { nshosts__err "no host $1"; return 1; }
	: >"$NSHOSTS_STATE/$1/authorized_keys"
}
nshosts_grant_key() {
	nshosts__index "$1" >/dev/null || { nshosts__err "no host $1"; return 1; }
	cp "$NSHOSTS_KEY.pub" "$NSHOSTS_STATE/$1/authorized_keys"
}

# nshosts_exec NAME CMD...: runs CMD as root inside NAME (its netns and mount namespace) over SSH.
nshosts_exec() {
	nshosts_known_hosts "$NSHOSTS_STATE/known_hosts" || return 1
	_nh_x=$(nshosts_addr "$1") || return 1
	shift
	ssh -n -i "$NSHOSTS_KEY" -o BatchMode=yes -o ConnectTimeout=5 \
		-o UserKnownHostsFile="$NSHOSTS_STATE/known_hosts" -o StrictHostKeyChecking=yes \
		root@"$_nh_x" "$@"
}
