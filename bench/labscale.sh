#!/bin/bash
# bench/labscale.sh: rarlab on a lab of N namespace hosts at once (default 128, 256 and 512; one
# host each: a real sshd in its network namespace, tests/lib/nshosts.sh), every host seeing the
# copy of the provisioned prefix through an overlay of its own (its own writable layer and prefix
# lock; the prefix itself is only copied, so runs on it go on meanwhile). For each N:
# rarlab --forks N on a tiny sudo manifest, its wall time against the slowest host's own run
# (the `t` of its done event; target: wall <= slowest + 1 s + 1 %), its peak RSS (/usr/bin/time
# -v; target <= 0.25 MiB per host), and every host's results merged. Only the addresses of the
# hosts made here are contacted. Needs root, jq, /usr/bin/time, a provisioned prefix.
# Environment: LAB_SIZES (default "128 256 512"), RARPERF_PREFIX (default /opt/rarperf),
# LAB_MANIFEST (default: sudo, nb_tasks 1 and 100, 5 runs each), LAB_CONNECT_TIMEOUT (rarlab's
# --connect-timeout, default 60: the hosts' sshd and sftp-server share this machine's cores),
# LAB_JOBS (hosts built at once, default 8).
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
set -u
cd "$(dirname "$0")/.." || exit 2
sizes=${LAB_SIZES:-128 256 512}
prefix=${RARPERF_PREFIX:-/opt/rarperf}
rarlab=$PWD/bin/rarlab
[ -x "$rarlab" ] || { echo "bench/labscale.sh: bin/rarlab is missing: run make" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "bench/labscale.sh: needs root (network namespaces)" >&2; exit 2; }
[ -r "$prefix/facts.json" ] || { echo "bench/labscale.sh: $prefix is not provisioned" >&2; exit 2; }
for c in jq /usr/bin/time ip unshare /usr/sbin/sshd; do
	command -v "$c" >/dev/null || { echo "bench/labscale.sh: $c is missing" >&2; exit 2; }
done
max=0
for n in $sizes; do [ "$n" -gt "$max" ] && max=$n; done

. tests/lib/nshosts.sh
# indexes above 250 (addresses in 10.251.0.0/16): 1..250 stay free for tests run meanwhile
NSHOSTS_PREFIX_MNT=$prefix NSHOSTS_MIN=251 NSHOSTS_MAX=$((max + 260))
tmp=$(mktemp -d /tmp/rp-labscale.XXXXXX)
cleanup() {
	echo "tearing the lab down..."
	# every sshd stopped at once first: nshosts_down then finds them gone
	# shellcheck disable=SC2046 # a list of pids
	[ -n "$NSHOSTS_STATE" ] && kill $(cat "$NSHOSTS_STATE"/*/sshd.launcher 2>/dev/null) 2>/dev/null
	sleep 1
	nshosts_down
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "building $max namespace hosts (sshd each)..."
t0=$(date +%s)
nshosts_snapshot_prefix "$prefix" || exit 1
hosts=()
for ((i = 1; i <= max; i++)); do hosts+=("s$$-$i"); done
nshosts_up "${hosts[0]}" || exit 1
# the others LAB_JOBS at a time (each takes the next free veth index; ip link add is atomic)
jobs=${LAB_JOBS:-8}
for ((i = 1; i < max; i += jobs)); do
	pids=()
	for ((j = i; j < i + jobs && j < max; j++)); do
		{ nshosts__setup_one "${hosts[j]}" && nshosts_start_sshd "${hosts[j]}"; } &
		pids+=($!)
	done
	wait "${pids[@]}" # not the sshds: they run on
done
for h in "${hosts[@]}"; do
	[ -f "$NSHOSTS_STATE/$h/sshd.launcher" ] || { echo "bench/labscale.sh: host $h did not come up" >&2; exit 1; }
done
echo "built in $(($(date +%s) - t0)) s"
nshosts_known_hosts "$tmp/known_hosts"

if [ -n "${LAB_MANIFEST:-}" ]; then
	manifest=$LAB_MANIFEST
else
	manifest=$tmp/tiny.json
	cat >"$manifest" <<'JSON'
{"name": "labscale", "bench_user": "rarperf",
 "subjects": [{"id": "sudo", "format": "sudoers"}],
 "axes": {"nb_tasks": [1, 100]}, "warmup": 1, "min_runs": 5, "max_runs": 5}
JSON
fi
points=$(jq '(.subjects | length) * ([.axes[] | length] | reduce .[] as $n (1; . * $n))' "$manifest")


for n in $sizes; do
	out=$tmp/out-$n
	nshosts_inventory "$tmp/lab-$n.ini" "${hosts[@]:0:n}"
	start=$(date +%s%N)
	/usr/bin/time -v -o "$tmp/time-$n" "$rarlab" -i "$tmp/lab-$n.ini" --forks "$n" \
		--connect-timeout "${LAB_CONNECT_TIMEOUT:-60}" \
		--known-hosts "$tmp/known_hosts" --remote-dir "$prefix/runs" -o "$out" "$manifest" \
		>"$tmp/stdout-$n" 2>"$tmp/stderr-$n"
	status=$?
	end=$(date +%s%N)
	wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
	slowest=$(cat "$out"/*/done.json 2>/dev/null | jq -s 'map(.t) | max // 0')
	rss_kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$tmp/time-$n")
	cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$tmp/time-$n")
	ok=$(awk -F'\t' 'NR > 1 && $2 == "ok"' "$out/summary.tsv" | wc -l)
	merged=$(jq '.results | length' "$out/merged.json" 2>/dev/null || echo 0)
	lines=$(wc -l <"$tmp/stderr-$n")
	awk -v n="$n" -v w="$wall" -v s="$slowest" -v r="$rss_kb" -v st="$status" -v ok="$ok" \
		-v m="$merged" -v want=$((n * points)) -v l="$lines" -v c="$cpu" 'BEGIN {
		target = s * 1.01 + 1
		tv = (w <= target) ? "met" : "MISSED"
		mv = (r / 1024 / n <= 0.25) ? "met" : "MISSED"
		printf "%d hosts: exit %d, %d ok, %d/%d results merged; wall %.2f s, slowest host %.2f s, overhead %.2f s (target <= %.2f s: %s); peak RSS %.1f MiB = %.3f MiB/host (target <= 0.25: %s); rarlab CPU %.2f s; %d progress lines\n", n, st, ok, m, want, w, s, w - s, target - s, tv, r / 1024, r / 1024 / n, mv, c, l
	}'
	tail -3 "$tmp/stderr-$n" | sed 's/^/    /'
done
