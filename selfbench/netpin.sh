#!/bin/sh
# netpin.sh: what the network pin (meta.environment.network "loopback") does to a command that
# lists the host's interfaces (sudo does at start). In two network namespaces this script makes
# (never the host's own), one with only lo and one with 50 dummy (or veth) interfaces, up with an
# address, it runs the command N times through proc_run with the pin off (the namespace's
# interfaces) and on (rarlaunch's own namespace, lo only): with the pin the time must not follow
# the interface count. Needs root, bin/rarlaunch and build/libbench.a (make).
# Usage: selfbench/netpin.sh [N (200)] [COMMAND... (/opt/rarperf/bin/sudo -V)]
set -eu
cd "$(dirname "$0")/.."
n=${1:-200}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- /opt/rarperf/bin/sudo -V
out=build/selfbench
mkdir -p "$out"
cc -std=c11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -Isrc/common -Isrc/bench -o "$out/netpin" \
	selfbench/netpin.c build/libbench.a build/libcommon.a -lm
ns0=rarperf-netpin0-$$
ns50=rarperf-netpin50-$$
cleanup() { ip netns del "$ns0" 2>/dev/null || :; ip netns del "$ns50" 2>/dev/null || :; }
trap cleanup EXIT INT TERM
ip netns add "$ns0"
ip netns add "$ns50"
ip -n "$ns0" link set lo up
ip -n "$ns50" link set lo up
# Dummy interfaces, or (a kernel without the dummy driver) veth pairs with both ends inside.
i=1
while [ "$i" -le 50 ]; do
	if ! ip -n "$ns50" link add "d$i" type dummy 2>/dev/null; then
		ip -n "$ns50" link add "d$i" type veth peer name "d$((i + 1))"
		ip -n "$ns50" addr add "10.77.$((i + 1)).1/24" dev "d$((i + 1))"
		ip -n "$ns50" link set "d$((i + 1))" up
	fi
	ip -n "$ns50" addr add "10.77.$i.1/24" dev "d$i"
	ip -n "$ns50" link set "d$i" up
	i=$((i + 1))
	ip -n "$ns50" link show "d$i" >/dev/null 2>&1 && i=$((i + 1))
done
echo "netpin.sh: $* , $n runs per mode, $(date -u +%FT%TZ)"
for ns in "$ns0" "$ns50"; do
	echo "namespace with $(ip -n "$ns" -o link | wc -l) interfaces:"
	ip netns exec "$ns" "$out/netpin" "$n" "$@"
done
