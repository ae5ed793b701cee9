#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# The declared lab host (roles/rarperf_expect), checked for real by ansible-playbook against this
# machine through check-lab.yml, which builds nothing (install.yml runs the same role first):
# a host declared 4 CPUs / 8 GB that has other numbers fails its play with one line saying what
# differs while a host declared as this machine is goes on; a lab declared mixed reports and
# goes on; an inventory that declares nothing (make demo's) is not checked.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/tap.sh
need ansible-playbook getconf

tmp=$(mktemp -d /tmp/rp-it12.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

cpus=$(getconf _NPROCESSORS_ONLN)
mem_gb=$(awk '/^MemTotal:/ { printf "%.0f", $2 / 1048576 }' /proc/meminfo)
# a shape this machine does not have: other CPUs, and a memory size far from its own
bad_cpus=$((cpus == 4 ? 8 : 4))
bad_mem=$((mem_gb >= 4 && mem_gb <= 12 ? 64 : 8))
mem_shown=$(awk '/^MemTotal:/ { printf "%.1f", $2 / 1048576 }' /proc/meminfo)
cat >"$tmp/lab.ini" <<INI
[lab]
declared ansible_connection=local rarperf_expect_cpus=$bad_cpus rarperf_expect_mem_gb=$bad_mem
same ansible_connection=local rarperf_expect_cpus=$cpus rarperf_expect_mem_gb=$mem_gb rarperf_expect_debian=$(cut -d. -f1 /etc/debian_version)
[lab:vars]
ansible_python_interpreter=/usr/bin/python3
INI
play() { /usr/bin/python3 /usr/bin/ansible-playbook -i "$1" check-lab.yml "${@:2}" >"$tmp/play.log" 2>&1; }

play "$tmp/lab.ini"
rc=$?
check "a host that differs fails the play (exit $rc)" test $rc -eq 2
want="not the declared lab host: cpus $cpus (declared $bad_cpus), memory $mem_shown GiB (declared $bad_mem)"
check "one line says what differs: '$want'" grep -qF "\"msg\": \"$want\"" "$tmp/play.log"
check "the other host goes on (ok, not failed)" \
	grep -qE '^same +: ok=[0-9]+ +changed=0 +unreachable=0 +failed=0' "$tmp/play.log"
check "the differing host failed at the check, before any other task" \
	grep -qE '^declared +: ok=2 +changed=0 +unreachable=0 +failed=1' "$tmp/play.log"

play "$tmp/lab.ini" -e rarperf_expect_mixed_lab=true
rc=$?
check "a lab declared mixed goes on (exit $rc)" test $rc -eq 0
check "a lab declared mixed still reports the difference" \
	grep -qF "differs from the declared lab host (rarperf_expect_mixed_lab): cpus $cpus" "$tmp/play.log"

play inventory/local.ini
rc=$?
check "make demo's local inventory declares nothing and passes (exit $rc)" test $rc -eq 0

check "install.yml runs the same check before any role that builds" \
	test "$(awk '/- role:/ { print $3; exit }' install.yml)" = rarperf_expect
check "lab.example.ini declares 4 CPUs and 8 GB" \
	sh -c "grep -qx 'rarperf_expect_cpus=4' inventory/lab.example.ini && grep -qx 'rarperf_expect_mem_gb=8' inventory/lab.example.ini"

tap_status
