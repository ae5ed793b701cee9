#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# A lab of one libvirt VM made by lab.yml (roles/rarperf_labvm), with names, range and files of
# its own (never the user's lab): refusals before anything is made (overcommit, a colliding
# address range, a taken ssh port), lab-up, Ansible with strict host keys, the VM's shape and
# virtualisation, the VM reached on loopback only (user-mode network: no bridge, no tap, no
# libvirt network; tests send packets to loopback or to namespaces they made), a
# second lab-up that changes nothing, the controller's prefix shipped with install.yml
# (roles/rarperf_ship), a tiny sudo manifest with rarlab and rarplot's TCG mark, and lab-down
# leaving no domain, network, overlay, file or qemu process of the lab.
# TCG on a loaded 2-core machine is slow: RARPERF_LAB_SKIP_SHIP=1 leaves out the ship and rarlab part.
# These are doc/lab.md's and doc/guide-lab.md's commands (its blocks tagged run-by this script,
# 63-doc-commands): install.yml on a lab's inventory shipping the prefix, rarlab, rarplot.
set -u
cd "$(dirname "$0")/../.." || exit 2
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 77; }
. tests/lib/tap.sh
need ansible-playbook ansible jq ssh ssh-keygen ip mke2fs
prefix=${RARPERF_PREFIX:-/opt/rarperf}
rarlab=$PWD/bin/rarlab
rarplot=$PWD/bin/rarplot
[ -x "$rarlab" ] && [ -x "$rarplot" ] || { notok "bin/rarlab or bin/rarplot is missing: run make first"; exit 1; }

tmp=$(mktemp -d /tmp/rp-it70.XXXXXX)
name=rp-it70-
net=rp-it70
bridge=rpit70
cidr=192.168.214.0/24
# user mode: the VM's sshd forwarded by its qemu to 127.0.0.1:port; known_hosts says [addr]:port
port=22701
ip=127.0.0.1
khname="[$ip]:$port"
dir=/var/lib/rarperf-lab-it70
lab_vars=(-e rarperf_labvm_name_prefix=$name -e rarperf_labvm_network_name=$net
	-e rarperf_labvm_network_bridge=$bridge -e rarperf_labvm_network_cidr=$cidr -e rarperf_labvm_dir=$dir
	-e rarperf_labvm_network_mode=user -e rarperf_labvm_ssh_port_base=$((port - 1))
	-e rarperf_labvm_inventory_dir="$tmp" -e rarperf_labvm_ssh_timeout=900)
lab() { /usr/bin/python3 /usr/bin/ansible-playbook lab.yml "${lab_vars[@]}" "$@"; }
inv=$tmp/lab-vms.ini
kh=$tmp/known_hosts
down() { lab -e rarperf_labvm_state=absent >"$tmp/down.log" 2>&1; }
listener=
cleanup() {
	[ -n "$listener" ] && kill "$listener" 2>/dev/null
	virsh -q net-undefine rp-it70-other >/dev/null 2>&1
	[ -d "$dir" ] && down
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# A run killed before its cleanup leaves this test's own lab (its names, its directory): taken
# down first, so that "nothing was made" below judges this run, not the one before (a CI run
# failed its three refusal checks on such a leftover directory).
if [ -e "$dir" ]; then
	down
	rm -rf "$dir"
fi
vssh() { ssh -n -o BatchMode=yes -o StrictHostKeyChecking=yes -o UserKnownHostsFile="$kh" -i "$dir/id_ed25519" -p $port root@$ip "$@"; }
recap_changed() { grep -E "^$1 +:" "$2" | sed -E 's/.* changed=([0-9]+) .*/\1/'; }
bridges() { ip -o link show type bridge | awk -F': ' '{ print $2 }' | LC_ALL=C sort | tr '\n' ' '; }
nets() { virsh -q net-list --all --name | LC_ALL=C sort | tr '\n' ' '; }
no_lab_net() { ! virsh -q net-list --all --name | grep -qx "$net" && ! ip link show "$bridge" >/dev/null 2>&1; }

# --- refusals, before anything is made --------------------------------------------------------
# A colliding range is a bridge-mode refusal (the mode of real labs): the other network is only
# defined, never started, and the lab refuses before it makes a network of its own.
lab -e rarperf_labvm_count=1 -e rarperf_labvm_vcpus=100000 -e rarperf_labvm_memory_mb=1024 >"$tmp/over.log" 2>&1
rc=$?
check "overcommit refused with the numbers (100000 vCPUs for $(nproc --all) CPUs)" \
	sh -c "[ $rc -ne 0 ] && grep -q 'overcommit refused: 1 VMs x 100000 vCPUs = 100000 vCPUs for $(nproc --all) host CPUs' '$tmp/over.log'"
check "overcommit: nothing was made" test ! -e "$dir"
# what the lab must not add to: taken once the role has started libvirt's daemon (above)
bridges0=$(bridges)
nets0=$(nets)
printf '<network><name>rp-it70-other</name><bridge name="rpit70o"/><ip address="192.168.214.1" prefix="25"/></network>\n' >"$tmp/other.xml"
virsh -q net-define "$tmp/other.xml" >/dev/null 2>&1 || true
# the last -e wins: this one run of the lab is asked for in bridge mode
lab -e rarperf_labvm_count=1 -e rarperf_labvm_vcpus=1 -e rarperf_labvm_memory_mb=1024 \
	-e rarperf_labvm_network_mode=bridge >"$tmp/coll.log" 2>&1
rc=$?
check "a network using the lab's range is refused, naming it" \
	sh -c "[ $rc -ne 0 ] && grep -q 'network rp-it70-other uses 192.168.214.0/25, which overlaps the lab' '$tmp/coll.log'"
check "collision: nothing was made" test ! -e "$dir"
virsh -q net-undefine rp-it70-other >/dev/null 2>&1
check "collision: no network or bridge of the lab ($net, $bridge)" no_lab_net
/usr/bin/python3 -c 'import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen()
time.sleep(600)' $port &
listener=$!
for _ in $(seq 50); do ss -Hltn "sport = :$port" | grep -q . && break; sleep 0.1; done
lab -e rarperf_labvm_count=1 -e rarperf_labvm_vcpus=1 -e rarperf_labvm_memory_mb=1024 >"$tmp/port.log" 2>&1
rc=$?
kill "$listener" 2>/dev/null
wait "$listener" 2>/dev/null
listener=
check "user mode: a taken ssh port on 127.0.0.1 is refused, naming it" \
	sh -c "[ $rc -ne 0 ] && grep -q '127.0.0.1:$port (the ssh port of ${name}1) is already in use' '$tmp/port.log'"
check "taken port: nothing was made" test ! -e "$dir"

# --- lab-up ------------------------------------------------------------------------------------
up() { lab -e rarperf_labvm_count=1 -e rarperf_labvm_vcpus=1 -e rarperf_labvm_memory_mb=1024 -e rarperf_labvm_disk_gb=8 "$@"; }
t0=$(date +%s)
up >"$tmp/up1.log" 2>&1
rc=$?
t1=$(date +%s)
if [ $rc -eq 0 ]; then ok "lab-up: one VM answers SSH ($((t1 - t0)) s, $(jq -r '"image built in \(.mmdebstrap_seconds) + \(.image_seconds) s"' "$dir"/base-*/build.json))"; else
	notok "lab-up: one VM answers SSH (exit $rc)"
	grep -E 'fatal|FAILED|msg|no SSH' "$tmp/up1.log" | cut -c1-400 | tail -30
	exit 1
fi
virt=$(sed -n 's/^rarperf_virtualisation=//p' "$inv")
# TCG only with the warning, and KVM only where libvirt's own qemu account may use it (its guest
# runs under KVM below: systemd-detect-virt says kvm); 71-lab-accel pins the probe on any machine.
if [ "$virt" = tcg ]; then
	check "lab-up on TCG printed the warning ($(grep -o 'NO USABLE KVM ON THIS HOST (.*)\.' "$tmp/up1.log" | head -1))" \
		grep -q "WARNING: THE LAB'S VMS RUN UNDER TCG" "$tmp/up1.log"
fi
check "known_hosts holds the VM's key, made before it booted" \
	test "$(awk '{ print $1, $2, $3 }' "$kh")" = "$khname $(cut -d' ' -f1,2 "$dir/vms/${name}1/cfg/ssh_host_ed25519_key.pub")"
check "the inventory declares the expected shape (1 CPU, 1024 MB, $virt)" \
	grep -qzE 'rarperf_expect_cpus=1.rarperf_expect_mem_gb=1.rarperf_expect_debian=12' "$inv"
check "ansible ping with strict host keys" env ANSIBLE_HOST_KEY_CHECKING=True \
	/usr/bin/python3 /usr/bin/ansible -i "$inv" all -m ansible.builtin.ping
check "ssh with StrictHostKeyChecking=yes and the written known_hosts" vssh true
check "the VM has 1 vCPU" test "$(vssh nproc)" = 1
mem=$(vssh "awk '/MemTotal/ { print int(\$2 / 1024) }' /proc/meminfo")
check "the VM has 1 GiB (MemTotal $mem MB, the kernel keeps the rest)" test "${mem:-0}" -gt 900 -a "${mem:-0}" -le 1024
guest_virt=$(vssh systemd-detect-virt --vm)
check "the VM runs as the lab says ($virt; systemd-detect-virt: $guest_virt)" \
	test "$virt:$guest_virt" = tcg:qemu -o "$virt:$guest_virt" = kvm:kvm
check "its domain is named with the lab's prefix and runs" test "$(virsh -q domstate ${name}1)" = running

# --- the VM is reached on loopback only: no bridge, tap or libvirt network in this namespace ---
qpid=$(pgrep -f "[q]emu-system.*guest=${name}1,")
check "the inventory names 127.0.0.1 and the VM's port" grep -qx "${name}1 ansible_host=$ip ansible_port=$port" "$inv"
check "no libvirt network and no bridge named by lab.yml ($net, $bridge)" no_lab_net
bridges1=$(bridges) nets1=$(nets)
check "no new bridge in this namespace (before: ${bridges0:-none}; now: ${bridges1:-none})" test "$bridges1" = "$bridges0"
check "no new libvirt network (before: ${nets0:-none}; now: ${nets1:-none})" test "$nets1" = "$nets0"
check "the domain has no libvirt interface (domiflist empty)" test -z "$(virsh -q domiflist "${name}1")"
check "its qemu (pid ${qpid:-none}) holds no tap device" sh -c "[ -n '$qpid' ] && ! ls -l /proc/$qpid/fd | grep -q /dev/net/tun"
check "its qemu's sockets are on 127.0.0.1 only ($(ss -Htanp | grep -c "pid=$qpid,") sockets, listening on $ip:$port)" \
	sh -c "[ -n '$qpid' ] && ss -Hltnp 'sport = :$port' | grep -q 'pid=$qpid,' &&
		! ss -Htuanp | grep 'pid=$qpid,' | awk '{ print \$5 }' | grep -v '^127\.0\.0\.1:'"
gaddr=$(vssh ip -4 -o addr show scope global | awk '{ print $4 }' | tr '\n' ' ')
groute=$(vssh ip -4 route show default)
check "the guest has only its user-mode address (${gaddr:-none}) and no default route (${groute:-none})" \
	test "$gaddr:$groute" = "10.0.2.15/24 :"
cat >"$tmp/m.json" <<'JSON'
{"name": "it70", "bench_user": "rarperf",
 "subjects": [{"id": "sudo", "format": "sudoers"}],
 "axes": {"nb_tasks": [1, 4, 16]},
 "warmup": 1, "min_runs": 5, "max_runs": 5}
JSON
# libssh names a host on another port than 22 "[addr]:port" in known_hosts, as lab.yml writes it.
# The VM has no prefix yet (shipped below): rarlab gets past the host key, then the run fails.
outcome() { awk -F'\t' -v h="${name}1" '$1 == h { print $2 }' "$1/summary.tsv" 2>/dev/null; }
"$rarlab" -i "$inv" --known-hosts "$kh" --connect-timeout 60 -o "$tmp/kh-port" "$tmp/m.json" >/dev/null 2>&1
o=$(outcome "$tmp/kh-port")
check "rarlab takes the VM's key recorded as $khname (outcome ${o:-none}, not hostkey, connect or auth)" \
	sh -c "[ -n '$o' ] && [ '$o' != hostkey ] && [ '$o' != connect ] && [ '$o' != auth ]"
awk -v a="$ip" '{ print a, $2, $3 }' "$kh" >"$tmp/kh-bare"
"$rarlab" -i "$inv" --known-hosts "$tmp/kh-bare" --connect-timeout 60 -o "$tmp/kh-bare.out" "$tmp/m.json" >/dev/null 2>&1
check "rarlab refuses the same key recorded as plain $ip (outcome $(outcome "$tmp/kh-bare.out"))" \
	test "$(outcome "$tmp/kh-bare.out")" = hostkey

t2=$(date +%s)
up >"$tmp/up2.log" 2>&1
rc=$?
check "second lab-up changes nothing ($(($(date +%s) - t2)) s)" test $rc -eq 0 -a "$(recap_changed localhost "$tmp/up2.log")" = 0

# --- the controller's prefix shipped, a tiny manifest with rarlab ------------------------------
if [ "${RARPERF_LAB_SKIP_SHIP:-0}" != 1 ] && [ -f "$prefix/facts.json" ]; then
	t3=$(date +%s)
	/usr/bin/python3 /usr/bin/ansible-playbook -i "$inv" install.yml -e rarperf_prefix="$prefix" \
		-e rarperf_ship_prefix_from="$prefix" -e rarperf_ship_stage_dir="$tmp/ship" >"$tmp/ship.log" 2>&1
	rc=$?
	check "install.yml shipped the controller's prefix ($(($(date +%s) - t3)) s)" test $rc -eq 0
	[ $rc -eq 0 ] || grep -E 'fatal|FAILED' "$tmp/ship.log" | cut -c1-400 | tail -5
	vssh cat "$prefix/facts.json" >"$tmp/facts.json"
	check "the VM's facts.json says $virt" test "$(jq -r .virtualisation "$tmp/facts.json")" = "$virt"
	# The controller's side is the archive shipped (taken under the prefix's lock), not the prefix
	# now: the prefix is shared, and another session's provisioning may have rewritten it since.
	# (a hard link in the archive is a regular file in the prefix, as find -type f saw it there)
	shipped=$(vssh cat "$prefix/share/rarperf/shipped.sha256")
	/usr/bin/python3 -c 'import hashlib, sys, tarfile
with tarfile.open(sys.argv[1]) as t:
    for m in t:
        p = m.name[2:] if m.name.startswith("./") else m.name
        if (m.isfile() or m.islnk()) and p.split("/")[0] in ("bin", "sbin", "libexec"):
            print(p, hashlib.sha256(t.extractfile(m).read()).hexdigest())' \
		"$tmp/ship/prefix-$shipped.tar" 2>/dev/null | LC_ALL=C sort >"$tmp/controller.sums"
	jq -r '.binaries | to_entries[] | "\(.key) \(.value)"' "$tmp/facts.json" | LC_ALL=C sort >"$tmp/vm.sums"
	check "the VM's program hashes are those of the controller's prefix it shipped ($(wc -l <"$tmp/vm.sums") files, archive ${shipped:0:16})" \
		sh -c "[ -s '$tmp/controller.sums' ] && cmp -s '$tmp/controller.sums' '$tmp/vm.sums'"
	t4=$(date +%s)
	"$rarlab" -i "$inv" --known-hosts "$kh" --remote-dir "$prefix/runs" --connect-timeout 60 \
		-o "$tmp/out" "$tmp/m.json" >"$tmp/rarlab.out" 2>"$tmp/rarlab.err"
	rc=$?
	check "rarlab ran the tiny sudo manifest on the VM ($(($(date +%s) - t4)) s)" test $rc -eq 0
	[ $rc -eq 0 ] || tail -5 "$tmp/rarlab.err"
	check "merged.json holds the VM's 3 points" \
		test "$(jq --arg h "${name}1" '[.results[] | select(.parameters.host == $h)] | length' "$tmp/out/merged.json" 2>/dev/null)" = 3
	"$rarplot" -o "$tmp/plots" "$tmp/out/merged.json" >/dev/null 2>"$tmp/rarplot.err" || cat "$tmp/rarplot.err"
	if [ "$virt" = tcg ]; then
		check "rarplot's report marks the TCG VM not comparable" \
			grep -q "Not comparable: emulated hosts.\*\* ${name}1" "$tmp/plots/report.md"
	fi
else
	echo "# ship and rarlab left out (RARPERF_LAB_SKIP_SHIP=1 or no $prefix/facts.json)"
fi

# --- lab-down ----------------------------------------------------------------------------------
t5=$(date +%s)
down
rc=$?
check "lab-down ($(($(date +%s) - t5)) s)" test $rc -eq 0
check "lab-down: no domain of the lab" sh -c "! virsh -q list --all --name | grep -q '^$name'"
check "lab-down: no network of the lab" sh -c "! virsh -q net-list --all --name | grep -qx '$net'"
check "lab-down: no bridge of the lab" sh -c "! ip link show $bridge >/dev/null 2>&1"
check "lab-down: no overlay, image, key or log (no $dir)" test ! -e "$dir"
# [q]: the pattern must not match the command line of the sh that runs pgrep
check "lab-down: no qemu process of the lab" sh -c "! pgrep -f '[q]emu-system.*guest=${name}1,' >/dev/null"
check "lab-down: no inventory, no host key of the lab's in known_hosts" \
	sh -c "[ ! -e '$inv' ] && ! grep -qF '$khname ' '$kh'"
tap_status
