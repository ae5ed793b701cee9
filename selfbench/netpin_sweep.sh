#!/bin/sh
# netpin_sweep.sh: sudo at 1 task through rarbench --manifest on the provisioned prefix, in two
# network namespaces this script makes (one with only lo, one with 50 more interfaces: dummy, or
# veth pairs on a kernel without the dummy driver; never the host's own), with bin/rarbench (runs
# pinned to rarlaunch's loopback-only namespace) and, when RARBENCH_BASE names one, another build
# (e.g. main's before the pin). Prints each sweep's median wall and user+sys time per run.
# Usage: [RARBENCH_BASE=PATH] selfbench/netpin_sweep.sh [ROUNDS (2)] [RUNS (300)]. Needs root, jq.
set -eu
cd "$(dirname "$0")/.."
rounds=${1:-2}
runs=${2:-300}
prefix=${RARPERF_PREFIX:-/opt/rarperf}
user=$(jq -r '.bench_user // "rarperf"' "$prefix/facts.json")
work=$(mktemp -d /tmp/rarperf-netpin-XXXXXX)
ns0=rarperf-np0-$$
ns50=rarperf-np50-$$
cleanup() {
	ip netns del "$ns0" 2>/dev/null || :
	ip netns del "$ns50" 2>/dev/null || :
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
cat >"$work/m.json" <<JSON
{"name": "netpin", "subjects": [{"id": "sudo", "format": "sudoers"}],
 "axes": {"nb_roles": [1], "nb_users": [1], "nb_tasks": [1], "nb_commands": [1]},
 "command": "/usr/bin/true", "bench_user": "$user", "warmup": 20, "min_runs": $runs,
 "max_runs": $runs, "min_time_s": 0, "order": "interleaved", "rounds": 3, "seed": 1}
JSON
ip netns add "$ns0"
ip netns add "$ns50"
ip -n "$ns0" link set lo up
ip -n "$ns50" link set lo up
i=1
while [ "$i" -le 50 ]; do
	if ip -n "$ns50" link add "d$i" type dummy 2>/dev/null; then
		ip -n "$ns50" addr add "10.77.$i.1/24" dev "d$i"
		ip -n "$ns50" link set "d$i" up
		i=$((i + 1))
		continue
	fi
	ip -n "$ns50" link add "d$i" type veth peer name "d$((i + 1))"
	for d in "$i" "$((i + 1))"; do
		ip -n "$ns50" addr add "10.77.$d.1/24" dev "d$d"
		ip -n "$ns50" link set "d$d" up
	done
	i=$((i + 2))
done
builds="after=$PWD/bin/rarbench"
[ -n "${RARBENCH_BASE:-}" ] && builds="before=$RARBENCH_BASE $builds"
echo "netpin_sweep.sh: sudo at 1 task, $runs runs x $rounds rounds, $(date -u +%FT%TZ)"
r=1
while [ "$r" -le "$rounds" ]; do
	for ns in "$ns0" "$ns50"; do
		for b in $builds; do
			name=${b%%=*}
			out=$work/$name-$ns-$r
			ip netns exec "$ns" "${b#*=}" --manifest "$work/m.json" --prefix "$prefix" --wait \
				--out "$out" --progress none >/dev/null 2>&1
			printf '%-6s %3d links, round %d: %s, network %s\n' "$name" \
				"$(ip -n "$ns" -o link | wc -l)" "$r" \
				"$(jq -r '.results[0] | "median \(.median * 1e6 | round / 1e3) ms, user+sys \((.user + .system) * 1e6 | round / 1e3) ms"' "$out/results.json")" \
				"$(jq -r '.meta.environment.network // "(not pinned)"' "$out/results.json")"
		done
	done
	r=$((r + 1))
done
