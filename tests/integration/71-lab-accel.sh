#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# The lab's accelerator is chosen for the account libvirt runs qemu as, not for root (issue 53
# item 1: on a machine whose /dev/kvm was crw------- root root, root's probe saw "Running on KVM",
# lab.yml chose KVM, and libvirt's qemu, run as libvirt-qemu, got "Could not access KVM kernel
# module: Permission denied"). No such machine is needed: each case runs in a private mount
# namespace whose /dev/kvm is a node of the same device made there (mknod on a tmpfs of the
# namespace, bind-mounted over /dev/kvm) with the mode and group the case needs; the system's
# /dev/kvm is never changed. The account is named by a qemu.conf of the test's own (user nobody,
# group daemon): the probe reads libvirt's user and group from it, as from /etc/libvirt/qemu.conf.
#   - root's alone (0600 root:root): the role's own tasks (tasks/accel.yml, run alone with
#     include_role) choose TCG and print the warning, with the reason and what gives KVM;
#   - the probe itself (files/kvm-probe.sh): the account opens a node of qemu.conf's group and
#     one of its passwd entry's group (Debian's libvirt-qemu is in kvm so), not one of a group it
#     is not in; with user "+0" (root) the 0600 node opens: the answer is the account's.
# Needs libvirt, qemu and KVM nowhere; about 15 s.
set -u
cd "$(dirname "$0")/../.." || exit 2
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 77; }
. tests/lib/tap.sh
need ansible-playbook unshare mknod setpriv
probe=$PWD/roles/rarperf_labvm/files/kvm-probe.sh
tmp=$(mktemp -d /tmp/rp-it71.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
mkdir "$tmp/dev"
kvm_before=$(stat -c '%A %U:%G %t:%T' /dev/kvm 2>/dev/null)

# libvirt's syntax; the last uncommented setting is the one read.
cat >"$tmp/qemu.conf" <<'EOF'
#user = "root"
user = "nobody"
group = "daemon"
EOF
printf 'user = "+0"\ngroup = "+0"\n' >"$tmp/qemu-root.conf"
pgroup=$(id -gn nobody)

# in_ns MODE OWNER:GROUP CMD...: CMD in a private mount namespace whose /dev/kvm is a node of the
# system's device (its major and minor) with MODE and OWNER:GROUP.
in_ns() {
	unshare -m --propagation private bash -c '
		set -e
		mount -t tmpfs -o size=64k,mode=0755 rp-it71 "$3"
		mknod -m "$1" "$3/kvm" c "$4" "$5"
		chown "$2" "$3/kvm"
		mount --bind "$3/kvm" /dev/kvm
		shift 5
		exec "$@"' in_ns "$1" "$2" "$tmp/dev" "$major" "$minor" "${@:3}"
}

cat >"$tmp/accel.yml" <<'EOF'
- name: The lab's accelerator, chosen by the role's own tasks
  hosts: localhost
  connection: local
  gather_facts: false
  tasks:
    - name: Choose the accelerator
      ansible.builtin.include_role:
        name: rarperf_labvm
        tasks_from: accel.yml
    - name: Say which
      ansible.builtin.debug:
        msg: "accel={{ rarperf_labvm_virt }}"
EOF
# The role's accelerator tasks, as lab.yml runs them (accel auto): a command, not a function,
# so that in_ns can run it.
role=(env ANSIBLE_ROLES_PATH="$PWD/roles" /usr/bin/python3 /usr/bin/ansible-playbook "$tmp/accel.yml")

if [ ! -c /dev/kvm ]; then
	# No device to stand in for: the machine has no KVM, which the role says as such.
	"${role[@]}" -e rarperf_labvm_qemu_conf="$tmp/qemu.conf" >"$tmp/none.log" 2>&1
	check "no /dev/kvm: the role chooses TCG and says why" \
		sh -c "grep -q 'accel=tcg' '$tmp/none.log' && grep -q 'NO USABLE KVM ON THIS HOST (no /dev/kvm)' '$tmp/none.log'"
	echo "# this machine has no /dev/kvm: the namespace cases need its major and minor"
	tap_status
	exit
fi
major=$((0x$(stat -c '%t' /dev/kvm)))
minor=$((0x$(stat -c '%T' /dev/kvm)))

# --- the issue's machine: /dev/kvm root's alone ------------------------------------------------
in_ns 0600 root:root "${role[@]}" -e rarperf_labvm_qemu_conf="$tmp/qemu.conf" >"$tmp/root-only.log" 2>&1
rc=$?
check "0600 root:root: the role's play runs (exit $rc)" [ "$rc" -eq 0 ] ||
	grep -E 'fatal|FAILED|ERROR' "$tmp/root-only.log" | head -5 | sed 's/^/    /'
check "0600 root:root: the role chooses TCG" grep -q '"msg": "accel=tcg"' "$tmp/root-only.log"
check "0600 root:root: the warning names the account and the device's mode" \
	grep -qF "WARNING: NO USABLE KVM ON THIS HOST (libvirt's qemu account nobody:daemon cannot open /dev/kvm (crw------- root:root))." "$tmp/root-only.log"
check "0600 root:root: the warning says the VMs run under TCG" \
	grep -qF "WARNING: THE LAB'S VMS RUN UNDER TCG" "$tmp/root-only.log"
check "0600 root:root: the warning says what gives KVM (the kvm group, doc/lab.md)" \
	grep -qF "WARNING: for KVM, give /dev/kvm to the kvm group as Debian's udev rule does (doc/lab.md, KVM or TCG)." "$tmp/root-only.log"

# --- the probe, for the account and its groups -------------------------------------------------
probe_in() { # MODE OWNER:GROUP CONF: the probe's line
	in_ns "$1" "$2" sh "$probe" "$3" 2>&1 | tail -n 1
}
opens() { # LINE: the account got past open(2) (then qemu decides: kvm, or why not)
	case $1 in *"cannot open"* | "" | *"does not exist"*) return 1 ;; esac
}
line=$(probe_in 0600 root:root "$tmp/qemu.conf")
check "probe, 0600 root:root: the account cannot open it ($line)" \
	test "$line" = "libvirt's qemu account nobody:daemon cannot open /dev/kvm (crw------- root:root)"
line=$(probe_in 0660 root:daemon "$tmp/qemu.conf")
check "probe, 0660 root:daemon (qemu.conf's group): the account opens it ($line)" opens "$line"
line=$(probe_in 0660 "root:$pgroup" "$tmp/qemu.conf")
check "probe, 0660 root:$pgroup (the account's passwd group, as libvirt-qemu's kvm): it opens it ($line)" opens "$line"
line=$(probe_in 0660 root:disk "$tmp/qemu.conf")
check "probe, 0660 root:disk (a group the account is not in): it cannot ($line)" \
	sh -c "case \"\$1\" in *'cannot open /dev/kvm (crw-rw---- root:disk)') exit 0 ;; esac; exit 1" sh "$line"
line=$(probe_in 0600 root:root "$tmp/qemu-root.conf")
check "probe, 0600 root:root with qemu.conf's user +0 (root): root opens it ($line)" opens "$line"
printf 'user = "rp-it71-nosuchuser"\n' >"$tmp/qemu-nouser.conf"
line=$(probe_in 0666 root:root "$tmp/qemu-nouser.conf")
check "probe: a qemu.conf user that does not exist is said ($line)" \
	test "$line" = "libvirt's qemu user rp-it71-nosuchuser ($tmp/qemu-nouser.conf) does not exist"
check "the system's /dev/kvm is as it was ($kvm_before)" test "$(stat -c '%A %U:%G %t:%T' /dev/kvm)" = "$kvm_before"
tap_status
