#!/bin/sh
# Says whether the lab's VMs can run under KVM: one line, "kvm", or why not. Usage:
#   kvm-probe.sh [QEMU_CONF]    (libvirt's qemu.conf, default /etc/libvirt/qemu.conf)
# The question is asked for the account libvirt runs qemu as, not for root: libvirt starts each
# guest's qemu as qemu.conf's user and group (Debian's build: libvirt-qemu and libvirt-qemu; the
# account's supplementary groups, kvm among them, with them). A /dev/kvm that root alone may open
# (crw------- root root where no udev rule gave it to the kvm group) lets root's qemu run under
# KVM while every guest libvirt starts fails with "Could not access KVM kernel module". So: the
# account must open /dev/kvm read-write, then a guest run as that account must say "Running on
# KVM" (SeaBIOS, on its debug port) with the host's CPU model, as the lab's VMs get it: /dev/kvm
# can exist while the CPU has no virtualisation, and a nested KVM may refuse the host's MSRs.
# Nothing here changes /dev/kvm: its owner and mode are the system's (doc/lab.md says how to
# give it to the kvm group). Always exits 0; the caller reads the line.
set -u
conf=${1:-/etc/libvirt/qemu.conf}
dev=/dev/kvm

# The last uncommented `KEY = "VALUE"` of qemu.conf; empty when unset or unreadable.
setting() {
	[ -r "$conf" ] || return 0
	sed -n "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*\"\\([^\"]*\\)\".*/\\1/p" "$conf" | tail -n 1
}

# DB NAME: the numeric id as libvirt reads it: "+N" is the id N; otherwise a name first, then
# digits as an id. Fails when neither.
numeric_id() {
	case $2 in
	+*[!0-9]* | +) return 1 ;;
	+*) echo "${2#+}"; return 0 ;;
	esac
	id=$(getent "$1" "$2" | cut -d: -f3)
	[ -n "$id" ] && { echo "$id"; return 0; }
	case $2 in
	'' | *[!0-9]*) return 1 ;;
	esac
	echo "$2"
}

[ -c "$dev" ] || { echo "no $dev"; exit 0; }
user=$(setting user)
user=${user:-libvirt-qemu}
group=$(setting group)
group=${group:-libvirt-qemu}
uid=$(numeric_id passwd "$user") || { echo "libvirt's qemu user $user ($conf) does not exist"; exit 0; }
gid=$(numeric_id group "$group") || { echo "libvirt's qemu group $group ($conf) does not exist"; exit 0; }
who="libvirt's qemu account $user:$group"

# The words that run a command with the account's identity, as libvirt gives it to qemu: the uid,
# the gid and, when the uid has a passwd entry, its groups (its primary one and those that list
# it). Numbers only: safe to split.
if [ "$uid" -eq 0 ]; then
	as=
elif getent passwd "$uid" >/dev/null; then
	as="setpriv --reuid=$uid --regid=$gid --init-groups --"
else
	as="setpriv --reuid=$uid --regid=$gid --clear-groups --"
fi

# open(2) read-write, as qemu opens it; nothing is read or written.
# shellcheck disable=SC2086
if ! $as sh -c 'exec 3<>"$1"' sh "$dev" 2>/dev/null; then
	echo "$who cannot open $dev ($(stat -c '%A %U:%G' "$dev"))"
	exit 0
fi

log=$(mktemp)
err=$(mktemp)
trap 'rm -f "$log" "$err"' EXIT
# qemu, as the account, writes the debug port's bytes there
chown "$uid:$gid" "$log"
# shellcheck disable=SC2086
timeout 20 $as qemu-system-x86_64 -accel kvm -cpu host -machine pc -m 64 -nodefaults -display none \
	-chardev file,id=dbg,path="$log" -device isa-debugcon,iobase=0x402,chardev=dbg \
	</dev/null >/dev/null 2>"$err" &
pid=$!
i=0
while [ $i -lt 40 ]; do
	if grep -q 'Running on KVM' "$log" 2>/dev/null; then
		kill "$pid" 2>/dev/null
		wait "$pid"
		echo kvm
		exit 0
	fi
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.5
	i=$((i + 1))
done
kill "$pid" 2>/dev/null
wait "$pid"
why=$(grep -v '^[[:space:]]*$' "$err" | head -n 1 | cut -c1-160)
echo "a guest run as $who did not run under KVM${why:+ ($why)}"
