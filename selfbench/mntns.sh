#!/bin/sh
# mntns.sh: what the private mount namespace that shows sudo-rs its policy (manifest key
# policy_mount_at, src/bench/mntns.c: an overlay on /etc) costs the tool measured in it. It times
# the prefix's C sudo (which reads /etc/passwd, nsswitch.conf, ld.so.cache... like sudo-rs) as the
# bench user, RUNS runs per round, ROUNDS rounds alternating between this machine's own namespace
# and a namespace with the same overlay on /etc, and prints each side's median of round medians
# and their difference. Needs root, bin/rarbench (make), /opt/rarperf provisioned, jq.
# Usage: selfbench/mntns.sh [RUNS (300)] [ROUNDS (6)]
set -eu
cd "$(dirname "$0")/.."
runs=${1:-300}
rounds=${2:-6}
prefix=${RARPERF_PREFIX:-/opt/rarperf}
out=build/selfbench/mntns
mkdir -p "$out"
[ -x bin/rarbench ] || make -s bin/rarbench
rb=$PWD/bin/rarbench

median() { sort -g | awk '{v[NR]=$1} END {if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }
measure() { # measure OUT.json: RUNS timed runs of sudo -n true as the bench user
	"$rb" -N --style none --as-user rarperf -w 20 -r "$runs" --export-json "$1" \
		"$prefix/bin/sudo -n /usr/bin/true" >/dev/null 2>&1
}
: >"$out/plain.txt"
: >"$out/overlay.txt"
i=1
while [ "$i" -le "$rounds" ]; do
	measure "$out/plain.json"
	jq '.results[0].median * 1e6' "$out/plain.json" >>"$out/plain.txt"
	# The same overlay as mntns.c: /etc over a private upper layer holding one link.
	unshare -m sh -c '
		mount --make-rprivate / && d=$(mktemp -d) && mkdir "$d/u" "$d/w" &&
		ln -s /nonexistent "$d/u/rarperf-mntns-bench" &&
		mount -t overlay overlay -o "lowerdir=/etc,upperdir=$d/u,workdir=$d/w" /etc &&
		"$1" -N --style none --as-user rarperf -w 20 -r "$2" --export-json "$3" \
			"$4/bin/sudo -n /usr/bin/true" >/dev/null 2>&1; rc=$?; umount /etc; rm -rf "$d"; exit $rc' \
		sh "$rb" "$runs" "$out/overlay.json" "$prefix"
	jq '.results[0].median * 1e6' "$out/overlay.json" >>"$out/overlay.txt"
	i=$((i + 1))
done
plain=$(median <"$out/plain.txt")
overlay=$(median <"$out/overlay.txt")
printf 'sudo -n true as the bench user, %s runs x %s rounds, alternating (median of round medians):\n' "$runs" "$rounds"
printf '  own namespace:         %8.1f us\n' "$plain"
printf '  overlay on /etc:       %8.1f us\n' "$overlay"
awk -v a="$plain" -v b="$overlay" 'BEGIN { printf "  difference:            %+8.1f us (%+.2f %%)\n", b - a, 100 * (b - a) / a }'
printf '  rounds (own):     %s\n  rounds (overlay): %s\n' "$(tr '\n' ' ' <"$out/plain.txt")" "$(tr '\n' ' ' <"$out/overlay.txt")"
